// Saved clusters and persistence as the UI sees them. The worker keeps several named clusters in
// IndexedDB (seed, node count, command log, view snapshots); the one that is open is saved as it runs,
// batched per frame or fast-forward chunk in single transactions, so a crash leaves a consistent prefix.
// On start the worker reopens the cluster used last (restoring its last persisted step); a new worker after
// a crash does the same, which is how the UI "restarts from the last persisted step".
//
// Faults never stop the app: when storage fails the worker says so with a `persistence` event carrying a
// warning, and the cluster keeps running in memory.

import type { EtcdMemberCount } from './commands.ts';
import type { FaultSpec } from './console.ts';

/** A saved cluster in the list. Times are wall-clock epoch milliseconds (display only). */
export interface SavedClusterSummary {
  /** Stable id (opaque string). */
  readonly id: string;
  readonly name: string;
  readonly seed: string | number;
  readonly nodes: number;
  /** kube-apiserver's `--storage-media-type`; absent means protobuf. */
  readonly storageMediaType?: 'protobuf' | 'json';
  /** etcd members; absent means 1. */
  readonly etcdMembers?: EtcdMemberCount;
  readonly created: number;
  readonly updated: number;
  /** The newest step persisted. */
  readonly headStep: number;
  /** User commands in its log. */
  readonly commands: number;
}

export interface ClustersEvent {
  readonly type: 'clusters';
  readonly clusters: readonly SavedClusterSummary[];
  /** The cluster the worker hosts now; null when it runs an unsaved (in-memory) cluster. */
  readonly openId: string | null;
}

/** What can go wrong with storage; each comes with a message the UI shows as is. */
export type PersistenceWarningCode =
  /** IndexedDB is missing or refuses to open (private browsing, disabled storage). */
  | 'unavailable'
  /** The browser's storage quota is full; nothing after `lastPersistedStep` is saved. */
  | 'quota-exceeded'
  /** Another tab holds an older version of the database open and does not close it. */
  | 'blocked'
  /** The saved cluster is open in another tab; this tab works on an unsaved copy. */
  | 'other-tab'
  /** A write failed for another reason (the message says which). */
  | 'write-failed'
  /** A saved cluster could not be read back (corrupt or from a newer Podflow). */
  | 'read-failed';

export interface PersistenceWarning {
  readonly code: PersistenceWarningCode;
  /** What happened, in English, with its details (the browser's error); the page shows it as is in English. */
  readonly message: string;
  /** The saved cluster it is about, for a warning that names one (`other-tab`). */
  readonly cluster?: string;
}

export type PersistenceMode =
  /** Everything up to `lastPersistedStep` is in IndexedDB; newer steps follow with the next batch. */
  | 'saving'
  /** Nothing is saved any more (see the warning); the app works in memory. */
  | 'memory-only';

export interface PersistenceEvent {
  readonly type: 'persistence';
  readonly mode: PersistenceMode;
  /** The saved cluster being written; null in memory-only mode without a saved cluster. */
  readonly clusterId: string | null;
  /** The newest step whose state is committed to IndexedDB; null when none. */
  readonly lastPersistedStep: number | null;
  /** Set when something went wrong (posted once per new problem, then repeated with later events). */
  readonly warning: PersistenceWarning | null;
}

/** Answer to `exportCluster`: the file to save and, for small clusters, a share link fragment. */
export interface ClusterExportEvent {
  readonly type: 'clusterExport';
  readonly id: string;
  /** Suggested file name, e.g. `nginx-demo.podflow.json`. */
  readonly fileName: string;
  /** The export file's text (`ClusterExportFile` as JSON). */
  readonly json: string;
  /**
   * `#cluster=…` to append to the app's URL (seed + nodes + commands), or null when the cluster is too big
   * for a link (more than `shareLinkMaxLength` characters).
   */
  readonly shareFragment: string | null;
}

/** One logged user command: the command as posted and where it was applied. */
export interface LoggedCommand {
  /** The number of deliveries before it was applied. */
  readonly step: number;
  /** The virtual time when it was applied (playing can move the clock between deliveries). */
  readonly at: number;
  readonly command: LoggableCommand;
}

/** The commands that change the simulation and therefore go into the log. */
export type LoggableCommand =
  | { readonly type: 'applyManifest'; readonly yaml: string }
  | { readonly type: 'userRequest'; readonly to: string; readonly kind: string; readonly payload: unknown }
  /** A kubectl or etcdctl command line run in the console (see console.ts), and Ctrl-C for one. */
  | { readonly type: 'consoleRun'; readonly id: number; readonly line: string; readonly stdin?: string }
  | { readonly type: 'consoleInterrupt'; readonly id: number }
  /** A fault injected from the faults panel. */
  | { readonly type: 'fault'; readonly fault: FaultSpec };

/**
 * The export file: everything needed to rebuild the cluster by replay. Validated field by field on import;
 * anything unexpected rejects the whole file.
 */
export interface ClusterExportFile {
  readonly format: 'podflow-cluster';
  readonly version: 1;
  readonly name: string;
  readonly seed: string | number;
  readonly nodes: number;
  /**
   * kube-apiserver's storage media type when it is not the default (protobuf): a JSON cluster's file says
   * `"json"` so its import replays with the same encoding (and so the same value sizes); absent means protobuf,
   * which keeps files written before the option readable.
   */
  readonly storageMediaType?: 'json';
  /** etcd members when more than one; absent means 1, which keeps files written before the option readable. */
  readonly etcdMembers?: 3 | 5;
  /** Wall-clock epoch ms when it was created. */
  readonly created: number;
  /** The step the cluster had reached (replay runs to here). */
  readonly headStep: number;
  /** In step order. */
  readonly commands: readonly LoggedCommand[];
}

export const clusterExportFormat = 'podflow-cluster';
export const clusterExportVersion = 1;
/** The longest share fragment the worker offers (URLs beyond a few thousand characters break in places). */
export const shareLinkMaxLength = 8_000;
/** Imports larger than this are refused before parsing. */
export const importMaxBytes = 20 * 1024 * 1024;
/** The URL fragment key of a share link: `#cluster=<base64url JSON>`. */
export const shareFragmentKey = 'cluster';
