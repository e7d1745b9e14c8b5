// kube-apiserver as an engine component: its options, its parts and how a message reaches them. A
// request (`http.request`) runs the filter chain (handler-chain.ts), each stage a step of its own
// carrying its decision, then the handler (api-server-handler.ts) and the REST handler of its verb, whose
// registry pipeline adds its own stages (mutating admission → strategy → validating admission) before the
// etcd Txn. The reply is one `http.response`; a watch streams (watch-server.ts), a pod stream is relayed
// from its kubelet (stream-relay.ts). At start it stores what the post-start hooks create
// (post-start-hooks.ts) through its own registry, then its watch caches list.
// Models k8s.io/apiserver/pkg/server/genericapiserver.go (GenericAPIServer: PrepareRun, the post-start
// hooks, the handler) and pkg/controlplane/instance.go (the parts a kube-apiserver is built of).

import type { KubeObject } from '../api/types/meta.ts';
import { servedResources } from '../api/resources.ts';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../api/types/rbac.ts';
import { Component, jitter, timerKind, type Co, type Message, type Rng, type TimerPayload } from '../engine/index.ts';
import { etcdKinds, type RpcError } from '../etcd/index.ts';
import type { EtcdRequestKind, MessageKind, MessageMap, ReplyOf } from '../messages/index.ts';
import { httpKinds, type HttpCancel, type HttpRequest } from '../wire/http.ts';
import { AdmissionChain } from './admission/admission.ts';
import { defaultAdmissionPlugins } from './admission/plugins.ts';
import { APIServerHandler } from './api-server-handler.ts';
import { defaultAdvertiseAddress } from './bootstrap.ts';
import { AuditLog } from './filters/audit.ts';
import { TokenAuthenticator } from './filters/authentication.ts';
import { defaultMaxInFlight, MaxInFlight, type MaxInFlightLimits } from './filters/max-in-flight.ts';
import { ApiserverMetrics } from './filters/metrics.ts';
import { RbacIndex } from './filters/rbac.ts';
import { HandlerChain } from './handler-chain.ts';
import { controlPlaneIdentity, IdentityLeaseController, identityLeaseJitterFactor, identityLeaseRenewInterval, identityLeaseTimer, type ApiserverIdentity } from './identity-lease.ts';
import { runPostStartHooks, type PostStartHookContext } from './post-start-hooks.ts';
import { RequestContexts, systemUser } from './request-context.ts';
import { ClusterIPAllocator, StoredRangeAllocator, newNodePortBitmap, newServiceIPBitmap, rangeKeys, serviceClusterIPRange } from './service-allocators.ts';
import { ServiceAllocations } from './service-rest.ts';
import { StorageFactory } from './storage-factory.ts';
import { cacherResourcePrefixOf } from './storage/bookmark-dispatcher.ts';
import type { StorageMediaType } from './storage/codec.ts';
import { Compactor, defaultCompactionInterval } from './storage/compactor.ts';
import { etcdClientOver, EtcdEndpoints, etcdRetry, isSafeRetry } from './storage/etcd-client.ts';
import { EtcdWatchRouter } from './storage/etcd-watch-client.ts';
import { EtcdWatcher } from './storage/etcd-watcher.ts';
import { Etcd3Store } from './storage/etcd3-store.ts';
import type { WatchCacheWindow } from './storage/watch-cache.ts';
import { StreamRelays } from './stream-relay.ts';
import { WatchServer, watchTimeoutTimer } from './watch-server.ts';

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
  /** Its host's name and APIServerID, for the identity lease (default: the model's `control-plane`). */
  readonly identity?: ApiserverIdentity;
}

const compactorTimer = 'compactor';

export class KubeApiserver extends Component {
  readonly audit = new AuditLog();
  readonly rbac = new RbacIndex();
  /** Request and etcd metrics for /metrics. */
  readonly metrics = new ApiserverMetrics();
  /** The ClusterIP and NodePort allocators (their bitmaps live under /registry/ranges/). */
  readonly serviceAllocations: ServiceAllocations;
  readonly storageMediaType: StorageMediaType;
  private readonly etcdWatches: EtcdWatchRouter;
  private readonly etcdServers: EtcdEndpoints;
  private readonly inFlight: MaxInFlight;
  private readonly compactor: Compactor;
  private readonly compactionInterval: number;
  private readonly storage: StorageFactory;
  private readonly contexts: RequestContexts;
  private readonly chain: HandlerChain;
  private readonly watches: WatchServer;
  private readonly relays: StreamRelays;
  /** The identity lease controller (its `identity`: this apiserver's host name and APIServerID). */
  readonly identityLease: IdentityLeaseController;
  private readonly postStartHooks: PostStartHookContext;
  private bootstrapped = false;

  constructor(options: KubeApiserverOptions = {}) {
    super(options.name ?? 'kube-apiserver');
    this.etcdServers = new EtcdEndpoints(options.etcdServers ?? ['etcd']);
    const prefix = options.etcdPrefix ?? '/registry';
    this.inFlight = new MaxInFlight(options.maxInFlight ?? defaultMaxInFlight);
    this.storageMediaType = options.storageMediaType ?? 'protobuf';
    const etcd = etcdClientOver((kind, payload) => this.timedEtcdCall(kind, payload));
    this.etcdWatches = new EtcdWatchRouter(this.name, {
      call: (kind, payload) => this.call(this.etcdServers.pinned, kind, payload),
      send: (kind, payload) => {
        this.send(this.etcdServers.pinned, kind, payload);
      },
      spawn: (co) => {
        this.spawn(co);
      },
    });
    this.compactor = new Compactor(etcd);
    this.compactionInterval = options.compactionInterval ?? defaultCompactionInterval;
    // The ranges are stored objects no REST resource serves: one etcd3 store, no watch cache.
    const rangeNew = (): KubeObject => ({ kind: 'RangeAllocation', apiVersion: 'v1', metadata: {} });
    const ranges = new Etcd3Store(etcd, () => this.now, new EtcdWatcher({
      etcd, watches: this.etcdWatches, groupResource: { group: '', resource: 'serviceipallocations' }, newFunc: rangeNew,
    }));
    this.serviceAllocations = new ServiceAllocations(
      new ClusterIPAllocator(serviceClusterIPRange, new StoredRangeAllocator(newServiceIPBitmap(), ranges, `${prefix}${rangeKeys.serviceIPs}`)),
      new StoredRangeAllocator(newNodePortBitmap(), ranges, `${prefix}${rangeKeys.nodePorts}`),
    );
    this.storage = new StorageFactory({
      etcd,
      watches: this.etcdWatches,
      now: () => this.now,
      prefix,
      mediaType: this.storageMediaType,
      cacherHost: {
        now: () => this.now,
        random: () => this.rng.float(),
        spawn: (co) => this.spawn(co),
        stage: (kind, payload) => this.stage(kind, payload),
        reply: (message, kind, payload) => {
          this.reply(message, kind, payload);
        },
        setTimer: (delay, name, data, timerOptions) => {
          this.setTimer(delay, name, data, timerOptions);
        },
      },
      onCommit: (resource, obj, deleted) => this.observe(resource, obj, deleted),
      hooksOf: (key) => (key === '/services' ? this.serviceAllocations.hooks() : {}),
    });
    this.contexts = new RequestContexts({
      admission: new AdmissionChain(defaultAdmissionPlugins({ alwaysPullImages: options.alwaysPullImages ?? false })),
      stageDelay: options.stageDelay ?? 0,
      shared: options.sharedEtcd ?? false,
      rng: () => this.rng,
      now: () => this.now,
      epochMs: () => this.engine.epochMs,
      stage: (kind, payload, delay) => this.stage(kind, payload, delay),
      namespaces: () => this.storage.storeFor('', 'namespaces'),
    });
    const context = this.contexts.context.bind(this.contexts);
    const reply = <K extends MessageKind>(request: Message, kind: K, payload: MessageMap[K]): void => {
      this.reply(request, kind, payload);
    };
    this.watches = new WatchServer({
      now: () => this.now,
      reply,
      setTimer: (delay, name, data, timerOptions) => this.setTimer(delay, name, data, timerOptions),
      cancelTimer: (timer) => this.cancelTimer(timer),
    });
    this.relays = new StreamRelays({
      reachable: (component) => this.engine.linked(this.name, component) && !this.engine.isStopped(component),
      call: (component, request) => this.call(component, httpKinds.request, request),
      reply,
      send: (to, kind, payload) => {
        this.send(to, kind, payload);
      },
    });
    const handler = new APIServerHandler({
      serverAddress: options.serverAddress ?? '127.0.0.1:6443',
      nonResource: () => ({ bootstrapped: this.bootstrapped, metrics: () => this.metrics.render() }),
      rbac: this.rbac,
      storage: this.storage,
      watches: this.watches,
      relays: this.relays,
      probes: {
        http: (component, request) => this.relays.call(component, request),
        etcd: () => this.probeEtcd(),
      },
      now: () => this.now,
      epochMs: () => this.engine.epochMs,
      context,
      reply,
    });
    this.chain = new HandlerChain({
      authenticator: new TokenAuthenticator(options.nodes ?? []),
      rbac: this.rbac,
      inFlight: this.inFlight,
      metrics: this.metrics,
      audit: this.audit,
      handler: (request, query, info, user, auditID) => handler.serve(request, query, info, user, auditID),
      uuid: () => this.rng.uuid(),
      now: () => this.now,
      epochMs: () => this.engine.epochMs,
      stage: (requestId, stage, detail) => this.contexts.stage(requestId, stage, detail),
      reply,
    });
    let renewJitter: Rng | null = null;
    this.identityLease = new IdentityLeaseController({
      leases: () => this.storage.storeFor('coordination.k8s.io', 'leases'),
      systemContext: () => context(systemUser, 'kube-system', null, 'kube-apiserver'),
      wallNow: () => this.engine.epochMs + this.now,
      uuid: () => this.rng.uuid(),
      identity: options.identity ?? controlPlaneIdentity,
      scheduleRenew: () => {
        // The jitter from a stream of its own, so the heartbeat shifts no UID or name drawn from the shared one.
        renewJitter ??= this.engine.stream(`${this.name}/identity-lease-jitter`);
        this.setTimer(jitter(identityLeaseRenewInterval, identityLeaseJitterFactor, renewJitter), identityLeaseTimer, null, { background: true });
      },
    });
    this.postStartHooks = {
      shared: options.sharedEtcd ?? false,
      advertiseAddress: options.advertiseAddress ?? defaultAdvertiseAddress,
      storage: this.storage,
      serviceAllocations: this.serviceAllocations,
      systemContext: (namespace) => context(systemUser, namespace, null, 'kube-apiserver'),
      observe: (resource, obj, deleted) => this.observe(resource, obj, deleted),
    };
  }

  /** An etcd request of the storage layer, observed for etcd_request_duration_seconds. */
  /** The etcd3 prober's Get of `health`, on a client of its own (no retry, no request metrics). */
  private *probeEtcd(): Co<RpcError | null> {
    const reply = (yield* this.call(this.etcdServers.pinned, etcdKinds.range, { key: 'health' })).payload;
    return reply.ok ? null : reply.error;
  }

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
    for (const r of servedResources) if (!r.unstored) this.storage.storageOf(r);
    this.spawn(this.bootstrap());
    if (this.compactionInterval > 0) this.setTimer(this.compactionInterval, compactorTimer, null, { background: true });
  }

  receive(message: Message): void {
    // A broken watch stream means the member (or the connection to it) failed: clientv3 moves on.
    if (message.kind === etcdKinds.watchStreamError) this.etcdServers.failed(message.from);
    if (this.etcdWatches.route(message)) return;
    if (this.relays.relay(message)) return;
    const cacherPrefix = cacherResourcePrefixOf(message);
    if (cacherPrefix !== undefined) {
      this.storage.cacherOf(cacherPrefix)?.receive(message);
    } else if (message.kind === httpKinds.request) {
      this.spawn(this.chain.serve(message as Message<HttpRequest>));
    } else if (message.kind === httpKinds.cancel) {
      const requestId = (message.payload as HttpCancel).requestId;
      if (!this.relays.cancel(requestId)) this.watches.close(requestId, null);
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === watchTimeoutTimer) {
      this.watches.close((message.payload as TimerPayload<number>).data, 'timeout');
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === compactorTimer) {
      this.spawn(this.compactor.compactOnce());
      this.setTimer(this.compactionInterval, compactorTimer, null, { background: true });
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === identityLeaseTimer) {
      this.spawn(this.identityLease.renew());
    }
  }

  private *bootstrap(): Co<void> {
    yield* runPostStartHooks(this.postStartHooks);
    yield* this.identityLease.renew();
    // The watch caches list once the start-up objects are stored: each starts at the apiserver's
    // start-up revision, so a watch from an older resourceVersion (1 on a fresh server) gets 410
    // `too old resource version: 1 (N)`, as a real kube-apiserver's cache started on existing data.
    this.storage.startCachers();
    this.bootstrapped = true;
  }

  /** Requests admitted by max-in-flight and not yet answered (watches are not counted). */
  get requestsInFlight(): { readonly readOnly: number; readonly mutating: number } {
    return this.inFlight.inFlight;
  }

  /** The watch cache window of one resource by storage prefix (`/registry/pods`); null when it has no cache yet. */
  watchCacheWindowOf(resourcePrefix: string): WatchCacheWindow | null {
    return this.storage.cacherOf(resourcePrefix)?.watchCache.window() ?? null;
  }

  /** Every resource's watch cache window, by storage prefix (`/registry/pods`), in prefix order. */
  watchCacheWindows(): Array<{ readonly resourcePrefix: string } & WatchCacheWindow> {
    return this.storage.watchCacheWindows();
  }

  /**
   * Ends every open client watch (only those of component `client`, if given) as a broken connection
   * would: each client gets the end of its stream and watches again. Returns how many were ended.
   */
  dropWatches(client?: string): number {
    return this.watches.drop(client);
  }

  private observe(resource: string, obj: KubeObject, deleted: boolean): void {
    if (resource === 'namespaces') {
      this.contexts.observeNamespace(obj, deleted);
    } else if (resource === 'roles' || resource === 'clusterroles' || resource === 'rolebindings' || resource === 'clusterrolebindings') {
      this.rbac.observe(resource, obj as Role | ClusterRole | RoleBinding | ClusterRoleBinding, deleted);
    }
  }
}
