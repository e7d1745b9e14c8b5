// Saving the open cluster (the saved-cluster manager's part of the host's journal, saved-clusters.ts).
// After every report at the head the host hands over what changed; one save at a time is in flight, and
// whatever accumulates meanwhile goes into the next one (so a fast-forward costs one transaction per
// chunk, a play session about one per frame). A save holds the new commands, the head's view (status,
// markers), the trace's deliveries since the previous save and the keys changed since then, each as it is
// now: the whole trace tail and keyspace only after a reset, a fork, or a restore (for the keyspace, of a
// save older than IndexedDB version 3). A failed save rolls back whole (persistence.ts): what IndexedDB
// holds is the previous save, intact.

import type { KeyChange, KeyEntry, TraceRecord } from '../protocol/index.ts';
import { traceTailLimit } from '../protocol/index.ts';
import { specOptions, type SimHost } from './host.ts';
import type { ClusterRecord, KeysBatch, LoadedCluster, SaveBatch, SavedStore, TailBatch } from './persistence.ts';

/** What the saver tells the manager about each save. */
export interface SaveOutcome {
  committed(): void;
  failed(error: unknown): void;
}

export class ClusterSaver {
  store: SavedStore | null = null;
  /** The open saved cluster (null: none, e.g. an unsaved import), kept current by every save. */
  open: ClusterRecord | null = null;
  /** False in memory-only mode. */
  saving = false;
  /** True while a restore rebuilds the open cluster: nothing is saved meanwhile. */
  restoring = false;
  /** The head step of the last committed save (null: none yet). */
  lastPersistedStep: number | null = null;
  private persistedCommands = 0;
  private truncateFrom: number | null = null;
  /** The next save writes the whole keyspace. */
  private needWhole = true;
  private pendingChanges: KeyChange[] = [];
  /** The trace's newest deliveries (up to twice `traceTailLimit` between saves). */
  private traceTail: TraceRecord[] = [];
  /** The step of the newest delivery saved; null: the next save writes the whole trace tail. */
  private tailSavedThrough: number | null = null;
  private inFlight: Promise<void> | null = null;
  private dirty = false;

  constructor(private readonly host: SimHost, private readonly now: () => number, private readonly outcome: SaveOutcome) {}

  /** Resolves when every save requested so far is committed (or has failed). */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  /** A new timeline began in the host: what was saved after `keepCommands` commands is void. */
  began(keepCommands: number): void {
    if (this.restoring) return;
    const { host } = this;
    this.truncateFrom = Math.min(this.truncateFrom ?? keepCommands, keepCommands);
    this.persistedCommands = Math.min(this.persistedCommands, keepCommands);
    this.needWhole = true;
    this.pendingChanges = [];
    this.traceTail = host.headTail();
    this.tailSavedThrough = null;
    if (this.open) {
      // The new spec replaces the old one whole: a reset to 1 member or to protobuf drops the fields it leaves absent.
      const { storageMediaType: _media, etcdMembers: _members, ...open } = this.open;
      this.open = { ...open, seed: host.spec.seed, nodes: host.spec.nodes, ...specOptions(host.spec) };
    }
    this.flush();
  }

  /**
   * The host reported at the head: its new deliveries and keyspace changes go into the next save. Not saving
   * (memory only: no IndexedDB, another tab's copy, a failed write), nothing is kept for a save that will not
   * come: saving starts again only with a new base (`began`, `restarted`). (They were kept: every keyspace
   * change with its value, for as long as the tab lived; a 150,000-Pod cluster in a process of its own, which
   * then had no storage, died of it at 76,017 Pods Running.)
   */
  recorded(batch: { readonly records: readonly TraceRecord[]; readonly changes: { readonly changes: readonly KeyChange[] } | null }): void {
    if (this.restoring || !this.saving) return;
    if (batch.records.length > 0) {
      this.traceTail.push(...batch.records);
      if (this.traceTail.length > 2 * traceTailLimit) this.traceTail = this.traceTail.slice(-traceTailLimit);
    }
    // A whole keyspace is read when the save is made: the changes before it are in it.
    if (batch.changes && !this.needWhole) this.pendingChanges.push(...batch.changes.changes);
    this.flush();
  }

  /** A saved cluster is being restored with `commands` of its log saved (and what `loaded` holds of it). */
  restarted(record: ClusterRecord | null, commands: number, loaded: LoadedCluster | null): void {
    this.open = record;
    this.persistedCommands = commands;
    this.truncateFrom = null;
    this.needWhole = !loaded?.keyspace || loaded.keyspace.legacy === true;
    this.pendingChanges = [];
    this.traceTail = [...(loaded?.head?.traceTail ?? [])];
    // Written whole once, as a version 1 or 2 head held it itself.
    this.tailSavedThrough = null;
    this.lastPersistedStep = loaded?.head ? loaded.head.step : null;
    this.restoring = true;
  }

  /** Starts a save of everything pending unless one is in flight (then it follows that one). */
  flush(): void {
    if (!this.store || !this.saving || !this.open || this.restoring) return;
    if (this.inFlight) {
      this.dirty = true;
      return;
    }
    const batch = this.batch(this.open);
    const committed = { commands: this.host.timeline.log.length, step: batch.head.step };
    this.inFlight = this.store.save(batch).then(
      () => {
        this.persistedCommands = committed.commands;
        this.lastPersistedStep = committed.step;
        this.outcome.committed();
      },
      (error: unknown) => this.outcome.failed(error),
    ).finally(() => {
      this.inFlight = null;
      if (this.dirty) {
        this.dirty = false;
        this.flush();
      }
    });
  }

  private batch(open: ClusterRecord): SaveBatch {
    const { host } = this;
    const timeline = host.timeline;
    const head = timeline.head;
    const sample = timeline.sample(head);
    const log = timeline.log;
    const newCommands = log.slice(this.persistedCommands).map((entry, i) => ({ clusterId: open.id, index: this.persistedCommands + i, entry }));
    // What is persisted counts as sent from here on; a failed save stops saving altogether.
    const truncateFrom = this.truncateFrom;
    this.truncateFrom = null;
    this.persistedCommands = log.length;
    let keyspace: KeysBatch | null = null;
    const tracker = host.keyspaceTracker;
    if (tracker && this.needWhole) {
      keyspace = { revision: sample.revision, whole: true, put: tracker.entriesAt(sample.revision), deleted: [] };
      this.needWhole = false;
    } else if (tracker && this.pendingChanges.length > 0) {
      keyspace = { revision: sample.revision, whole: false, ...latestOfEach(this.pendingChanges) };
    }
    this.pendingChanges = [];
    this.traceTail = this.traceTail.slice(-traceTailLimit);
    const keepFrom = this.traceTail[0]?.step ?? 0;
    const savedThrough = this.tailSavedThrough;
    const unsaved = savedThrough === null ? this.traceTail.slice() : this.traceTail.filter((record) => record.step > savedThrough);
    const traceTail: TailBatch | null = savedThrough === null || unsaved.length > 0 ? { whole: savedThrough === null, records: unsaved, keepFrom } : null;
    this.tailSavedThrough = this.traceTail.at(-1)?.step ?? savedThrough ?? -1;
    this.open = { ...open, headStep: head, commands: log.length, updated: this.now() };
    return {
      cluster: this.open,
      truncateCommandsFrom: truncateFrom,
      newCommands,
      head: {
        clusterId: open.id, step: head, bootSteps: timeline.bootSteps, sample,
        compactRevision: tracker ? tracker.compactRevision : -1,
        markers: timeline.markers.slice(),
      },
      traceTail,
      keyspace,
    };
  }
}

/** Each key's last change: the keys written, as they are now, and the keys deleted. */
function latestOfEach(changes: readonly KeyChange[]): { put: KeyEntry[]; deleted: string[] } {
  const last = new Map<string, KeyChange>();
  for (const change of changes) last.set(change.key, change);
  const put: KeyEntry[] = [];
  const deleted: string[] = [];
  for (const change of last.values()) {
    if (change.deleted) deleted.push(change.key);
    else put.push({ key: change.key, createRevision: change.createRevision, modRevision: change.modRevision, version: change.version, lease: change.lease, value: change.value });
  }
  return { put, deleted };
}
