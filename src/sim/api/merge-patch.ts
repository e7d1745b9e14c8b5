// JSON merge patch (RFC 7386, `application/merge-patch+json`), as `kubectl scale` and
// `kubectl patch --type=merge` send it: objects merge key by key, `null` deletes, anything else
// replaces. A patch that is neither an object nor an array is rejected (`Invalid JSON Patch`, 400);
// an array replaces the document, its nulls dropped.
// Models github.com/evanphx/json-patch v4 merge.go (MergePatch), which kube-apiserver 1.28 uses.

import { isObject } from './json.ts';
import { fail, ok, type Result } from './result.ts';

type JSONObject = Record<string, unknown>;

/** `Invalid JSON Patch`: the 400 for a merge patch that is not an object or array. */
export const errBadJSONPatch = 'Invalid JSON Patch';

/** Removes null members from objects, recursively (a new value added by a patch carries no nulls). */
function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(pruneNulls);
  if (!isObject(v)) return v;
  const out: JSONObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = pruneNulls(x);
  return out;
}

function mergeDocs(doc: JSONObject, patch: JSONObject): JSONObject {
  const out: JSONObject = { ...doc };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
    } else {
      const cur = out[k];
      if (cur === undefined || cur === null) out[k] = pruneNulls(v);
      else if (isObject(cur) && isObject(v)) out[k] = mergeDocs(cur, v);
      else out[k] = isObject(cur) ? v : pruneNulls(v);
    }
  }
  return out;
}

/** Applies a merge patch to a document (both already parsed JSON). */
export function applyMergePatch(doc: unknown, patch: unknown): Result<unknown> {
  if (patch === null || patch === undefined) return fail(errBadJSONPatch);
  if (Array.isArray(patch)) return ok(patch.map(pruneNulls));
  if (!isObject(patch)) return fail(errBadJSONPatch);
  if (!isObject(doc)) return ok(pruneNulls(patch));
  return ok(mergeDocs(doc, patch));
}
