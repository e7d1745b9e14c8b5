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
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../api/types/rbac.ts';
import { Component, timerKind, type Co, type Message, type TimerPayload } from '../engine/index.ts';
import type { EtcdReply } from '../etcd/index.ts';
import { AdmissionChain, type AdmissionContext } from './admission/admission.ts';
import { defaultAdmissionPlugins } from './admission/plugins.ts';
import { bootstrapPolicy, systemNamespaces } from './bootstrap.ts';
import { AuditLog, type AuditEvent, type AuditStage } from './filters/audit.ts';
import { authenticatedGroup, TokenAuthenticator, type UserInfo } from './filters/authentication.ts';
import { defaultMaxInFlight, MaxInFlight, tooManyRequestsBody, type MaxInFlightLimits } from './filters/max-in-flight.ts';
import { RbacIndex } from './filters/rbac.ts';
import {
  handleCreate, handleDelete, handleDeleteCollection, handleGet, handleList, handlePatch, handleUpdate, handleWatch, respond,
  type HandlerRequest, type WatchResponder,
} from './handlers.ts';
import { httpKinds, parseQuery, type HttpCancel, type HttpRequest, type HttpResponse, type HttpWatchEnd, type HttpWatchEvent } from './http.ts';
import { managerOrUserAgent } from './fieldmanager/field-manager.ts';
import { serveNonResource } from './non-resource.ts';
import { GenericStore, type RegistryContext } from './registry/generic-store.ts';
import { strategyFor } from './registry/strategies.ts';
import { Cacher, cacherResourcePrefixOf, podNodeNameTrigger, type CacherHost } from './storage/cacher.ts';
import type { WatchCacheWindow } from './storage/watch-cache.ts';
import { Compactor, defaultCompactionInterval } from './storage/compactor.ts';
import { etcdClientOver, type EtcdClient } from './storage/etcd-client.ts';
import type { StorageMediaType } from './storage/codec.ts';
import { EtcdWatchRouter } from './storage/etcd-watch-client.ts';
import { EtcdWatcher } from './storage/etcd-watcher.ts';
import { Etcd3Store } from './storage/etcd3-store.ts';
import type { Storage, StorageWatch } from './storage/interface.ts';
import { apiVersionOf, servedResources, storageKey, type ResourceInfo } from '../api/resources.ts';
import type { WatchStreamRequest, WatchStreamResponse } from '../etcd/index.ts';

export interface KubeApiserverOptions {
  readonly name?: string;
  /** The etcd component to talk to. */
  readonly etcd?: string;
  /** `--etcd-prefix` (default `/registry`). */
  readonly etcdPrefix?: string;
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
  /** `--storage-media-type`: how objects are written to etcd (default protobuf, as kube-apiserver's). */
  readonly storageMediaType?: StorageMediaType;
}

/** The payload of every `apiserver.*` stage message: which request, which stage, what it decided. */
export interface StagePayload {
  readonly requestId: number | null;
  readonly stage: string;
  readonly [detail: string]: unknown;
}

const compactorTimer = 'compactor';
const watchTimeoutTimer = 'watch-timeout';

export class KubeApiserver extends Component {
  readonly audit = new AuditLog();
  readonly rbac = new RbacIndex();
  private readonly etcd: EtcdClient;
  private readonly etcdWatches: EtcdWatchRouter;
  private readonly cachers = new Map<string, Cacher>();
  private readonly storages = new Map<string, Storage>();
  /** Open client watches by the id of their request. */
  private readonly openWatches = new Map<number, { request: Message<HttpRequest>; watch: StorageWatch | null; timeout: Message; ended: boolean }>();
  private readonly etcdName: string;
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
  readonly storageMediaType: StorageMediaType;

  constructor(options: KubeApiserverOptions = {}) {
    super(options.name ?? 'kube-apiserver');
    this.etcdName = options.etcd ?? 'etcd';
    this.prefix = options.etcdPrefix ?? '/registry';
    this.authenticator = new TokenAuthenticator(options.nodes ?? []);
    this.inFlight = new MaxInFlight(options.maxInFlight ?? defaultMaxInFlight);
    this.admission = new AdmissionChain(defaultAdmissionPlugins({ alwaysPullImages: options.alwaysPullImages ?? false }));
    this.stageDelay = options.stageDelay ?? 0;
    this.storageMediaType = options.storageMediaType ?? 'protobuf';
    this.serverAddress = options.serverAddress ?? '127.0.0.1:6443';
    this.etcd = etcdClientOver(<R>(kind: string, payload: unknown) => this.call<EtcdReply<R>>(this.etcdName, kind, payload));
    this.etcdWatches = new EtcdWatchRouter(this.name, {
      call: (kind, payload) => this.call<WatchStreamResponse>(this.etcdName, kind, payload as WatchStreamRequest),
      send: (kind, payload) => {
        this.send(this.etcdName, kind, payload);
      },
      spawn: (co) => {
        this.spawn(co);
      },
    });
    this.compactor = new Compactor(this.etcd);
    this.compactionInterval = options.compactionInterval ?? defaultCompactionInterval;
  }

  /** True once the system namespaces and the bootstrap RBAC policy are stored. */
  get ready(): boolean {
    return this.bootstrapped;
  }

  /** Creates the system namespaces and the bootstrap policy (call once, after the engine links etcd). */
  start(): void {
    for (const r of servedResources) this.storageOf(r);
    for (const cacher of this.cachers.values()) cacher.start();
    this.spawn(this.bootstrap());
    if (this.compactionInterval > 0) this.setTimer(this.compactionInterval, compactorTimer, null, { background: true });
  }

  receive(message: Message): void {
    if (this.etcdWatches.route(message)) return;
    const cacherPrefix = cacherResourcePrefixOf(message);
    if (cacherPrefix !== undefined) {
      this.cachers.get(cacherPrefix)?.receive(message);
    } else if (message.kind === httpKinds.request) {
      this.spawn(this.serve(message as Message<HttpRequest>));
    } else if (message.kind === httpKinds.cancel) {
      this.closeWatch((message.payload as HttpCancel).requestId, null);
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === watchTimeoutTimer) {
      this.closeWatch((message.payload as TimerPayload<number>).data, 'timeout');
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === compactorTimer) {
      this.spawn(this.compactor.compactOnce());
      this.setTimer(this.compactionInterval, compactorTimer, null, { background: true });
    }
  }

  private *bootstrap(): Co<void> {
    const system: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };
    for (const name of systemNamespaces) {
      yield* this.storeFor('', 'namespaces').create(this.context(system, '', null, 'kube-apiserver'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject);
    }
    for (const item of bootstrapPolicy()) {
      yield* this.storeFor(item.group, item.resource).create(this.context(system, item.namespace, null, 'kube-apiserver'), item.object);
    }
    this.bootstrapped = true;
  }

  private storeFor(group: string, resource: string): GenericStore {
    const key = `${group}/${resource}`;
    let store = this.stores.get(key);
    if (!store) {
      const info = lookupResource(group, resource);
      if (!info) throw new Error(`no served resource ${key}`);
      store = new GenericStore(strategyFor(info), this.storageOf(info), this.prefix, (res, obj, deleted) => this.observe(res, obj, deleted));
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
        this.reply<HttpResponse>(request, httpKinds.response, { status: 200, headers: { ...headers, 'audit-id': auditID }, body: null, stream: true });
      },
      established: (watch) => {
        const open = this.openWatches.get(request.id);
        if (!open || open.ended) watch.stop();
        else open.watch = watch;
      },
      event: (event) => {
        const open = this.openWatches.get(request.id);
        if (open && !open.ended) this.reply<HttpWatchEvent>(request, httpKinds.watchEvent, event);
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

  /** Ends a client watch: on timeout or storage end, tells the client; on client cancel, just stops. */
  private closeWatch(requestId: number, reason: HttpWatchEnd['reason'] | null): void {
    const open = this.openWatches.get(requestId);
    if (!open || open.ended) return;
    open.ended = true;
    this.openWatches.delete(requestId);
    this.cancelTimer(open.timeout);
    open.watch?.stop();
    if (reason !== null) this.reply<HttpWatchEnd>(open.request, httpKinds.watchEnd, { reason });
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

  private *lookupNamespace(name: string): Co<Namespace | null> {
    return this.namespaces.get(name) ?? null;
  }

  private *visibleStage(requestId: number | null, stage: string, detail: Record<string, unknown>): Co<void> {
    const payload: StagePayload = { requestId, stage, ...detail };
    yield* this.stage(`apiserver.${stage}`, payload, this.stageDelay);
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
    if (response === null) {
      // A watch answered its 200 itself and streams until it ends.
      if (user && info) this.recordAudit('ResponseStarted', auditID, http, info, user, { status: 200, headers: {}, body: null }, receivedAt);
      return;
    }
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
      return serveNonResource(http, this.serverAddress) ?? { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '404 page not found\n' };
    }
    const route = resolveRoute(http.method, info);
    if ('kind' in route) {
      return route.kind === 'text'
        ? { status: route.code, headers: { 'content-type': route.contentType }, body: route.body }
        : respond(route.status.code ?? 404, route.status);
    }
    return yield* this.handle(request, http, query, route, user, auditID);
  }

  private *handle(request: Message<HttpRequest>, http: HttpRequest, query: Map<string, string>, route: ResolvedRoute, user: UserInfo, auditID: string): Co<HttpResponse | null> {
    const h: HandlerRequest = {
      http, query, route,
      store: this.storeFor(route.resource.group, route.resource.resource),
      ctx: this.context(user, route.resource.namespaced ? route.info.namespace : '', request.id,
        managerOrUserAgent(query.get('fieldManager'), http.headers['user-agent'])),
    };
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

