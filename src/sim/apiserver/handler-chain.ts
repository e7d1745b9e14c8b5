// The filters every request passes before its handler, each stage a step of its own carrying its
// decision: authentication → audit → impersonation → max-in-flight → authorization. Then the handler
// (api-server-handler.ts) answers, or a watch answers its 200 itself and streams. Every answer is
// counted for /metrics, audited (RequestReceived, ResponseStarted or ResponseComplete) and carries its
// `audit-id`; a resource answer is encoded in the serializer its Accept header negotiates.
// Models k8s.io/apiserver/pkg/server/config.go (DefaultBuildHandlerChain) and the filters it chains:
// pkg/endpoints/filters (authentication.go, audit.go, impersonation.go, authorization.go, metrics) and
// pkg/server/filters/maxinflight.go; the audit event as pkg/audit/request.go (NewEventFromRequest) fills it.

import { newAuthorizationForbidden, newInternalError, newUnauthorized, StatusError } from '../api/errors.ts';
import type { StageDetails, StageName } from '../messages/index.ts';
import { parseRequestInfo, type RequestInfo } from '../api/request-info.ts';
import { formatMicroTimestamp } from '../api/time.ts';
import type { Co, Message, Time } from '../engine/index.ts';
import { parseQuery } from '../go/url.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import type { AuditEvent, AuditLog, AuditObjectRef, AuditStage } from './filters/audit.ts';
import { authenticatedGroup, type TokenAuthenticator, type UserInfo } from './filters/authentication.ts';
import { tooManyRequestsBody, type MaxInFlight } from './filters/max-in-flight.ts';
import type { ApiserverMetrics } from './filters/metrics.ts';
import type { RbacIndex } from './filters/rbac.ts';
import { respond } from './handlers/rest.ts';
import { withNegotiatedContentType } from './negotiation.ts';

/** The handler behind the filters: an answer, or null when it answered (a stream) itself. */
export type ChainedHandler = (request: Message<HttpRequest>, query: Map<string, string>, info: RequestInfo, user: UserInfo, auditID: string) => Co<HttpResponse | null>;

export interface HandlerChainConfig {
  readonly authenticator: TokenAuthenticator;
  readonly rbac: RbacIndex;
  readonly inFlight: MaxInFlight;
  readonly metrics: ApiserverMetrics;
  readonly audit: AuditLog;
  readonly handler: ChainedHandler;
  /** A fresh audit ID from the seeded RNG. */
  readonly uuid: () => string;
  readonly now: () => Time;
  readonly epochMs: () => number;
  /** Makes a filter's decision a step of its own (an `apiserver.<stage>` message). */
  readonly stage: <S extends StageName>(requestId: number, stage: S, detail: StageDetails[S]) => Co<void>;
  readonly reply: (request: Message, kind: typeof httpKinds.response, payload: HttpResponse) => void;
}

export class HandlerChain {
  constructor(private readonly config: HandlerChainConfig) {}

  *serve(request: Message<HttpRequest>): Co<void> {
    const { authenticator, inFlight, stage } = this.config;
    const http = request.payload;
    const query = parseQuery(http.query);
    const auditID = this.config.uuid();
    const receivedAt = this.config.now();
    let response: HttpResponse | null;
    let user: UserInfo | null = null;
    let info: RequestInfo | null = null;
    try {
      const parsed = parseRequestInfo(http.method, http.path, { get: (k) => query.get(k) ?? null });
      if ('error' in parsed) throw newInternalError(parsed.error);
      info = parsed;

      // Authentication.
      user = authenticator.authenticate(http.headers.authorization);
      yield* stage(request.id, 'authentication', user ? { user: user.name, groups: user.groups, decision: 'authenticated' } : { decision: 'rejected: invalid bearer token' });
      if (!user) throw newUnauthorized('Unauthorized');

      // Audit: RequestReceived.
      this.recordAudit('RequestReceived', auditID, http, info, user, null, receivedAt);
      yield* stage(request.id, 'audit', { auditID, auditStage: 'RequestReceived' });

      // Impersonation (kubectl --as).
      const asUser = http.headers['impersonate-user'];
      if (asUser !== undefined && asUser !== '') {
        const attrs = { user: user.name, verb: 'impersonate', resourceRequest: true, apiGroup: '', resource: 'users', name: asUser };
        const decision = this.config.rbac.authorize(user, attrs);
        yield* stage(request.id, 'impersonation', { user: user.name, as: asUser, decision: decision.allowed ? 'allowed' : 'forbidden' });
        if (!decision.allowed) throw newAuthorizationForbidden(attrs, decision.reason);
        const groups = (http.headers['impersonate-group'] ?? '').split(',').map((g) => g.trim()).filter((g) => g !== '');
        user = { name: asUser, groups: [...groups, authenticatedGroup] };
      }

      // Max-in-flight.
      const release = inFlight.admit(info.verb, user);
      yield* stage(request.id, 'max-in-flight', { decision: release ? 'admitted' : 'rejected: too many requests', ...inFlight.inFlight });
      if (!release) {
        response = { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' }, body: tooManyRequestsBody };
      } else {
        try {
          response = yield* this.authorizeAndHandle(request, query, info, user, auditID);
        } finally {
          release();
        }
      }
    } catch (err) {
      response = errorResponse(err);
    }
    if (info) this.config.metrics.observeRequest(info, http.method, http.headers['content-type'] ?? '', query.get('dryRun') === 'All', response?.status ?? 200, this.config.now() - receivedAt);
    if (response === null) {
      // A watch answered its 200 itself and streams until it ends.
      if (user && info) this.recordAudit('ResponseStarted', auditID, http, info, user, { status: 200, headers: {}, body: null }, receivedAt);
      return;
    }
    // Resource answers (and their errors) are encoded in the serializer the Accept header negotiates.
    if (info?.isResourceRequest) response = withNegotiatedContentType(http, response);
    if (user && info) this.recordAudit('ResponseComplete', auditID, http, info, user, response, receivedAt);
    this.config.reply(request, httpKinds.response, { ...response, headers: { ...response.headers, 'audit-id': auditID } });
  }

  private *authorizeAndHandle(request: Message<HttpRequest>, query: Map<string, string>, info: RequestInfo, user: UserInfo, auditID: string): Co<HttpResponse | null> {
    const attrs = {
      user: user.name, verb: info.verb, resourceRequest: info.isResourceRequest, path: info.path,
      apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource, subresource: info.subresource,
      namespace: info.namespace, name: info.name,
    };
    const decision = this.config.rbac.authorize(user, attrs);
    yield* this.config.stage(request.id, 'authorization', { user: user.name, verb: info.verb, resource: info.subresource ? `${info.resource}/${info.subresource}` : info.resource, namespace: info.namespace, decision: decision.allowed ? 'allowed' : 'forbidden', reason: decision.reason });
    if (!decision.allowed) throw newAuthorizationForbidden(attrs, decision.reason);
    return yield* this.config.handler(request, query, info, user, auditID);
  }

  private recordAudit(stage: AuditStage, auditID: string, http: HttpRequest, info: RequestInfo, user: UserInfo, response: HttpResponse | null, receivedAt: number): void {
    const epochMs = this.config.epochMs();
    const status = response?.body instanceof Object && (response.body as { kind?: string }).kind === 'Status' ? response.body as { status?: string; reason?: string; message?: string } : null;
    // Built field by field in the event's field order (conditional spreads cost a temporary object each).
    const event: { -readonly [K in keyof AuditEvent]?: AuditEvent[K] } = {
      level: 'Metadata',
      auditID,
      stage,
      requestURI: http.query === '' ? http.path : `${http.path}?${http.query}`,
      verb: info.verb,
      user: { username: user.name, groups: user.groups },
    };
    const userAgent = http.headers['user-agent'];
    if (userAgent) event.userAgent = userAgent;
    if (info.isResourceRequest) {
      const objectRef: { -readonly [K in keyof AuditObjectRef]: AuditObjectRef[K] } = { resource: info.resource };
      if (info.namespace) objectRef.namespace = info.namespace;
      if (info.name) objectRef.name = info.name;
      objectRef.apiGroup = info.apiGroup;
      objectRef.apiVersion = info.apiVersion;
      if (info.subresource) objectRef.subresource = info.subresource;
      event.objectRef = objectRef;
    }
    if (response) {
      event.responseStatus = status?.status === 'Failure'
        ? { code: response.status, status: 'Failure', reason: status.reason ?? '', message: status.message ?? '' }
        : { code: response.status };
    }
    event.requestReceivedTimestamp = formatMicroTimestamp(epochMs + receivedAt);
    event.stageTimestamp = formatMicroTimestamp(epochMs + this.config.now());
    this.config.audit.record(event as AuditEvent);
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
