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
  handleCreate, handleDelete, handleDeleteCollection, handleGet, handleList, handlePatch, handleUpdate, respond, type HandlerRequest,
} from './handlers.ts';
import { httpKinds, parseQuery, type HttpRequest, type HttpResponse } from './http.ts';
import { serveNonResource } from './non-resource.ts';
import { GenericStore, type RegistryContext } from './registry/generic-store.ts';
import { strategyFor } from './registry/strategies.ts';
import { Compactor, defaultCompactionInterval } from './storage/compactor.ts';
import { etcdClientOver } from './storage/etcd-client.ts';
import { Etcd3Store } from './storage/etcd3-store.ts';

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
}

/** The payload of every `apiserver.*` stage message: which request, which stage, what it decided. */
export interface StagePayload {
  readonly requestId: number | null;
  readonly stage: string;
  readonly [detail: string]: unknown;
}

const compactorTimer = 'compactor';

export class KubeApiserver extends Component {
  readonly audit = new AuditLog();
  readonly rbac = new RbacIndex();
  readonly storage: Etcd3Store;
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

  constructor(options: KubeApiserverOptions = {}) {
    super(options.name ?? 'kube-apiserver');
    this.etcdName = options.etcd ?? 'etcd';
    this.prefix = options.etcdPrefix ?? '/registry';
    this.authenticator = new TokenAuthenticator(options.nodes ?? []);
    this.inFlight = new MaxInFlight(options.maxInFlight ?? defaultMaxInFlight);
    this.admission = new AdmissionChain(defaultAdmissionPlugins({ alwaysPullImages: options.alwaysPullImages ?? false }));
    this.stageDelay = options.stageDelay ?? 0;
    this.serverAddress = options.serverAddress ?? '127.0.0.1:6443';
    const etcd = etcdClientOver(<R>(kind: string, payload: unknown) => this.call<EtcdReply<R>>(this.etcdName, kind, payload));
    this.storage = new Etcd3Store(etcd, () => this.now);
    this.compactor = new Compactor(etcd);
    this.compactionInterval = options.compactionInterval ?? defaultCompactionInterval;
  }

  /** True once the system namespaces and the bootstrap RBAC policy are stored. */
  get ready(): boolean {
    return this.bootstrapped;
  }

  /** Creates the system namespaces and the bootstrap policy (call once, after the engine links etcd). */
  start(): void {
    this.spawn(this.bootstrap());
    if (this.compactionInterval > 0) this.setTimer(this.compactionInterval, compactorTimer, null, { background: true });
  }

  receive(message: Message): void {
    if (message.kind === httpKinds.request) {
      this.spawn(this.serve(message as Message<HttpRequest>));
    } else if (message.kind === timerKind && (message.payload as TimerPayload).name === compactorTimer) {
      this.spawn(this.compactor.compactOnce());
      this.setTimer(this.compactionInterval, compactorTimer, null, { background: true });
    }
  }

  private *bootstrap(): Co<void> {
    const system: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };
    for (const name of systemNamespaces) {
      yield* this.storeFor('', 'namespaces').create(this.context(system, '', null), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject);
    }
    for (const item of bootstrapPolicy()) {
      yield* this.storeFor(item.group, item.resource).create(this.context(system, item.namespace, null), item.object);
    }
    this.bootstrapped = true;
  }

  private storeFor(group: string, resource: string): GenericStore {
    const key = `${group}/${resource}`;
    let store = this.stores.get(key);
    if (!store) {
      const info = lookupResource(group, resource);
      if (!info) throw new Error(`no served resource ${key}`);
      store = new GenericStore(strategyFor(info), this.storage, this.prefix, (res, obj, deleted) => this.observe(res, obj, deleted));
      this.stores.set(key, store);
    }
    return store;
  }

  private observe(resource: string, obj: KubeObject, deleted: boolean): void {
    if (resource === 'namespaces') {
      if (deleted) this.namespaces.delete(obj.metadata.name ?? '');
      else this.namespaces.set(obj.metadata.name ?? '', obj as Namespace);
    } else if (resource === 'roles' || resource === 'clusterroles' || resource === 'rolebindings' || resource === 'clusterrolebindings') {
      this.rbac.observe(resource, obj as Role | ClusterRole | RoleBinding | ClusterRoleBinding, deleted);
    }
  }

  private context(user: UserInfo, namespace: string, requestId: number | null): RegistryContext {
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
    let response: HttpResponse;
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
          response = yield* this.authorizeAndHandle(request, http, query, info, user);
        } finally {
          release();
        }
      }
    } catch (err) {
      response = errorResponse(err);
    }
    if (user && info) this.recordAudit('ResponseComplete', auditID, http, info, user, response, receivedAt);
    this.reply(request, httpKinds.response, { ...response, headers: { ...response.headers, 'audit-id': auditID } });
  }

  private *authorizeAndHandle(request: Message<HttpRequest>, http: HttpRequest, query: Map<string, string>, info: RequestInfo, user: UserInfo): Co<HttpResponse> {
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
    return yield* this.handle(request, http, query, route, user);
  }

  private *handle(request: Message<HttpRequest>, http: HttpRequest, query: Map<string, string>, route: ResolvedRoute, user: UserInfo): Co<HttpResponse> {
    const h: HandlerRequest = {
      http, query, route,
      store: this.storeFor(route.resource.group, route.resource.resource),
      ctx: this.context(user, route.resource.namespaced ? route.info.namespace : '', request.id),
    };
    switch (route.info.verb) {
      case 'get': return yield* handleGet(h);
      case 'list': return yield* handleList(h);
      case 'create': return yield* handleCreate(h);
      case 'update': return yield* handleUpdate(h);
      case 'patch': return yield* handlePatch(h);
      case 'delete': return yield* handleDelete(h);
      case 'deletecollection': return yield* handleDeleteCollection(h);
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

