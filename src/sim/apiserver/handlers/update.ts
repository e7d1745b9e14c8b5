// PUT of an object (or a subresource): decode, default, and the registry's update.
// Models k8s.io/apiserver/pkg/endpoints/handlers/update.go (UpdateResource).

import { newBadRequest } from '../../api/errors.ts';
import { apiVersionOf } from '../../api/resources.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { applyDefaults } from '../../api/defaults.ts';
import type { Co } from '../../engine/index.ts';
import type { HttpResponse } from '../../wire/http.ts';
import { decodeBody, decodeObject, fieldValidationOf, warningHeader } from '../request-body.ts';
import { checkNamespace, withDryRun, withTypeMeta } from '../request-scope.ts';
import { copyJson } from '../../api/json-copy.ts';
import { jsonHeaders, respond, subresourceOf, type HandlerRequest } from './rest.ts';

export function* handleUpdate(request: HandlerRequest): Co<HttpResponse> {
  const h = withDryRun(request, 'UpdateOptions');
  const { route, store, ctx } = h;
  const name = route.info.name;
  const sub = route.subresource?.name;
  const rest = subresourceOf(route);
  if (rest?.update && route.subresource) {
    const body = decodeBody(h.http, route.subresource.kind.kind, apiVersionOf(route.subresource.kind)) as unknown as KubeObject;
    return respond(200, yield* rest.update(store, ctx, name, () => body));
  }
  const { object: obj, warnings } = decodeObject(h.http, route.resource, fieldValidationOf(h.query));
  checkNamespace(route, obj);
  if (obj.metadata.name !== undefined && obj.metadata.name !== name) {
    throw newBadRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
  }
  obj.metadata.name = name;
  applyDefaults({ group: route.resource.group, version: route.resource.version, kind: route.resource.kind }, obj);
  const status = rest?.updateStrategy;
  const { object, created } = yield* store.update(ctx, name, () => copyJson(obj), {
    // The body replaces the current object, which is not read here.
    readsCurrentOnly: true,
    ...(status ? { status } : {}),
    ...(sub ? { subresource: sub } : {}),
  });
  return respond(created ? 201 : 200, withTypeMeta(route.resource, object), { ...jsonHeaders, ...warningHeader(warnings) });
}
