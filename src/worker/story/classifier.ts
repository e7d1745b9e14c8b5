// The story classifier: reads each delivered engine message, and what etcd committed at that delivery,
// and says at which level of detail the step belongs (src/protocol/story.ts) and, when it is one, which
// milestone it is. It runs as an engine delivery listener, in delivery order, so a replay of the same
// seed and commands classifies every step identically.
//
// Which step each milestone belongs to (the step is the delivery the milestone is read from):
//   userAction           the user's request delivered to its server (kubectl → kube-apiserver, etcdctl →
//                        etcd), or a fault command delivered to the user component. Only requests that
//                        change something (POST, PUT, PATCH, DELETE; etcd writes): reads are requests.
//   objectCreated,       the etcd.Txn delivered to etcd whose put created the key (compare mod_revision
//   podCreated           == 0 succeeded; version 1): the step that made the revision.
//   specChanged,         the etcd.Txn delivered to etcd that stored the new version, compared with the
//   podBound, podPhase,  version stored before it (the classifier keeps a small summary per pod,
//   deploymentAvailable, deployment, replicaset and node key, dropped when the key is deleted).
//   terminating,
//   failedScheduling,
//   imagePullBackOff,
//   crashLoopBackOff,
//   eviction
//   objectDeleted        the delivery to etcd that deleted the key (a Txn delete or DeleteRange).
//   watchSeen            the http.watchEvent delivered to the component that acts on the object: kube-
//                        controller-manager's first sight of a Deployment or ReplicaSet (and of each new
//                        generation of one), kube-scheduler's first sight of an unbound Pod, a kubelet's
//                        first sight of the Pod bound to its node, and kube-controller-manager seeing a
//                        Pod or ReplicaSet DELETED (the controller that heals). First sights are kept per
//                        watcher and object uid and dropped on DELETED.
//   containerStep        a kubelet's Event (POST …/events, reason Pulling, Pulled, Created, Started or
//                        Killing) delivered to kube-apiserver: the kubelet reports what its runtime did.
//   conflict, relist,    the answer delivered to the client: an http.response 409; an http.response 410
//   requestFailed        or a watch ERROR event with code 410 (the client lists again), or etcd cancelling
//                        kube-apiserver's watch because its revision was compacted (the watch cache
//                        relists); any other answer ≥ 400 but 404 to the user, and etcd errors to the user.
// Events (/registry/events) and leases are never milestones. Steps while the cluster boots are
// classified (levels, state) but yield no milestone: the story starts when the user can act.
//
// Levels: a milestone is 'milestone'; HTTP requests, responses, watch events (but bookmarks), watch ends
// and cancels, and every etcd.* message are 'request'; everything else (kube-apiserver's filter-chain
// stages and watch-cache waits, timers, bookmarks, controller bookkeeping) is 'internal'.

import { isFlowFailure, type Milestone, type MilestoneFacts, type ObjectRef, type StepLevel } from '../../protocol/index.ts';
import type { Message } from '../../sim/engine/index.ts';
import { byteStringToUtf8, type KeyValue } from '../../sim/etcd/index.ts';
import { decodeStored, isProtobufValue } from '../../sim/apiserver/storage/codec.ts';
import { protobufNodeReady, protobufPodFacts, protobufWorkloadFacts } from './protobuf-facts.ts';
import type { KeyspaceSource } from '../keyspace.ts';
import {
  bodyObject, kindOf, metadataOf, nodeReady, objectOfKey, objectOfPath, ownerOf, podFacts, quickNodeReady, quickPodFacts, quickWorkloadFacts, refOf,
  registryPrefix, resourceOfKeyPrefix, resourceOfPath, specChange, workloadFacts, type PodFacts, type WorkloadFacts,
} from './objects.ts';

/** The engine's component names the classifier reads (src/sim/cluster.ts `componentNames`). */
const apiserver = 'kube-apiserver';
const etcdName = 'etcd';
/** An etcd member: the single member `etcd`, or `etcd-1` … `etcd-5` of a raft cluster. */
const isEtcd = (name: string): boolean => name === etcdName || /^etcd-\d+$/.test(name);
/** Raft messages between members: inside etcd, folded into the request that caused them. */
const raftPrefix = 'etcd.raft.';
const user = 'user';
const controllerManager = 'kube-controller-manager';
const scheduler = 'kube-scheduler';
const kubeletPrefix = 'kubelet/';

const mutatingMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** pods/<name>/exec, attach and portforward: POSTs that open a stream, not writes. */
const podStreamPath = /\/pods\/[^/]+\/(?:exec|attach|portforward)$/;
const etcdWrites: ReadonlySet<string> = new Set(['etcd.Put', 'etcd.DeleteRange', 'etcd.Txn', 'etcd.Compact', 'etcd.LeaseGrant', 'etcd.LeaseRevoke']);
const containerReasons = new Map<string, 'pulling' | 'pulled' | 'created' | 'started' | 'killing'>([
  ['Pulling', 'pulling'], ['Pulled', 'pulled'], ['Created', 'created'], ['Started', 'started'], ['Killing', 'killing'],
]);
/** Keys whose changes are never milestones. */
const quietPrefixes = ['/registry/events/', '/registry/leases/'];
/** Bounds on the bookkeeping maps (entries); past them the oldest half is dropped. */
const clientLimit = 50_000;
const requestLimit = 50_000;

export interface Classified {
  readonly level: StepLevel;
  readonly milestone: Milestone | null;
}

type Facts = MilestoneFacts;

interface OpenRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

interface StoredPod {
  readonly kind: 'pod';
  readonly facts: PodFacts;
}
interface StoredWorkload {
  readonly kind: 'workload';
  readonly objectKind: 'Deployment' | 'ReplicaSet';
  readonly facts: WorkloadFacts;
}
interface StoredNode {
  readonly kind: 'node';
  readonly ready: string;
}
/** A namespace: whether it is terminating (its first DELETE sets deletionTimestamp and phase Terminating). */
interface StoredNamespace {
  readonly kind: 'namespace';
  readonly terminating: boolean;
}
type Stored = StoredPod | StoredWorkload | StoredNode | StoredNamespace;

const internal: Classified = { level: 'internal', milestone: null };
const request: Classified = { level: 'request', milestone: null };

export class StoryClassifier {
  /** While true (the cluster boots) nothing is a milestone; state is still kept. */
  quiet = false;
  private seenRevision: number;
  /** Summaries of the stored pods, deployments, replicasets and nodes, by key. */
  private readonly stored = new Map<string, Stored>();
  /** Watcher + uid → the newest generation it saw (first sights). */
  private readonly sights = new Map<string, number>();
  /** HTTP requests at kube-apiserver not answered yet (watches until they end), by id. */
  private readonly requests = new Map<number, OpenRequest>();
  /**
   * kube-apiserver's work for a client: message id → the client whose request caused it. A filter-chain
   * stage takes over its cause's entry (the chain is linear), so the map holds little more than the
   * requests in progress and their etcd calls.
   */
  private readonly clients = new Map<number, string>();
  /** What etcd committed at the delivery being classified (reused). */
  private readonly committed: KeyValue[] = [];
  private readonly collectCommitted = (kv: KeyValue): void => {
    this.committed.push(kv);
  };
  /** etcd watch create requests (id → key), and created watches (`stream/watchId` → key). */
  private readonly etcdWatchRequests = new Map<number, string>();
  private readonly etcdWatches = new Map<string, string>();

  constructor(private readonly etcd: KeyspaceSource | null = null) {
    this.seenRevision = etcd?.store.currentRev ?? 0;
  }

  /** Classifies the delivery of `message` at `step` (call it after the delivery, in delivery order). */
  classify(step: number, message: Message): Classified {
    const facts = this.read(message);
    const stored = this.readStore(message);
    const found = facts ?? stored;
    if (found === null) return this.levelOf(message);
    if (this.quiet) return request;
    const milestone = { step, messageId: message.id, at: message.deliverAt, components: found.components, ...found.facts } as Milestone;
    return { level: 'milestone', milestone };
  }

  private levelOf(message: Message): Classified {
    const { kind } = message;
    if (kind.startsWith(raftPrefix)) return internal;
    if (kind.startsWith('etcd.')) return request;
    if (kind.startsWith('http.')) {
      if (kind === 'http.watchEvent' && (message.payload as { type?: string }).type === 'BOOKMARK') return internal;
      return request;
    }
    return internal;
  }

  /** A milestone read from the message itself, and the bookkeeping it needs. */
  private read(message: Message): { facts: Facts; components: string[] } | null {
    switch (message.kind) {
      case 'http.request': return this.httpRequest(message);
      case 'http.response': return this.httpResponse(message);
      case 'http.watchEvent': return this.watchEvent(message);
      case 'http.watchEnd':
        if (message.replyTo !== null) this.requests.delete(message.replyTo);
        return null;
      case 'user.fault': return this.fault(message);
      default:
        if (message.kind.startsWith('etcd.')) return this.etcdMessage(message);
        if (message.kind.startsWith('apiserver.')) this.follow(message);
        return null;
    }
  }

  private httpRequest(message: Message): { facts: Facts; components: string[] } | null {
    const req = message.payload as OpenRequest;
    if (message.to !== apiserver) return null;
    this.clients.set(message.id, message.from);
    if (this.clients.size > clientLimit) dropOldest(this.clients);
    this.requests.set(message.id, req);
    if (this.requests.size > requestLimit) dropOldest(this.requests);
    // A POST to pods/<name>/exec, attach or portforward writes nothing: it opens a stream to the kubelet.
    if (message.from === user && message.cause === null && mutatingMethods.has(req.method) && !podStreamPath.test(req.path)) {
      const object = objectOfPath(req.path, bodyObject(req.body));
      return { facts: { kind: 'userAction', tool: 'kubectl', summary: `${req.method} ${req.path}`, object }, components: [user, apiserver] };
    }
    if (req.method === 'POST' && req.path.endsWith('/events') && message.from.startsWith(kubeletPrefix) && resourceOfPath(req.path) === 'events') {
      const event = bodyObject(req.body);
      const step = containerReasons.get(typeof event?.['reason'] === 'string' ? event['reason'] : '');
      const involved = event?.['involvedObject'] as { kind?: string; name?: string; namespace?: string; fieldPath?: string } | undefined;
      if (step && involved?.kind === 'Pod' && involved.name) {
        const text = typeof event?.['message'] === 'string' ? event['message'] : '';
        const container = /\{(.+)\}/.exec(involved.fieldPath ?? '')?.[1] ?? /container (\S+)$/.exec(text)?.[1] ?? null;
        const image = step === 'pulling' || step === 'pulled' ? (/"([^"]+)"/.exec(text)?.[1] ?? null) : null;
        const object: ObjectRef = { resource: 'pods', kind: 'Pod', namespace: involved.namespace ?? null, name: involved.name };
        return { facts: { kind: 'containerStep', object, node: message.from.slice(kubeletPrefix.length), action: step, container, image }, components: [message.from, apiserver] };
      }
    }
    return null;
  }

  private httpResponse(message: Message): { facts: Facts; components: string[] } | null {
    const res = message.payload as { status: number; body: unknown; stream?: boolean };
    const open = message.replyTo === null ? undefined : this.requests.get(message.replyTo);
    if (message.replyTo !== null && res.stream !== true) this.requests.delete(message.replyTo);
    if (res.status < 400) return null;
    const status = bodyObject(res.body);
    const text = typeof status?.['message'] === 'string' ? status['message'] : '';
    const reason = typeof status?.['reason'] === 'string' ? status['reason'] : '';
    const components = [apiserver, message.to];
    if (res.status === 409) {
      return { facts: { kind: 'conflict', client: message.to, object: open ? objectOfPath(open.path, bodyObject(open.body)) : null, message: text }, components };
    }
    if (res.status === 410) {
      return { facts: { kind: 'relist', client: message.to, resource: open ? resourceOfPath(open.path) : '', message: text }, components };
    }
    if (message.to === user && isFlowFailure(res.status)) {
      return { facts: { kind: 'requestFailed', client: user, status: res.status, reason, message: text }, components };
    }
    return null;
  }

  private watchEvent(message: Message): { facts: Facts; components: string[] } | null {
    const event = message.payload as { type: string; object: unknown };
    const watcher = message.to;
    const components = [apiserver, watcher];
    if (event.type === 'ERROR') {
      const status = bodyObject(event.object);
      if (status?.['code'] !== 410) return null;
      const open = message.replyTo === null ? undefined : this.requests.get(message.replyTo);
      const text = typeof status['message'] === 'string' ? status['message'] : '';
      return { facts: { kind: 'relist', client: watcher, resource: open ? resourceOfPath(open.path) : '', message: text }, components };
    }
    if (event.type !== 'ADDED' && event.type !== 'MODIFIED' && event.type !== 'DELETED') return null;
    const kind = kindOf(event.object);
    const kcm = watcher === controllerManager;
    if (!(kcm ? kind === 'Deployment' || kind === 'ReplicaSet' || kind === 'Pod' : kind === 'Pod' && (watcher === scheduler || watcher.startsWith(kubeletPrefix)))) return null;
    const meta = metadataOf(event.object);
    if (!meta?.uid || !kind) return null;
    const sight = `${watcher}\u0000${meta.uid}`;
    const object = refOf(event.object);
    if (!object) return null;
    const revision = Number(metadataOfRv(event.object)) || 0;
    if (event.type === 'DELETED') {
      this.sights.delete(sight);
      this.sights.delete(`${sight}\u0000terminating`);
      if (watcher === controllerManager && (kind === 'Pod' || kind === 'ReplicaSet')) {
        return { facts: { kind: 'watchSeen', watcher, eventType: 'DELETED', object, revision }, components };
      }
      return null;
    }
    // The controller that heals sees a managed Pod terminating (it replaces it at once, not at DELETED).
    if (watcher === controllerManager && kind === 'Pod') {
      const terminating = `${sight}\u0000terminating`;
      if (!meta.deletionTimestamp || this.sights.has(terminating)) return null;
      this.sights.set(terminating, 0);
      return { facts: { kind: 'watchSeen', watcher, eventType: event.type, object, revision }, components };
    }
    const generation = meta.generation ?? 0;
    const seen = this.sights.get(sight);
    let acts: boolean;
    if (watcher === controllerManager && (kind === 'Deployment' || kind === 'ReplicaSet')) acts = seen === undefined || generation > seen;
    else if (watcher === scheduler && kind === 'Pod') acts = seen === undefined && !nodeNameOf(event.object);
    else if (watcher.startsWith(kubeletPrefix) && kind === 'Pod') acts = seen === undefined && nodeNameOf(event.object) === watcher.slice(kubeletPrefix.length);
    else return null;
    if (seen === undefined || generation > seen) this.sights.set(sight, generation);
    if (!acts) return null;
    return { facts: { kind: 'watchSeen', watcher, eventType: event.type, object, revision }, components };
  }

  private fault(message: Message): { facts: Facts; components: string[] } | null {
    if (message.cause !== null) return null;
    const fault = message.payload as { type: string; node?: string; component?: string; image?: string };
    const detail = fault.node ?? fault.component ?? fault.image;
    const object: ObjectRef | null = fault.node ? { resource: 'nodes', kind: 'Node', namespace: null, name: fault.node } : null;
    const components = [user, ...(fault.node ? [`${kubeletPrefix}${fault.node}`] : fault.component ? [fault.component] : [])];
    return { facts: { kind: 'userAction', tool: 'fault', summary: detail ? `${fault.type} ${detail}` : fault.type, object }, components };
  }

  private etcdMessage(message: Message): { facts: Facts; components: string[] } | null {
    this.follow(message);
    const { kind } = message;
    if (message.from === user && isEtcd(message.to) && message.cause === null && etcdWrites.has(kind)) {
      const key = (message.payload as { key?: string }).key ?? txnKey(message.payload);
      const summary = key ? `${kind} ${key}` : kind;
      return { facts: { kind: 'userAction', tool: 'etcdctl', summary, object: key ? objectOfKey(key) : null }, components: [user, message.to] };
    }
    if (kind === 'etcd.Watch') {
      const key = (message.payload as { request?: { createRequest?: { key?: string } } }).request?.createRequest?.key;
      if (key !== undefined) this.etcdWatchRequests.set(message.id, key);
      return null;
    }
    if (kind === 'etcd.WatchResponse') {
      const { stream, response } = message.payload as { stream: string; response: { watchId: number; created: boolean; canceled: boolean; compactRevision: number; cancelReason: string } };
      const id = `${stream}/${response.watchId}`;
      if (response.created && message.replyTo !== null) {
        const key = this.etcdWatchRequests.get(message.replyTo);
        this.etcdWatchRequests.delete(message.replyTo);
        if (key !== undefined) this.etcdWatches.set(id, key);
        return null;
      }
      if (response.canceled) {
        const key = this.etcdWatches.get(id);
        this.etcdWatches.delete(id);
        if (response.compactRevision > 0) {
          const text = response.cancelReason || `mvcc: required revision has been compacted (compact revision ${response.compactRevision})`;
          return { facts: { kind: 'relist', client: message.to, resource: key ? resourceOfKeyPrefix(key) : '', message: text }, components: [etcdName, message.to] };
        }
      }
      return null;
    }
    if (message.to === user && message.replyTo !== null && kind.endsWith('Response')) {
      const reply = message.payload as { ok?: boolean; error?: { codeName: string; message: string } };
      if (reply.ok === false && reply.error) {
        return { facts: { kind: 'requestFailed', client: user, status: 0, reason: reply.error.codeName, message: reply.error.message }, components: [etcdName, user] };
      }
    }
    return null;
  }

  /** Carries the client of kube-apiserver's work along its filter chain and its etcd calls. */
  private follow(message: Message): void {
    if (message.cause === null) return;
    const inside = message.from === apiserver && (message.to === apiserver || isEtcd(message.to));
    const reply = isEtcd(message.from) && message.to === apiserver && message.replyTo !== null;
    if (!inside && !reply) return;
    const client = this.clients.get(message.cause);
    if (client === undefined) return;
    this.clients.set(message.id, client);
    if (message.to === apiserver && message.from === apiserver) this.clients.delete(message.cause);
  }

  /** The milestone read from what etcd committed at this delivery, if anything. */
  private readStore(message: Message): { facts: Facts; components: string[] } | null {
    const store = this.etcd?.store;
    if (!store || store.currentRev === this.seenRevision) return null;
    const changes = this.committed;
    changes.length = 0;
    store.backend.rangeRevisions(this.seenRevision + 1, store.currentRev + 1, this.collectCommitted);
    this.seenRevision = store.currentRev;
    const client = this.clients.get(message.id);
    const components = client !== undefined && client !== apiserver ? [client, apiserver, etcdName] : [apiserver, etcdName];
    let found: Facts | null = null;
    for (const kv of changes) {
      const facts = this.change(kv);
      if (found === null) found = facts;
    }
    return found === null ? null : { facts: found, components };
  }

  private quickChange(key: string, value: string, revision: number, before: Stored): Facts | null | undefined {
    return quickChangeOf(key, value, revision, before, this.stored, jsonReaders);
  }

  private change(kv: KeyValue): Facts | null {
    const { key } = kv;
    if (!key.startsWith(registryPrefix) || quietPrefixes.some((p) => key.startsWith(p))) return null;
    const before = this.stored.get(key);
    if (kv.createRevision === 0) {
      this.stored.delete(key);
      const object = objectOfKey(key, before?.kind === 'workload' ? before.objectKind : undefined);
      return object ? { kind: 'objectDeleted', object, key, revision: kv.modRevision } : null;
    }
    const resource = objectOfKey(key)?.resource;
    const tracked = resource === 'pods' || resource === 'deployments' || resource === 'replicasets' || resource === 'nodes' || resource === 'namespaces';
    if (!tracked) {
      if (kv.version !== 1) return null;
      const object = objectOfKey(key);
      return object ? { kind: 'objectCreated', object, key, revision: kv.modRevision, owner: null } : null;
    }
    const revision = kv.modRevision;
    // Updates are read from the stored text when they can be (objects.ts, quick readers); creations and
    // the rarer changes parse the object.
    // (Values are etcd byte strings: JSON as its UTF-8 bytes, or Kubernetes protobuf, which is parsed.)
    if (kv.version > 1 && before !== undefined) {
      const quick = isProtobufValue(kv.value)
        ? quickChangeOf(key, kv.value, revision, before, this.stored, protobufReaders)
        : this.quickChange(key, byteStringToUtf8(kv.value), revision, before);
      if (quick !== undefined) return quick;
    }
    let obj: Record<string, unknown> | null;
    try {
      obj = bodyObject(decodeStored(kv.value));
    } catch {
      obj = null;
    }
    if (!obj) return null;
    const object = objectOfKey(key, kindOf(obj) ?? undefined)!;
    const owner = ownerOf(obj, object.namespace);
    if (resource === 'pods') {
      const facts = podFacts(obj);
      this.stored.set(key, { kind: 'pod', facts });
      if (kv.version === 1 || before?.kind !== 'pod') return { kind: 'podCreated', object, key, revision, owner, node: facts.node, phase: facts.phase };
      return podChange(object, revision, before.facts, facts);
    }
    if (resource === 'namespaces') {
      const meta = obj['metadata'] as { deletionTimestamp?: unknown } | undefined;
      const terminating = meta?.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
      this.stored.set(key, { kind: 'namespace', terminating });
      if (kv.version === 1 || before?.kind !== 'namespace') return { kind: 'objectCreated', object, key, revision, owner };
      return terminating && !before.terminating ? { kind: 'terminating', object, revision } : null;
    }
    if (resource === 'nodes') {
      const ready = nodeReady(obj);
      this.stored.set(key, { kind: 'node', ready: ready.status });
      if (kv.version === 1 || before?.kind !== 'node') return { kind: 'objectCreated', object, key, revision, owner };
      if (before.ready === 'True' && ready.status !== 'True') return { kind: 'eviction', object, node: object.name, message: ready.message || `Ready ${ready.status}` };
      return null;
    }
    const facts = workloadFacts(obj);
    const objectKind = object.kind === 'Deployment' ? 'Deployment' : 'ReplicaSet';
    this.stored.set(key, { kind: 'workload', objectKind, facts });
    if (kv.version === 1 || before?.kind !== 'workload') return { kind: 'objectCreated', object, key, revision, owner };
    const was = before.facts;
    if (facts.terminating && !was.terminating) return { kind: 'terminating', object, revision };
    if (facts.generation > was.generation) return { kind: 'specChanged', object, revision, generation: facts.generation, change: specChange(was, facts) };
    if (objectKind === 'Deployment' && facts.available !== was.available && (facts.available === 'True' || was.available === 'True')) {
      return { kind: 'deploymentAvailable', object, available: facts.available === 'True', readyReplicas: facts.readyReplicas, replicas: facts.replicas, revision };
    }
    return null;
  }
}

/** A stored update's milestone (or null) read without parsing; undefined when the object must be parsed. */
/** The quick readers of one storage media type. */
interface QuickReaders {
  readonly pod: (value: string) => PodFacts | undefined;
  readonly nodeReady: (value: string) => { readonly status: string; readonly message: string } | undefined;
  readonly workload: (value: string, before: WorkloadFacts) => WorkloadFacts | undefined;
}
const jsonReaders: QuickReaders = { pod: quickPodFacts, nodeReady: quickNodeReady, workload: quickWorkloadFacts };
const protobufReaders: QuickReaders = { pod: protobufPodFacts, nodeReady: protobufNodeReady, workload: protobufWorkloadFacts };

function quickChangeOf(key: string, value: string, revision: number, before: Stored, stored: Map<string, Stored>,
  readers: QuickReaders): Facts | null | undefined {
  if (before.kind === 'namespace') return before.terminating ? null : undefined;
  if (before.kind === 'pod') {
    const facts = readers.pod(value);
    if (facts === undefined) return undefined;
    stored.set(key, { kind: 'pod', facts });
    return podChange(objectOfKey(key, 'Pod')!, revision, before.facts, facts);
  }
  if (before.kind === 'node') {
    const ready = readers.nodeReady(value);
    if (ready === undefined) return undefined;
    stored.set(key, { kind: 'node', ready: ready.status });
    if (before.ready === 'True' && ready.status !== 'True') return { kind: 'eviction', object: objectOfKey(key, 'Node')!, node: objectOfKey(key)!.name, message: ready.message || `Ready ${ready.status}` };
    return null;
  }
  const facts = readers.workload(value, before.facts);
  if (facts === undefined) return undefined;
  stored.set(key, { kind: 'workload', objectKind: before.objectKind, facts });
  const was = before.facts;
  if (before.objectKind === 'Deployment' && facts.available !== was.available && (facts.available === 'True' || was.available === 'True')) {
    const object = objectOfKey(key, 'Deployment')!;
    return { kind: 'deploymentAvailable', object, available: facts.available === 'True', readyReplicas: facts.readyReplicas, replicas: facts.replicas, revision };
  }
  return null;
}

/** A pod's stored change, the most telling first. */
function podChange(object: ObjectRef, revision: number, was: PodFacts, now: PodFacts): Facts | null {
  if (now.terminating && !was.terminating) return { kind: 'terminating', object, revision };
  if (now.node !== null && was.node === null) return { kind: 'podBound', object, node: now.node, revision };
  if (now.disruption !== null && was.disruption === null) return { kind: 'eviction', object, node: now.node, message: now.disruption };
  if (now.unschedulable !== null && now.unschedulable !== was.unschedulable) return { kind: 'failedScheduling', object, message: now.unschedulable };
  for (const [container, { reason, message }] of now.backOff) {
    if (was.backOff.get(container)?.reason === reason) continue;
    if (reason === 'ImagePullBackOff') return { kind: 'imagePullBackOff', object, node: now.node ?? '', image: now.images.get(container) ?? null, message };
    return { kind: 'crashLoopBackOff', object, node: now.node ?? '', container, message };
  }
  if (now.phase !== was.phase || now.ready !== was.ready) return { kind: 'podPhase', object, node: now.node, phase: now.phase, ready: now.ready, revision };
  return null;
}

function nodeNameOf(obj: unknown): string | null {
  const spec = (obj as { spec?: { nodeName?: string } } | null)?.spec;
  return spec?.nodeName ? spec.nodeName : null;
}

function metadataOfRv(obj: unknown): string | undefined {
  return (metadataOf(obj) as { resourceVersion?: string } | null)?.resourceVersion;
}

function txnKey(payload: unknown): string | undefined {
  const txn = payload as { compare?: Array<{ key?: string }>; success?: Array<{ requestPut?: { key?: string }; requestDeleteRange?: { key?: string } }> };
  const op = txn.success?.[0];
  return op?.requestPut?.key ?? op?.requestDeleteRange?.key ?? txn.compare?.[0]?.key;
}

function dropOldest<K, V>(map: Map<K, V>): void {
  let drop = map.size >> 1;
  for (const key of map.keys()) {
    if (drop-- <= 0) break;
    map.delete(key);
  }
}
