// Going back: a step back or a seek ships the keys written between the two steps (a reverse diff, or for
// a long seek a move of their metas), and the page that folds it holds exactly what a whole rebuild at
// the step gives (etcd's keyspace at the step's revision and its pods); a step whose revision etcd has
// compacted still shows its pods.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { metasOfColumns, forEachKeyMeta, type Command, type KeyMeta, type PodChip, type WorkerEvent } from '../protocol/index.ts';
import { SimHost, type HostClock } from './host.ts';
import { metaOf } from './keyspace.ts';
import { podsOfSnapshot } from './pods.ts';

const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

const deployment = (replicas: number) => [
  'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: web}',
  `spec: {replicas: ${replicas}, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: "nginx:1.14.2"}]}}}`,
].join('\n');

/** A host whose events are folded as the page folds them: the keyspace mirror and the pods on the graph. */
function foldingHost(seed: string) {
  const keys = new Map<string, KeyMeta>();
  const pods = new Map<string, PodChip>();
  const events: WorkerEvent[] = [];
  const post = (e: WorkerEvent) => {
    events.push(e);
    if (e.type === 'keyspaceSnapshot' && e.current) {
      keys.clear();
      for (const entry of metasOfColumns(e.entries)) keys.set(entry.key, entry);
    } else if (e.type === 'keyspaceDiff') {
      for (const change of e.changes) {
        if (change.deleted) {
          keys.delete(change.key);
          continue;
        }
        keys.set(change.key, metaOf(change));
      }
    } else if (e.type === 'keyspaceMove') {
      for (const key of e.removed) keys.delete(key);
      forEachKeyMeta(e.set, (meta) => keys.set(meta.key, meta));
    } else if (e.type === 'pods') {
      if (e.replace) pods.clear();
      for (const key of e.removed) pods.delete(key);
      for (const pod of e.upserted) pods.set(pod.key, pod);
    }
  };
  const host = new SimHost({ post, clock: stillClock, initial: { seed, nodes: 2 } });
  const send = (command: Command): WorkerEvent[] => {
    events.length = 0;
    host.handle(command);
    const error = events.find((e) => e.type === 'error');
    if (error) throw new Error(JSON.stringify(error));
    return [...events];
  };
  const byKey = <T extends { key: string }>(list: Iterable<T>): T[] => [...list].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  /** The page's state, and a whole rebuild at the position's revision. */
  const shown = () => ({ keys: byKey(keys.values()), pods: byKey(pods.values()) });
  const rebuilt = () => {
    const revision = host.timeline.revisionAt(host.timeline.position);
    return { keys: metasOfColumns(host.keyspaceTracker!.at(revision).entries), pods: byKey(podsOfSnapshot({ entries: host.keyspaceTracker!.entriesAt(revision) }).upserted) };
  };
  return { host, send, shown, rebuilt };
}

describe('going back by a reverse diff', () => {
  let subject: ReturnType<typeof foldingHost>;
  beforeAll(() => {
    subject = foldingHost('stepback');
    subject.send({ type: 'applyManifest', yaml: deployment(4) });
    subject.send({ type: 'runUntilIdle' });
    subject.send({ type: 'applyManifest', yaml: deployment(2) });
    subject.send({ type: 'runUntilIdle' });
  }, 120_000);

  it('equals a whole rebuild after any sequence of step backs, seeks and steps', () => {
    const { host, send, shown, rebuilt } = subject;
    const head = host.timeline.head;
    const move = fc.oneof(
      fc.record({ type: fc.constant('stepBack' as const), count: fc.integer({ min: 1, max: 400 }) }),
      fc.record({ type: fc.constant('seek' as const), step: fc.integer({ min: 0, max: head }) }),
      fc.record({ type: fc.constant('step' as const), count: fc.integer({ min: 1, max: 400 }) }),
    );
    fc.assert(fc.property(fc.array(move, { minLength: 1, maxLength: 8 }), (moves) => {
      send({ type: 'seek', step: head });
      for (const command of moves) {
        const events = send(command);
        if (command.type === 'step') continue;
        if (command.type === 'stepBack' && command.count === 1) expect(events.some((e) => e.type === 'keyspaceSnapshot')).toBe(false);
        expect(shown()).toEqual(rebuilt());
      }
    }), { numRuns: 60, seed: 20 });
  }, 300_000);

  it('steps back one step at a time from the head with diffs only, each equal to a rebuild', () => {
    const { host, send, shown, rebuilt } = subject;
    send({ type: 'seek', step: host.timeline.head });
    let diffs = 0;
    for (let i = 0; i < 300; i++) {
      const events = send({ type: 'stepBack', count: 1 });
      expect(events.some((e) => e.type === 'keyspaceSnapshot')).toBe(false);
      diffs += events.filter((e) => e.type === 'keyspaceDiff').length;
      expect(shown()).toEqual(rebuilt());
    }
    expect(diffs).toBeGreaterThan(0);
  }, 120_000);
});

describe('a long seek', () => {
  it('ships only the keys written between the two steps, each as it was then, without values', () => {
    const { host, send, shown, rebuilt } = foldingHost('longseek');
    // Enough writes that a seek across them is longer than a diff serves (keyspace.ts maxDiffRevisions).
    for (const replicas of [40, 1, 40]) {
      send({ type: 'applyManifest', yaml: deployment(replicas) });
      send({ type: 'runUntilIdle' });
    }
    const { timeline } = host;
    const settled = timeline.head;
    // Then the cluster idles: leases renewed, few keys written many times.
    send({ type: 'step', count: 4_000 });
    const head = timeline.head;
    send({ type: 'seek', step: head });
    let moves = 0;
    // Far and near: a jump across most keys (one Range at the target) and across a few (a Range per key).
    const span = head - timeline.bootSteps;
    const targets = [timeline.bootSteps, head, Math.round(timeline.bootSteps + span / 2), timeline.bootSteps + 1, settled, head];
    for (const step of targets) {
      const before = shown().keys.length;
      const events = send({ type: 'seek', step });
      expect(events.some((e) => e.type === 'keyspaceSnapshot')).toBe(false);
      expect(events.some((e) => e.type === 'pods' && e.replace)).toBe(false);
      for (const move of events) {
        if (move.type !== 'keyspaceMove') continue;
        moves++;
        expect(move.revision).toBe(timeline.revisionAt(step));
        // What changed, not the keyspace: fewer keys than the two mirrors hold together.
        expect(move.set.count + move.removed.length).toBeLessThan(before + shown().keys.length);
      }
      expect(shown()).toEqual(rebuilt());
    }
    expect(moves).toBeGreaterThan(0);
  }, 120_000);
});

describe('a step whose revision etcd has compacted', () => {
  it('still shows its pods', () => {
    const { host, send, shown } = foldingHost('compacted');
    send({ type: 'applyManifest', yaml: deployment(3) });
    send({ type: 'runUntilIdle' });
    // A step where the pods are scheduled but not all running yet.
    const { timeline } = host;
    let step = timeline.head;
    for (let s = timeline.bootSteps; s <= timeline.head; s++) {
      send({ type: 'seek', step: s });
      const pods = shown().pods;
      if (pods.length === 3 && pods.some((p) => p.node !== null) && pods.some((p) => p.status !== 'Running')) {
        step = s;
        break;
      }
    }
    send({ type: 'seek', step });
    const then = shown().pods;
    expect(then.length).toBe(3);

    send({ type: 'seek', step: timeline.head });
    const revision = timeline.revisionAt(timeline.head);
    send({ type: 'userRequest', to: 'etcd', kind: 'etcd.Compact', payload: { revision } });
    send({ type: 'runUntilIdle' });
    expect(timeline.revisionAt(step)).toBeLessThan(revision);

    const events = send({ type: 'seek', step });
    expect(events.find((e) => e.type === 'keyspaceSnapshot')).toMatchObject({ compacted: true, entries: { count: 0 } });
    expect(shown().pods).toEqual(then);
    expect(shown().pods).not.toEqual([]);
  }, 120_000);
});
