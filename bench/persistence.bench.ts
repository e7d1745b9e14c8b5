/// <reference lib="dom" />
// (DOM types: the worker modules measured here use IndexedDB and Web Locks.)
// Saved clusters and the timeline at scale (issue 6): restoring a saved cluster of 10,000 etcd objects
// after a reload (time until its saved view is shown, and until the live cluster is rebuilt by replay),
// and seeking back 1,000 steps in a timeline of more than 10,000 steps. IndexedDB is fake-indexeddb in
// Node here (slower than a browser's); every event is structured-cloned as postMessage would. Every save
// is measured as it would cross to a storage worker (its batch serialized with v8.serialize, the structured
// clone's format): the largest one, and all of them together.

import 'fake-indexeddb/auto';
import { serialize } from 'node:v8';
import { IDBFactory } from 'fake-indexeddb';
import type { WorkerEvent } from '../src/protocol/index.ts';
import { SimHost, type HostClock } from '../src/worker/host.ts';
import { ClusterStore } from '../src/worker/persistence.ts';
import { SavedClusters } from '../src/worker/saved-clusters.ts';
import type { Benchmark } from './harness.ts';

const objects = Number(process.env.PODFLOW_BENCH_OBJECTS ?? 10_000);
const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };
const configMap = (name: string) => JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'bench', uid: `uid-${name}`, creationTimestamp: '2024-01-01T00:00:00Z' }, data: { payload: 'x'.repeat(400) } });

/** The saves' sizes as they would cross a port, and the time each took to serialize. */
const saves = { count: 0, bytes: 0, largest: 0, serializeMs: 0 };

async function measuredStore(): Promise<ClusterStore> {
  const store = await ClusterStore.open();
  const save = store.save.bind(store);
  store.save = (batch) => {
    const start = performance.now();
    const bytes = serialize(batch).byteLength;
    saves.serializeMs += performance.now() - start;
    saves.count++;
    saves.bytes += bytes;
    saves.largest = Math.max(saves.largest, bytes);
    return save(batch);
  };
  return store;
}

function newTab(post: (event: WorkerEvent) => void) {
  const host = new SimHost({ post, clock: stillClock, initial: { seed: 'bench-persist', nodes: 1 } });
  let n = 0;
  const saved = new SavedClusters({ host, locks: { acquire: async () => () => undefined }, newId: () => `bench-${++n}`, openStore: measuredStore });
  return { host, saved };
}

export const benchmarks: Benchmark[] = [
  {
    group: 'persistence',
    name: `restore a ${objects.toLocaleString('en-US')}-object saved cluster; seek back 1,000 steps`,
    async run() {
      (globalThis as { indexedDB: IDBFactory }).indexedDB = new IDBFactory();
      let sink: (event: WorkerEvent) => void = () => undefined;
      const first = newTab((event) => sink(event));
      await first.saved.start();
      // 10,000 etcdctl puts, a hundred at a time, each batch stepped until idle: a saved cluster whose
      // keyspace holds `objects` keys and whose timeline has well over 10,000 steps.
      for (let i = 0; i < objects; i++) {
        first.host.handle({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: `/registry/configmaps/bench/cm-${String(i).padStart(5, '0')}`, value: configMap(`cm-${String(i).padStart(5, '0')}`) } });
        if (i % 100 === 99) {
          first.host.handle({ type: 'runUntilIdle' });
          await first.saved.idle();
        }
      }
      first.host.handle({ type: 'runUntilIdle' });
      await first.saved.idle();
      const written = { ...saves };
      const head = first.host.timeline.head;
      const keys = first.host.keyspaceTracker?.at(first.host.timeline.revisionAt(head)).entries.count ?? 0;
      const commands = first.host.timeline.log.length;

      // Seek back 1,000 steps and return to the head, as the UI would (events cloned).
      sink = (event) => void structuredClone(event);
      const seeks: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        first.host.handle({ type: 'seek', step: head - 1000 });
        seeks.push(performance.now() - start);
        first.host.handle({ type: 'seek', step: head });
      }
      const stepForward: number[] = [];
      first.host.handle({ type: 'seek', step: head - 1000 });
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        first.host.handle({ type: 'step', count: 100 });
        stepForward.push(performance.now() - start);
      }
      first.host.dispose();

      // Reload: a new tab opens the database and reopens the cluster.
      let shownAt = 0;
      const reloadStart = performance.now();
      const second = newTab((event) => {
        structuredClone(event);
        if (shownAt === 0 && event.type === 'keyspaceSnapshot' && event.entries.count >= objects) shownAt = performance.now();
      });
      const constructed = performance.now();
      await second.saved.start();
      const liveAt = performance.now();
      const restoredKeys = second.host.keyspaceTracker?.at(second.host.timeline.revisionAt(second.host.timeline.head)).entries.count ?? 0;
      const sizes = `${keys.toLocaleString('en-US')} keys (${restoredKeys.toLocaleString('en-US')} after restore), ${head.toLocaleString('en-US')} steps, ${commands.toLocaleString('en-US')} commands`;
      return [
        { name: 'saving while the keys were written: the largest save, as it crosses to a storage worker', value: written.largest / 1024, unit: 'KiB', note: `${written.count.toLocaleString('en-US')} saves; v8.serialize` },
        { name: 'saving while the keys were written: all saves together', value: written.bytes / (1024 * 1024), unit: 'MiB', note: `serializing them took ${written.serializeMs.toFixed(0)} ms` },
        { name: 'restore after reload: saved view shown (open DB, read, post keyspace)', value: shownAt - constructed, unit: 'ms', goal: { value: 1000, better: 'lower' }, note: `${sizes}; fake-indexeddb; plus ${(constructed - reloadStart).toFixed(0)} ms to boot the worker's default cluster` },
        { name: 'restore after reload: live cluster rebuilt by replay', value: liveAt - constructed, unit: 'ms', note: sizes },
        { name: 'seek back 1,000 steps (trace tail, keyspace at the revision, status)', value: Math.min(...seeks), unit: 'ms', goal: { value: 100, better: 'lower' }, note: `best of 5; ${sizes}` },
        { name: 'step forward 100 recorded steps in the past', value: Math.min(...stepForward), unit: 'ms', note: 'best of 5' },
      ];
    },
  },
];
