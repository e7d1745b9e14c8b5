// The REST handlers behind the filter chain: one function per verb, turning a routed request into
// registry calls and the registry's answer into an HTTP response (object, List, Table or Status).
// A subresource is served by its own REST storage (registry/rest.ts: pod-storage.ts, deployment-storage.ts),
// reached through the same verbs.
// What every verb shares (type meta, options, dry run) is request-scope.ts.
// Models k8s.io/apiserver/pkg/endpoints/handlers (get.go, create.go, update.go, patch.go, delete.go, watch.go).

import { decodeForRequest } from '../api/decode.ts';
import { newBadRequest, newMethodNotSupported, newUnsupportedMediaType, successStatus } from '../api/errors.ts';
import { applyJSONPatch, jsonPatchErrorStatus } from '../api/json-patch.ts';
import { applyMergePatch } from '../api/merge-patch.ts';
import { applyStrategicMergePatch } from '../api/strategic-merge-patch.ts';
import { strategicMergeErrorStatus } from '../api/strategic-merge-meta.ts';
import { apiVersionOf, groupResourceOf, listKindOf } from '../api/resources.ts';
import type { ResolvedRoute } from '../api/request-info.ts';
import type { KubeObject, List } from '../api/types/meta.ts';
import { formatTimestamp } from '../api/time.ts';
import { applyDefaults } from '../api/defaults.ts';
import type { Co } from '../engine/index.ts';
import type { HttpRequest, HttpResponse, HttpWatchEvent } from '../wire/http.ts';
import { asObjectOfResource, decodeBody, decodeObject, fieldValidationOf, warningHeader } from './request-body.ts';
import { applyConfiguration } from './fieldmanager/apply.ts';
import { appliedByServerSideApply } from './fieldmanager/field-manager.ts';
import { parse as parseYaml } from 'yaml';
import type { GenericStore, RegistryContext } from './registry/generic-store.ts';
import type { SubresourceREST } from './registry/rest.ts';
import { subresourceREST } from './registry/strategies.ts';
import {
  checkListOptions, checkNamespace, deleteOptions, internalPackage, newNotAcceptable406, selectionPredicate, wipeSystemFields,
  withDryRun, withoutTypeMeta, withTypeMeta,
} from './request-scope.ts';
import type { Storage, StorageWatch, StorageWatchEvent, StorageWatchSink } from './storage/interface.ts';
import { conversionOf, partialObjectMetadata, partialObjectMetadataList, tableFor } from './table.ts';
import { jsonMediaType, negotiateWatchMediaType, protobufMediaType, watchContentType, type NegotiatedMediaType } from './negotiation.ts';
import { hasProtobufKind } from '../api/protobuf/index.ts';
import { toTable } from '../api/table-convertor.ts';
import { requiresExactFieldMatch } from '../api/fields.ts';
import { copyJson } from '../api/json-copy.ts';

export interface HandlerRequest {
  readonly http: HttpRequest;
  readonly query: Map<string, string>;
  readonly route: ResolvedRoute;
  readonly store: GenericStore;
  readonly ctx: RegistryContext;
}

const jsonHeaders = { 'content-type': 'application/json' };

export function respond(status: number, body: unknown, headers: Record<string, string> = jsonHeaders): HttpResponse {
  return { status, headers, body };
}

/** The REST storage of the routed subresource, if the request names one the registry serves. */
function subresourceOf(route: ResolvedRoute): SubresourceREST | undefined {
  return route.subresource ? subresourceREST(route.resource, route.subresource.name) : undefined;
}

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

/** How a watch talks back: the server turns these into `http.response` (stream), `http.watchEvent`, `http.watchEnd`. */
export interface WatchResponder {
  /** Sends the 200 that opens the stream; the watch ends by itself after `timeoutMs`. */
  open(timeoutMs: number, headers: Record<string, string>): void;
  established(watch: StorageWatch): void;
  event(event: HttpWatchEvent): void;
  /** The storage ended the watch (after an ERROR event, or a relist). */
  end(): void;
  /** The virtual time now, for the AGE cells of Table events (else the time the watch started). */
  now?(): number;
}

/** minRequestTimeout: a watch without timeoutSeconds lasts a random time in [1800 s, 3600 s). */
const minRequestTimeoutSeconds = 1800;

/**
 * WATCH: the storage watch is set up first (a malformed request is answered with its error), then the
 * 200 opens the stream and the events that arrived meanwhile (initial ADDED events, an ERROR) follow.
 * Each event object carries kind and apiVersion; with a Table Accept each is a one-row Table.
 */
// Models k8s.io/apiserver/pkg/endpoints/handlers/get.go (ListResource for watch) and watch.go (serveWatch).
export function* handleWatch(h: HandlerRequest, storage: Storage, responder: WatchResponder): Co<void> {
  const { route, ctx, query } = h;
  const resourceVersion = query.get('resourceVersion') ?? '';
  checkListOptions(query, resourceVersion, true);
  const named = route.info.name;
  const base = selectionPredicate(route.resource, query);
  const predicate = named !== '' && requiresExactFieldMatch(base.field, 'metadata.name') !== named
    ? { ...base, field: { terms: [...base.field.terms, { field: 'metadata.name', operator: '=' as const, value: named }] } }
    : base;
  const timeoutText = query.get('timeoutSeconds') ?? '';
  const timeoutSeconds = timeoutText !== '' ? Number(timeoutText) : minRequestTimeoutSeconds * (1 + ctx.rng.float());
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) throw newBadRequest(`invalid timeoutSeconds: ${timeoutText}`);
  const timeoutMs = timeoutSeconds * 1000;
  const asked = negotiateWatchMediaType(h.http.headers.accept);
  // Deviation (as for other answers): a kind the protobuf codec cannot write streams as JSON.
  const sentKind = asked.convert?.kind === 'PartialObjectMetadata' ? 'PartialObjectMetadata' : route.resource.kind;
  const negotiated: NegotiatedMediaType = asked.mediaType === protobufMediaType && !hasProtobufKind(sentKind) ? { ...asked, mediaType: jsonMediaType } : asked;
  const table = negotiated.convert?.kind === 'Table' ? negotiated.convert : null;
  const partial = negotiated.convert?.kind === 'PartialObjectMetadata' ? negotiated.convert : null;
  // The first event encoded carries the Table's column definitions; every later one has none
  // (watchEmbeddedEncoder flips TableOptions.NoHeaders after its first object, whatever its type).
  let headersSent = false;
  const convert = (e: StorageWatchEvent): HttpWatchEvent => {
    const noHeaders = headersSent;
    headersSent = true;
    if (e.type === 'ERROR') return { type: e.type, object: e.object };
    if (partial) return { type: e.type, object: partialObjectMetadata(e.object, partial.version) };
    // Deviation: a bookmark in a Table watch stays the bare object (kubectl never asks for bookmarks).
    if (!table || e.type === 'BOOKMARK') return { type: e.type, object: withTypeMeta(route.resource, e.object) };
    const t = toTable(route.resource, [e.object], {}, ctx.epochMs + (responder.now?.() ?? ctx.now), { includeObject: query.get('includeObject') ?? '', noHeaders });
    if (!('kind' in t && t.kind === 'Table')) return { type: e.type, object: e.object };
    return { type: e.type, object: table.version === 'v1' ? t : { ...t, apiVersion: `meta.k8s.io/${table.version}` } };
  };
  let opened = false;
  let endedEarly = false;
  const early: HttpWatchEvent[] = [];
  const sink: StorageWatchSink = {
    event: (e) => {
      if (opened) responder.event(convert(e));
      else early.push(convert(e));
    },
    end: () => {
      if (opened) responder.end();
      else endedEarly = true;
    },
  };
  const sendInitialEvents = query.get('sendInitialEvents');
  const watch = yield* storage.watch(h.store.collectionKey(ctx.namespace), {
    resourceVersion,
    predicate,
    recursive: true,
    allowWatchBookmarks: query.get('allowWatchBookmarks') === 'true',
    deadline: ctx.now + timeoutMs,
    ...(sendInitialEvents !== undefined ? { sendInitialEvents: sendInitialEvents === 'true' } : {}),
  }, sink);
  responder.open(timeoutMs, { 'content-type': watchContentType(negotiated.mediaType) });
  opened = true;
  for (const e of early) responder.event(e);
  responder.established(watch);
  if (endedEarly) responder.end();
}

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
    ...(status ? { status } : {}),
    ...(sub ? { subresource: sub } : {}),
  });
  return respond(created ? 201 : 200, withTypeMeta(route.resource, object), { ...jsonHeaders, ...warningHeader(warnings) });
}

const patchTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'] as const;
type PatchType = (typeof patchTypes)[number];

/**
 * PATCH: the patch is applied to the current object inside the registry's update (so it is re-applied
 * on a lost race), then the result is decoded and defaulted again, as kube-apiserver does. Server-side
 * apply (`application/apply-patch+yaml`) is handleApply.
 */
// Models k8s.io/apiserver/pkg/endpoints/handlers/patch.go (PatchResource, patcher.applyPatch).
export function* handlePatch(request: HandlerRequest): Co<HttpResponse> {
  const h = withDryRun(request, 'PatchOptions');
  const { route, store, ctx } = h;
  const contentType = (h.http.headers['content-type'] ?? '').split(';')[0]!.trim() as PatchType;
  if (!patchTypes.includes(contentType)) throw newUnsupportedMediaType([...patchTypes]);
  if (contentType === 'application/apply-patch+yaml') return yield* handleApply(h);
  const body = h.http.body;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch (err) {
    throw newBadRequest(`error decoding patch: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (contentType !== 'application/json-patch+json' && (typeof patch !== 'object' || patch === null || Array.isArray(patch))) {
    throw newBadRequest(`json: cannot unmarshal ${Array.isArray(patch) ? 'array' : patch === null ? 'null' : typeof patch} into Go value of type map[string]interface {}`);
  }
  const sub = route.subresource?.name;
  const gvk = { group: route.resource.group, version: route.resource.version, kind: route.resource.kind };
  const fieldValidation = fieldValidationOf(h.query);
  const warnings: string[] = [];
  const apply = (doc: Record<string, unknown>, kind: string): Record<string, unknown> => {
    if (contentType === 'application/json-patch+json') {
      const r = applyJSONPatch(doc, patch);
      if (!r.ok) throw jsonPatchErrorStatus(r);
      return r.value as Record<string, unknown>;
    }
    if (contentType === 'application/merge-patch+json') {
      const r = applyMergePatch(doc, patch);
      if (!r.ok) throw newBadRequest(r.error);
      return r.value as Record<string, unknown>;
    }
    const r = applyStrategicMergePatch(kind, doc, patch as Record<string, unknown>);
    if (!r.ok) throw strategicMergeErrorStatus(r);
    return r.value;
  };
  const rest = subresourceOf(route);
  if (rest?.update && route.subresource) {
    const kind = route.subresource.kind.kind;
    return respond(200, yield* rest.update(store, ctx, route.info.name, (current) => apply(current as unknown as Record<string, unknown>, kind) as unknown as KubeObject));
  }
  const status = rest?.updateStrategy;
  const { object } = yield* store.update(ctx, route.info.name, (current) => {
    const patched = apply(withTypeMeta(route.resource, current!) as unknown as Record<string, unknown>, route.resource.kind);
    const decoded = decodeForRequest(gvk, patched, fieldValidation);
    if (!decoded.ok) throw decoded.error;
    // patcher.applyPatch's checkName: a patch may not rename the object.
    const patchedName = decoded.object.metadata.name ?? '';
    if (patchedName !== route.info.name) {
      throw newBadRequest(`the name of the object (${patchedName}) does not match the name on the URL (${route.info.name})`);
    }
    warnings.splice(0, warnings.length, ...decoded.warnings);
    applyDefaults(gvk, decoded.object);
    return decoded.object;
  }, { ...(status ? { status } : {}), ...(sub ? { subresource: sub } : {}) });
  return respond(200, withTypeMeta(route.resource, object), { ...jsonHeaders, ...warningHeader(warnings) });
}

/**
 * Server-side apply: the body (YAML, or JSON, which is YAML) is the applier's configuration; it is
 * merged into the live object with field ownership (fieldmanager/apply.ts), or creates the object when
 * there is none (201). `force=true` takes conflicting fields from their owners.
 */
// Models k8s.io/apiserver/pkg/endpoints/handlers/patch.go (applyPatcher, createIfNotExists for apply).
function* handleApply(h: HandlerRequest): Co<HttpResponse> {
  const { route, store, ctx, query } = h;
  if (route.subresource) throw newUnsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
  const text = typeof h.http.body === 'string' ? h.http.body : JSON.stringify(h.http.body ?? null);
  let config: unknown;
  try {
    config = parseYaml(text);
  } catch (err) {
    throw newBadRequest(`error decoding YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw newBadRequest('error decoding YAML: the applied configuration is not an object');
  const gvk = { group: route.resource.group, version: route.resource.version, kind: route.resource.kind };
  const typed = asObjectOfResource(config as Record<string, unknown>, route.resource);
  checkNamespace(route, typed);
  if (typed.metadata.name !== undefined && typed.metadata.name !== route.info.name) {
    throw newBadRequest(`the name of the object (${typed.metadata.name}) does not match the name on the URL (${route.info.name})`);
  }
  const checked = decodeForRequest(gvk, typed, fieldValidationOf(query));
  if (!checked.ok) throw checked.error;
  const manager = query.get('fieldManager') ?? '';
  const force = query.get('force') === 'true';
  const applyCtx = { ...ctx, fieldManager: appliedByServerSideApply };
  const { object, created } = yield* store.update(applyCtx, route.info.name, (current) => {
    const merged = applyConfiguration({
      kind: route.resource.kind,
      live: current ? withTypeMeta(route.resource, current) : null,
      config: { ...typed, metadata: { ...typed.metadata, name: route.info.name } },
      manager, apiVersion: apiVersionOf(route.resource), time: formatTimestamp(ctx.epochMs + ctx.now), force,
    });
    const decoded = decodeForRequest(gvk, merged, 'Ignore');
    if (!decoded.ok) throw decoded.error;
    applyDefaults(gvk, decoded.object);
    if (!current) wipeSystemFields(decoded.object);
    return decoded.object;
  }, { forceAllowCreate: true });
  return respond(created ? 201 : 200, withTypeMeta(route.resource, object), { ...jsonHeaders, ...warningHeader(checked.warnings) });
}

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
