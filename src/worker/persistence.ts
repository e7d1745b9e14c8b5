// IndexedDB storage of saved clusters (the only module that imports idb). One database, `podflow`, with
// a versioned schema and upgrade code from version 1 on:
//   clusters   one record per saved cluster: name, seed, node count, times, head step, command count
//   commands   the command log, keyed [clusterId, index]
//   heads      the view of the last persisted step: status sample, markers (and, before version 3, the
//              trace's newest deliveries)
//   traceTail  the trace's newest deliveries up to the last persisted step, keyed [clusterId, step]
//              (version 3): each save adds the new ones and drops those past `traceTailLimit`
//   keys       the keyspace at the head, one record per key, keyed [clusterId, key] (version 3): each save
//              writes the keys changed since the previous one, so no save ever copies the whole keyspace
//              but after a reset or fork
//   keyspaces  the keyspace's revision, keyed by cluster (version 3: `inKeys`); a version 1 or 2 save
//              held here a whole base at a revision instead: its first part and how many parts
//   keyspaceParts  a version 2 base's further parts, keyed [clusterId, part]
//   kvChanges  a version 1 or 2 save's keyspace changes after its base, keyed [clusterId, seq]
//   meta       small settings (the cluster opened last)
// (Versions 1 and 2 wrote a whole base whenever the changes since the last one outnumbered it: at 150,000
// Pods in one tab a copy of ~300,000 values that stalled the simulation and doubled its heap for a while.
// Such a save still loads; the first save after it writes its keyspace whole as keys. They also wrote
// the trace's newest 256 deliveries, ~350 KB, into the head at every save.)
// Every save is one transaction over all stores, so a crash leaves the previous save or the new one,
// never half of it. The live simulation is never stored: it is rebuilt by replaying the command log
// (replay.ts); the head view and keyspace only make a reload show the cluster at once.

import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { KeyChange, KeyEntry, LoggedCommand, TimelineMarker, TraceRecord } from '../protocol/index.ts';
import type { StepSample } from './timeline.ts';

export const databaseName = 'podflow';
export const schemaVersion = 3;


export interface ClusterRecord {
  readonly id: string;
  readonly name: string;
  readonly seed: string | number;
  readonly nodes: number;
  /** kube-apiserver's `--storage-media-type`; absent (older records too) means protobuf. */
  readonly storageMediaType?: 'protobuf' | 'json';
  /** etcd members; absent (older records too) means 1. */
  readonly etcdMembers?: 1 | 3 | 5;
  readonly created: number;
  readonly updated: number;
  readonly headStep: number;
  readonly commands: number;
}

export interface CommandRecord {
  readonly clusterId: string;
  readonly index: number;
  readonly entry: LoggedCommand;
}

/** The UI's view of the last persisted step (as loaded: its trace tail read from the traceTail store). */
export interface HeadRecord {
  readonly clusterId: string;
  readonly step: number;
  readonly bootSteps: number;
  readonly sample: StepSample;
  readonly compactRevision: number;
  readonly markers: readonly TimelineMarker[];
  readonly traceTail: readonly TraceRecord[];
}

/** One of the trace's newest deliveries. */
interface TraceTailRecord {
  readonly clusterId: string;
  readonly step: number;
  readonly record: TraceRecord;
}

/** What a save writes of the trace's newest deliveries. */
export interface TailBatch {
  /** True: `records` are the whole tail, replacing what was kept (after a reset, fork or restore). */
  readonly whole: boolean;
  /** Deliveries since the previous save (or the whole tail), in step order. */
  readonly records: readonly TraceRecord[];
  /** Deliveries of earlier steps are dropped. */
  readonly keepFrom: number;
}

/** The revision of a cluster's keyspace, whose keys are in the `keys` store (version 3). */
interface KeysRevisionRecord {
  readonly clusterId: string;
  readonly revision: number;
  readonly inKeys: true;
}

/** A version 1 or 2 save's whole keyspace at a base revision (read, never written). */
export interface LegacyBaseRecord {
  readonly clusterId: string;
  readonly revision: number;
  readonly entries: readonly KeyEntry[];
  /** How many parts the base was written in (this record holds the first); absent (version 1 records): 1. */
  readonly parts?: number;
}

/** A further part of a version 2 base (its entries follow the previous part's, in key order). */
interface LegacyPartRecord {
  readonly clusterId: string;
  readonly part: number;
  readonly entries: readonly KeyEntry[];
}

/** A version 1 or 2 save's keyspace change after its base. */
export interface LegacyChangeRecord {
  readonly clusterId: string;
  readonly seq: number;
  readonly change: KeyChange;
}

/** One key of a cluster's keyspace at its saved revision. */
interface KeyRecord extends KeyEntry {
  readonly clusterId: string;
}

interface PodflowSchema extends DBSchema {
  clusters: { key: string; value: ClusterRecord };
  commands: { key: [string, number]; value: CommandRecord };
  heads: { key: string; value: HeadRecord };
  traceTail: { key: [string, number]; value: TraceTailRecord };
  keys: { key: [string, string]; value: KeyRecord };
  keyspaces: { key: string; value: KeysRevisionRecord | LegacyBaseRecord };
  keyspaceParts: { key: [string, number]; value: LegacyPartRecord };
  kvChanges: { key: [string, number]; value: LegacyChangeRecord };
  meta: { key: string; value: { key: string; value: string } };
}

type StoreName = StoreNames<PodflowSchema>;
const allStores: StoreName[] = ['clusters', 'commands', 'heads', 'traceTail', 'keys', 'keyspaces', 'keyspaceParts', 'kvChanges', 'meta'];
const perCluster: StoreName[] = ['commands', 'traceTail', 'keys', 'keyspaceParts', 'kvChanges'];

/** What a save writes of the keyspace. */
export interface KeysBatch {
  /** The store's revision these keys are at. */
  readonly revision: number;
  /** True: `put` is the whole keyspace, replacing every key the cluster had (after a reset, a fork, a first save). */
  readonly whole: boolean;
  /** Keys written since the previous save, each as it is now (or every key, when `whole`). */
  readonly put: readonly KeyEntry[];
  /** Keys deleted since the previous save. */
  readonly deleted: readonly string[];
}

/** One save: everything that changed since the previous one, written in one transaction. */
export interface SaveBatch {
  readonly cluster: ClusterRecord;
  /** Delete logged commands from this index on before adding (a fork or reset); null to only append. */
  readonly truncateCommandsFrom: number | null;
  readonly newCommands: readonly CommandRecord[];
  readonly head: Omit<HeadRecord, 'traceTail'>;
  /** The trace tail's changes (null: none). */
  readonly traceTail: TailBatch | null;
  /** The keyspace's changes (null: none). */
  readonly keyspace: KeysBatch | null;
}

/** A saved cluster as read back. */
export interface LoadedCluster {
  readonly cluster: ClusterRecord;
  readonly log: LoggedCommand[];
  readonly head: HeadRecord | null;
  /**
   * The keyspace at the head, sorted by key. `legacy`: read from a version 1 or 2 save (a base and the
   * changes after it), so the next save must write it whole.
   */
  readonly keyspace: { readonly revision: number; readonly entries: KeyEntry[]; readonly legacy?: true } | null;
}

export type StorageFault = 'unavailable' | 'quota-exceeded' | 'blocked' | 'write-failed' | 'read-failed';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(readonly fault: StorageFault, message: string) {
    super(message);
  }
}

export interface OpenOptions {
  /** Another tab has the database open at an older version and has not closed it yet. */
  readonly onBlocked?: () => void;
  /** A newer Podflow in another tab wants to upgrade: this connection was closed. */
  readonly onVersionChange?: () => void;
  /** Test hook: called before each store write of a save, with the transaction (tests abort it). */
  readonly beforeWrite?: (tx: { abort(): void }, count: number) => void;
}

/** What the saved clusters use of a store: ClusterStore itself, or one across a port (store-port.ts). */
export type SavedStore = Pick<ClusterStore, 'close' | 'list' | 'get' | 'getMeta' | 'setMeta' | 'save' | 'load' | 'rename' | 'duplicate' | 'delete'>;

export class ClusterStore {
  private constructor(private readonly db: IDBPDatabase<PodflowSchema>, private readonly options: OpenOptions) {}

  /** Opens (and creates or upgrades) the database; rejects with a StorageError when that is impossible. */
  static async open(options: OpenOptions = {}): Promise<ClusterStore> {
    if (typeof indexedDB === 'undefined') {
      throw new StorageError('unavailable', 'This browser offers no IndexedDB here (private browsing?): the cluster lives in memory only and is lost on reload.');
    }
    let store: ClusterStore | null = null;
    try {
      const db = await openDB<PodflowSchema>(databaseName, schemaVersion, {
        upgrade(database, oldVersion) {
          // Version 1: the first schema. Later versions add cases here (never edit a released one).
          if (oldVersion < 1) {
            database.createObjectStore('clusters', { keyPath: 'id' });
            database.createObjectStore('commands', { keyPath: ['clusterId', 'index'] });
            database.createObjectStore('heads', { keyPath: 'clusterId' });
            database.createObjectStore('keyspaces', { keyPath: 'clusterId' });
            database.createObjectStore('kvChanges', { keyPath: ['clusterId', 'seq'] });
            database.createObjectStore('meta', { keyPath: 'key' });
          }
          // Version 2: a keyspace base in parts.
          if (oldVersion < 2) database.createObjectStore('keyspaceParts', { keyPath: ['clusterId', 'part'] });
          // Version 3: the keyspace one record per key; the trace tail one record per delivery.
          if (oldVersion < 3) {
            database.createObjectStore('keys', { keyPath: ['clusterId', 'key'] });
            database.createObjectStore('traceTail', { keyPath: ['clusterId', 'step'] });
          }
        },
        blocked() {
          options.onBlocked?.();
        },
        blocking() {
          store?.db.close();
          options.onVersionChange?.();
        },
      });
      store = new ClusterStore(db, options);
      return store;
    } catch (error) {
      throw new StorageError('unavailable', `IndexedDB could not be opened (${describe(error)}): the cluster lives in memory only and is lost on reload.`);
    }
  }

  close(): void {
    this.db.close();
  }

  async list(): Promise<ClusterRecord[]> {
    return this.read(async () => {
      const clusters = await this.db.getAll('clusters');
      return clusters.sort((a, b) => b.updated - a.updated || a.name.localeCompare(b.name));
    });
  }

  async get(id: string): Promise<ClusterRecord | undefined> {
    return this.read(() => this.db.get('clusters', id));
  }

  async getMeta(key: string): Promise<string | null> {
    return this.read(async () => (await this.db.get('meta', key))?.value ?? null);
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.write(['meta'], async (tx) => {
      await tx.objectStore('meta').put({ key, value });
    });
  }

  /** Saves one batch in one transaction: all of it or none of it. */
  async save(batch: SaveBatch): Promise<void> {
    await this.write(allStores, async (tx, before) => {
      const id = batch.cluster.id;
      if (batch.truncateCommandsFrom !== null) {
        before();
        await tx.objectStore('commands').delete(IDBKeyRange.bound([id, batch.truncateCommandsFrom], [id, Infinity]));
      }
      for (const command of batch.newCommands) {
        before();
        await tx.objectStore('commands').put(command);
      }
      if (batch.keyspace) {
        const { revision, whole, put, deleted } = batch.keyspace;
        const keys = tx.objectStore('keys');
        if (whole) {
          before();
          await Promise.all(['keys', 'kvChanges', 'keyspaceParts'].map((name) => tx.objectStore(name as 'keys').delete(clusterRange(id))));
        }
        before();
        // Requests are queued in order without waiting for each (IndexedDB runs them in order); the
        // transaction fails whole if one of them does.
        await Promise.all([
          ...deleted.map((key) => keys.delete([id, key])),
          ...put.map((entry) => keys.put({ clusterId: id, ...entry })),
          tx.objectStore('keyspaces').put({ clusterId: id, revision, inKeys: true }),
        ]);
      }
      if (batch.traceTail) {
        const { whole, records, keepFrom } = batch.traceTail;
        const tail = tx.objectStore('traceTail');
        before();
        await Promise.all([
          tail.delete(whole ? clusterRange(id) : IDBKeyRange.bound([id, -Infinity], [id, keepFrom], false, true)),
          ...records.filter((record) => record.step >= keepFrom).map((record) => tail.put({ clusterId: id, step: record.step, record })),
        ]);
      }
      before();
      await tx.objectStore('heads').put({ ...batch.head, traceTail: [] });
      before();
      await tx.objectStore('clusters').put(batch.cluster);
    });
  }

  async load(id: string): Promise<LoadedCluster | null> {
    return this.read(async () => {
      const tx = this.db.transaction(allStores, 'readonly');
      const cluster = await tx.objectStore('clusters').get(id);
      if (!cluster) return null;
      const commands = await tx.objectStore('commands').getAll(clusterRange(id));
      const saved = (await tx.objectStore('heads').get(id)) ?? null;
      const tail = saved ? await tx.objectStore('traceTail').getAll(clusterRange(id)) : [];
      // A version 1 or 2 head holds its tail itself.
      const head = saved && tail.length > 0 ? { ...saved, traceTail: tail.map((t) => t.record) } : saved;
      const first = await tx.objectStore('keyspaces').get(id);
      let keyspace: LoadedCluster['keyspace'] = null;
      if (first && 'inKeys' in first) {
        // IndexedDB orders string keys by UTF-16 code unit, as the page's sort does.
        const entries = (await tx.objectStore('keys').getAll(clusterRange(id))).map(({ clusterId: _, ...entry }) => entry);
        keyspace = { revision: first.revision, entries };
      } else if (first) {
        const base = await withParts(first, tx.objectStore('keyspaceParts'));
        keyspace = { ...fold(base, await tx.objectStore('kvChanges').getAll(clusterRange(id))), legacy: true };
      }
      await tx.done;
      return {
        cluster,
        log: commands.sort((a, b) => a.index - b.index).map((c) => c.entry),
        head,
        keyspace,
      };
    });
  }

  async rename(id: string, name: string, now: number): Promise<void> {
    await this.write(['clusters'], async (tx) => {
      const record = await tx.objectStore('clusters').get(id);
      if (!record) throw new StorageError('write-failed', `no saved cluster ${id}`);
      await tx.objectStore('clusters').put({ ...record, name, updated: now });
    });
  }

  /** Copies every record of a cluster under a new id and name, in one transaction. */
  async duplicate(id: string, copy: { readonly id: string; readonly name: string; readonly now: number }): Promise<ClusterRecord> {
    let made: ClusterRecord | null = null;
    await this.write(allStores, async (tx) => {
      const record = await tx.objectStore('clusters').get(id);
      if (!record) throw new StorageError('write-failed', `no saved cluster ${id}`);
      made = { ...record, id: copy.id, name: copy.name, created: copy.now, updated: copy.now };
      await tx.objectStore('clusters').put(made);
      for (const command of await tx.objectStore('commands').getAll(clusterRange(id))) await tx.objectStore('commands').put({ ...command, clusterId: copy.id });
      const head = await tx.objectStore('heads').get(id);
      if (head) await tx.objectStore('heads').put({ ...head, clusterId: copy.id });
      for (const record of await tx.objectStore('traceTail').getAll(clusterRange(id))) await tx.objectStore('traceTail').put({ ...record, clusterId: copy.id });
      const base = await tx.objectStore('keyspaces').get(id);
      if (base) await tx.objectStore('keyspaces').put({ ...base, clusterId: copy.id });
      const keys = tx.objectStore('keys');
      await Promise.all((await keys.getAll(clusterRange(id))).map((key) => keys.put({ ...key, clusterId: copy.id })));
      for (const part of await tx.objectStore('keyspaceParts').getAll(clusterRange(id))) await tx.objectStore('keyspaceParts').put({ ...part, clusterId: copy.id });
      for (const change of await tx.objectStore('kvChanges').getAll(clusterRange(id))) await tx.objectStore('kvChanges').put({ ...change, clusterId: copy.id });
    });
    return made!;
  }

  async delete(id: string): Promise<void> {
    await this.write(allStores, async (tx) => {
      await tx.objectStore('clusters').delete(id);
      await tx.objectStore('heads').delete(id);
      await tx.objectStore('keyspaces').delete(id);
      for (const name of perCluster) await tx.objectStore(name as 'commands').delete(clusterRange(id));
    });
  }

  private async write<S extends StoreName>(
    stores: S[],
    work: (tx: IDBPTransaction<PodflowSchema, S[], 'readwrite'>, before: () => void) => Promise<void>,
  ): Promise<void> {
    try {
      const tx = this.db.transaction(stores, 'readwrite');
      const done = tx.done;
      done.catch(() => undefined);
      let count = 0;
      const before = () => this.options.beforeWrite?.(tx, count++);
      try {
        await work(tx, before);
      } catch (error) {
        // Nothing of a failed save may commit: abort what it wrote so far.
        try {
          tx.abort();
        } catch {
          // already aborted or finished
        }
        throw error;
      }
      await done;
    } catch (error) {
      throw toStorageError(error, 'write-failed');
    }
  }

  private async read<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toStorageError(error, 'read-failed');
    }
  }
}

/** A version 2 base read back whole: its first record's entries, then its further parts' in order. */
async function withParts(first: LegacyBaseRecord, parts: { getAll(range: IDBKeyRange): Promise<LegacyPartRecord[]> }): Promise<LegacyBaseRecord> {
  const count = first.parts ?? 1;
  if (count === 1) return first;
  const rest = (await parts.getAll(clusterRange(first.clusterId))).sort((a, b) => a.part - b.part);
  if (rest.length !== count - 1) throw new StorageError('read-failed', `the saved keyspace of ${first.clusterId} has ${rest.length + 1} of its ${count} parts`);
  return { ...first, entries: [...first.entries, ...rest.flatMap((p) => p.entries)] };
}

/**
 * Every [id, second] key of one cluster, whether the second part is a number (a step, a part) or a string
 * (a `keys` record's key): IndexedDB sorts numbers before strings and strings before arrays.
 */
function clusterRange(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id, -Infinity], [id, []]);
}

/** A version 1 or 2 base with the later changes applied, sorted by key. */
function fold(base: LegacyBaseRecord, changes: readonly LegacyChangeRecord[]): { revision: number; entries: KeyEntry[] } {
  const keys = new Map(base.entries.map((e) => [e.key, e]));
  let revision = base.revision;
  for (const { change } of [...changes].sort((a, b) => a.seq - b.seq)) {
    if (change.deleted) keys.delete(change.key);
    else keys.set(change.key, { key: change.key, createRevision: change.createRevision, modRevision: change.modRevision, version: change.version, lease: change.lease, value: change.value });
    revision = Math.max(revision, change.modRevision);
  }
  const entries = [...keys.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { revision, entries };
}

function toStorageError(error: unknown, fallback: StorageFault): StorageError {
  if (error instanceof StorageError) return error;
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError') return new StorageError('quota-exceeded', 'The browser\'s storage for this site is full: newer steps are kept in memory only. Delete saved clusters you no longer need to save again.');
  if (name === 'AbortError') return new StorageError(fallback, `A save was aborted (${describe(error)}); the previous save is intact.`);
  return new StorageError(fallback, `IndexedDB ${fallback === 'read-failed' ? 'read' : 'write'} failed: ${describe(error)}`);
}

function describe(error: unknown): string {
  if (error instanceof Error || error instanceof DOMException) return `${error.name}: ${error.message}`;
  return String(error);
}
