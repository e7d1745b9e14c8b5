// What every REST handler shares: the routed request with its resource's registry store and context,
// the answer helper, and the REST storage of a routed subresource.
// Models k8s.io/apiserver/pkg/endpoints/handlers/rest.go (the handlers' shared parts; the request scope
// is ../request-scope.ts).

import type { ResolvedRoute } from '../../api/request-info.ts';
import type { HttpRequest, HttpResponse } from '../../wire/http.ts';
import type { GenericStore, RegistryContext } from '../registry/generic-store.ts';
import type { SubresourceREST } from '../registry/rest.ts';
import { subresourceREST } from '../registry/strategies.ts';

export interface HandlerRequest {
  readonly http: HttpRequest;
  readonly query: Map<string, string>;
  readonly route: ResolvedRoute;
  readonly store: GenericStore;
  readonly ctx: RegistryContext;
}

export const jsonHeaders = { 'content-type': 'application/json' };

export function respond(status: number, body: unknown, headers: Record<string, string> = jsonHeaders): HttpResponse {
  return { status, headers, body };
}

/** The REST storage of the routed subresource, if the request names one the registry serves. */
export function subresourceOf(route: ResolvedRoute): SubresourceREST | undefined {
  return route.subresource ? subresourceREST(route.resource, route.subresource.name) : undefined;
}
