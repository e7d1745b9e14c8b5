// Saved clusters: the host's journal (it saves the open cluster as it runs) and the saved-cluster
// commands (list, create, open, rename, duplicate, delete, export, import, fork to a branch).
//
// Saving: the open cluster is saved as it runs by a ClusterSaver (saved-clusters-saver.ts).
//
// Faults. IndexedDB missing or refusing to open, a full quota, a failed write, a blocked upgrade or a
// newer tab taking over: the open cluster goes on in memory and a `persistence` event says why.
// Two tabs on one saved cluster: a Web Lock per cluster; the second tab gets an unsaved copy.

import type {
  Command, LoggedCommand, PersistenceWarning, PersistenceWarningCode, SavedClusterSummary, WorkerEvent,
} from '../protocol/index.ts';
import { packKeyMetas, traceTailLimit } from '../protocol/index.ts';
import { createCluster } from '../sim/cluster.ts';
import { exportFile, ImportError, parseExportFile, parseShareFragment, shareFragment } from './export-file.ts';
import { specOptions, type ClusterSpec, type HostedCluster, type HostJournal, type SimHost } from './host.ts';
import type { ReportedBatch } from './host/reporter.ts';
import { metaOf } from './keyspace.ts';
import { ClusterStore, StorageError, type ClusterRecord, type LoadedCluster, type OpenOptions, type SavedStore } from './persistence.ts';
import { podsOfSnapshot } from './pods.ts';
import { ClusterSaver } from './saved-clusters-saver.ts';
import { replayNow } from './replay.ts';

/** A lock per saved cluster, so that two tabs never write the same one. */
export interface ClusterLocks {
  /** Resolves to a release function, or null when another tab holds the lock. */
  acquire(id: string): Promise<(() => void) | null>;
}

/** Web Locks (`navigator.locks`), held until released; without them every lock is granted. */
export function webLocks(): ClusterLocks {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  return {
    acquire: (id) => {
      if (!locks) return Promise.resolve(() => undefined);
      return new Promise((resolve, reject) => {
        locks.request(`podflow:cluster:${id}`, { ifAvailable: true }, (lock) => {
          if (!lock) {
            resolve(null);
            return undefined;
          }
          return new Promise<void>((release) => resolve(release));
        }).catch(reject);
      });
    },
  };
}

/**
 * A random (version 4) UUID for a new saved cluster. `crypto.randomUUID` exists only in a secure context, which
 * a worker started by a sandboxed frame (a simulation in a process of its own) is not; `getRandomValues` is
 * everywhere, so its 16 bytes are shaped as RFC 9562 says a version 4 UUID's are.
 */
export function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface SavedClustersOptions {
  readonly host: SimHost;
  /** Opens the database (ClusterStore.open by default), telling `options` when other tabs stand in the way. */
  readonly openStore?: (options: OpenOptions) => Promise<SavedStore>;
  readonly locks?: ClusterLocks;
  /** Wall-clock epoch ms, for the created/updated times shown in the list. */
  readonly now?: () => number;
  readonly newId?: () => string;
  /** Builds clusters for checking imports by replay (createCluster by default). */
  readonly buildCluster?: (spec: ClusterSpec) => HostedCluster;
}

const lastOpenedKey = 'lastOpened';

export class SavedClusters implements HostJournal {
  private readonly host: SimHost;
  private readonly locks: ClusterLocks;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly buildCluster: (spec: ClusterSpec) => HostedCluster;
  private store: SavedStore | null = null;
  private release: (() => void) | null = null;
  private warning: PersistenceWarning | null = null;
  private readonly saver: ClusterSaver;
  /** The commands' store work: each runs on its own, its error reported as the command's. */
  readonly work = new CommandWork((command, error) => this.fail(command, error));

  constructor(private readonly options: SavedClustersOptions) {
    this.host = options.host;
    this.locks = options.locks ?? webLocks();
    this.now = options.now ?? (() => Date.now());
    this.newId = options.newId ?? randomId;
    this.buildCluster = options.buildCluster ?? ((spec) => createCluster(spec));
    this.saver = new ClusterSaver(this.host, this.now, {
      committed: () => this.postPersistence(),
      // The transaction rolled back: what is in IndexedDB is the previous save, intact.
      failed: (error) => this.stopSaving(error instanceof StorageError ? error.fault : 'write-failed', messageOf(error)),
    });
    this.host.attachJournal(this);
  }

  /** Opens the database, then reopens the cluster used last, or saves the host's cluster as a new one. */
  async start(): Promise<void> {
    try {
      this.store = this.saver.store = await (this.options.openStore ?? ((options) => ClusterStore.open(options)))({
        onBlocked: () => this.warn('blocked', 'Another Podflow tab keeps an older version of the saved clusters open: close it to save here. Until then this tab works in memory.'),
        onVersionChange: () => this.stopSaving('blocked', 'A newer Podflow opened in another tab and upgraded the saved clusters: this tab now works in memory. Reload it to save again.'),
      });
    } catch (error) {
      this.stopSaving(error instanceof StorageError ? error.fault : 'unavailable', messageOf(error));
      this.postClusters([]);
      return;
    }
    try {
      const last = await this.store.getMeta(lastOpenedKey);
      if (last !== null && (await this.store.get(last))) {
        await this.openCluster(last);
        return;
      }
      await this.saveCurrentAs(await this.nextName());
    } catch (error) {
      // The store went away after it opened (a simulation in a process of its own whose storage worker
      // failed): the cluster goes on in memory, as when it could not open.
      if (error instanceof StorageError && error.fault === 'unavailable') this.stopSaving('unavailable', error.message);
      else this.fail(null, error);
    }
  }

  /** Resolves when every save requested so far is committed (or has failed). */
  async idle(): Promise<void> {
    await this.saver.idle();
  }


  // ── HostJournal ──────────────────────────────────────────────────────────────────────────────────

  began(_spec: ClusterSpec, _bootSteps: number, keepCommands: number): void {
    this.saver.began(keepCommands);
  }

  recorded(_host: SimHost, batch: ReportedBatch): void {
    this.saver.recorded(batch);
  }

  command(command: Command, host: SimHost): boolean {
    switch (command.type) {
      case 'listClusters':
        this.work.run(command.type, async () => this.postClusters());
        return true;
      case 'createCluster': {
        const name = checkName(command.name);
        this.work.run(command.type, async () => {
          await this.switchTo(null);
          host.handle({ type: 'reset', seed: command.seed, nodes: command.nodes, ...specOptions(command) });
          await this.saveCurrentAs(name);
        });
        return true;
      }
      case 'openCluster':
        this.work.run(command.type, () => this.openCluster(command.id));
        return true;
      case 'renameCluster': {
        const name = checkName(command.name);
        this.work.run(command.type, async () => {
          await this.requireStore().rename(command.id, name, this.now());
          if (this.saver.open?.id === command.id) this.saver.open = { ...this.saver.open, name };
          await this.postClusters();
        });
        return true;
      }
      case 'duplicateCluster': {
        const name = checkName(command.name);
        this.work.run(command.type, async () => {
          if (this.saver.open?.id === command.id) await this.idle();
          await this.requireStore().duplicate(command.id, { id: this.newId(), name, now: this.now() });
          await this.postClusters();
        });
        return true;
      }
      case 'deleteCluster':
        this.work.run(command.type, () => this.deleteCluster(command.id));
        return true;
      case 'exportCluster':
        this.work.run(command.type, () => this.exportCluster(command.id));
        return true;
      case 'importCluster': {
        // Checked completely (schema, then a replay) before anything is stored.
        const file = command.source === 'link' ? parseShareFragment(command.text) : parseExportFile(command.text);
        try {
          replayNow(this.buildCluster({ seed: file.seed, nodes: file.nodes, ...specOptions(file) }), file.commands, file.headStep);
        } catch (error) {
          throw new ImportError(`import: the commands do not replay to step ${file.headStep} (${messageOf(error)}); nothing was imported`);
        }
        this.work.run(command.type, async () => {
          const store = this.store;
          if (!store || !this.saver.saving) {
            await this.switchTo(null);
            this.restoreInto({
              id: '', name: file.name, seed: file.seed, nodes: file.nodes, ...specOptions(file), created: file.created, updated: this.now(),
              headStep: file.headStep, commands: file.commands.length,
            }, file.commands, null);
            return;
          }
          const record: ClusterRecord = {
            id: this.newId(), name: file.name, seed: file.seed, nodes: file.nodes, ...specOptions(file), created: file.created, updated: this.now(),
            headStep: file.headStep, commands: file.commands.length,
          };
          await store.save({
            cluster: record, truncateCommandsFrom: 0,
            newCommands: file.commands.map((entry, index) => ({ clusterId: record.id, index, entry })),
            head: { clusterId: record.id, step: 0, bootSteps: 0, sample: { now: 0, pending: 0, idle: true, revision: 0 }, compactRevision: -1, markers: [] },
            traceTail: null, keyspace: null,
          });
          await this.openCluster(record.id);
        });
        return true;
      }
      case 'fork': {
        if (command.branch === null) return false;
        const branch = checkName(command.branch);
        this.work.run(command.type, async () => {
          if (this.store && this.saver.saving && this.saver.open) {
            await this.idle();
            await this.store.duplicate(this.saver.open.id, { id: this.newId(), name: branch, now: this.now() });
          } else {
            throw new Error('keeping the old future as a branch needs saved clusters, which are not available here');
          }
          host.handle({ type: 'fork', branch: null });
          await this.postClusters();
        });
        return true;
      }
      default:
        return false;
    }
  }

  // ── Operations ───────────────────────────────────────────────────────────────────────────────────

  private async openCluster(id: string): Promise<void> {
    const store = this.requireStore();
    const loaded = await store.load(id);
    if (!loaded) throw new Error(`no saved cluster ${id}`);
    if (this.saver.open?.id === id) await this.switchTo(null);
    const release = await this.locks.acquire(id);
    await this.switchTo(release);
    if (release) {
      await store.setMeta(lastOpenedKey, id);
      this.restoreInto(loaded.cluster, loaded.log, loaded);
    } else {
      this.restoreInto(loaded.cluster, loaded.log, loaded);
      this.stopSaving('other-tab', `"${loaded.cluster.name}" is open in another tab: this tab shows an unsaved copy. Changes here are not saved.`, loaded.cluster.name);
    }
    await this.postClusters();
  }

  /** Rebuilds a cluster in the host: its saved view at once, the live simulation by replay. */
  private restoreInto(record: ClusterRecord, log: readonly LoggedCommand[], loaded: LoadedCluster | null): void {
    this.saver.restarted(record.id === '' ? null : record, log.length, loaded);
    this.host.restore({ seed: record.seed, nodes: record.nodes, ...specOptions(record) }, log, record.headStep, {
      ...(loaded?.head && loaded.head.step > 0 ? { savedBootSteps: loaded.head.bootSteps } : {}),
      showSaved: () => this.showSaved(loaded),
      done: () => {
        this.saver.restoring = false;
        this.postPersistence();
        this.saver.flush();
      },
      failed: () => {
        this.saver.restoring = false;
        this.stopSaving('read-failed', `"${record.name}" could not be rebuilt from its saved commands; it was left unchanged and this tab works in memory.`);
      },
    });
  }

  /** Posts what was saved of the head, so the cluster shows at once while it is rebuilt. */
  private showSaved(loaded: LoadedCluster | null): void {
    const head = loaded?.head;
    if (!loaded || !head || head.step === 0) return;
    this.host.emit({ type: 'traceBatch', records: head.traceTail.slice(-traceTailLimit), omitted: head.step - Math.min(head.traceTail.length, traceTailLimit), replace: true });
    if (loaded.keyspace) {
      const { revision, entries } = loaded.keyspace;
      this.host.emit({ type: 'keyspaceSnapshot', revision, current: true, compacted: false, compactRevision: head.compactRevision, entries: packKeyMetas(entries.map(metaOf)) });
      this.host.emit(podsOfSnapshot(loaded.keyspace));
    }
    this.host.emit({
      type: 'timeline', position: head.step, head: head.step, live: true, bootSteps: head.bootSteps, retainedFrom: head.step,
      markers: head.markers, revision: head.sample.revision,
    });
    this.host.emit({ type: 'status', status: { step: head.step, now: head.sample.now, pending: head.sample.pending, idle: head.sample.idle, mode: 'paused', speed: this.host.status().speed } });
  }

  /** Saves the host's current cluster as a new saved cluster and makes it the open one. */
  private async saveCurrentAs(name: string): Promise<void> {
    const store = this.requireStore();
    const id = this.newId();
    const release = await this.locks.acquire(id);
    await this.switchTo(release);
    const at = this.now();
    this.saver.open = { id, name, seed: this.host.spec.seed, nodes: this.host.spec.nodes, ...specOptions(this.host.spec), created: at, updated: at, headStep: 0, commands: 0 };
    this.saver.saving = true;
    this.warning = null;
    this.saver.began(0);
    await this.idle();
    await store.setMeta(lastOpenedKey, id);
    this.postPersistence();
    await this.postClusters();
  }

  private async deleteCluster(id: string): Promise<void> {
    const store = this.requireStore();
    const wasOpen = this.saver.open?.id === id;
    if (wasOpen) {
      await this.idle();
      await this.switchTo(null);
    }
    await store.delete(id);
    if (wasOpen) {
      const [next] = await store.list();
      if (next) await this.openCluster(next.id);
      else {
        this.host.handle({ type: 'reset', seed: this.host.spec.seed, nodes: this.host.spec.nodes, ...specOptions(this.host.spec) });
        await this.saveCurrentAs(await this.nextName());
      }
      return;
    }
    await this.postClusters();
  }

  private async exportCluster(id: string): Promise<void> {
    const store = this.requireStore();
    if (this.saver.open?.id === id) await this.idle();
    const loaded = await store.load(id);
    if (!loaded) throw new Error(`no saved cluster ${id}`);
    const { name, seed, nodes, created, headStep } = loaded.cluster;
    const file = exportFile({ name, seed, nodes, ...specOptions(loaded.cluster), created, headStep }, loaded.log);
    const fileName = `${name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'cluster'}.podflow.json`;
    this.host.emit({ type: 'clusterExport', id, fileName, json: JSON.stringify(file, null, 1), shareFragment: shareFragment(file) });
  }

  /** Lets go of the open cluster (after its last save) and takes `release` as the new lock. */
  private async switchTo(release: (() => void) | null): Promise<void> {
    await this.idle();
    this.release?.();
    this.release = release;
    this.saver.open = null;
    this.saver.saving = release !== null && this.store !== null;
    if (this.saver.saving) this.warning = null;
  }

  // ── Reporting ────────────────────────────────────────────────────────────────────────────────────

  private stopSaving(code: PersistenceWarningCode, message: string, cluster?: string): void {
    this.saver.saving = false;
    this.warning = cluster === undefined ? { code, message } : { code, message, cluster };
    this.postPersistence();
  }

  private warn(code: PersistenceWarningCode, message: string): void {
    this.warning = { code, message };
    this.postPersistence();
  }

  private postPersistence(): void {
    this.host.emit({
      type: 'persistence',
      mode: this.saver.saving ? 'saving' : 'memory-only',
      clusterId: this.saver.open?.id ?? null,
      lastPersistedStep: this.saver.lastPersistedStep,
      warning: this.warning,
    });
  }

  private async postClusters(list?: readonly ClusterRecord[]): Promise<void> {
    const clusters = list ?? (this.store ? await this.store.list() : []);
    const summaries: SavedClusterSummary[] = clusters.map(({ id, name, seed, nodes, storageMediaType, etcdMembers, created, updated, headStep, commands }) => ({
      id, name, seed, nodes, ...specOptions({ storageMediaType, etcdMembers }), created, updated, headStep, commands,
    }));
    this.host.emit({ type: 'clusters', clusters: summaries, openId: this.saver.saving ? (this.saver.open?.id ?? null) : null });
  }

  private async nextName(): Promise<string> {
    const names = new Set((this.store ? await this.store.list() : []).map((c) => c.name));
    for (let n = 1; ; n++) if (!names.has(`Cluster ${n}`)) return `Cluster ${n}`;
  }

  private requireStore(): SavedStore {
    if (!this.store) throw new Error(`saved clusters are unavailable: ${this.warning?.message ?? 'IndexedDB is not open'}`);
    return this.store;
  }

  /** Runs an async operation; a failure is answered as an `error` of its command. */
  private fail(command: Command['type'] | null, error: unknown): void {
    const event: WorkerEvent = { type: 'error', command, message: messageOf(error) };
    this.host.emit(event);
  }
}

function checkName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed === '' || trimmed.length > 200) throw new RangeError('a cluster name must have 1 to 200 characters');
  return trimmed;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The saved clusters' commands' store work under way: tests wait for it with `done`. */
class CommandWork {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly fail: (command: Command['type'], error: unknown) => void) {}

  run(command: Command['type'], work: () => Promise<void>): void {
    const running = work().catch((error: unknown) => this.fail(command, error)).finally(() => this.running.delete(running));
    this.running.add(running);
  }

  /** Resolves once every command's work under way (and any started meanwhile) has ended. */
  async done(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
