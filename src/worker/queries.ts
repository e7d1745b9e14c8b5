// Answers the UI's inspection queries from the hosted cluster's own state, read-only:
//   objects     every pod, replicaset, deployment, node and event as etcd stores it, decoded as the
//               apiserver decodes it (resourceVersion = the key's mod_revision) and printed with the
//               server's Table printers (src/sim/api/printers.ts), so the cells are what kubectl shows;
//   scheduler   kube-scheduler's per-attempt records (per node, per plugin filter verdicts and scores);
//   watchers    the watches open at kube-apiserver (from the trace: watch requests not yet ended) and
//               the watchers inside etcd's store;
//   causeChain  a delivered message's causes back to the root, from the engine's trace (older steps'
//               payloads rebuilt from their light records where etcd's history allows).

import {
  objectsWindowLimit, schedulerListLimit,
  type ApiserverWatch, type CauseChainEvent, type EtcdWatch, type WatchersView, type WatchCacheView, type InspectionEvent, type InspectQuery, type InspectTopic, type ObjectsQuery, type ObjectCondition,
  type ObjectRow, type ObjectsView, type ObjectTable, type OwnerRef, type SchedulerAttempt, type SchedulerAttemptSummary, type SchedulerQuery, type SchedulerView, type TraceRecord,
} from '../protocol/index.ts';
import { tableColumns, tableRowCells } from '../sim/api/printers.ts';
import { resourceForKind, servedResources, type ResourceInfo } from '../sim/api/resources.ts';
import type { KubeObject } from '../sim/api/types/meta.ts';
import { decodeObject } from '../sim/apiserver/storage/codec.ts';
import { httpKinds, type HttpCancel, type HttpRequest, type HttpResponse, type HttpWatchEvent } from '../sim/wire/http.ts';
import { parseQuery } from '../sim/go/url.ts';
import type { Engine, Message } from '../sim/engine/index.ts';
import type { KeyValue } from '../sim/etcd/index.ts';
import type { AttemptLog, AttemptRecord } from '../sim/scheduler/index.ts';
import type { KeyspaceSource } from './keyspace.ts';
import { ObjectLists, placeOf } from './object-lists.ts';
import { partitionPoint } from './sorted.ts';

/** What the queries read of a cluster (`Cluster` from src/sim/cluster.ts has all of it). */
export interface InspectedCluster {
  readonly engine: Engine;
  readonly etcd?: KeyspaceSource;
  /** kube-scheduler's attempt log: the records kept, and how many older ones it dropped. */
  readonly scheduler?: { readonly attemptLog: Pick<AttemptLog, 'records' | 'dropped' | 'total'> } | null;
  /** kube-apiserver, for its watch caches' windows (KubeApiserver.watchCacheWindows). */
  readonly apiserver?: { watchCacheWindows?(): readonly WatchCacheView[] } | null;
}

export const registryPrefix = '/registry';

/** The objects panel's resources, in the order shown: (group, resource). */
const shownResources: ReadonlyArray<readonly [string, string]> = [
  ['', 'pods'], ['apps', 'replicasets'], ['apps', 'deployments'], ['', 'nodes'], ['', 'events'],
];

/** Columns beyond priority 0 that the panel shows anyway (`kubectl get -o wide` has them). */
const wideColumnsShown: ReadonlySet<string> = new Set(['Node']);

/** The timeline position the UI shows: its step, virtual time and etcd revision. */
export interface InspectedPosition {
  readonly step: number;
  readonly now: number;
  readonly revision: number;
}

/**
 * The state at `at` (by default the live head). A past position reads etcd at its revision (MVCC
 * history; a compacted revision falls back to the head, said in the view) and keeps the scheduling
 * attempts made by its virtual time. `query` picks the objects' window and the attempts listed and detailed.
 */
export function inspect(cluster: InspectedCluster, topics: readonly InspectTopic[], at?: InspectedPosition, query: InspectQuery = {}): InspectionEvent {
  const position = at ?? { step: cluster.engine.step, now: cluster.engine.now, revision: cluster.etcd?.store.currentRev ?? 0 };
  let event: InspectionEvent = { type: 'inspection', step: position.step };
  if (topics.includes('objects')) event = { ...event, objects: cluster.etcd ? objectsView(cluster.etcd, cluster.engine.epochMs + position.now, position.revision, query.objects) : null };
  if (topics.includes('scheduler')) {
    event = { ...event, scheduler: cluster.scheduler ? schedulerView(cluster.scheduler.attemptLog, position.now, query.scheduler ?? {}) : null };
  }
  if (topics.includes('watchers')) event = { ...event, watchers: watchersView(cluster) };
  return event;
}

/** The etcd key of an object of resource `r`. */
export function keyOf(r: ResourceInfo, namespace: string | undefined, name: string): string {
  return r.namespaced ? `${registryPrefix}/${r.storageResource}/${namespace ?? 'default'}/${name}` : `${registryPrefix}/${r.storageResource}/${name}`;
}

/** A shown resource: what it is, its key prefix, and the indexes of the printer's columns the panel shows. */
interface ShownResource {
  readonly info: ResourceInfo;
  readonly prefix: string;
  readonly columns: readonly number[];
}

/** The shown resources, in order, and the columns of each: priority 0, and the wide ones the panel keeps. */
const shown: readonly ShownResource[] = shownResources.flatMap(([group, resourceName]) => {
  const info = servedResources.find((s) => s.group === group && s.resource === resourceName);
  if (!info) return [];
  const columns = tableColumns(info).map((c, i) => (c.priority === 0 || wideColumnsShown.has(c.name) ? i : -1)).filter((i) => i >= 0);
  return [{ info, prefix: `${registryPrefix}/${info.storageResource}/`, columns }];
});

/** Each etcd source's object lists (a new cluster is a new source). */
const objectLists = new WeakMap<KeyspaceSource, ObjectLists>();

/**
 * The objects at etcd `revision` (the head when it is current, compacted or absent): every shown resource's
 * count, and rows of one resource in the window asked for, plus the selected key's. Only those rows are read
 * with their values and decoded; the counts and places come from the resources' key lists, kept between
 * answers and moved from revision to revision by the keys written between (object-lists.ts), so an answer
 * costs a window's decoding, not the cluster's objects.
 */
export function objectsView(etcd: KeyspaceSource, nowMs: number, revision?: number, query: ObjectsQuery = {}): ObjectsView {
  const { currentRev, compactMainRev } = etcd.store;
  const readable = revision !== undefined && revision >= 1 && revision < currentRev && revision >= compactMainRev;
  const at = readable ? revision : currentRev;
  let lists = objectLists.get(etcd);
  if (!lists) objectLists.set(etcd, lists = new ObjectLists(etcd, shown.map((s) => s.prefix)));
  const keysOf = (s: ShownResource) => lists.keys(s.prefix, at);
  const tables: ObjectTable[] = shown.map((s) => ({
    resource: s.info.resource, kind: s.info.kind, prefix: s.prefix, namespaced: s.info.namespaced,
    columns: s.columns.map((i) => tableColumns(s.info)[i]!.name), count: keysOf(s).length,
  }));
  const rowOf = (s: ShownResource, key: string) => {
    const kv = etcd.kv.range({ key, ...(at < currentRev ? { revision: at } : {}) }).kvs[0];
    return kv ? objectRow(s, kv, nowMs) : null;
  };
  const listed = shown.find((s) => s.info.resource === query.resource) ?? shown[0]!;
  const keys = keysOf(listed);
  const offset = Math.max(0, Math.min(Math.floor(query.offset ?? 0), keys.length));
  const limit = Math.max(0, Math.min(Math.floor(query.limit ?? objectsWindowLimit), objectsWindowLimit));
  const rows = keys.slice(offset, offset + limit).map((key) => rowOf(listed, key)).filter((row) => row !== null);
  return { listResourceVersion: String(at), tables, resource: listed.info.resource, offset, rows, selected: selectedObject(query.key, keysOf, rowOf) };
}

/** The selected key's row and place in its resource's list (keys in byte order, as etcd ranges them). */
function selectedObject(
  key: string | null | undefined, keysOf: (s: ShownResource) => readonly string[], rowOf: (s: ShownResource, key: string) => ObjectRow | null,
): ObjectsView['selected'] {
  const holder = key ? shown.find((s) => key.startsWith(s.prefix)) : undefined;
  if (!key || !holder) return null;
  const keys = keysOf(holder);
  const index = placeOf(keys, key);
  const row = keys[index] === key ? rowOf(holder, key) : null;
  return row ? { resource: holder.info.resource, index, row } : null;
}

function objectRow(s: ShownResource, kv: KeyValue, nowMs: number): ObjectRow {
  const obj = decodeObject(kv.value, kv.modRevision);
  const cells = tableRowCells(s.info, obj, nowMs).cells;
  return {
    key: kv.key,
    namespace: obj.metadata.namespace ?? null,
    name: obj.metadata.name ?? '',
    uid: obj.metadata.uid ?? '',
    cells: s.columns.map((i) => cellText(cells[i])),
    resourceVersion: obj.metadata.resourceVersion ?? '',
    modRevision: kv.modRevision,
    generation: obj.metadata.generation ?? null,
    observedGeneration: observedGeneration(obj),
    ownerReferences: (obj.metadata.ownerReferences ?? []).map(ownerRef(obj.metadata.namespace)),
    conditions: conditionsOf(obj),
    deleting: obj.metadata.deletionTimestamp !== undefined,
  };
}

function cellText(cell: unknown): string {
  return cell === null || cell === undefined ? '<none>' : String(cell);
}

function ownerRef(namespace: string | undefined) {
  return (ref: { apiVersion: string; kind: string; name: string; controller?: boolean }): OwnerRef => {
    const slash = ref.apiVersion.indexOf('/');
    const [group, version] = slash < 0 ? ['', ref.apiVersion] : [ref.apiVersion.slice(0, slash), ref.apiVersion.slice(slash + 1)];
    const r = resourceForKind({ group, version, kind: ref.kind });
    return { kind: ref.kind, name: ref.name, controller: ref.controller === true, key: r ? keyOf(r, namespace, ref.name) : null };
  };
}

function observedGeneration(obj: KubeObject): number | null {
  const status = (obj as { status?: { observedGeneration?: unknown } }).status;
  return typeof status?.observedGeneration === 'number' ? status.observedGeneration : null;
}

function conditionsOf(obj: KubeObject): ObjectCondition[] {
  const conditions = (obj as { status?: { conditions?: unknown } }).status?.conditions;
  if (!Array.isArray(conditions)) return [];
  return conditions.map((c: Record<string, unknown>) => ({
    type: String(c.type ?? ''),
    status: String(c.status ?? ''),
    reason: typeof c.reason === 'string' ? c.reason : '',
    message: typeof c.message === 'string' ? c.message : '',
  }));
}

/**
 * The attempts made by virtual time `now` (the log is in time order): the newest matching `query.pod`, as
 * summaries, and one in full. Its cost follows the list's bound and one attempt's nodes, not the log.
 */
export function schedulerView(log: Pick<AttemptLog, 'records' | 'dropped'>, now: number, query: SchedulerQuery): SchedulerView {
  const { records, dropped } = log;
  // The first record made after `now`.
  const made = partitionPoint(records.length, (i) => records[i]!.time <= now);
  const pod = query.pod?.trim() ?? '';
  const matches = (a: AttemptRecord) => pod === '' || a.pod.includes(pod);
  const attempts: SchedulerAttemptSummary[] = [];
  let matching = 0;
  let newest = -1;
  for (let i = made - 1; i >= 0; i--) {
    const a = records[i]!;
    if (!matches(a)) continue;
    matching++;
    if (newest < 0) newest = i;
    if (attempts.length < schedulerListLimit) attempts.push(summaryOf(a, dropped + i + 1));
    else if (pod === '') {
      matching += i;
      break;
    }
  }
  const asked = query.seq === undefined ? -1 : query.seq - dropped - 1;
  const shown = asked >= 0 && asked < made && matches(records[asked]!) ? asked : newest;
  const view = { made: dropped + made, dropped, pod, matching, attempts };
  // The attempt the page holds already is not built and sent again: an attempt is the same at every step after it.
  if (shown >= 0 && query.held === dropped + shown + 1) return { ...view, detail: null, detailHeld: query.held };
  return { ...view, detail: shown >= 0 ? toAttempt(records[shown]!, dropped + shown + 1) : null };
}

function summaryOf(a: AttemptRecord, seq: number): SchedulerAttemptSummary {
  return { seq, pod: a.pod, attempt: a.attempt, time: a.time, selected: a.selected, message: a.message, bound: a.bound };
}

function toAttempt(a: AttemptRecord, seq: number): SchedulerAttempt {
  return {
    ...summaryOf(a, seq),
    nodes: a.nodes.map((n) => ({
      node: n.node,
      feasible: n.feasible,
      finalScore: n.finalScore,
      filters: n.filters.map((f) => ({ plugin: f.plugin, pass: f.pass, reasons: [...f.reasons] })),
      scores: n.scores.map((s) => ({ ...s })),
    })),
  };
}

/** What the watchers view reads of etcd's store, when it has it (EtcdServer's WatchableStore does). */
interface EtcdWatcherGroups {
  readonly synced: { readonly watchers: Iterable<EtcdWatcherLike> };
  readonly unsynced: { readonly watchers: Iterable<EtcdWatcherLike> };
}
interface EtcdWatcherLike {
  readonly id: number;
  readonly key: string;
  readonly end: string | undefined;
  readonly minRev: number;
}

/**
 * Open watches. At kube-apiserver: every watch request (`watch=true`) delivered to it whose stream has
 * not ended (`http.watchEnd`, a non-streaming response, or the client's `http.cancel`), read from the
 * retained trace. In etcd: the store's synced and unsynced watchers.
 */
export function watchersView(cluster: InspectedCluster): WatchersView {
  const open = new Map<number, { -readonly [K in keyof ApiserverWatch]: ApiserverWatch[K] }>();
  const records = cluster.engine.trace.all();
  const firstStep = cluster.engine.trace.firstStep;
  for (let i = 0; i < records.length; i++) {
    const m = records[i]!;
    if (m.kind === httpKinds.request && m.to === 'kube-apiserver') {
      const request = m.payload as HttpRequest;
      const params = parseQuery(request.query ?? '');
      if (params.get('watch') !== 'true' && params.get('watch') !== '1') continue;
      open.set(m.id, {
        requestId: m.id, who: m.from, path: request.path,
        labelSelector: params.get('labelSelector') ?? '', fieldSelector: params.get('fieldSelector') ?? '',
        resourceVersion: params.get('resourceVersion') ?? '', openedAt: firstStep + i, events: 0, lastResourceVersion: '',
      });
    } else if (m.replyTo !== null && open.has(m.replyTo)) {
      const watch = open.get(m.replyTo)!;
      if (m.kind === httpKinds.watchEnd || (m.kind === httpKinds.response && (m.payload as HttpResponse).stream !== true)) open.delete(m.replyTo);
      else if (m.kind === httpKinds.watchEvent) {
        watch.events++;
        const rv = (m.payload as HttpWatchEvent).object as { metadata?: { resourceVersion?: string } } | undefined;
        watch.lastResourceVersion = rv?.metadata?.resourceVersion ?? watch.lastResourceVersion;
      }
    } else if (m.kind === httpKinds.cancel) {
      open.delete((m.payload as HttpCancel).requestId);
    }
  }
  const store = cluster.etcd?.store as Partial<EtcdWatcherGroups> | undefined;
  const etcd: EtcdWatch[] = [];
  const add = (watchers: Iterable<EtcdWatcherLike> | undefined, synced: boolean) => {
    for (const w of watchers ?? []) etcd.push({ id: w.id, key: w.key, rangeEnd: w.end ?? null, nextRevision: w.minRev, synced });
  };
  add(store?.synced?.watchers, true);
  add(store?.unsynced?.watchers, false);
  etcd.sort((a, b) => a.id - b.id);
  const caches = cluster.apiserver?.watchCacheWindows?.() ?? [];
  return { apiserver: [...open.values()], etcd, caches, partial: firstStep > 1 };
}

/** Message `id` and its causes back to the root, from the engine's retained trace (each with its story level, via `annotate`). */
export function causeChain(engine: Engine, id: number, annotate: (step: number, message: Message) => TraceRecord = (step, message) => ({ step, ...message })): CauseChainEvent {
  const records = engine.trace.all();
  const firstStep = engine.trace.firstStep;
  const indexOf = new Map<number, number>();
  for (let i = 0; i < records.length; i++) indexOf.set(records[i]!.id, i);
  const chain: TraceRecord[] = [];
  let next: number | null = id;
  let truncated = false;
  while (next !== null) {
    const i = indexOf.get(next);
    if (i === undefined) {
      if (chain.length === 0) throw new RangeError(`no delivered message ${id} in the trace`);
      truncated = true;
      break;
    }
    const message: Message = records[i]!;
    // An older step's payload is rebuilt from history where its light record allows (else its summary).
    const { payload, kept } = engine.trace.payloadAt(firstStep + i)!;
    const record = annotate(firstStep + i, kept === 'whole' ? message : { ...message, payload });
    chain.push(kept === 'whole' ? record : { ...record, payloadKept: kept });
    next = message.cause;
  }
  return { type: 'causeChain', id, chain, truncated };
}
