// PATCH: JSON patch, merge patch, strategic merge patch and server-side apply.
// Models k8s.io/apiserver/pkg/endpoints/handlers/patch.go.

import { decodeForRequest } from '../../api/decode.ts';
import { newBadRequest, newUnsupportedMediaType } from '../../api/errors.ts';
import { applyJSONPatch, jsonPatchErrorStatus } from '../../api/json-patch.ts';
import { applyMergePatch } from '../../api/merge-patch.ts';
import { applyStrategicMergePatch } from '../../api/strategic-merge-patch.ts';
import { strategicMergeErrorStatus } from '../../api/strategic-merge-meta.ts';
import { apiVersionOf } from '../../api/resources.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { formatTimestamp } from '../../api/time.ts';
import { applyDefaults } from '../../api/defaults.ts';
import { copyJson } from '../../api/json-copy.ts';
import type { Co } from '../../engine/index.ts';
import type { HttpResponse } from '../../wire/http.ts';
import { asObjectOfResource, fieldValidationOf, warningHeader } from '../request-body.ts';
import { applyConfiguration } from '../fieldmanager/apply.ts';
import { appliedByServerSideApply } from '../fieldmanager/field-manager.ts';
import { checkNamespace, wipeSystemFields, withDryRun, withTypeMeta } from '../request-scope.ts';
import { parse as parseYaml } from 'yaml';
import { jsonHeaders, respond, subresourceOf, type HandlerRequest } from './rest.ts';

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
  let patch: unknown;
  if (typeof body === 'string') {
    try {
      patch = JSON.parse(body);
    } catch (err) {
      throw newBadRequest(`error decoding patch: ${err instanceof Error ? err.message : String(err)}`);
    }
  } else {
    // An in-process client's patch object: what its JSON text would parse to, without the text.
    patch = copyJson(body ?? null);
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
    // The patches copy what they change (a JSON patch clones the document, a merge patch and a strategic
    // merge build new maps) and the decode builds a new object, so the current object is only read.
  }, { readsCurrentOnly: true, ...(status ? { status } : {}), ...(sub ? { subresource: sub } : {}) });
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
