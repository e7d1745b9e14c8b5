// Insides recorded from outside (InsidesRecorder.record): what the server reads of a real etcd, at the
// engine's step of each read or write, served at past steps as the recorder's own samples are.

import { describe, expect, it } from 'vitest';
import type { EtcdInsides, RealEtcdInsides } from '../protocol/index.ts';
import { createCluster } from '../sim/cluster.ts';
import { Engine } from '../sim/engine/index.ts';
import { scenarioById } from '../sim/scenarios/catalog.ts';
import { runScenario } from '../sim/scenarios/runner.ts';
import { InsidesRecorder } from './insides.ts';

function real(revision: number, readAt: number): RealEtcdInsides {
  return {
    endpoint: '127.0.0.1:2379', version: '3.4.23', memberId: '8e9e05c52164694d', leader: '8e9e05c52164694d', raftTerm: 2,
    raftIndex: revision + 3, raftAppliedIndex: revision + 3, dbSize: 20480, dbSizeInUse: 16384, historyFrom: 1, readAt,
  };
}

function box(revision: number, readAt: number, realRead: RealEtcdInsides = real(revision, readAt)): EtcdInsides {
  return { role: 'etcd', revision, compactRevision: 0, keys: revision, watchers: 1, leases: 0, write: null, member: null, real: realRead };
}

describe('InsidesRecorder.record', () => {
  it('serves each step the last read recorded by then; before the first read the component is absent, not a gap', () => {
    const recorder = new InsidesRecorder();
    recorder.begin({ engine: new Engine({ seed: 1 }) });
    expect(recorder.at(0)).toEqual({});
    const first = box(5, 1_000);
    const second = box(9, 2_000);
    recorder.record('etcd', 3, first);
    recorder.record('etcd', 7, second);
    expect(recorder.retainedFrom).toBe(0);
    expect(recorder.at(2)).toEqual({});
    expect(recorder.at(3)!['etcd']).toBe(first);
    expect(recorder.at(6)!['etcd']).toBe(first);
    expect(recorder.at(7)!['etcd']).toBe(second);
    expect(recorder.at(100)!['etcd']).toBe(second);
  });

  it('keeps only changes: the same read again adds nothing; a new read (a new readAt) does; a second record at one step replaces the first', () => {
    const recorder = new InsidesRecorder();
    recorder.begin({ engine: new Engine({ seed: 1 }) });
    const read = real(5, 1_000);
    const first = box(5, 1_000, read);
    recorder.record('etcd', 3, first);
    recorder.record('etcd', 4, box(5, 1_000, read));
    expect(recorder.at(4)!['etcd']).toBe(first);
    const reread = box(5, 2_000);
    recorder.record('etcd', 4, reread);
    expect(recorder.at(4)!['etcd']).toBe(reread);
    const write = { ...reread, write: { step: 4, rpc: 'Txn' as const, key: '/registry/pods/default/p', compare: 'mod_revision == 0', moreCompares: 0, ops: 'put', branch: 'success' as const, revision: 6 } };
    recorder.record('etcd', 4, write);
    expect(recorder.at(4)!['etcd']).toBe(write);
    expect(recorder.at(3)!['etcd']).toBe(first);
  });

  it('posts a recorded change once, at the step shown', () => {
    const recorder = new InsidesRecorder();
    recorder.begin({ engine: new Engine({ seed: 1 }) });
    expect(recorder.eventIfChanged(0)).toBeNull();
    const first = box(5, 1_000);
    recorder.record('etcd', 2, first);
    expect(recorder.eventIfChanged(1)).toEqual({ type: 'insides', step: 1, retained: true, replace: true, components: {} });
    expect(recorder.eventIfChanged(2)).toEqual({ type: 'insides', step: 2, retained: true, replace: false, components: { etcd: first } });
    expect(recorder.eventIfChanged(3)).toBeNull();
  });

  it('is pruned with the trace: a step older than what is kept is reported as not retained', () => {
    const cluster = createCluster({ seed: 'outside-prune', nodes: 2, traceLimit: 300 });
    const recorder = new InsidesRecorder();
    recorder.begin(cluster);
    const reads = new Map<number, EtcdInsides>();
    cluster.engine.onDelivery(() => {
      const step = cluster.engine.step;
      if (step % 3 !== 0) return;
      const insides = box(step, step * 10);
      reads.set(step, insides);
      recorder.record('outside', step, insides);
    });
    cluster.boot();
    runScenario(cluster, scenarioById('nginx-deployment')!);
    while (cluster.engine.step < 5000) cluster.engine.runFor(60_000);
    const head = cluster.engine.step;
        const from = recorder.retainedFrom;
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThanOrEqual(cluster.engine.trace.firstStep);
    expect(recorder.at(from - 1)).toBeNull();
    for (let step = from; step <= head; step += 97) expect(recorder.at(step)!['outside'], `step ${step}`).toBe(reads.get(step - (step % 3)));
  });
});
