// Guided tours as data. A tour names what to run (a scenario of the catalog, or its own commands) and
// where to stop; each stop is bound to something the model really does — a typed milestone (story.ts) or
// a message of the trace (its kind, route, path or key, …) — never to a step number. The worker finds
// the stops in the trace it recorded (`tourLocate` → `tourStops`); a test runs every tour and fails when a
// stop's milestone or message no longer occurs, or no longer in the tour's order.
//
// Finding the stops. Stop i is searched after the first match of stop i − 1 (the first stop from step 1,
// boot included: seed 004's step 0 happens while the cluster starts). A stop with `count: n` shows its
// first n matches (the two Pods of a ReplicaSet) and is reached when the last of them has happened.
//
// The texts are ours, in English and 中文; the facts follow the seeds (seeds/000, 001, 004).

import { consensusRead, leaderDeath } from './raft-tours.ts';
import type { ScenarioStepSpec } from './scenarios.ts';
import type { Milestone, MilestoneKind } from './story.ts';
import type { TraceRecord } from './trace.ts';

export interface TourText {
  readonly en: string;
  readonly zh: string;
}

/** What a tour runs on a fresh cluster, in order. */
export type TourStep =
  /** Every step of a scenario of the catalog (src/sim/scenarios/catalog.ts), as the Scenarios tab runs them. */
  | { readonly do: 'scenario'; readonly id: string }
  /** A console line; `{resourceVersion}` stands for the metadata.resourceVersion the previous line printed. */
  | { readonly do: 'run'; readonly line: string }
  | Extract<ScenarioStepSpec, { readonly do: 'fault' | 'runUntilIdle' | 'advance' }>;

/**
 * A message of the trace. Every field given must hold. Text fields are fragments (`*` matches any run of
 * characters other than `?`); component names ending in `/` match by prefix (`kubelet/`), and so do names
 * ending in `*` (`etcd-*`: any member of a raft cluster).
 */
export interface MessageMatcher {
  /** `http.request`, `http.response`, `http.watchEvent`, `etcd.Txn`, `etcd.WatchResponse`, … */
  readonly kind: string | readonly string[];
  readonly from?: string;
  readonly to?: string;
  /** HTTP method of the request (of the request answered, for a response). */
  readonly method?: string;
  /**
   * A fragment of what the message is about: the HTTP path (of the request answered, for a response),
   * the etcd key(s) of a Txn, Range, watch event or their replies; for an HTTP watch event, its object's
   * `namespace/name` and the path of the watch request it belongs to.
   */
  readonly path?: string;
  readonly pathLacks?: string;
  /** A fragment of the HTTP query (of the request answered, for a response). */
  readonly query?: string;
  readonly queryLacks?: string;
  /** An HTTP watch event's type (ADDED, MODIFIED, DELETED, ERROR) or an etcd watch event's (PUT, DELETE). */
  readonly eventType?: string;
  /** The kind of an HTTP watch event's object (`Pod`, `ReplicaSet`, `Status`). */
  readonly objectKind?: string;
  /**
   * What an etcd write did: `create` (a Txn whose compare is mod_revision == 0, or a watch event of a new
   * key), `update` (a compare on a non-zero mod_revision with a put; a watch event of an existing key),
   * `delete` (a Txn that deletes, a DELETE watch event).
   */
  readonly write?: 'create' | 'update' | 'delete';
  /** An HTTP response's status code, or the code of a watch ERROR event's Status. */
  readonly status?: number;
  /** A fragment of the payload as JSON. */
  readonly includes?: string;
  /** Some message on its cause chain (what made it happen) matches. */
  readonly causedBy?: MessageMatcher;
}

/** A milestone the worker classified (story.ts). Names may end in `*` (a prefix). */
export interface MilestoneMatcher {
  readonly kind: MilestoneKind;
  readonly resource?: string;
  readonly name?: string;
  /** For `watchSeen`: the component that saw it (`kubelet/` matches every kubelet). */
  readonly watcher?: string;
  readonly node?: string;
  readonly eventType?: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** For `podPhase`: the phase stored, and whether the Pod is Ready. */
  readonly phase?: string;
  readonly ready?: boolean;
}

export type StopMatcher = { readonly message: MessageMatcher } | { readonly milestone: MilestoneMatcher };

export interface TourStop {
  /** Stable within its tour. */
  readonly id: string;
  /** The seed's own step number: the stop is titled 步骤 N / Step N. */
  readonly seedStep?: number;
  readonly title: TourText;
  readonly text: TourText;
  /** Components to highlight besides the ends of the matched messages. */
  readonly components?: readonly string[];
  readonly match: StopMatcher;
  /** How many matches the stop shows (default 1); it is reached when the last has happened. */
  readonly count?: number;
}

export interface Tour {
  readonly id: string;
  readonly title: TourText;
  readonly description: TourText;
  /** e.g. `seeds/004`. */
  readonly source: string;
  readonly nodes: number;
  /** etcd members of the tour's cluster (absent: 1). */
  readonly etcdMembers?: 3 | 5;
  readonly steps: readonly TourStep[];
  readonly stops: readonly TourStop[];
}

// ── Commands and events ───────────────────────────────────────────────────────────────────────────

/** Finds the stops of tour `tour` in the trace recorded so far; answered by a `tourStops` event. */
export interface TourLocateCommand {
  readonly type: 'tourLocate';
  readonly tour: string;
}

export interface LocatedStop {
  /** The step at which the stop is reached (its last match); null when it was not found. */
  readonly step: number | null;
  /** The matched deliveries, in step order (with their payloads: the Txn, the watch event). */
  readonly records: readonly TraceRecord[];
  /** Components to highlight: the stop's own and the ends of its messages. */
  readonly components: readonly string[];
  /** The requests that matched responses and watch events answer (their path and query, for captions). */
  readonly requests: readonly TraceRecord[];
}

export interface TourStopsEvent {
  readonly type: 'tourStops';
  readonly tour: string;
  /** One per stop of the tour, in its order. */
  readonly stops: readonly LocatedStop[];
}

// ── Matching ──────────────────────────────────────────────────────────────────────────────────────

/** The trace as the matcher reads it: deliveries in step order, and any message by id (for causes). */
export interface TourTrace {
  readonly records: readonly TraceRecord[];
  readonly byId: ReadonlyMap<number, TraceRecord>;
}

export function tourTrace(records: readonly TraceRecord[]): TourTrace {
  return { records, byId: new Map(records.map((r) => [r.id, r])) };
}

function obj(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? value as Record<string, unknown> : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function arr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

const patterns = new Map<string, RegExp>();

/** `fragment` occurs in `text`; `*` stands for any run of characters other than `?`. */
export function fragmentIn(fragment: string, text: string): boolean {
  if (!fragment.includes('*')) return text.includes(fragment);
  let pattern = patterns.get(fragment);
  if (!pattern) {
    pattern = new RegExp(fragment.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^?]*'));
    patterns.set(fragment, pattern);
  }
  return pattern.test(text);
}

function componentIs(pattern: string, name: string): boolean {
  if (pattern.endsWith('*')) return name.startsWith(pattern.slice(0, -1));
  return pattern.endsWith('/') ? name.startsWith(pattern) : name === pattern;
}

/** The HTTP request a message is or answers (a watch event answers its watch request). */
function httpRequest(record: TraceRecord, trace: TourTrace): Record<string, unknown> | undefined {
  if (record.kind === 'http.request') return obj(record.payload);
  if ((record.kind === 'http.response' || record.kind === 'http.watchEvent') && record.replyTo !== null) {
    const request = trace.byId.get(record.replyTo);
    return request?.kind === 'http.request' ? obj(request.payload) : undefined;
  }
  return undefined;
}

/** The etcd request a message is or answers. */
function etcdRequest(record: TraceRecord, trace: TourTrace): TraceRecord | undefined {
  if (!record.kind.startsWith('etcd.')) return undefined;
  if (record.kind.endsWith('Response') && record.kind !== 'etcd.WatchResponse') {
    return record.replyTo === null ? undefined : trace.byId.get(record.replyTo);
  }
  return record;
}

function opKeys(ops: unknown): string[] {
  const keys: string[] = [];
  for (const op of arr(ops)) {
    const o = obj(op);
    for (const request of [o?.['requestPut'], o?.['requestRange'], o?.['requestDeleteRange']]) {
      const key = str(obj(request)?.['key']);
      if (key !== undefined) keys.push(key);
    }
  }
  return keys;
}

function watchEvents(record: TraceRecord): readonly Record<string, unknown>[] {
  if (record.kind !== 'etcd.WatchResponse') return [];
  return arr(obj(obj(record.payload)?.['response'])?.['events']).map(obj).filter((e): e is Record<string, unknown> => e !== undefined);
}

/** What the message is about: HTTP path, etcd keys, or the watched object's `namespace/name`. */
export function subjects(record: TraceRecord, trace: TourTrace): string[] {
  const request = httpRequest(record, trace);
  const path = request ? [str(request['path']) ?? ''] : [];
  if (record.kind === 'http.watchEvent') {
    const metadata = obj(obj(obj(record.payload)?.['object'])?.['metadata']);
    const name = str(metadata?.['name']);
    if (name === undefined) return path;
    const namespace = str(metadata?.['namespace']);
    return [namespace ? `${namespace}/${name}` : name, ...path];
  }
  if (request) return path;
  if (record.kind === 'etcd.WatchResponse') return watchEvents(record).map((e) => str(obj(e['kv'])?.['key']) ?? '');
  const etcd = etcdRequest(record, trace);
  if (!etcd) return [];
  const payload = obj(etcd.payload);
  if (etcd.kind === 'etcd.Txn') {
    const keys = arr(payload?.['compare']).map((c) => str(obj(c)?.['key']) ?? '');
    return [...keys, ...opKeys(payload?.['success']), ...opKeys(payload?.['failure'])];
  }
  const key = str(payload?.['key']) ?? str(obj(obj(payload?.['request'])?.['createRequest'])?.['key']);
  return key === undefined ? [] : [key];
}

function writeOf(record: TraceRecord, trace: TourTrace): 'create' | 'update' | 'delete' | null {
  if (record.kind === 'etcd.WatchResponse') {
    const events = watchEvents(record);
    if (events.length === 0) return null;
    if (events.some((e) => e['type'] === 'DELETE')) return 'delete';
    const created = events.some((e) => {
      const kv = obj(e['kv']);
      return kv !== undefined && kv['createRevision'] === kv['modRevision'];
    });
    return created ? 'create' : 'update';
  }
  const etcd = etcdRequest(record, trace);
  if (etcd?.kind !== 'etcd.Txn') return null;
  const payload = obj(etcd.payload);
  const success = arr(payload?.['success']).map(obj);
  if (success.some((op) => op?.['requestDeleteRange'] !== undefined)) return 'delete';
  if (!success.some((op) => op?.['requestPut'] !== undefined)) return null;
  const compares = arr(payload?.['compare']).map(obj);
  return compares.some((c) => c?.['target'] === 'MOD' && (c['modRevision'] ?? 0) === 0) ? 'create' : 'update';
}

function eventTypeOf(record: TraceRecord): string[] {
  if (record.kind === 'http.watchEvent') return [str(obj(record.payload)?.['type']) ?? ''];
  return watchEvents(record).map((e) => str(e['type']) ?? '');
}

function statusOf(record: TraceRecord): number | undefined {
  const payload = obj(record.payload);
  if (record.kind === 'http.response') return typeof payload?.['status'] === 'number' ? payload['status'] : undefined;
  if (record.kind === 'http.watchEvent') {
    const code = obj(payload?.['object'])?.['code'];
    return typeof code === 'number' ? code : undefined;
  }
  return undefined;
}

/** Cause links followed at most, looking for `causedBy`. */
const causeDepthLimit = 64;

export function messageMatches(m: MessageMatcher, record: TraceRecord, trace: TourTrace): boolean {
  if (typeof m.kind === 'string' ? record.kind !== m.kind : !m.kind.includes(record.kind)) return false;
  if (m.from !== undefined && !componentIs(m.from, record.from)) return false;
  if (m.to !== undefined && !componentIs(m.to, record.to)) return false;
  if (m.method !== undefined || m.query !== undefined || m.queryLacks !== undefined) {
    const request = httpRequest(record, trace);
    if (!request) return false;
    if (m.method !== undefined && request['method'] !== m.method) return false;
    const query = str(request['query']) ?? '';
    if (m.query !== undefined && !fragmentIn(m.query, query)) return false;
    if (m.queryLacks !== undefined && fragmentIn(m.queryLacks, query)) return false;
  }
  if (m.path !== undefined || m.pathLacks !== undefined) {
    const about = subjects(record, trace);
    if (m.path !== undefined && !about.some((s) => fragmentIn(m.path!, s))) return false;
    if (m.pathLacks !== undefined && about.some((s) => fragmentIn(m.pathLacks!, s))) return false;
  }
  if (m.eventType !== undefined && !eventTypeOf(record).includes(m.eventType)) return false;
  if (m.objectKind !== undefined && obj(obj(record.payload)?.['object'])?.['kind'] !== m.objectKind) return false;
  if (m.write !== undefined && writeOf(record, trace) !== m.write) return false;
  if (m.status !== undefined && statusOf(record) !== m.status) return false;
  if (m.includes !== undefined && !JSON.stringify(record.payload).includes(m.includes)) return false;
  if (m.causedBy !== undefined) {
    let cause = record.cause;
    let found = false;
    for (let depth = 0; cause !== null && depth < causeDepthLimit && !found; depth++) {
      const parent = trace.byId.get(cause);
      if (!parent) break;
      found = messageMatches(m.causedBy, parent, trace);
      cause = parent.cause;
    }
    if (!found) return false;
  }
  return true;
}

function nameIs(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

export function milestoneMatches(m: MilestoneMatcher, milestone: Milestone): boolean {
  if (milestone.kind !== m.kind) return false;
  const facts = milestone as Milestone & {
    object?: { resource: string; name: string } | null; node?: string | null; watcher?: string; eventType?: string; phase?: string; ready?: boolean;
  };
  if (m.resource !== undefined && facts.object?.resource !== m.resource) return false;
  if (m.name !== undefined && (!facts.object || !nameIs(m.name, facts.object.name))) return false;
  if (m.watcher !== undefined && (facts.watcher === undefined || !componentIs(m.watcher, facts.watcher))) return false;
  if (m.node !== undefined && facts.node !== m.node) return false;
  if (m.eventType !== undefined && facts.eventType !== m.eventType) return false;
  if (m.phase !== undefined && facts.phase !== m.phase) return false;
  if (m.ready !== undefined && facts.ready !== m.ready) return false;
  return true;
}

function stopMatches(match: StopMatcher, record: TraceRecord, trace: TourTrace): boolean {
  if ('message' in match) return messageMatches(match.message, record, trace);
  return record.milestone !== undefined && milestoneMatches(match.milestone, record.milestone);
}

function componentsOf(stop: TourStop, records: readonly TraceRecord[]): string[] {
  const names = new Set(stop.components ?? []);
  for (const record of records) {
    names.add(record.from);
    names.add(record.to);
    // A Pod's phase is read from the write of its status: the kubelet that reported it is lit too.
    const milestone = record.milestone;
    if (milestone?.kind === 'podPhase' && milestone.node !== null) names.add(`kubelet/${milestone.node}`);
  }
  return [...names];
}

/**
 * Finds every stop of `tour` in `trace` (records with their milestones, when the worker classified them):
 * stop i among the deliveries after stop i − 1's first match. A stop not found leaves the ones after it
 * searched from where it would have started.
 */
export function locateStops(tour: Tour, trace: TourTrace): LocatedStop[] {
  const located: LocatedStop[] = [];
  let from = 0;
  for (const stop of tour.stops) {
    const want = stop.count ?? 1;
    const records: TraceRecord[] = [];
    let first = -1;
    for (let i = from; i < trace.records.length && records.length < want; i++) {
      if (!stopMatches(stop.match, trace.records[i]!, trace)) continue;
      if (first < 0) first = i;
      records.push(trace.records[i]!);
    }
    const found = records.length === want;
    const shown = found ? records : [];
    const requests = shown.flatMap((r) => {
      const request = (r.kind === 'http.response' || r.kind === 'http.watchEvent') && r.replyTo !== null ? trace.byId.get(r.replyTo) : undefined;
      return request?.kind === 'http.request' ? [request] : [];
    });
    located.push({ step: found ? records.at(-1)!.step : null, records: shown, components: componentsOf(stop, shown), requests });
    if (first >= 0) from = first + 1;
  }
  return located;
}

export function tourById(id: string): Tour | undefined {
  return tours.find((t) => t.id === id);
}

// ── The catalog ───────────────────────────────────────────────────────────────────────────────────

const apiserver = 'kube-apiserver';
const kcm = 'kube-controller-manager';
const scheduler = 'kube-scheduler';
const bindingRequest: MessageMatcher = { kind: 'http.request', from: scheduler, method: 'POST', path: '/pods/*/binding' };

/** Seed 004: a ReplicaSet of two Pods, from kubectl to the kubelets, in the seed's own thirteen steps. */
const podCreation: Tour = {
  id: 'pod-creation',
  title: { en: 'Pod creation, steps 0–12', zh: 'Pod 创建流程：步骤 0–12' },
  description: {
    en: 'kubectl create -f replicaset.yaml: my-replicaset and its two Pods, step by step as seed 004 numbers them.',
    zh: 'kubectl create -f replicaset.yaml：my-replicaset 和它的两个 Pod，按 seed 004 的步骤编号逐步走一遍。',
  },
  source: 'seeds/004',
  nodes: 3,
  steps: [{ do: 'scenario', id: 'my-replicaset' }],
  stops: [
    {
      id: 'list-watch', seedStep: 0,
      title: { en: 'kube-controller-manager lists, then watches', zh: 'kube-controller-manager 先 List，再 Watch' },
      text: {
        en: 'Long before anyone creates a ReplicaSet, kube-controller-manager starts its informers. Each one first lists its resource (resourceVersion=0, answered from kube-apiserver\'s watch cache), then opens a watch from the resourceVersion the list returned. The watch stays open: from now on kube-apiserver streams every change to it. kube-scheduler and each kubelet do the same.',
        zh: '在有人创建 ReplicaSet 之前，kube-controller-manager 一启动就运行它的 informer：每个 informer 先 List 自己负责的资源（resourceVersion=0，由 kube-apiserver 的 watch cache 应答），再从 List 返回的 resourceVersion 开始 Watch。这个 Watch 连接一直保持着，之后的每一次变更都由 kube-apiserver 以流的方式推送过来。kube-scheduler 和每个 kubelet 也是这样做的。',
      },
      match: { message: { kind: 'http.request', from: kcm, path: '/apis/apps/v1/replicasets' } },
      count: 2,
    },
    {
      id: 'create-rs', seedStep: 1,
      title: { en: 'kubectl creates the ReplicaSet', zh: 'kubectl 创建 ReplicaSet' },
      text: {
        en: 'kubectl reads replicaset.yaml and sends it to kube-apiserver: POST /apis/apps/v1/namespaces/default/replicasets. kube-apiserver authenticates the request, checks RBAC, runs admission, fills in defaults and validates before anything is stored.',
        zh: 'kubectl 读取 replicaset.yaml，把它发给 kube-apiserver：POST /apis/apps/v1/namespaces/default/replicasets。kube-apiserver 先做认证、RBAC 鉴权、准入控制、设置默认值和校验，然后才会保存。',
      },
      match: { message: { kind: 'http.request', from: 'user', method: 'POST', path: '/apis/apps/v1/namespaces/default/replicasets' } },
    },
    {
      id: 'store-rs', seedStep: 2,
      title: { en: 'kube-apiserver writes the ReplicaSet to etcd', zh: 'kube-apiserver 把 ReplicaSet 写入 etcd' },
      text: {
        en: 'The object becomes one key, /registry/replicasets/default/my-replicaset, written by a Txn: "if mod_revision of the key is 0 (it does not exist yet), put it". etcd answers with the new revision, which becomes the object\'s resourceVersion.',
        zh: '对象变成一个 key：/registry/replicasets/default/my-replicaset，由一个 Txn 写入：“如果这个 key 的 mod_revision 为 0（还不存在），就 put”。etcd 返回新的 revision，它就是这个对象的 resourceVersion。',
      },
      match: { milestone: { kind: 'objectCreated', resource: 'replicasets', name: 'my-replicaset' } },
    },
    {
      id: 'rs-event', seedStep: 3,
      title: { en: 'etcd sends the create event to kube-apiserver', zh: 'etcd 把创建事件发给 kube-apiserver' },
      text: {
        en: 'kube-apiserver watches every resource prefix in etcd. The put shows up on its replicasets watch as a PUT event with the same revision — often before the Txn\'s own reply comes back, because both leave etcd at the same moment.',
        zh: 'kube-apiserver 对 etcd 中每种资源的前缀都开着 Watch。这次 put 以 PUT 事件的形式出现在 replicasets 的 Watch 上，revision 与 Txn 相同——它常常比 Txn 的应答更早到达，因为两者是同时从 etcd 发出的。',
      },
      match: { message: { kind: 'etcd.WatchResponse', from: 'etcd', to: apiserver, path: '/registry/replicasets/default/my-replicaset', write: 'create' } },
    },
    {
      id: 'kcm-sees-rs', seedStep: 4,
      title: { en: 'kube-controller-manager sees the new ReplicaSet', zh: 'kube-controller-manager Watch 到 ReplicaSet 创建事件' },
      text: {
        en: 'kube-apiserver\'s watch cache passes the event on to every client watching ReplicaSets. kube-controller-manager\'s informer receives ADDED my-replicaset, and the ReplicaSet controller queues it for a sync.',
        zh: 'kube-apiserver 的 watch cache 把事件转发给所有 Watch 了 ReplicaSet 的客户端。kube-controller-manager 的 informer 收到 ADDED my-replicaset，ReplicaSet 控制器把它放进队列等待调和。',
      },
      match: { milestone: { kind: 'watchSeen', watcher: kcm, resource: 'replicasets', name: 'my-replicaset', eventType: 'ADDED' } },
    },
    {
      id: 'create-pods', seedStep: 5,
      title: { en: 'The ReplicaSet controller creates the Pods', zh: 'ReplicaSet 控制器创建 Pod' },
      text: {
        en: 'spec.replicas is 2 and no Pod matches app=my-app, so the controller POSTs two Pods made from the template, each with generateName my-replicaset- and an ownerReference to the ReplicaSet. It sends them in slow-start batches: one first, then the rest.',
        zh: 'spec.replicas 为 2，而没有 Pod 匹配 app=my-app，于是控制器按模板 POST 两个 Pod，每个都带 generateName my-replicaset- 和指向该 ReplicaSet 的 ownerReference。它按慢启动分批发送：先一个，再发剩下的。',
      },
      match: { message: { kind: 'http.request', from: kcm, method: 'POST', path: '/api/v1/namespaces/default/pods', includes: '"generateName":"my-replicaset-"' } },
      count: 2,
    },
    {
      id: 'store-pods', seedStep: 6,
      title: { en: 'kube-apiserver writes the Pods to etcd', zh: 'kube-apiserver 把 Pod 写入 etcd' },
      text: {
        en: 'kube-apiserver picks the random name suffix, runs admission (the ServiceAccount plugin adds a token volume), and stores each Pod with its own create Txn: compare mod_revision == 0 on /registry/pods/default/my-replicaset-…, then put. The Pods have no node yet.',
        zh: 'kube-apiserver 生成名字的随机后缀，执行准入控制（ServiceAccount 插件加上 token 卷），再用各自的创建 Txn 保存每个 Pod：比较 /registry/pods/default/my-replicaset-… 的 mod_revision == 0，然后 put。此时 Pod 还没有节点。',
      },
      match: { milestone: { kind: 'podCreated', resource: 'pods', name: 'my-replicaset-*' } },
      count: 2,
    },
    {
      id: 'pod-events', seedStep: 7,
      title: { en: 'etcd sends the Pods\' create events', zh: 'etcd 发送 Pod 的创建事件' },
      text: {
        en: 'Each put appears on kube-apiserver\'s pods watch as a PUT event whose key is new (create_revision equals mod_revision).',
        zh: '每次 put 都以 PUT 事件出现在 kube-apiserver 对 pods 的 Watch 上，这个 key 是新的（create_revision 等于 mod_revision）。',
      },
      match: { message: { kind: 'etcd.WatchResponse', from: 'etcd', to: apiserver, path: '/registry/pods/default/my-replicaset-', write: 'create' } },
      count: 2,
    },
    {
      id: 'scheduler-sees-pods', seedStep: 8,
      title: { en: 'kube-scheduler sees the new Pods', zh: 'kube-scheduler Watch 到 Pod 创建事件' },
      text: {
        en: 'kube-scheduler watches Pods that are not finished. Each new Pod arrives as ADDED with an empty spec.nodeName, so it goes into the scheduling queue.',
        zh: 'kube-scheduler Watch 所有未结束的 Pod。每个新 Pod 以 ADDED 事件到达，spec.nodeName 为空，于是进入调度队列。',
      },
      match: { milestone: { kind: 'watchSeen', watcher: scheduler, resource: 'pods', name: 'my-replicaset-*', eventType: 'ADDED' } },
      count: 2,
    },
    {
      id: 'bind', seedStep: 9,
      title: { en: 'kube-scheduler picks a node and binds each Pod', zh: 'kube-scheduler 选出节点并绑定 Pod' },
      text: {
        en: 'The filter plugins drop nodes that cannot run the Pod, the score plugins rank the rest, and the best node wins. kube-scheduler does not edit the Pod itself: it POSTs a Binding to the Pod\'s binding subresource, naming the node.',
        zh: '过滤插件排除无法运行该 Pod 的节点，打分插件给其余节点排序，得分最高的节点胜出。kube-scheduler 并不直接修改 Pod，而是向 Pod 的 binding 子资源 POST 一个 Binding，写明节点名。',
      },
      match: { message: bindingRequest },
      count: 2,
    },
    {
      id: 'store-binding', seedStep: 10,
      title: { en: 'kube-apiserver writes spec.nodeName to etcd', zh: 'kube-apiserver 把 spec.nodeName 写入 etcd' },
      text: {
        en: 'The binding becomes an update of the Pod\'s key: a Txn that compares mod_revision with the revision kube-apiserver just read (not 0 this time) and puts the Pod with spec.nodeName set. Had anyone written the Pod in between, the compare would fail and the update would be retried.',
        zh: 'Binding 变成对 Pod key 的一次更新：Txn 比较 mod_revision 是否等于 kube-apiserver 刚读到的 revision（这次不是 0），然后 put 设置了 spec.nodeName 的 Pod。如果期间有人改过这个 Pod，比较就会失败并重试。',
      },
      match: { milestone: { kind: 'podBound', resource: 'pods', name: 'my-replicaset-*' } },
      count: 2,
    },
    {
      id: 'binding-events', seedStep: 11,
      title: { en: 'etcd sends the change events', zh: 'etcd 发送 Pod 变更事件' },
      text: {
        en: 'Each update reaches kube-apiserver as a PUT event of a key that already existed: an update, with the Pod as it was (prev_kv) and as it is now.',
        zh: '每次更新都以已存在 key 的 PUT 事件到达 kube-apiserver：这是一次更新，事件中同时带着 Pod 之前的样子（prev_kv）和现在的样子。',
      },
      match: { message: { kind: 'etcd.WatchResponse', from: 'etcd', to: apiserver, path: '/registry/pods/default/my-replicaset-', write: 'update', causedBy: bindingRequest } },
      count: 2,
    },
    {
      id: 'kubelet-sees-pod', seedStep: 12,
      title: { en: 'The kubelet sees its Pod and starts it', zh: 'kubelet Watch 到 Pod 变更事件，并创建 Pod' },
      text: {
        en: 'Each kubelet watches only the Pods with spec.nodeName equal to its own node (a field selector), so for the kubelet on the chosen node the bound Pod is ADDED. It then pulls the image, creates and starts the container through its runtime, and reports the status back to kube-apiserver.',
        zh: '每个 kubelet 只 Watch spec.nodeName 等于自己节点名的 Pod（字段选择器），所以对被选中节点上的 kubelet 来说，这个已绑定的 Pod 是 ADDED。随后它拉取镜像、通过容器运行时创建并启动容器，再把状态报告给 kube-apiserver。',
      },
      match: { milestone: { kind: 'watchSeen', watcher: 'kubelet/', resource: 'pods', name: 'my-replicaset-*', eventType: 'ADDED' } },
      count: 2,
    },
    {
      id: 'running',
      title: { en: 'The Pods are Running', zh: 'Pod 进入 Running 状态' },
      text: {
        en: 'Once the container has started, the kubelet PATCHes the Pod\'s status subresource: phase Running, condition Ready True. kube-apiserver stores it in etcd like every other write (the Txn shown), and the ReplicaSet controller, seeing the change, updates my-replicaset\'s readyReplicas.',
        zh: '容器启动后，kubelet PATCH Pod 的 status 子资源：phase 为 Running，Ready 条件为 True。kube-apiserver 像其他写入一样把它保存到 etcd（即这里的 Txn），ReplicaSet 控制器看到变化后，更新 my-replicaset 的 readyReplicas。',
      },
      match: { milestone: { kind: 'podPhase', resource: 'pods', name: 'my-replicaset-*', phase: 'Running', ready: true } },
      count: 2,
    },
  ],
};

/** Seeds 000/001: what the nginx Deployment leaves under /registry, and how each key is written. */
const registryKeys: Tour = {
  id: 'registry-keys',
  title: { en: 'The nginx Deployment in etcd', zh: 'etcd 里的 nginx Deployment' },
  description: {
    en: 'Every object under /registry/<resource>/<namespace>/<name>, each created by a Txn comparing mod_revision with 0; Events on a lease that is reused.',
    zh: '每个对象都存放在 /registry/<资源>/<命名空间>/<名字> 下，每次创建都是一个比较 mod_revision 与 0 的 Txn；Event 挂在一个会被复用的 lease 上。',
  },
  source: 'seeds/000, seeds/001',
  nodes: 3,
  steps: [{ do: 'scenario', id: 'nginx-deployment' }],
  stops: [
    {
      id: 'event-lease',
      title: { en: 'A lease for Events', zh: '为 Event 申请 lease' },
      text: {
        en: 'Before anything is created: as the cluster starts, its components record Events (the controllers\' LeaderElection, each Node\'s RegisteredNode). Events must disappear on their own after an hour (--event-ttl), so instead of one lease per Event, kube-apiserver grants one etcd lease with TTL = event TTL + 60 s and attaches the Events of the next minute to it.',
        zh: '在创建任何对象之前：集群启动时，各组件就会记录 Event（控制器的 LeaderElection、每个 Node 的 RegisteredNode）。Event 需要在一小时后自动消失（--event-ttl），kube-apiserver 不为每个 Event 单独申请 lease，而是向 etcd 申请一个 TTL = Event TTL + 60 秒的 lease，把接下来一分钟内的 Event 都挂在它上面。',
      },
      match: { message: { kind: 'etcd.LeaseGrant', from: apiserver, to: 'etcd' } },
    },
    {
      id: 'create',
      title: { en: 'kubectl create -f nginx.yml', zh: 'kubectl create -f nginx.yml' },
      text: {
        en: 'One object goes in: a Deployment. Everything else on this tour is written by the controllers that react to it.',
        zh: '用户只提交了一个对象：Deployment。本导览中其余所有的写入，都是各个控制器对它作出反应的结果。',
      },
      match: { message: { kind: 'http.request', from: 'user', method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments' } },
    },
    {
      id: 'deployment-key',
      title: { en: 'The Deployment\'s key', zh: 'Deployment 的 key' },
      text: {
        en: 'Kubernetes keeps every object in etcd under /registry, then the resource (plural), the namespace and the name: /registry/deployments/default/nginx-deployment. etcd v3 has no directories; the slashes are only part of the key. The create is a Txn: if mod_revision(key) == 0, that is the key does not exist, put the object; otherwise fail with AlreadyExists.',
        zh: 'Kubernetes 把所有对象都存放在 etcd 的 /registry 下，后面依次是资源（复数）、命名空间和名字：/registry/deployments/default/nginx-deployment。etcd v3 没有目录，斜杠只是 key 的一部分。创建是一个 Txn：如果 mod_revision(key) == 0，也就是 key 还不存在，就 put 这个对象；否则返回 AlreadyExists。',
      },
      match: { message: { kind: 'etcd.Txn', to: 'etcd', path: '/registry/deployments/default/nginx-deployment', write: 'create' } },
    },
    {
      id: 'replicaset-key',
      title: { en: 'The ReplicaSet\'s key', zh: 'ReplicaSet 的 key' },
      text: {
        en: 'The deployment controller creates a ReplicaSet named after the Deployment and the hash of its Pod template, stored the same way under /registry/replicasets/default/.',
        zh: 'Deployment 控制器创建一个 ReplicaSet，名字由 Deployment 名加上 Pod 模板的哈希组成，同样以创建 Txn 存放在 /registry/replicasets/default/ 下。',
      },
      match: { message: { kind: 'etcd.Txn', to: 'etcd', path: '/registry/replicasets/default/nginx-deployment-', write: 'create' } },
    },
    {
      id: 'pod-key',
      title: { en: 'The Pod\'s key', zh: 'Pod 的 key' },
      text: {
        en: 'The ReplicaSet controller creates the Pod; its key ends with the random suffix kube-apiserver generated: /registry/pods/default/nginx-deployment-<hash>-<suffix>.',
        zh: 'ReplicaSet 控制器创建 Pod；它的 key 以 kube-apiserver 生成的随机后缀结尾：/registry/pods/default/nginx-deployment-<哈希>-<后缀>。',
      },
      match: { message: { kind: 'etcd.Txn', to: 'etcd', path: '/registry/pods/default/nginx-deployment-', write: 'create' } },
    },
    {
      id: 'first-event',
      title: { en: 'An Event stored with the lease', zh: '带 lease 保存的 Event' },
      text: {
        en: 'The Deployment\'s first Event (ScalingReplicaSet, SuccessfulCreate …) is a create Txn like any other, but its put carries the ID of the lease granted at start. When the lease expires, etcd deletes every key attached to it.',
        zh: 'Deployment 的第一个 Event（ScalingReplicaSet、SuccessfulCreate……）和其他对象一样用创建 Txn 写入，只是 put 里带着启动时申请的 lease ID。lease 过期时，etcd 会删除挂在它上面的所有 key。',
      },
      match: { message: { kind: 'etcd.Txn', to: 'etcd', path: '/registry/events/', write: 'create', includes: '"lease":' } },
    },
    {
      id: 'lease-reused',
      title: { en: 'The lease is reused', zh: 'lease 被复用' },
      text: {
        en: 'The next Event is stored with the same lease ID, and no new LeaseGrant is sent: one lease for many keys keeps etcd\'s lease count small.',
        zh: '下一个 Event 使用同一个 lease ID 写入，没有再发送 LeaseGrant：多个 key 共用一个 lease，etcd 中的 lease 数量就不会膨胀。',
      },
      match: { message: { kind: 'etcd.Txn', to: 'etcd', path: '/registry/events/', write: 'create', includes: '"lease":' } },
    },
    {
      id: 'update',
      title: { en: 'An update compares the revision it read', zh: '更新时比较读到的 revision' },
      text: {
        en: 'When the deployment controller writes the Deployment\'s status, the Txn compares mod_revision with the revision the object had when it was read (its resourceVersion), not with 0. If someone wrote the key in between, the compare fails and the client gets 409 Conflict: optimistic concurrency.',
        zh: 'Deployment 控制器写入 Deployment 的 status 时，Txn 比较 mod_revision 是否等于读取对象时的 revision（即它的 resourceVersion），而不是 0。如果期间有人写过这个 key，比较失败，客户端收到 409 Conflict：这就是乐观并发控制。',
      },
      match: { message: { kind: 'etcd.Txn', to: 'etcd', path: '/registry/deployments/default/nginx-deployment', write: 'update' } },
    },
  ],
};

const userList: MessageMatcher = { kind: 'http.request', from: 'user', method: 'GET', path: '/api/v1/namespaces/default/pods', queryLacks: 'resourceVersion' };
const userGet: MessageMatcher = { kind: 'http.request', from: 'user', method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', queryLacks: 'resourceVersion' };

/** resourceVersion semantics: what etcd serves, what the watch cache serves, and 410 after a compaction. */
const resourceVersions: Tour = {
  id: 'resource-versions',
  title: { en: 'resourceVersion: etcd or the watch cache', zh: 'resourceVersion：etcd 还是 watch cache' },
  description: {
    en: 'Get, List and Watch with resourceVersion "", "0" and N: which reach etcd and what they cost; then a compaction, 410 Gone and the informers\' relist.',
    zh: '带 resourceVersion ""、"0" 和 N 的 Get、List、Watch：哪些会访问 etcd、代价多大；然后是压缩、410 Gone 以及 informer 的重新 List。',
  },
  source: 'seeds/000',
  nodes: 3,
  steps: [
    { do: 'scenario', id: 'nginx-deployment' },
    { do: 'run', line: 'kubectl get --raw /api/v1/namespaces/default/pods' },
    { do: 'run', line: "kubectl get --raw '/api/v1/namespaces/default/pods?resourceVersion=0'" },
    { do: 'run', line: "kubectl get --raw '/api/v1/namespaces/default/pods?resourceVersion={resourceVersion}'" },
    { do: 'run', line: 'kubectl get --raw /apis/apps/v1/namespaces/default/deployments/nginx-deployment' },
    { do: 'run', line: "kubectl get --raw '/apis/apps/v1/namespaces/default/deployments/nginx-deployment?resourceVersion=0'" },
    { do: 'fault', fault: { type: 'compactEtcd' } },
    { do: 'fault', fault: { type: 'breakEtcdWatches' } },
    { do: 'advance', ms: 5_000 },
    { do: 'runUntilIdle' },
  ],
  stops: [
    {
      id: 'informer-list',
      title: { en: 'List with resourceVersion=0', zh: 'resourceVersion=0 的 List' },
      text: {
        en: 'An informer starts with a List at resourceVersion=0: "any version will do". kube-apiserver answers it from its watch cache, in memory; etcd is not asked at all.',
        zh: 'informer 启动时先发一个 resourceVersion=0 的 List：“任何版本都可以”。kube-apiserver 直接用内存中的 watch cache 应答，根本不访问 etcd。',
      },
      match: { message: { kind: 'http.request', from: kcm, path: '/apis/apps/v1/replicasets', query: 'resourceVersion=0', queryLacks: 'watch=true' } },
    },
    {
      id: 'informer-watch',
      title: { en: 'Watch from resourceVersion N', zh: '从 resourceVersion N 开始 Watch' },
      text: {
        en: 'Then it watches from the resourceVersion N the list returned. The watch cache replays what changed after N and streams the rest; the only etcd watch is kube-apiserver\'s own, one per resource.',
        zh: '接着它从 List 返回的 resourceVersion N 开始 Watch。watch cache 补发 N 之后的变更，再持续推送新的变更；真正的 etcd Watch 只有 kube-apiserver 自己的那一个，每种资源一个。',
      },
      match: { message: { kind: 'http.request', from: kcm, path: '/apis/apps/v1/replicasets', query: 'watch=true' } },
    },
    {
      id: 'list-empty-rv',
      title: { en: 'List with resourceVersion unset', zh: '不带 resourceVersion 的 List' },
      text: {
        en: 'kubectl get --raw /api/v1/namespaces/default/pods asks for the most recent data ("" means a consistent read).',
        zh: 'kubectl get --raw /api/v1/namespaces/default/pods 要求最新的数据（"" 表示一致性读）。',
      },
      match: { message: userList },
    },
    {
      id: 'list-range',
      title: { en: '…goes to etcd as a Range', zh: '……以 Range 请求访问 etcd' },
      text: {
        en: 'kube-apiserver reads the whole prefix /registry/pods/default/ from etcd. The reply carries every key and value: that is the cost, keys read and bytes sent, and it grows with the number of Pods.',
        zh: 'kube-apiserver 从 etcd 读取整个前缀 /registry/pods/default/。应答带回每个 key 和 value：这就是代价——读取的 key 数和传输的字节数，会随 Pod 数量增长。',
      },
      match: { message: { kind: 'etcd.RangeResponse', from: 'etcd', to: apiserver, path: '/registry/pods/default/', causedBy: userList } },
    },
    {
      id: 'list-rv-0',
      title: { en: 'List with resourceVersion=0', zh: 'resourceVersion=0 的 List' },
      text: {
        en: 'The same list with ?resourceVersion=0 is answered by kube-apiserver straight from the watch cache: no Range reaches etcd between the request and this response.',
        zh: '同样的 List 加上 ?resourceVersion=0，kube-apiserver 直接用 watch cache 应答：在请求和这个响应之间没有任何 Range 到达 etcd。',
      },
      match: { message: { kind: 'http.response', to: 'user', path: '/api/v1/namespaces/default/pods', query: 'resourceVersion=0' } },
    },
    {
      id: 'list-rv-n',
      title: { en: 'List with resourceVersion=N', zh: 'resourceVersion=N 的 List' },
      text: {
        en: 'With a number N — here the resourceVersion the last list returned, as an informer would use it — the answer must be at least as new as N ("not older than"). The watch cache has seen N already, so it answers again without etcd. Had N been newer than anything the cache has seen, kube-apiserver would wait for it, then give up with "Too large resource version".',
        zh: '给出具体数字 N 时（这里是上一次 List 返回的 resourceVersion，和 informer 的用法一样），结果必须不比 N 旧（NotOlderThan）。watch cache 已经见过 N，所以同样不用访问 etcd 就能应答。如果 N 比 cache 见过的都新，kube-apiserver 会等待，最后以 “Too large resource version” 放弃。',
      },
      match: { message: { kind: 'http.response', to: 'user', path: '/api/v1/namespaces/default/pods', query: 'resourceVersion=' } },
    },
    {
      id: 'get-range',
      title: { en: 'Get with resourceVersion unset reads one key', zh: '不带 resourceVersion 的 Get 读取一个 key' },
      text: {
        en: 'A Get of the Deployment without resourceVersion is a Range of exactly one key in etcd: one key read, one value sent.',
        zh: '不带 resourceVersion 的 Get Deployment，在 etcd 中是只针对一个 key 的 Range：读取一个 key，返回一个 value。',
      },
      match: { message: { kind: 'etcd.RangeResponse', from: 'etcd', to: apiserver, path: '/registry/deployments/default/nginx-deployment', causedBy: userGet } },
    },
    {
      id: 'get-rv-0',
      title: { en: 'Get with resourceVersion=0', zh: 'resourceVersion=0 的 Get' },
      text: {
        en: 'With resourceVersion=0 the same Get is served from the watch cache, possibly a little stale, and etcd does no work.',
        zh: '带 resourceVersion=0 时，同样的 Get 由 watch cache 应答，数据可能略旧，但 etcd 不做任何工作。',
      },
      match: { message: { kind: 'http.response', to: 'user', path: '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', query: 'resourceVersion=0' } },
    },
    {
      id: 'compact',
      title: { en: 'etcdctl compact', zh: 'etcdctl compact' },
      text: {
        en: 'Compaction drops every revision older than the current one except each key\'s latest value. A watch can no longer start from a revision before it.',
        zh: '压缩会丢弃当前 revision 之前的所有历史版本，只保留每个 key 的最新值。此后就不能再从更早的 revision 开始 Watch 了。',
      },
      match: { message: { kind: 'etcd.Compact', from: 'user', to: 'etcd' } },
    },
    {
      id: 'watch-compacted',
      title: { en: 'kube-apiserver\'s etcd watch is compacted away', zh: 'kube-apiserver 的 etcd Watch 因压缩失效' },
      text: {
        en: 'The watch stream between kube-apiserver and etcd breaks. kube-apiserver watches again from where it was, but that revision is compacted: etcd cancels the watch and names the compact revision.',
        zh: 'kube-apiserver 与 etcd 之间的 Watch 流断开了。kube-apiserver 从原来的位置重新 Watch，但那个 revision 已被压缩：etcd 取消了这个 Watch，并给出压缩到的 revision。',
      },
      match: { message: { kind: 'etcd.WatchResponse', from: 'etcd', to: apiserver, includes: '"canceled":true' } },
    },
    {
      id: 'cache-relist',
      title: { en: 'The watch cache lists etcd again', zh: 'watch cache 重新 List etcd' },
      text: {
        en: 'Its history gone, each watch cache reloads its resource with a Range of the whole prefix, then watches etcd from the revision of that read.',
        zh: '历史已经没有了，每个 watch cache 都用对整个前缀的 Range 重新加载资源，再从这次读取的 revision 开始 Watch etcd。',
      },
      match: { message: { kind: 'etcd.Range', from: apiserver, to: 'etcd', path: '/registry/pods/' } },
    },
    {
      id: 'gone',
      title: { en: '410 Gone: too old resource version', zh: '410 Gone：too old resource version' },
      text: {
        en: 'kube-controller-manager\'s Pod informer, watching from a resourceVersion older than what the new cache holds, gets an ERROR event with Status 410 Expired, "too old resource version". Events in between may be lost, so it must not simply watch again.',
        zh: 'kube-controller-manager 的 Pod informer 从一个比新 cache 所持有的更旧的 resourceVersion 开始 Watch，于是收到 ERROR 事件，Status 为 410 Expired，“too old resource version”。中间的事件可能已丢失，所以它不能简单地重新 Watch。',
      },
      match: { message: { kind: 'http.watchEvent', to: kcm, path: '/api/v1/pods', eventType: 'ERROR', status: 410 } },
    },
    {
      id: 'informer-relist',
      title: { en: 'The informer lists again', zh: 'informer 重新 List' },
      text: {
        en: 'The reflector starts over: a new List of Pods (from its last resourceVersion, which the fresh cache can serve), then a new Watch from the resourceVersion that List returned.',
        zh: 'reflector 从头开始：重新 List Pod（从它最后的 resourceVersion 开始，新的 cache 可以应答），再从这次 List 返回的 resourceVersion 开始 Watch。',
      },
      match: { message: { kind: 'http.request', from: kcm, method: 'GET', path: '/api/v1/pods', queryLacks: 'watch=true' } },
    },
  ],
};

const userDelete: MessageMatcher = { kind: 'http.request', from: 'user', method: 'DELETE', path: '/api/v1/namespaces/default/pods/my-replicaset-' };

/** Self-healing: delete a Pod that my-replicaset owns, and watch a replacement appear. */
const selfHealing: Tour = {
  id: 'self-healing',
  title: { en: 'Self-healing: delete a managed Pod', zh: '自愈：删除受管 Pod' },
  description: {
    en: 'kubectl delete one Pod of my-replicaset: the Pod terminates, the ReplicaSet controller notices one is missing and creates another.',
    zh: 'kubectl delete 删除 my-replicaset 的一个 Pod：Pod 进入终止流程，ReplicaSet 控制器发现少了一个，再创建一个。',
  },
  source: 'seeds/004',
  nodes: 3,
  steps: [{ do: 'scenario', id: 'self-healing' }],
  stops: [
    {
      id: 'delete',
      title: { en: 'kubectl delete pod', zh: 'kubectl delete pod' },
      text: {
        en: 'The user deletes one of my-replicaset\'s Pods by name.',
        zh: '用户按名字删除 my-replicaset 的一个 Pod。',
      },
      match: { message: userDelete },
    },
    {
      id: 'terminating',
      title: { en: 'The Pod is marked for deletion', zh: 'Pod 被标记为删除' },
      text: {
        en: 'A Pod is not removed at once: kube-apiserver sets metadata.deletionTimestamp and a grace period, an update Txn of the Pod\'s key. The kubelet gets time to stop the containers.',
        zh: 'Pod 不会被立即删除：kube-apiserver 设置 metadata.deletionTimestamp 和宽限期，这是对 Pod key 的一次更新 Txn。kubelet 因此有时间停止容器。',
      },
      match: { milestone: { kind: 'terminating', resource: 'pods', name: 'my-replicaset-*' } },
    },
    {
      id: 'kcm-sees',
      title: { en: 'The ReplicaSet controller sees it go', zh: 'ReplicaSet 控制器看到它正在消失' },
      text: {
        en: 'A terminating Pod no longer counts as active. The MODIFIED event tells the ReplicaSet controller that my-replicaset has one Pod fewer than spec.replicas.',
        zh: '正在终止的 Pod 不再算作活跃。MODIFIED 事件告诉 ReplicaSet 控制器：my-replicaset 的 Pod 比 spec.replicas 少了一个。',
      },
      match: { message: { kind: 'http.watchEvent', to: kcm, objectKind: 'Pod', eventType: 'MODIFIED', causedBy: userDelete } },
    },
    {
      id: 'replacement',
      title: { en: 'A replacement Pod is created', zh: '创建替代的 Pod' },
      text: {
        en: 'The controller POSTs a new Pod from the template; kube-apiserver stores it with a create Txn under a new name.',
        zh: '控制器按模板 POST 一个新 Pod；kube-apiserver 以新名字、用创建 Txn 把它保存下来。',
      },
      match: { milestone: { kind: 'podCreated', resource: 'pods', name: 'my-replicaset-*' } },
    },
    {
      id: 'bound',
      title: { en: 'kube-scheduler binds the replacement', zh: 'kube-scheduler 绑定替代 Pod' },
      text: {
        en: 'Like any new Pod, the replacement is scheduled: kube-scheduler posts its Binding.',
        zh: '和所有新 Pod 一样，替代 Pod 也要调度：kube-scheduler 提交它的 Binding。',
      },
      match: { message: bindingRequest },
    },
    {
      id: 'removed',
      title: { en: 'The old Pod\'s key is deleted', zh: '旧 Pod 的 key 被删除' },
      text: {
        en: 'When the kubelet has stopped the containers it reports the Pod finished; kube-apiserver then deletes the key with a Txn that compares mod_revision and deletes, and every watcher receives DELETED.',
        zh: 'kubelet 停止容器后报告 Pod 已结束；kube-apiserver 随后用一个比较 mod_revision 再删除的 Txn 删掉这个 key，所有 Watch 者都会收到 DELETED。',
      },
      match: { milestone: { kind: 'objectDeleted', resource: 'pods', name: 'my-replicaset-*' } },
    },
  ],
};

/** A rolling update: kubectl set image, a new ReplicaSet up, the old one down. */
const rollingUpdate: Tour = {
  id: 'rolling-update',
  title: { en: 'Rolling update: kubectl set image', zh: '滚动更新：kubectl set image' },
  description: {
    en: 'kubectl set image on the user-service Deployment: a new ReplicaSet scales up while the old one scales down, one Pod at a time.',
    zh: '对 user-service Deployment 执行 kubectl set image：新 ReplicaSet 逐个扩容，旧 ReplicaSet 同时逐个缩容。',
  },
  source: 'seeds/003',
  nodes: 3,
  steps: [{ do: 'scenario', id: 'rolling-update' }],
  stops: [
    {
      id: 'set-image',
      title: { en: 'kubectl set image', zh: 'kubectl set image' },
      text: {
        en: 'kubectl PATCHes the Deployment\'s Pod template with the new redis image.',
        zh: 'kubectl 用 PATCH 把 Deployment 的 Pod 模板改成新的 redis 镜像。',
      },
      match: { message: { kind: 'http.request', from: 'user', method: 'PATCH', path: '/apis/apps/v1/namespaces/default/deployments/user-service' } },
    },
    {
      id: 'spec-stored',
      title: { en: 'The new template is stored', zh: '新模板被保存' },
      text: {
        en: 'An update Txn of /registry/deployments/default/user-service; metadata.generation grows because the spec changed.',
        zh: '对 /registry/deployments/default/user-service 的一次更新 Txn；因为 spec 变了，metadata.generation 加一。',
      },
      match: { milestone: { kind: 'specChanged', resource: 'deployments', name: 'user-service' } },
    },
    {
      id: 'new-rs',
      title: { en: 'A new ReplicaSet for the new template', zh: '为新模板创建新的 ReplicaSet' },
      text: {
        en: 'The deployment controller finds no ReplicaSet with the new template\'s hash, so it creates one, with a different name suffix.',
        zh: 'Deployment 控制器找不到与新模板哈希相同的 ReplicaSet，于是创建一个，名字后缀不同。',
      },
      match: { milestone: { kind: 'objectCreated', resource: 'replicasets', name: 'user-service-*' } },
    },
    {
      id: 'new-pod',
      title: { en: 'Its first Pod', zh: '它的第一个 Pod' },
      text: {
        en: 'maxSurge lets the Deployment run one Pod more than replicas: the new ReplicaSet\'s first Pod is created before any old one goes.',
        zh: 'maxSurge 允许 Deployment 比 replicas 多运行一个 Pod：新 ReplicaSet 的第一个 Pod 在任何旧 Pod 删除之前就被创建。',
      },
      match: { message: { kind: 'etcd.Txn', to: 'etcd', path: '/registry/pods/default/user-service-', write: 'create' } },
    },
    {
      id: 'old-scaled-down',
      title: { en: 'The old ReplicaSet scales down', zh: '旧 ReplicaSet 缩容' },
      text: {
        en: 'Once the new Pod is available, the deployment controller lowers the old ReplicaSet\'s spec.replicas by one (a PUT of the ReplicaSet itself, not its status).',
        zh: '新 Pod 可用后，Deployment 控制器把旧 ReplicaSet 的 spec.replicas 减一（PUT 的是 ReplicaSet 本身，而不是它的 status）。',
      },
      match: { message: { kind: 'http.request', from: kcm, method: 'PUT', path: '/apis/apps/v1/namespaces/default/replicasets/user-service-', pathLacks: '/status' } },
    },
    {
      id: 'old-pod-deleted',
      title: { en: 'An old Pod is deleted', zh: '删除一个旧 Pod' },
      text: {
        en: 'The old ReplicaSet\'s controller now has one Pod too many and deletes one; the rollout goes on like this until the old ReplicaSet is at 0.',
        zh: '旧 ReplicaSet 的控制器发现多了一个 Pod，于是删除一个；滚动更新就这样继续，直到旧 ReplicaSet 缩到 0。',
      },
      match: { message: { kind: 'http.request', from: kcm, method: 'DELETE', path: '/api/v1/namespaces/default/pods/user-service-' } },
    },
    {
      id: 'old-at-zero',
      title: { en: 'The old ReplicaSet at 0', zh: '旧 ReplicaSet 缩到 0' },
      text: {
        en: 'The old ReplicaSet is kept with replicas 0 — it is the revision history that kubectl rollout undo returns to.',
        zh: '旧 ReplicaSet 以 replicas 0 保留下来——它就是 kubectl rollout undo 可以回退到的历史版本。',
      },
      match: { message: { kind: 'http.request', from: kcm, method: 'PUT', path: '/apis/apps/v1/namespaces/default/replicasets/user-service-', pathLacks: '/status', includes: '"replicas":0' } },
    },
  ],
};

export const tours: readonly Tour[] = [podCreation, registryKeys, resourceVersions, selfHealing, rollingUpdate, consensusRead, leaderDeath];
