// The handler behind the filter chain: a non-resource path (/healthz, /version, discovery, /openapi,
// /metrics) is served by non-resource.ts; a resource request is routed to its resource, and then to the
// access reviews (auth-reviews.ts), the component statuses probed on each read (component-statuses.ts), the pod streams relayed to a kubelet (pod-streams.ts) or the REST
// handler of its verb (handlers/: get.ts, create.ts, update.ts, patch.ts, delete.ts, watch.ts) over the
// resource's registry store.
// Models k8s.io/apiserver/pkg/server/handler.go (APIServerHandler's director: go-restful routes, then
// the non-resource mux) and pkg/endpoints/installer.go (registerResourceHandlers: one handler per verb).

import { newInternalError } from '../api/errors.ts';
import { resolveRoute, type RequestInfo } from '../api/request-info.ts';
import type { Co, Message, Time } from '../engine/index.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import { handleReview } from './auth-reviews.ts';
import { handleComponentStatuses, type ComponentProbes } from './component-statuses.ts';
import type { UserInfo } from './filters/authentication.ts';
import type { RbacIndex } from './filters/rbac.ts';
import { pathSegmentError } from './filters/path-segments.ts';
import { managerOrUserAgent } from './fieldmanager/field-manager.ts';
import { handleCreate } from './handlers/create.ts';
import { handleDelete, handleDeleteCollection } from './handlers/delete.ts';
import { handleGet, handleList } from './handlers/get.ts';
import { handlePatch } from './handlers/patch.ts';
import { respond, type HandlerRequest } from './handlers/rest.ts';
import { handleUpdate } from './handlers/update.ts';
import { handleWatch } from './handlers/watch.ts';
import { serveNonResource, type NonResourceState } from './non-resource.ts';
import { handlePodStream, podStreamSubresources } from './pod-streams.ts';
import type { RegistryContext } from './registry/generic-store.ts';
import type { StorageFactory } from './storage-factory.ts';
import type { StreamRelays } from './stream-relay.ts';
import type { WatchServer } from './watch-server.ts';

export interface APIServerHandlerConfig {
  /** The address discovery advertises (`serverAddressByClientCIDRs`). */
  readonly serverAddress: string;
  /** What /readyz and /metrics read now. */
  readonly nonResource: () => NonResourceState;
  readonly rbac: RbacIndex;
  readonly storage: StorageFactory;
  readonly watches: WatchServer;
  readonly relays: StreamRelays;
  /** What GET and LIST of componentstatuses probe. */
  readonly probes: ComponentProbes;
  readonly now: () => Time;
  readonly epochMs: () => number;
  /** The registry context of one request (its user, namespace and field manager). */
  readonly context: (user: UserInfo, namespace: string, requestId: number, fieldManager: string) => RegistryContext;
  readonly reply: (request: Message, kind: typeof httpKinds.response, payload: HttpResponse) => void;
}

export class APIServerHandler {
  constructor(private readonly config: APIServerHandlerConfig) {}

  /** Answers an authorized request; null when it answered (a stream) itself. */
  *serve(request: Message<HttpRequest>, query: Map<string, string>, info: RequestInfo, user: UserInfo, auditID: string): Co<HttpResponse | null> {
    const http = request.payload;
    if (!info.isResourceRequest) {
      return serveNonResource(http, this.config.serverAddress, this.config.nonResource()) ?? { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '404 page not found\n' };
    }
    const route = resolveRoute(http.method, info);
    if ('kind' in route) {
      return route.kind === 'text'
        ? { status: route.code, headers: { 'content-type': route.contentType }, body: route.body }
        : respond(route.status.code ?? 404, route.status);
    }
    if (route.resource.unstored === 'probes') {
      return yield* handleComponentStatuses(http, query, route.resource, route.info.name, route.info.verb, this.config.epochMs() + this.config.now(), this.config.probes);
    }
    const review = handleReview(http, query, route.resource, { user, rbac: this.config.rbac, epochMs: this.config.epochMs(), now: this.config.now() });
    if (review !== null) return review;
    const segmentError = pathSegmentError(route.info, route.resource);
    if (segmentError) throw segmentError;
    const { storage, relays } = this.config;
    const h: HandlerRequest = {
      http, query, route,
      store: storage.storeFor(route.resource.group, route.resource.resource),
      ctx: this.config.context(user, route.resource.namespaced ? route.info.namespace : '', request.id,
        managerOrUserAgent(query.get('fieldManager'), http.headers['user-agent'])),
    };
    if (route.subresource && podStreamSubresources.has(route.subresource.name)) {
      const answer = yield* handlePodStream(h, relays.kubeletConnection());
      if ('response' in answer) return answer.response;
      relays.open(answer.kubeletRequestId, request, answer.node);
      this.config.reply(request, httpKinds.response, { ...answer.stream, headers: { ...answer.stream.headers, 'audit-id': auditID } });
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
        yield* handleWatch(h, storage.storageOf(route.resource), this.config.watches.responder(request, auditID));
        return null;
      }
      default: throw newInternalError(`verb ${route.info.verb} is not served by the simulated kube-apiserver yet`);
    }
  }
}
