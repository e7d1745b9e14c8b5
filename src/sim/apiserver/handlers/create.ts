// POST of a new object: decode, default, and the registry's create.
// Models k8s.io/apiserver/pkg/endpoints/handlers/create.go (createHandler).

import { newMethodNotSupported } from '../../api/errors.ts';
import { apiVersionOf, groupResourceOf } from '../../api/resources.ts';
import { applyDefaults } from '../../api/defaults.ts';
import type { Co } from '../../engine/index.ts';
import type { HttpResponse } from '../../wire/http.ts';
import { decodeBody, decodeObject, fieldValidationOf, warningHeader } from '../request-body.ts';
import { checkNamespace, wipeSystemFields, withDryRun, withTypeMeta } from '../request-scope.ts';
import { jsonHeaders, respond, subresourceOf, type HandlerRequest } from './rest.ts';

export function* handleCreate(request: HandlerRequest): Co<HttpResponse> {
  const h = withDryRun(request, 'CreateOptions');
  const { route, store, ctx } = h;
  if (route.subresource) {
    const create = subresourceOf(route)?.create;
    if (!create) throw newMethodNotSupported(groupResourceOf(route.resource), 'create');
    const body = decodeBody(h.http, route.subresource.kind.kind, apiVersionOf(route.subresource.kind));
    return respond(201, yield* create(store, ctx, route.info.name, body));
  }
  const { object: obj, warnings } = decodeObject(h.http, route.resource, fieldValidationOf(h.query));
  checkNamespace(route, obj);
  applyDefaults({ group: route.resource.group, version: route.resource.version, kind: route.resource.kind }, obj);
  wipeSystemFields(obj);
  const created = yield* store.create(ctx, obj);
  return respond(201, withTypeMeta(route.resource, created), { ...jsonHeaders, ...warningHeader(warnings) });
}
