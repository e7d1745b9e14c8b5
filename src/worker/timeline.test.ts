// The timeline: viewing past steps, stepping forward through them, forking by a user action in the past,
// and replay from seed + command log reproducing the live run exactly.

import { describe, expect, it } from 'vitest';
import { metasOfColumns, type Command, type KeyMeta, type KeyspaceSnapshotEvent, type SimStatus, type TimelineEvent, type TraceRecord, type WorkerEvent } from '../protocol/index.ts';
import { createCluster } from '../sim/cluster.ts';
import { SimHost, type HostClock } from './host.ts';
import { KeyspaceTracker, metaOf } from './keyspace.ts';
import { replayNow } from './replay.ts';

const nginx = [
  'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: nginx-deployment, labels: {app: nginx}}',
  'spec: {replicas: 2, selector: {matchLabels: {app: nginx}}, template: {metadata: {labels: {app: nginx}}, spec: {containers: [{name: nginx, image: "nginx:1.14.2"}]}}}',
].join('\n');
const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\ndata: {a: "1"}`;

/** A clock whose timers fire only when the test says so (replays finish within one slice: time stands still). */
function stillClock(): HostClock & { fire(): void } {
  let timers: Array<() => void> = [];
  return {
    now: () => 0,
    setTimeout: (callback) => {
      timers.push(callback);
      return timers.length;
    },
    clearTimeout: () => undefined,
    fire: () => {
      const due = timers;
      timers = [];
      for (const callback of due) callback();
    },
  };
}

function hostWithEvents(seed = 'timeline') {
  const events: WorkerEvent[] = [];
  /** The keyspace as the page mirrors it (current snapshots replace it, diffs change it). */
  const mirror = new Map<string, KeyMeta>();
  const post = (e: WorkerEvent) => {
    events.push(e);
    if (e.type === 'keyspaceSnapshot' && e.current) {
      mirror.clear();
      for (const entry of metasOfColumns(e.entries)) mirror.set(entry.key, entry);
    }
    if (e.type === 'keyspaceDiff') {
      for (const change of e.changes) {
        if (change.deleted) mirror.delete(change.key);
        else mirror.set(change.key, metaOf(change));
      }
    }
  };
  const host = new SimHost({ post, clock: stillClock(), initial: { seed, nodes: 2 } });
  const send = (command: Command): WorkerEvent[] => {
    events.length = 0;
    host.handle(command);
    return [...events];
  };
  const mirrored = (): KeyMeta[] => [...mirror.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
  return { host, events, send, mirrored };
}

const records = (events: readonly WorkerEvent[]): TraceRecord[] => events.flatMap((e) => (e.type === 'traceBatch' ? e.records : []));
const statusOf = (events: readonly WorkerEvent[]): SimStatus => {
  const last = events.filter((e) => e.type === 'status').at(-1);
  if (last?.type !== 'status') throw new Error('no status');
  return last.status;
};
const timelineOf = (events: readonly WorkerEvent[]): TimelineEvent | undefined => events.filter((e): e is TimelineEvent => e.type === 'timeline').at(-1);
const snapshotOf = (events: readonly WorkerEvent[]): KeyspaceSnapshotEvent | undefined =>
  events.filter((e): e is KeyspaceSnapshotEvent => e.type === 'keyspaceSnapshot').at(-1);

/** Steps one at a time, returning each step's delivery and status. */
function stepEach(send: (c: Command) => WorkerEvent[], count: number): Array<{ record: TraceRecord; status: SimStatus; changes: unknown[] }> {
  const out: Array<{ record: TraceRecord; status: SimStatus; changes: unknown[] }> = [];
  for (let i = 0; i < count; i++) {
    const events = send({ type: 'step', count: 1 });
    const [record] = records(events);
    if (!record) throw new Error(`step ${i + 1} delivered nothing`);
    const changes = events.flatMap((e) => (e.type === 'keyspaceDiff' ? e.changes : []));
    out.push({ record, status: statusOf(events), changes });
  }
  return out;
}

describe('timeline', () => {
  it('steps back 10 and forward 10: the same deliveries, statuses and keyspace diffs as the first time', () => {
    const { send, mirrored } = hostWithEvents();
    send({ type: 'applyManifest', yaml: nginx });
    const before = statusOf(send({ type: 'step', count: 15 }));
    const firstKeyspace = snapshotOf(send({ type: 'seek', step: before.step }));
    const first = stepEach(send, 10);
    const head = first.at(-1)!.status.step;

    const back = send({ type: 'stepBack', count: 10 });
    expect(statusOf(back)).toEqual(before);
    expect(timelineOf(back)).toMatchObject({ position: head - 10, head, live: false });
    expect(back.find((e) => e.type === 'traceBatch')).toMatchObject({ replace: true });
    // The keyspace goes back by a diff of the keys written in between: the page holds what it held then.
    expect(snapshotOf(back)).toBeUndefined();
    expect(back.find((e) => e.type === 'keyspaceDiff')).toMatchObject({ revision: timelineOf(back)?.revision });
    expect(mirrored()).toEqual(firstKeyspace && metasOfColumns(firstKeyspace.entries));

    const again = stepEach(send, 10);
    expect(first.some((s) => s.changes.length > 0)).toBe(true);
    expect(again).toEqual(first);
    expect(timelineOf(send({ type: 'pause' })) ?? { live: true }).toMatchObject({ live: true });
  });

  it('shows a past step with the status and keyspace recorded when it was live', () => {
    const { send, mirrored } = hostWithEvents();
    send({ type: 'applyManifest', yaml: configMap('one') });
    const live = stepEach(send, 30);
    const liveAt = (step: number) => live.find((s) => s.status.step === step)!.status;
    const mid = live[12]!.status.step;
    const keyspaceMid = snapshotOf(send({ type: 'keyspaceAt', revision: 1 }));
    expect(keyspaceMid).toBeDefined();
    const seeked = send({ type: 'seek', step: mid });
    expect(statusOf(seeked)).toEqual(liveAt(mid));
    const batch = seeked.find((e) => e.type === 'traceBatch');
    expect(batch?.type === 'traceBatch' && batch.records.at(-1)).toEqual(live[12]!.record);
    // The keyspace is etcd's at the step's revision: the ConfigMap exists once its Txn was delivered.
    const txnStep = live.find((s) => s.record.kind === 'etcd.Txn' && JSON.stringify(s.record.payload).includes('configmaps/default/one'))?.status.step ?? Infinity;
    const keys = mirrored().map((e) => e.key);
    expect(keys.includes('/registry/configmaps/default/one')).toBe(mid >= txnStep);
  });

  it('seeks to the step that wrote a revision', () => {
    const { host, send } = hostWithEvents();
    send({ type: 'applyManifest', yaml: configMap('two') });
    const steps = stepEach(send, 30);
    const seeked = send({ type: 'seekRevision', revision: host.timeline.revisionAt(host.timeline.head) });
    const position = timelineOf(seeked)!.position;
    const write = steps.find((s) => s.status.step === position)!;
    // The delivery at that step is the etcd request that made the revision.
    expect(write.record.to).toBe('etcd');
    expect(send({ type: 'seekRevision', revision: 1e9 }).find((e) => e.type === 'error')).toMatchObject({ command: 'seekRevision' });
  });

  it('forks when the user acts at a past step: the result equals a run that acted there in the first place', () => {
    const forked = hostWithEvents('fork');
    forked.send({ type: 'applyManifest', yaml: configMap('before') });
    forked.send({ type: 'step', count: 25 });
    const forkAt = statusOf(forked.send({ type: 'stepBack', count: 15 })).step;
    const forkEvents = forked.send({ type: 'applyManifest', yaml: configMap('after') });
    expect(forkEvents.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ task: 'replay', finished: true });
    expect(timelineOf(forkEvents)).toMatchObject({ position: forkAt, head: forkAt, live: true });
    expect(timelineOf(forkEvents)?.markers.map((m) => m.kind)).toEqual(['command', 'fork', 'command']);
    const forkedRun = stepEach(forked.send, 20);

    const straight = hostWithEvents('fork');
    straight.send({ type: 'applyManifest', yaml: configMap('before') });
    straight.send({ type: 'step', count: 10 });
    straight.send({ type: 'applyManifest', yaml: configMap('after') });
    expect(stepEach(straight.send, 20)).toEqual(forkedRun);
  });

  it('replays seed + command log to the live state: the same trace, clock and keyspace', () => {
    const { host, send } = hostWithEvents('replay');
    send({ type: 'applyManifest', yaml: nginx });
    send({ type: 'step', count: 57 });
    send({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: '/x', value: 'y' } });
    send({ type: 'runUntilIdle' });
    send({ type: 'applyManifest', yaml: configMap('late') });
    send({ type: 'step', count: 33 });

    const copy = createCluster({ seed: 'replay', nodes: 2 });
    replayNow(copy, host.timeline.log, host.timeline.head);
    const live = host.engine;
    expect(copy.engine.step).toBe(live.step);
    expect(copy.engine.now).toBe(live.now);
    for (let step = 1; step <= live.step; step++) expect(copy.engine.trace.at(step)).toEqual(live.trace.at(step));
    expect(new KeyspaceTracker(copy.etcd).current()).toEqual(host.keyspaceTracker?.current());
  });
});
