// kube-apiserver as an engine component. A request (`http.request`) runs the filter chain, each stage a
// step of its own carrying its decision (authentication → audit → impersonation → max-in-flight →
// authorization), then the REST handler, whose registry pipeline adds its own stages (mutating
// admission → strategy → validating admission) before the etcd Txn. The reply is one `http.response`.
// At start it creates the system namespaces and the RBAC bootstrap policy through its own registry.
// Models k8s.io/apiserver/pkg/server/config.go (DefaultBuildHandlerChain) and the handler dispatch of
// pkg/endpoints/installer.go.

import { newAuthorizationForbidden, newInternalError, newUnauthorized, StatusError } from '../api/errors.ts';
import { lookupResource } from '../api/resources.ts';
import { parseRequestInfo, resolveRoute, type RequestInfo, type ResolvedRoute } from '../api/request-info.ts';
import { formatMicroTimestamp } from '../api/time.ts';
import type { Namespace } from '../api/types/core.ts';
import type { KubeObject } from '../api/types/meta.ts';
import type { Lease } from '../api/types/coordination.ts';
import { applyDefaults } from '../api/defaults.ts';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../api/types/rbac.ts';
import { Component, timerKind, type Co, type Message, type TimerPayload } from '../engine/index.ts';
import type { EtcdRequestKind, MessageMap, ReplyOf, StageDetails, StageName, StagePayload, TypedMessage } from '../messages/index.ts';
import { etcdKinds } from '../etcd/index.ts';
import { handleReview } from './auth-reviews.ts';
import { AdmissionChain, type AdmissionContext } from './admission/admission.ts';
import { defaultAdmissionPlugins } from './admission/plugins.ts';
import {
  bootstrapPolicy, defaultAdvertiseAddress, kubernetesEndpointSlice, kubernetesEndpoints, kubernetesService, systemNamespaces, systemPriorityClasses,
} from './bootstrap.ts';
import { apiserverIdentityLease, identityLeaseRenewInterval, identityLeaseTimer } from './identity-lease.ts';
import { ClusterIPAllocator, StoredRangeAllocator, newNodePortBitmap, newServiceIPBitmap, rangeKeys, serviceClusterIPRange } from './service-allocators.ts';
import { ServiceAllocations } from './service-rest.ts';
import { AuditLog, type AuditEvent, type AuditStage } from './filters/audit.ts';
import { authenticatedGroup, TokenAuthenticator, type UserInfo } from './filters/authentication.ts';
import { defaultMaxInFlight, MaxInFlight, tooManyRequestsBody, type MaxInFlightLimits } from './filters/max-in-flight.ts';
import { ApiserverMetrics } from './filters/metrics.ts';
import { pathSegmentError } from './filters/path-segments.ts';
import { RbacIndex } from './filters/rbac.ts';
import {
  handleCreate, handleDelete, handleDeleteCollection, handleGet, handleList, handlePatch, handleUpdate, handleWatch, respond,
  type HandlerRequest, type WatchResponder,
} from './handlers.ts';
import { httpKinds, type HttpCancel, type HttpRequest, type HttpResponse, type HttpWatchEnd } from '../wire/http.ts';
import { parseQuery } from '../go/url.ts';
import { managerOrUserAgent } from './fieldmanager/field-manager.ts';
import { serveNonResource } from './non-resource.ts';
import { handlePodStream, podStreamSubresources, type KubeletConnection } from './pod-streams.ts';
import { withNegotiatedContentType } from './negotiation.ts';
import { GenericStore, type RegistryContext } from './registry/generic-store.ts';
import { strategyFor } from './registry/strategies.ts';
import { Cacher, cacherResourcePrefixOf, podNodeNameTrigger, type CacherHost } from './storage/cacher.ts';
import type { WatchCacheWindow } from './storage/watch-cache.ts';
import { Compactor, defaultCompactionInterval } from './storage/compactor.ts';
import { etcdClientOver, EtcdEndpoints, etcdRetry, isSafeRetry, type EtcdClient } from './storage/etcd-client.ts';
import type { StorageMediaType } from './storage/codec.ts';
import { EtcdWatchRouter } from './storage/etcd-watch-client.ts';
import { StorageError } from './storage/errors.ts';
import { EtcdWatcher } from './storage/etcd-watcher.ts';
import { Etcd3Store } from './storage/etcd3-store.ts';
import type { Storage, StorageWatch } from './storage/interface.ts';
import { apiVersionOf, servedResources, storageKey, type ResourceInfo } from '../api/resources.ts';
export interface KubeApiserverOptions {
  readonly name?: string;
  /** `--etcd-servers`: the etcd members (components) to talk to (default: the one named `etcd`). */
  readonly etcdServers?: readonly string[];
  /** `--etcd-prefix` (default `/registry`). */
  readonly etcdPrefix?: string;
  /**
   * Other kube-apiservers may write to this etcd (a real one): a namespace this server has not seen is
   * read from storage before admission calls it missing. Off, the server's own writes are all there is.
   */
  readonly sharedEtcd?: boolean;
  /** Node names, for the kubelets' tokens. */
  readonly nodes?: readonly string[];
  readonly alwaysPullImages?: boolean;
  readonly maxInFlight?: MaxInFlightLimits;
  /** Virtual time each filter or registry stage takes, ms (default 0). */
  readonly stageDelay?: number;
  /** The address discovery advertises (`serverAddressByClientCIDRs`). */
  readonly serverAddress?: string;
  /** `--etcd-compaction-interval`, ms (default 5 min; 0 turns the compactor off). */
  readonly compactionInterval?: number;
  /** `--advertise-address`: the address in the `kubernetes` Endpoints and EndpointSlice. */
  readonly advertiseAddress?: string;
  /** `--storage-media-type`: how objects are written to etcd (default protobuf, as kube-apiserver's). */
  readonly storageMediaType?: StorageMediaType;
}

const compactorTimer = 'compactor';
const watchTimeoutTimer = 'watch-timeout';

export class KubeApiserver extends Component {
  readonly audit = new AuditLog();
  readonly rbac = new RbacIndex();
  /** Request and etcd metrics for /metrics. */
  readonly metrics = new ApiserverMetrics();
  private readonly etcd: EtcdClient;
  private readonly etcdWatches: EtcdWatchRouter;
  private readonly cachers = new Map<string, Cacher>();
  private readonly storages = new Map<string, Storage>();
  /** Open client watches by the id of their request. */
  private readonly openWatches = new Map<number, { request: Message<HttpRequest>; watch: StorageWatch | null; timeout: Message; ended: boolean }>();
  /** Streams relayed from a kubelet (a followed log, an exec): the kubelet request's id → the client's request. */
  private readonly relays = new Map<number, { readonly client: Message<HttpRequest>; readonly kubelet: string }>();
  /** The client request's id → the kubelet request's id, for a client's cancel. */
  private readonly relayOf = new Map<number, number>();
  private readonly shared: boolean;
  private readonly etcdServers: EtcdEndpoints;
  private readonly prefix: string;
  private readonly authenticator: TokenAuthenticator;
  private readonly inFlight: MaxInFlight;
  private readonly admission: AdmissionChain;
  private readonly stageDelay: number;
  private readonly serverAddress: string;
  private readonly compactor: Compactor;
  private readonly compactionInterval: number;
  private readonly stores = new Map<string, GenericStore>();
  /** The namespace lister admission reads (kept current by every committed namespace write). */
  private readonly namespaces = new Map<string, Namespace>();
  private bootstrapped = false;
  private readonly advertiseAddress: string;
  /** The ClusterIP and NodePort allocators (their bitmaps live under /registry/ranges/). */
  readonly serviceAllocations: ServiceAllocations;
  /** The identity lease as last written, renewed every 10 s. */
  private identityLease: KubeObject | null = null;
  readonly storageMediaType: StorageMediaType;

  constructor(options: KubeApiserverOptions = {}) {
    super(options.name ?? 'kube-apiserver');
    this.shared = options.sharedEtcd ?? false;
    this.etcdServers = new EtcdEndpoints(options.etcdServers ?? ['etcd']);
    this.prefix = options.etcdPrefix ?? '/registry';
    this.authenticator = new TokenAuthenticator(options.nodes ?? []);
    this.inFlight = new MaxInFlight(options.maxInFlight ?? defaultMaxInFlight);
    this.admission = new AdmissionChain(defaultAdmissionPlugins({ alwaysPullImages: options.alwaysPullImages ?? false }));
    this.stageDelay = options.stageDelay ?? 0;
    this.storageMediaType = options.storageMediaType ?? 'protobuf';
    this.serverAddress = options.serverAddress ?? '127.0.0.1:6443';
    this.etcd = etcdClientOver((kind, payload) => this.timedEtcdCall(kind, payload));
    this.etcdWatches = new EtcdWatchRouter(this.name, {
      call: (kind, payload) => this.call(this.etcdServers.pinned, kind, payload),
      send: (kind, payload) => {
        this.send(this.etcdServers.pinned, kind, payload);
      },
      spawn: (co) => {
        this.spawn(co);
      },
    });
    this.compactor = new Compactor(this.etcd);
    this.compactionInterval = options.compactionInterval ?? defaultCompactionInterval;
    this.advertiseAddress = options.advertiseAddress ?? defaultAdvertiseAddress;
    // The ranges are stored objects no REST resource serves: one etcd3 store, no watch cache.
    const rangeNew = (): KubeObject => ({ kind: 'RangeAllocation', apiVersion: 'v1', metadata: {} });
    const ranges = new Etcd3Store(this.etcd, () => this.now, new EtcdWatcher({
      etcd: this.etcd, watches: this.etcdWatches, groupResource: { group: '', resource: 'serviceipallocations' }, newFunc: rangeNew,
    }));
    this.serviceAllocations = new ServiceAllocations(
      new ClusterIPAllocator(serviceClusterIPRange, new StoredRangeAllocator(newServiceIPBitmap(), ranges, `${this.prefix}${rangeKeys.serviceIPs}`)),
      new StoredRangeAllocator(newNodePortBitmap(), ranges, `${this.prefix}${rangeKeys.nodePorts}`),
    );
  }

  /** An etcd request of the storage layer, observed for etcd_request_duration_seconds. */
  private *timedEtcdCall<K extends EtcdRequestKind>(kind: K, payload: MessageMap[K]): Co<Message<ReplyOf<K>>> {
    const sent = this.now;
    let reply: Message<ReplyOf<K>>;
    for (let attempt = 1; ; attempt++) {
      const endpoint = this.etcdServers.pinned;
      reply = yield* this.call(endpoint, kind, payload);
      if (reply.payload.ok || reply.payload.error.codeName !== 'Unavailable') break;
      this.etcdServers.failed(endpoint);
      if (attempt === etcdRetry.maxAttempts || !isSafeRetry(kind, reply.payload.error)) break;
      yield* this.sleep(etcdRetry.backoffMs, { reason: 'etcd-retry' });
    }
    this.metrics.observeEtcd(kind, payload, this.now - sent);
    return reply;
  }

  /** True once the system namespaces and the bootstrap RBAC policy are stored. */
  get ready(): boolean {
    return this.bootstrapped;
  }

  /** Creates the system namespaces and the bootstrap policy (call once, after the engine links etcd). */
  start(): void {
    for (const r of servedResources) if (!r.unstored) this.storageOf(r);
    this.spawn(this.bootstrap());
    if (this.compactionInterval > 0) this.setTimer(this.compactionInterval, compactorTimer, null, { background: true });
  }

  receive(message: Message): void {
    // A broken watch stream means the member (or the connection to it) failed: clientv3 moves on.
    if (message.kind === etcdKinds.watchStreamError) this.etcdServers.failed(message.from);
    if (this.etcdWatches.route(message)) return;
    if (message.replyTo !== null && this.relays.has(message.replyTo) && (message.kind === httpKinds.streamData || message.kind === httpKinds.watchEnd)) {
      this.relayStream(message);
      return;
    }
    const cacherPrefix = cacherResourcePrefixOf(message);
    if (cacherPrefix !== undefined) {
      this.cachers.get(cacherPrefix)?.receive(message);
    } else if (message.kind === httpKinds.request) {
      this.spawn(this.serve(message as Message<HttpRequest>));
    } else if (message.kind === httpKinds.cancel) {
      const requestId = (message.payload as HttpCancel).requestId;
      const relayed = this.relayOf.get(requestId);
      if (relayed !== undefined) this.endRelay(relayed, true);
      else this.closeWatch(requestId, null);
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === watchTimeoutTimer) {
      this.closeWatch((message.payload as TimerPayload<number>).data, 'timeout');
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === compactorTimer) {
      this.spawn(this.compactor.compactOnce());
      this.setTimer(this.compactionInterval, compactorTimer, null, { background: true });
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === identityLeaseTimer) {
      this.spawn(this.renewIdentityLease());
    }
  }

  private *bootstrap(): Co<void> {
    const system: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };
    const ctx = (namespace: string) => this.context(system, namespace, null, 'kube-apiserver');
    for (const name of systemNamespaces) {
      const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject;
      applyDefaults({ group: '', version: 'v1', kind: 'Namespace' }, ns);
      yield* this.ensureCreated('', 'namespaces', ctx(''), ns);
    }
    for (const item of bootstrapPolicy()) {
      yield* this.ensureCreated(item.group, item.resource, ctx(item.namespace), item.object);
    }
    for (const pc of systemPriorityClasses()) yield* this.ensureCreated('scheduling.k8s.io', 'priorityclasses', ctx(''), pc);
    // The repair controllers' first pass creates the ranges; the kubernetesservice controller then
    // creates the master Service (taking the range's first IP) and the reconciler its endpoints.
    yield* this.serviceAllocations.ips.store.ensure();
    yield* this.serviceAllocations.ports.ensure();
    yield* this.ensureCreated('', 'services', ctx('default'), kubernetesService(this.serviceAllocations.ips.ipAt(0)));
    yield* this.ensureCreated('', 'endpoints', ctx('default'), kubernetesEndpoints(this.advertiseAddress));
    yield* this.ensureCreated('discovery.k8s.io', 'endpointslices', ctx('default'), kubernetesEndpointSlice(this.advertiseAddress));
    yield* this.renewIdentityLease();
    // The watch caches list once the start-up objects are stored: each starts at the apiserver's
    // start-up revision, so a watch from an older resourceVersion (1 on a fresh server) gets 410
    // `too old resource version: 1 (N)`, as a real kube-apiserver's cache started on existing data.
    for (const cacher of this.cachers.values()) cacher.start();
    this.bootstrapped = true;
  }

  /**
   * A start-up object's create, where one that exists already is kept and read instead: a kube-apiserver
   * started on an etcd that holds a cluster leaves its objects as they are (the bootstrap controllers
   * create what is missing), and its namespace and RBAC views start from what is stored. On a shared etcd
   * it reads first, as those controllers do (a create could fail otherwise, e.g. the kubernetes Service's
   * cluster IP is taken by the Service itself).
   */
  private *ensureCreated(group: string, resource: string, ctx: RegistryContext, obj: KubeObject): Co<void> {
    const store = this.storeFor(group, resource);
    const name = obj.metadata.name ?? '';
    if (this.shared) {
      try {
        this.observe(resource, yield* store.get(ctx, name, ''), false);
        return;
      } catch (err) {
        if (!(err instanceof StatusError) || err.status.reason !== 'NotFound') throw err;
      }
    }
    try {
      yield* store.create(ctx, obj);
    } catch (err) {
      if (!(err instanceof StatusError) || err.status.reason !== 'AlreadyExists') throw err;
      this.observe(resource, yield* store.get(ctx, name, ''), false);
    }
  }

  /** The identity lease controller: create kube-system/kube-apiserver-<hash>, then renew it every 10 s. */
  private *renewIdentityLease(): Co<void> {
    const system: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };
    const ctx = this.context(system, 'kube-system', null, 'kube-apiserver');
    const renewTime = formatMicroTimestamp(this.engine.epochMs + this.now);
    const store = this.storeFor('coordination.k8s.io', 'leases');
    try {
      if (this.identityLease === null) {
        this.identityLease = yield* store.create(ctx, apiserverIdentityLease(`${this.rng.uuid()}`, renewTime));
      } else {
        const current = this.identityLease as Lease;
        const { object } = yield* store.update(ctx, current.metadata.name ?? '', () => ({ ...current, spec: { ...current.spec, renewTime } }) as KubeObject);
        this.identityLease = object;
      }
    } catch (err) {
      // An error answer or etcd unreachable: logged by the real controller, which tries again next period.
      if (!(err instanceof StatusError) && !(err instanceof StorageError)) throw err;
      this.identityLease = null;
    }
    this.setTimer(identityLeaseRenewInterval, identityLeaseTimer, null, { background: true });
  }

  private storeFor(group: string, resource: string): GenericStore {
    const key = `${group}/${resource}`;
    let store = this.stores.get(key);
    if (!store) {
      const info = lookupResource(group, resource);
      if (!info) throw new Error(`no served resource ${key}`);
      store = new GenericStore(strategyFor(info), this.storageOf(info), this.prefix, (res, obj, deleted) => this.observe(res, obj, deleted),
        key === '/services' ? this.serviceAllocations.hooks() : {});
      this.stores.set(key, store);
    }
    return store;
  }

  /**
   * The storage of a resource: its own etcd3 store (with an etcd watcher), behind a watch cache except
   * for events, which 1.28 does not cache (watch-cache size 0).
   */
  private storageOf(r: ResourceInfo): Storage {
    const key = `${r.group}/${r.resource}`;
    const existing = this.storages.get(key);
    if (existing) return existing;
    const groupResource = { group: r.group, resource: r.resource };
    const newFunc = (): KubeObject => ({ kind: r.kind, apiVersion: apiVersionOf(r), metadata: {} });
    const etcd3 = new Etcd3Store(this.etcd, () => this.now, new EtcdWatcher({ etcd: this.etcd, watches: this.etcdWatches, groupResource, newFunc }),
      this.storageMediaType);
    let storage: Storage = etcd3;
    if (!(r.group === '' && r.resource === 'events')) {
      const resourcePrefix = storageKey(this.prefix, r, undefined).replace(/\/$/, '');
      const cacher = new Cacher({
        storage: etcd3,
        resourcePrefix,
        keyFunc: (obj) => storageKey(this.prefix, r, obj.metadata.namespace, obj.metadata.name ?? ''),
        newFunc,
        host: this.cacherHost(),
        // Models pkg/registry/core/pod/storage/storage.go: TriggerFunc spec.nodeName (pod.NodeNameTriggerFunc).
        ...(r.group === '' && r.resource === 'pods' ? { trigger: podNodeNameTrigger } : {}),
      });
      this.cachers.set(resourcePrefix, cacher);
      storage = cacher;
    }
    this.storages.set(key, storage);
    return storage;
  }

  private cacherHost(): CacherHost {
    return {
      now: () => this.now,
      random: () => this.rng.float(),
      spawn: (co) => this.spawn(co),
      stage: (kind, payload) => this.stage(kind, payload),
      reply: (message, kind, payload) => {
        this.reply(message, kind, payload);
      },
      setTimer: (delay, name, data, options) => {
        this.setTimer(delay, name, data, options);
      },
    };
  }

  /** Requests admitted by max-in-flight and not yet answered (watches are not counted). */
  get requestsInFlight(): { readonly readOnly: number; readonly mutating: number } {
    return this.inFlight.inFlight;
  }

  /** The watch cache window of one resource by storage prefix (`/registry/pods`); null when it has no cache yet. */
  watchCacheWindowOf(resourcePrefix: string): WatchCacheWindow | null {
    return this.cachers.get(resourcePrefix)?.watchCache.window() ?? null;
  }

  /** Every resource's watch cache window, by storage prefix (`/registry/pods`), in prefix order. */
  watchCacheWindows(): Array<{ readonly resourcePrefix: string } & WatchCacheWindow> {
    return [...this.cachers.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([resourcePrefix, cacher]) => ({ resourcePrefix, ...cacher.watchCache.window() }));
  }

  /** The watch responder for one request: the 200 with `stream: true`, then events, then the end. */
  private watchResponder(request: Message<HttpRequest>, auditID: string): WatchResponder {
    return {
      open: (timeoutMs, headers) => {
        // The timeout is housekeeping: it must not keep "run until idle" waiting for half an hour.
        const timeout = this.setTimer(timeoutMs, watchTimeoutTimer, request.id, { background: true });
        this.openWatches.set(request.id, { request, watch: null, timeout, ended: false });
        this.reply(request, httpKinds.response, { status: 200, headers: { ...headers, 'audit-id': auditID }, body: null, stream: true });
      },
      established: (watch) => {
        const open = this.openWatches.get(request.id);
        if (!open || open.ended) watch.stop();
        else open.watch = watch;
      },
      event: (event) => {
        const open = this.openWatches.get(request.id);
        if (open && !open.ended) this.reply(request, httpKinds.watchEvent, event);
      },
      end: () => this.closeWatch(request.id, 'error'),
      now: () => this.now,
    };
  }

  /**
   * Ends every open client watch (only those of component `client`, if given) as a broken connection
   * would: each client gets the end of its stream and watches again. Returns how many were ended.
   */
  dropWatches(client?: string): number {
    let dropped = 0;
    for (const [requestId, open] of [...this.openWatches]) {
      if (client !== undefined && open.request.from !== client) continue;
      this.closeWatch(requestId, 'error');
      dropped++;
    }
    return dropped;
  }

  /** How pods/log, exec, attach and portforward reach a node's kubelet (its :10250 server). */
  private kubeletConnection(): KubeletConnection {
    const reachable = (kubelet: string) => this.engine.linked(this.name, kubelet) && !this.engine.isStopped(kubelet);
    const call = (kubelet: string, request: HttpRequest) => this.call(kubelet, httpKinds.request, request);
    return {
      *call(node, request) {
        const kubelet = `kubelet/${node}`;
        if (!reachable(kubelet)) return { error: 'connect: connection refused' };
        const reply = yield* call(kubelet, request);
        return { response: reply.payload, requestId: reply.replyTo ?? 0 };
      },
    };
  }

  /** Passes a kubelet's stream message on to the client it is for. */
  private relayStream(message: Message): void {
    const relay = this.relays.get(message.replyTo!)!;
    const relayed = message as TypedMessage<'http.streamData' | 'http.watchEvent' | 'http.watchEnd'>;
    this.reply(relay.client, relayed.kind, relayed.payload);
    if (message.kind === httpKinds.watchEnd) this.endRelay(message.replyTo!, false);
  }

  /** Forgets a relayed stream; when the client went away, the kubelet is told to stop it. */
  private endRelay(kubeletRequestId: number, cancelled: boolean): void {
    const relay = this.relays.get(kubeletRequestId);
    if (!relay) return;
    this.relays.delete(kubeletRequestId);
    this.relayOf.delete(relay.client.id);
    if (cancelled) this.send(relay.kubelet, httpKinds.cancel, { requestId: kubeletRequestId });
  }

  /** Ends a client watch: on timeout or storage end, tells the client; on client cancel, just stops. */
  private closeWatch(requestId: number, reason: HttpWatchEnd['reason'] | null): void {
    const open = this.openWatches.get(requestId);
    if (!open || open.ended) return;
    open.ended = true;
    this.openWatches.delete(requestId);
    this.cancelTimer(open.timeout);
    open.watch?.stop();
    if (reason !== null) this.reply(open.request, httpKinds.watchEnd, { reason });
  }

  private observe(resource: string, obj: KubeObject, deleted: boolean): void {
    if (resource === 'namespaces') {
      if (deleted) this.namespaces.delete(obj.metadata.name ?? '');
      else this.namespaces.set(obj.metadata.name ?? '', obj as Namespace);
    } else if (resource === 'roles' || resource === 'clusterroles' || resource === 'rolebindings' || resource === 'clusterrolebindings') {
      this.rbac.observe(resource, obj as Role | ClusterRole | RoleBinding | ClusterRoleBinding, deleted);
    }
  }

  private context(user: UserInfo, namespace: string, requestId: number | null, fieldManager: string): RegistryContext {
    const admissionContext: AdmissionContext = {
      rng: this.rng,
      getNamespace: (name) => this.lookupNamespace(name),
    };
    return {
      user,
      namespace,
      rng: this.rng,
      now: this.now,
      epochMs: this.engine.epochMs,
      admission: this.admission,
      admissionContext,
      fieldManager,
      stage: (name, detail) => this.visibleStage(requestId, name, detail),
    };
  }

  /**
   * The namespace lister, and on a miss a live read (a namespace another kube-apiserver on the same
   * etcd created). Models plugin/pkg/admission/namespace/lifecycle's live lookup.
   */
  private *lookupNamespace(name: string): Co<Namespace | null> {
    const known = this.namespaces.get(name);
    if (known !== undefined || !this.shared) return known ?? null;
    try {
      const ns = (yield* this.storeFor('', 'namespaces').get(this.context({ name: 'system:apiserver', groups: ['system:masters'] }, '', null, 'kube-apiserver'), name, '')) as Namespace;
      this.namespaces.set(name, ns);
      return ns;
    } catch (err) {
      if (!(err instanceof StatusError) || err.status.reason !== 'NotFound') throw err;
      return null;
    }
  }

  private *visibleStage<S extends StageName>(requestId: number | null, stage: S, detail: StageDetails[S]): Co<void> {
    const payload = { requestId, stage, ...detail } as StagePayload;
    yield* this.stage(`apiserver.${stage}` as `apiserver.${StageName}`, payload, this.stageDelay);
  }

  private *serve(request: Message<HttpRequest>): Co<void> {
    const http = request.payload;
    const query = parseQuery(http.query);
    const auditID = this.rng.uuid();
    const receivedAt = this.now;
    let response: HttpResponse | null;
    let user: UserInfo | null = null;
    let info: RequestInfo | null = null;
    try {
      const parsed = parseRequestInfo(http.method, http.path, { get: (k) => query.get(k) ?? null });
      if ('error' in parsed) throw newInternalError(parsed.error);
      info = parsed;

      // Authentication.
      user = this.authenticator.authenticate(http.headers.authorization);
      yield* this.visibleStage(request.id, 'authentication', user ? { user: user.name, groups: user.groups, decision: 'authenticated' } : { decision: 'rejected: invalid bearer token' });
      if (!user) throw newUnauthorized('Unauthorized');

      // Audit: RequestReceived.
      this.recordAudit('RequestReceived', auditID, http, info, user, null, receivedAt);
      yield* this.visibleStage(request.id, 'audit', { auditID, auditStage: 'RequestReceived' });

      // Impersonation (kubectl --as).
      const asUser = http.headers['impersonate-user'];
      if (asUser !== undefined && asUser !== '') {
        const attrs = { user: user.name, verb: 'impersonate', resourceRequest: true, apiGroup: '', resource: 'users', name: asUser };
        const decision = this.rbac.authorize(user, attrs);
        yield* this.visibleStage(request.id, 'impersonation', { user: user.name, as: asUser, decision: decision.allowed ? 'allowed' : 'forbidden' });
        if (!decision.allowed) throw newAuthorizationForbidden(attrs, decision.reason);
        const groups = (http.headers['impersonate-group'] ?? '').split(',').map((g) => g.trim()).filter((g) => g !== '');
        user = { name: asUser, groups: [...groups, authenticatedGroup] };
      }

      // Max-in-flight.
      const release = this.inFlight.admit(info.verb, user);
      yield* this.visibleStage(request.id, 'max-in-flight', { decision: release ? 'admitted' : 'rejected: too many requests', ...this.inFlight.inFlight });
      if (!release) {
        response = { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' }, body: tooManyRequestsBody };
      } else {
        try {
          response = yield* this.authorizeAndHandle(request, http, query, info, user, auditID);
        } finally {
          release();
        }
      }
    } catch (err) {
      response = errorResponse(err);
    }
    if (info) this.metrics.observeRequest(info, http.method, http.headers['content-type'] ?? '', query.get('dryRun') === 'All', response?.status ?? 200, this.now - receivedAt);
    if (response === null) {
      // A watch answered its 200 itself and streams until it ends.
      if (user && info) this.recordAudit('ResponseStarted', auditID, http, info, user, { status: 200, headers: {}, body: null }, receivedAt);
      return;
    }
    // Resource answers (and their errors) are encoded in the serializer the Accept header negotiates.
    if (info?.isResourceRequest) response = withNegotiatedContentType(http, response);
    if (user && info) this.recordAudit('ResponseComplete', auditID, http, info, user, response, receivedAt);
    this.reply(request, httpKinds.response, { ...response, headers: { ...response.headers, 'audit-id': auditID } });
  }

  private *authorizeAndHandle(request: Message<HttpRequest>, http: HttpRequest, query: Map<string, string>, info: RequestInfo, user: UserInfo, auditID: string): Co<HttpResponse | null> {
    const attrs = {
      user: user.name, verb: info.verb, resourceRequest: info.isResourceRequest, path: info.path,
      apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource, subresource: info.subresource,
      namespace: info.namespace, name: info.name,
    };
    const decision = this.rbac.authorize(user, attrs);
    yield* this.visibleStage(request.id, 'authorization', { user: user.name, verb: info.verb, resource: info.subresource ? `${info.resource}/${info.subresource}` : info.resource, namespace: info.namespace, decision: decision.allowed ? 'allowed' : 'forbidden', reason: decision.reason });
    if (!decision.allowed) throw newAuthorizationForbidden(attrs, decision.reason);

    if (!info.isResourceRequest) {
      return serveNonResource(http, this.serverAddress, { bootstrapped: this.bootstrapped, metrics: () => this.metrics.render() }) ?? { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '404 page not found\n' };
    }
    const route = resolveRoute(http.method, info);
    if ('kind' in route) {
      return route.kind === 'text'
        ? { status: route.code, headers: { 'content-type': route.contentType }, body: route.body }
        : respond(route.status.code ?? 404, route.status);
    }
    const review = handleReview(http, query, route.resource, { user, rbac: this.rbac, epochMs: this.engine.epochMs, now: this.now });
    if (review !== null) return review;
    return yield* this.handle(request, http, query, route, user, auditID);
  }

  private *handle(request: Message<HttpRequest>, http: HttpRequest, query: Map<string, string>, route: ResolvedRoute, user: UserInfo, auditID: string): Co<HttpResponse | null> {
    const segmentError = pathSegmentError(route.info, route.resource);
    if (segmentError) throw segmentError;
    const h: HandlerRequest = {
      http, query, route,
      store: this.storeFor(route.resource.group, route.resource.resource),
      ctx: this.context(user, route.resource.namespaced ? route.info.namespace : '', request.id,
        managerOrUserAgent(query.get('fieldManager'), http.headers['user-agent'])),
    };
    if (route.subresource && podStreamSubresources.has(route.subresource.name)) {
      const answer = yield* handlePodStream(h, this.kubeletConnection());
      if ('response' in answer) return answer.response;
      const kubelet = `kubelet/${answer.node}`;
      this.relays.set(answer.kubeletRequestId, { client: request, kubelet });
      this.relayOf.set(request.id, answer.kubeletRequestId);
      this.reply(request, httpKinds.response, { ...answer.stream, headers: { ...answer.stream.headers, 'audit-id': auditID } });
      return null;
    }
    switch (route.info.verb) {
      case 'get': return yield* handleGet(h);
      case 'list': return yield* handleList(h);
      case 'create': return yield* handleCreate(h);
      case 'update': return yield* handleUpdate(h);
      case 'patch': return yield* handlePatch(h);
      case 'delete': return yield* handleDelete(h);
      case 'deletecollection': return yield* handleDeleteCollection(h);
      case 'watch': {
        yield* handleWatch(h, this.storageOf(route.resource), this.watchResponder(request, auditID));
        return null;
      }
      default: throw newInternalError(`verb ${route.info.verb} is not served by the simulated kube-apiserver yet`);
    }
  }

  private recordAudit(stage: AuditStage, auditID: string, http: HttpRequest, info: RequestInfo, user: UserInfo, response: HttpResponse | null, receivedAt: number): void {
    const status = response?.body instanceof Object && (response.body as { kind?: string }).kind === 'Status' ? response.body as { status?: string; reason?: string; message?: string } : null;
    const event: AuditEvent = {
      level: 'Metadata',
      auditID,
      stage,
      requestURI: http.query === '' ? http.path : `${http.path}?${http.query}`,
      verb: info.verb,
      user: { username: user.name, groups: user.groups },
      ...(http.headers['user-agent'] ? { userAgent: http.headers['user-agent'] } : {}),
      ...(info.isResourceRequest ? {
        objectRef: {
          resource: info.resource,
          ...(info.namespace ? { namespace: info.namespace } : {}),
          ...(info.name ? { name: info.name } : {}),
          apiGroup: info.apiGroup,
          apiVersion: info.apiVersion,
          ...(info.subresource ? { subresource: info.subresource } : {}),
        },
      } : {}),
      ...(response ? {
        responseStatus: {
          code: response.status,
          ...(status?.status === 'Failure' ? { status: 'Failure', reason: status.reason ?? '', message: status.message ?? '' } : {}),
        },
      } : {}),
      requestReceivedTimestamp: formatMicroTimestamp(this.engine.epochMs + receivedAt),
      stageTimestamp: formatMicroTimestamp(this.engine.epochMs + this.now),
    };
    this.audit.record(event);
  }
}

/** One error policy: Status errors are answered as they are; anything else is a 500 with its message. */
function errorResponse(err: unknown): HttpResponse {
  if (err instanceof StatusError) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const retry = err.status.details?.retryAfterSeconds;
    if (retry !== undefined && retry > 0) headers['retry-after'] = String(retry);
    return { status: err.code, headers, body: err.status };
  }
  const message = err instanceof Error ? err.message : String(err);
  return respond(500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

