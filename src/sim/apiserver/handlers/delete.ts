// DELETE of one object and of a collection.
// Models k8s.io/apiserver/pkg/endpoints/handlers/delete.go (DeleteResource, DeleteCollection).

import { successStatus } from '../../api/errors.ts';
import { apiVersionOf, listKindOf } from '../../api/resources.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co } from '../../engine/index.ts';
import type { HttpResponse } from '../../wire/http.ts';
import { deleteOptions, selectionPredicate, withDryRun, withoutTypeMeta, withTypeMeta } from '../request-scope.ts';
import { respond, type HandlerRequest } from './rest.ts';

export function* handleDelete(request: HandlerRequest): Co<HttpResponse> {
  const options = deleteOptions(request.http, request.query);
  const h = withDryRun(request, 'DeleteOptions', options.dryRun);
  const { route, store, ctx } = h;
  const result = yield* store.delete(ctx, route.info.name, options);
  if (!result.deleted || store.strategy.returnDeletedObject) return respond(200, withTypeMeta(route.resource, result.object));
  return respond(200, successStatus({ name: route.info.name, group: route.resource.group, kind: route.resource.resource, uid: result.object.metadata.uid ?? '' }));
}

export function* handleDeleteCollection(request: HandlerRequest): Co<HttpResponse> {
  const options = deleteOptions(request.http, request.query);
  const h = withDryRun(request, 'DeleteOptions', options.dryRun);
  const { route, store, ctx, query } = h;
  const list = yield* store.list(ctx, { resourceVersion: '', resourceVersionMatch: '', predicate: selectionPredicate(route.resource, query) });
  const items: KubeObject[] = [];
  for (const item of list.items) {
    const result = yield* store.delete(ctx, item.metadata.name ?? '', options);
    items.push(withoutTypeMeta(result.object));
  }
  return respond(200, { kind: listKindOf(route.resource), apiVersion: apiVersionOf(route.resource), metadata: { resourceVersion: String(list.resourceVersion) }, items });
}
