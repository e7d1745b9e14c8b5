// GET of one object and LIST of a collection: the object, a List, a Table or PartialObjectMetadata as the
// Accept header asks.
// Models k8s.io/apiserver/pkg/endpoints/handlers/get.go (GetResource, ListResource).

import { apiVersionOf, listKindOf } from '../../api/resources.ts';
import type { List } from '../../api/types/meta.ts';
import type { Co } from '../../engine/index.ts';
import type { HttpResponse } from '../../wire/http.ts';
import {
  checkListOptions, internalPackage, newNotAcceptable406, selectionPredicate, withoutTypeMeta, withTypeMeta,
} from '../request-scope.ts';
import { conversionOf, partialObjectMetadata, partialObjectMetadataList, tableFor } from '../table.ts';
import { respond, subresourceOf, type HandlerRequest } from './rest.ts';

export function* handleGet(h: HandlerRequest): Co<HttpResponse> {
  const { route, store, ctx } = h;
  const resourceVersion = h.query.get('resourceVersion') ?? '';
  const rest = subresourceOf(route);
  if (rest?.get) return respond(200, yield* rest.get(store, ctx, route.info.name, resourceVersion));
  const obj = yield* store.get(ctx, route.info.name, resourceVersion);
  const convert = conversionOf(h.http);
  if (convert?.kind === 'Table') return respond(200, tableFor(route.resource, [obj], { resourceVersion: obj.metadata.resourceVersion ?? '' }, h.query, ctx.epochMs + ctx.now, convert.version));
  if (convert?.kind === 'PartialObjectMetadata') return respond(200, partialObjectMetadata(obj, convert.version));
  if (convert?.kind === 'PartialObjectMetadataList') throw newNotAcceptable406(`you requested PartialObjectMetadataList, but the requested object is not a list (*${internalPackage(route.resource)}.${route.resource.kind})`);
  return respond(200, withTypeMeta(route.resource, obj));
}

export function* handleList(h: HandlerRequest): Co<HttpResponse> {
  const { route, store, ctx, query } = h;
  const predicate = selectionPredicate(route.resource, query);
  const resourceVersion = query.get('resourceVersion') ?? '';
  const resourceVersionMatch = checkListOptions(query, resourceVersion, false);
  const list = yield* store.list(ctx, { resourceVersion, resourceVersionMatch, predicate });
  const rv = String(list.resourceVersion);
  const metadata = {
    resourceVersion: rv,
    ...(list.continueToken ? { continue: list.continueToken } : {}),
    ...(list.remainingItemCount !== undefined ? { remainingItemCount: list.remainingItemCount } : {}),
  };
  const convert = conversionOf(h.http);
  if (convert?.kind === 'Table') return respond(200, tableFor(route.resource, list.items, metadata, query, ctx.epochMs + ctx.now, convert.version));
  if (convert?.kind === 'PartialObjectMetadataList') return respond(200, partialObjectMetadataList(list.items, metadata, convert.version));
  if (convert?.kind === 'PartialObjectMetadata') throw newNotAcceptable406(`you requested PartialObjectMetadata, but the requested object is a list (*${internalPackage(route.resource)}.${listKindOf(route.resource)})`);
  const body: List = { kind: listKindOf(route.resource), apiVersion: apiVersionOf(route.resource), metadata, items: list.items.map(withoutTypeMeta) };
  return respond(200, body);
}
