// Saved clusters against fake-indexeddb: a reload restores exactly the live state, a save aborted half-way
// leaves the previous one, faults keep the app working in memory, and the saved-cluster commands. Each test
// runs twice: with the store opened in the simulation's worker, and across a port to a storage worker's
// `serveStore` (store-port.ts), as a simulation in a process of its own saves.

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { traceTailLimit, type Command, type PersistenceEvent, type WorkerEvent } from '../protocol/index.ts';
import { SimHost, type HostClock } from './host.ts';
import { ClusterStore, databaseName, StorageError, type OpenOptions, type SaveBatch } from './persistence.ts';
import { randomId, SavedClusters, type ClusterLocks, type SavedClustersOptions } from './saved-clusters.ts';
import { serveStore, storeOverPort } from './store-port.ts';

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\ndata: {a: "1"}`;
const nginx = [
  'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: nginx-deployment, labels: {app: nginx}}',
  'spec: {replicas: 1, selector: {matchLabels: {app: nginx}}, template: {metadata: {labels: {app: nginx}}, spec: {containers: [{name: nginx, image: "nginx:1.14.2"}]}}}',
].join('\n');

const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

/** Locks shared by the "tabs" of one test, like navigator.locks within one browser profile. */
function sharedLocks(): ClusterLocks {
  const held = new Set<string>();
  return {
    acquire: async (id) => {
      if (held.has(id)) return null;
      held.add(id);
      return () => held.delete(id);
    },
  };
}

let ids = 0;
/** Whether the tabs of the running test save across a port (set by each describe). */
let overPort = false;
const ports: MessagePort[] = [];

/**
 * A tab: a host on a worker, with its saved clusters on the shared fake IndexedDB, opened by `openStore`
 * (ClusterStore.open by default) in the worker or, `overPort`, in a storage worker at the other end of a port.
 */
async function tab(
  locks: ClusterLocks,
  storeOptions: OpenOptions = {},
  openStore: (options: OpenOptions) => Promise<ClusterStore> = (options) => ClusterStore.open(options),
  remote?: Pick<SavedClustersOptions, 'openStore' | 'locks'>,
) {
  const open = (options: OpenOptions) => openStore({ ...storeOptions, ...options });
  let store: Pick<SavedClustersOptions, 'openStore' | 'locks'> = remote ?? { openStore: open, locks };
  if (overPort && !remote) {
    const channel = new MessageChannel();
    ports.push(channel.port1, channel.port2);
    serveStore(channel.port1, open, locks);
    store = storeOverPort(channel.port2);
  }
  const events: WorkerEvent[] = [];
  const host = new SimHost({ post: (e) => events.push(structuredClone(e)), clock: stillClock, initial: { seed: 'saved', nodes: 1 } });
  const saved = new SavedClusters({ host, now: () => 1_700_000_000_000, newId: () => `c${++ids}`, ...store });
  await saved.start();
  await saved.idle();
  const send = async (command: Command) => {
    events.length = 0;
    host.handle(command);
    await settle(saved);
    return [...events];
  };
  return { host, saved, events, send };
}

/**
 * Lets async work (IndexedDB requests) finish: every command's store work, then a few turns of the event loop
 * for what it started (a fixed number of turns alone raced a fork's copy of a large cluster on a slow machine).
 */
async function settle(saved: SavedClusters): Promise<void> {
  const done = async () => {
    await saved.work.done();
    await saved.idle();
  };
  for (let i = 0; i < 20; i++) {
    await done();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  await done();
}

const lastPersistence = (events: readonly WorkerEvent[]) => events.filter((e): e is PersistenceEvent => e.type === 'persistence').at(-1);

function liveState(host: SimHost) {
  const { engine } = host;
  return {
    status: host.status(),
    keyspace: host.keyspaceTracker?.at(host.timeline.revisionAt(host.timeline.head)),
    values: host.keyspaceTracker?.entriesAt(host.timeline.revisionAt(host.timeline.head)),
    log: [...host.timeline.log],
    trace: Array.from({ length: engine.step }, (_, i) => engine.trace.at(i + 1)),
  };
}

/** A store that records the keyspace of every save into `keyspaces` (and its trace tail into `tails`). */
function recording(keyspaces: NonNullable<SaveBatch['keyspace']>[], tails: NonNullable<SaveBatch['traceTail']>[] = []) {
  return async (options: OpenOptions) => {
    const store = await ClusterStore.open(options);
    const save = store.save.bind(store);
    store.save = (batch) => {
      if (batch.keyspace) keyspaces.push(batch.keyspace);
      if (batch.traceTail) tails.push(batch.traceTail);
      return save(batch);
    };
    return store;
  };
}

/** Writes to the saved clusters' database with IndexedDB itself (as an older Podflow wrote it). */
async function rawWrite(write: (tx: IDBTransaction) => void): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(databaseName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const tx = db.transaction(['keys', 'keyspaces'], 'readwrite');
  write(tx);
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

describe.each([
  { where: 'the store in the simulation\'s worker', port: false },
  { where: 'the store across a port (a simulation in a process of its own)', port: true },
])('saved clusters, $where', ({ port }) => {
  beforeEach(() => {
    overPort = port;
  });

  it('restores after a reload exactly the live state: step, status, keyspace, command log and trace', async () => {
    const locks = sharedLocks();
    const first = await tab(locks);
    await first.send({ type: 'applyManifest', yaml: nginx });
    await first.send({ type: 'step', count: 60 });
    await first.send({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: '/demo', value: 'x' } });
    await first.send({ type: 'step', count: 25 });
    const before = liveState(first.host);
    expect(lastPersistence(first.events)).toMatchObject({ mode: 'saving', lastPersistedStep: before.status.step, warning: null });
    first.host.dispose();
    locks.acquire = (() => { const fresh = sharedLocks(); return fresh.acquire; })();

    const second = await tab(locks);
    expect(liveState(second.host)).toEqual(before);
    // The saved view shown before the replay finished is the same keyspace and step.
    const shown = second.events.find((e) => e.type === 'keyspaceSnapshot' && e.current && e.revision === before.keyspace?.revision);
    expect(shown?.type === 'keyspaceSnapshot' && shown.entries).toEqual(before.keyspace?.entries);
    expect(second.events.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ task: 'replay', finished: true });

    // Going on gives what the first tab would have got.
    await first.send({ type: 'step', count: 30 });
    await second.send({ type: 'step', count: 30 });
    expect(liveState(second.host)).toEqual(liveState(first.host));
  });

  it('writes the keyspace whole once, then only the keys each save changed; a reload reads the live keys with their values', async () => {
    const locks = sharedLocks();
    const keyspaces: NonNullable<SaveBatch['keyspace']>[] = [];
    const tails: NonNullable<SaveBatch['traceTail']>[] = [];
    const first = await tab(locks, {}, recording(keyspaces, tails));
    await first.send({ type: 'applyManifest', yaml: nginx });
    await first.send({ type: 'step', count: 60 });
    await first.send({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: '/demo', value: 'x' } });
    await first.send({ type: 'step', count: 5 });
    await first.send({ type: 'userRequest', to: 'etcd', kind: 'etcd.DeleteRange', payload: { key: '/demo' } });
    for (let i = 0; i < 20; i++) await first.send({ type: 'step', count: 2 });
    // Of the keyspace saves only the first was whole; each later one carried a few keys.
    expect(keyspaces.filter((k) => k.whole)).toHaveLength(1);
    expect(keyspaces[0]!.whole).toBe(true);
    const later = keyspaces.slice(1);
    const live = liveState(first.host).values!;
    expect(later.length).toBeGreaterThanOrEqual(4);
    for (const k of later) expect(k.put.length + k.deleted.length).toBeLessThan(live.length / 4);
    expect(later.some((k) => k.deleted.includes('/demo'))).toBe(true);
    // Each save names a key at most once, at its latest.
    for (const k of later) expect(new Set([...k.put.map((e) => e.key), ...k.deleted]).size).toBe(k.put.length + k.deleted.length);

    const store = await ClusterStore.open();
    const [saved] = await store.list();
    const loaded = await store.load(saved!.id);
    store.close();
    expect(loaded!.keyspace).toEqual({ revision: first.host.timeline.revisionAt(first.host.timeline.head), entries: live });
    // The trace tail the same way: whole once, then each save's new deliveries, the newest traceTailLimit kept.
    expect(tails.map((t) => t.whole)).toEqual([true, ...tails.slice(1).map(() => false)]);
    const tail = first.host.headTail();
    expect(tail.length).toBe(traceTailLimit);
    for (const t of tails.slice(1)) expect(t.records.length).toBeLessThan(traceTailLimit / 2);
    // What the first save wrote and the later ones added is more than is kept: the oldest were dropped.
    expect(tails.reduce((n, t) => n + t.records.length, 0)).toBeGreaterThan(traceTailLimit);
    expect(loaded!.head!.traceTail).toEqual(tail);
  });

  it('writes a keyspace restored from a version 2 save whole at its first save, and not again', async () => {
    const locks = sharedLocks();
    const first = await tab(locks);
    await first.send({ type: 'applyManifest', yaml: nginx });
    await first.send({ type: 'step', count: 60 });
    first.host.dispose();
    locks.acquire = sharedLocks().acquire;
    // Made a version 2 save: the keyspace as one base record, no key records.
    const store = await ClusterStore.open();
    const [saved] = await store.list();
    const { keyspace } = (await store.load(saved!.id))!;
    store.close();
    await rawWrite((tx) => {
      tx.objectStore('keys').clear();
      tx.objectStore('keyspaces').put({ clusterId: saved!.id, revision: keyspace!.revision, entries: keyspace!.entries });
    });

    const keyspaces: NonNullable<SaveBatch['keyspace']>[] = [];
    const second = await tab(locks, {}, recording(keyspaces));
    await second.send({ type: 'step', count: 20 });
    await second.send({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: '/demo', value: 'x' } });
    await second.send({ type: 'step', count: 5 });
    expect(keyspaces.map((k) => k.whole)).toEqual([true, ...keyspaces.slice(1).map(() => false)]);
    expect(keyspaces.length).toBeGreaterThan(1);
    const reopened = await ClusterStore.open();
    const loaded = await reopened.load(saved!.id);
    reopened.close();
    expect(loaded!.keyspace).toEqual({ revision: second.host.timeline.revisionAt(second.host.timeline.head), entries: liveState(second.host).values });
  });

  it('restores a cluster reset from 3 etcd members to 1 with 1 member (the reset drops the count it leaves absent)', async () => {
    const locks = sharedLocks();
    const first = await tab(locks);
    await first.send({ type: 'reset', seed: 'saved', nodes: 1, etcdMembers: 3 });
    await first.send({ type: 'reset', seed: 'saved', nodes: 1 });
    await first.send({ type: 'applyManifest', yaml: configMap('after-reset') });
    await first.send({ type: 'step', count: 10 });
    const before = liveState(first.host);
    first.host.dispose();
    locks.acquire = (() => { const fresh = sharedLocks(); return fresh.acquire; })();

    const second = await tab(locks);
    expect(second.host.spec.etcdMembers ?? 1).toBe(1);
    expect(liveState(second.host)).toEqual(before);
  });

  it('keeps the previous consistent save when a save is aborted half-way', async () => {
    let abortNext = false;
    const locks = sharedLocks();
    const first = await tab(locks, { beforeWrite: (tx, count) => abortNext && count === 2 && tx.abort() });
    await first.send({ type: 'applyManifest', yaml: configMap('kept') });
    await first.send({ type: 'step', count: 20 });
    const saved = liveState(first.host);
    abortNext = true;
    const events = await first.send({ type: 'applyManifest', yaml: configMap('lost') });
    await first.send({ type: 'step', count: 20 });
    expect(lastPersistence(events) ?? lastPersistence(first.events)).toMatchObject({ mode: 'memory-only', lastPersistedStep: saved.status.step, warning: { code: 'write-failed' } });
    // The tab works on in memory.
    expect(first.host.status().step).toBe(saved.status.step + 20);

    const reloaded = await tab(sharedLocks());
    expect(liveState(reloaded.host)).toEqual(saved);
  });

  it('works in memory with a clear message when IndexedDB is unavailable, keeping nothing for saves that will not come', async () => {
    const alone = await tab(sharedLocks(), {}, () => Promise.reject(new StorageError('unavailable', 'no IndexedDB here (private browsing?)')));
    expect(lastPersistence(alone.events)).toMatchObject({ mode: 'memory-only', warning: { code: 'unavailable', message: 'no IndexedDB here (private browsing?)' } });
    const events = await alone.send({ type: 'step', count: 5 });
    expect(events.some((e) => e.type === 'traceBatch')).toBe(true);
    // A Deployment run to its Pod's start writes many keys; none waits for a save.
    await alone.send({ type: 'applyManifest', yaml: nginx });
    const written = await alone.send({ type: 'step', count: 200 });
    expect(written.some((e) => e.type === 'keyspaceDiff' && e.changes.length > 0)).toBe(true);
    expect(alone.saved['saver']['pendingChanges']).toEqual([]);
    const list = await alone.send({ type: 'listClusters' });
    expect(list.find((e) => e.type === 'clusters')).toMatchObject({ clusters: [], openId: null });
    expect((await alone.send({ type: 'renameCluster', id: 'x', name: 'y' })).find((e) => e.type === 'error')?.type).toBe('error');
  });

  it('says when the quota is full and keeps the last save', async () => {
    const locks = sharedLocks();
    let full = false;
    const first = await tab(locks, { beforeWrite: () => {
      if (full) throw new DOMException('quota', 'QuotaExceededError');
    } });
    await first.send({ type: 'step', count: 10 });
    const saved = liveState(first.host);
    full = true;
    await first.send({ type: 'applyManifest', yaml: configMap('big') });
    expect(lastPersistence(first.events)).toMatchObject({ mode: 'memory-only', warning: { code: 'quota-exceeded' }, lastPersistedStep: saved.status.step });
    expect(lastPersistence(first.events)?.warning?.message).toMatch(/storage for this site is full/);
    const reloaded = await tab(sharedLocks());
    expect(liveState(reloaded.host)).toEqual(saved);
  });

  it('gives a second tab on the same cluster an unsaved copy and tells it so', async () => {
    const locks = sharedLocks();
    const first = await tab(locks);
    await first.send({ type: 'step', count: 10 });
    const second = await tab(locks);
    expect(second.host.status().step).toBe(first.host.status().step);
    expect(lastPersistence(second.events)).toMatchObject({ mode: 'memory-only', warning: { code: 'other-tab' } });
    await second.send({ type: 'applyManifest', yaml: configMap('from-second-tab') });
    await second.send({ type: 'step', count: 40 });
    await first.send({ type: 'step', count: 1 });
    const reloaded = await tab(sharedLocks());
    expect(reloaded.host.timeline.log).toEqual([]);
    expect(reloaded.host.status().step).toBe(first.host.status().step);
  });

  it('creates, renames, duplicates, opens and deletes saved clusters', async () => {
    const one = await tab(sharedLocks());
    await one.send({ type: 'applyManifest', yaml: configMap('a') });
    await one.send({ type: 'step', count: 12 });
    const firstId = one.saved['saver'].open?.id;
    const firstHead = one.host.timeline.head;
    const created = await one.send({ type: 'createCluster', name: 'Second', seed: 'other', nodes: 2 });
    expect(created.find((e) => e.type === 'ready')).toMatchObject({ seed: 'other', nodes: 2 });
    const list = created.filter((e) => e.type === 'clusters').at(-1);
    expect(list?.type === 'clusters' && list.clusters.map((c) => c.name).sort()).toEqual(['Cluster 1', 'Second']);
    await one.send({ type: 'renameCluster', id: firstId!, name: 'Renamed' });
    const dup = await one.send({ type: 'duplicateCluster', id: firstId!, name: 'Copy' });
    const copy = dup.find((e) => e.type === 'clusters');
    const copyInfo = copy?.type === 'clusters' ? copy.clusters.find((c) => c.name === 'Copy') : undefined;
    expect(copyInfo).toMatchObject({ headStep: firstHead, commands: 1 });
    const opened = await one.send({ type: 'openCluster', id: copyInfo!.id });
    expect(opened.find((e) => e.type === 'ready')).toMatchObject({ seed: 'saved', nodes: 1 });
    expect(one.host.timeline.log.map((e) => e.command.type)).toEqual(['applyManifest']);
    const deleted = await one.send({ type: 'deleteCluster', id: firstId! });
    const after = deleted.filter((e) => e.type === 'clusters').at(-1);
    expect(after?.type === 'clusters' && after.clusters.map((c) => c.name).sort()).toEqual(['Copy', 'Second']);
  });

  it('keeps the old future as a branch when forking with a name', async () => {
    const one = await tab(sharedLocks());
    await one.send({ type: 'applyManifest', yaml: configMap('a') });
    await one.send({ type: 'step', count: 30 });
    const head = one.host.timeline.head;
    await one.send({ type: 'stepBack', count: 20 });
    const events = await one.send({ type: 'fork', branch: 'old future' });
    expect(one.host.timeline.head).toBe(head - 20);
    const list = events.filter((e) => e.type === 'clusters').at(-1);
    expect(list?.type === 'clusters' && list.clusters.find((c) => c.name === 'old future')).toMatchObject({ headStep: head });
  });
});

describe('a storage worker that is gone (a simulation in a process of its own)', () => {
  beforeEach(() => {
    overPort = false;
  });

  /** A port whose far end no worker serves yet, as when the storage worker's script never loaded. */
  function unserved() {
    const channel = new MessageChannel();
    ports.push(channel.port1, channel.port2);
    return { far: channel.port1, remote: storeOverPort(channel.port2) };
  }

  it('goes on in memory and says so when the storage worker never started, keeping nothing for saves', async () => {
    const { remote } = unserved();
    // Said once the simulation's first call (opening the store) is waiting on it.
    queueMicrotask(() => remote.gone('could not start'));
    const alone = await tab(sharedLocks(), {}, undefined, remote);
    expect(lastPersistence(alone.events)).toMatchObject({
      mode: 'memory-only',
      warning: { code: 'unavailable', message: "The page's storage worker could not start: this cluster lives in memory only and is lost on reload." },
    });
    await alone.send({ type: 'applyManifest', yaml: nginx });
    const written = await alone.send({ type: 'step', count: 200 });
    expect(written.some((e) => e.type === 'keyspaceDiff' && e.changes.length > 0)).toBe(true);
    expect(alone.saved['saver']['pendingChanges']).toEqual([]);
  });

  it('stops saving when it fails after saving began, and a reload still opens the last save', async () => {
    const locks = sharedLocks();
    const { far, remote } = unserved();
    serveStore(far, (options) => ClusterStore.open(options), locks);
    const first = await tab(locks, {}, undefined, remote);
    await first.send({ type: 'step', count: 40 });
    const saved = lastPersistence(first.events);
    expect(saved).toMatchObject({ mode: 'saving', warning: null });
    const savedStep = saved?.lastPersistedStep;
    expect(savedStep).toBeGreaterThan(0);
    // The storage worker dies: its end answers no more, and the page says so.
    far.close();
    remote.gone('failed (out of memory)');
    const after = [...(await first.send({ type: 'applyManifest', yaml: nginx })), ...(await first.send({ type: 'step', count: 100 }))];
    expect(lastPersistence(after)).toMatchObject({
      mode: 'memory-only',
      lastPersistedStep: savedStep,
      warning: { code: 'unavailable', message: expect.stringContaining('storage worker failed (out of memory)') },
    });
    expect(first.host.status().step).toBeGreaterThan(savedStep ?? 0);
    first.host.dispose();

    const reloaded = await tab(sharedLocks());
    expect(reloaded.host.status().step).toBe(savedStep);
  });
});

describe('a new saved cluster\'s id', () => {
  const uuid4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is a version 4 UUID, also where crypto.randomUUID is missing (a worker outside a secure context)', () => {
    expect(randomId()).toMatch(uuid4);
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array<ArrayBuffer>) => real.getRandomValues(bytes) });
    const ids = Array.from({ length: 200 }, () => randomId());
    for (const id of ids) expect(id).toMatch(uuid4);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

