// JSON patch (RFC 6902, `application/json-patch+json`, `kubectl patch --type=json`): add, remove,
// replace, move, copy, test, applied in order, with the v4 library's quirks (negative indexes count
// from the end; `replace` of a missing object key adds it) and its error texts
// (`add operation does not apply: doc is missing path: "/spec/x": missing value`). The apiserver
// answers a patch that does not decode with 400 and one that does not apply with a generic 422.
// Models github.com/evanphx/json-patch v4.12.0 patch.go (kube-apiserver 1.28) and
// k8s.io/apiserver/pkg/endpoints/handlers/patch.go (applyJSPatch).

import { newBadRequest, newGenericServerResponse, newRequestEntityTooLarge, type StatusError } from './errors.ts';
import { copyJson } from './json-copy.ts';
import { isObject } from './json.ts';

type Container = unknown[] | Record<string, unknown>;

class PatchError extends Error {}

/** pkg/errors Wrapf: `<message>: <cause>`. */
const wrap = (message: string, cause: string): PatchError => new PatchError(`${message}: ${cause}`);
const missing = 'missing value';
const invalidIndex = 'invalid index referenced';
const testFailed = 'test failed';

/** The most operations one patch may carry. */
export const maxJSONPatchOperations = 10000;

function decodeKey(k: string): string {
  return k.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** strconv.Atoi, with Go's error text. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s) || Math.abs(Number(s)) > 2 ** 63) throw new PatchError(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}

/** The container holding the last path segment, and that segment; undefined when a parent is missing. */
function findObject(doc: Container, path: string): [Container, string] | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let cur: unknown = doc;
  for (const part of split.slice(1, -1)) {
    const key = decodeKey(part);
    let next: unknown;
    if (Array.isArray(cur)) {
      try {
        next = getFromArray(cur, key);
      } catch {
        return undefined;
      }
    } else if (isObject(cur)) {
      next = cur[key];
    }
    if (next === undefined || next === null || typeof next !== 'object') return undefined;
    cur = next;
  }
  return [cur as Container, decodeKey(split[split.length - 1]!)];
}

function normalizeIndex(idx: number, length: number): number {
  if (idx < -length) throw wrap(`Unable to access invalid index: ${idx}`, invalidIndex);
  return idx < 0 ? idx + length : idx;
}

function getFromArray(a: unknown[], key: string): unknown {
  const idx = normalizeIndex(atoi(key), a.length);
  if (idx >= a.length) throw wrap(`Unable to access invalid index: ${idx}`, invalidIndex);
  return a[idx];
}

function get(c: Container, key: string): unknown {
  return Array.isArray(c) ? getFromArray(c, key) : c[key];
}

function add(c: Container, key: string, value: unknown): void {
  if (!Array.isArray(c)) {
    c[key] = value;
    return;
  }
  if (key === '-') {
    c.push(value);
    return;
  }
  let idx: number;
  try {
    idx = atoi(key);
  } catch (e) {
    throw wrap(`value was not a proper array index: '${key}'`, (e as Error).message);
  }
  if (idx >= c.length + 1) throw wrap(`Unable to access invalid index: ${idx}`, invalidIndex);
  c.splice(normalizeIndex(idx, c.length + 1), 0, value);
}

function remove(c: Container, key: string): void {
  if (!Array.isArray(c)) {
    if (!(key in c)) throw wrap(`Unable to remove nonexistent key: ${key}`, missing);
    delete c[key];
    return;
  }
  const idx = atoi(key);
  if (idx >= c.length) throw wrap(`Unable to access invalid index: ${idx}`, invalidIndex);
  c.splice(normalizeIndex(idx, c.length), 1);
}

function set(c: Container, key: string, value: unknown): void {
  if (Array.isArray(c)) c[normalizeIndex(atoi(key), c.length)] = value;
  else c[key] = value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

const clone = <T>(v: T): T => (v === undefined ? v : copyJson(v));

type Operation = Record<string, unknown>;

function stringField(op: Operation, field: 'path' | 'from'): string | undefined {
  const v = op[field];
  return typeof v === 'string' ? v : undefined;
}

function applyOperation(state: { doc: Container }, op: Operation): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const path = stringField(op, 'path');
  const from = stringField(op, 'from');
  const value = op.value;
  switch (kind) {
    case 'add': {
      if (path === undefined) throw wrap('add operation failed to decode path', missing);
      const found = findObject(state.doc, path);
      if (found === undefined) throw wrap(`add operation does not apply: doc is missing path: "${path}"`, missing);
      try {
        add(found[0], found[1], clone(value));
      } catch (e) {
        throw wrap(`error in add for path: '${path}'`, (e as Error).message);
      }
      return;
    }
    case 'remove': {
      if (path === undefined) throw wrap('remove operation failed to decode path', missing);
      const found = findObject(state.doc, path);
      if (found === undefined) throw wrap(`remove operation does not apply: doc is missing path: "${path}"`, missing);
      try {
        remove(found[0], found[1]);
      } catch (e) {
        throw wrap(`error in remove for path: '${path}'`, (e as Error).message);
      }
      return;
    }
    case 'replace': {
      if (path === undefined) throw wrap('replace operation failed to decode path', 'operation missing path field: missing value');
      if (path === '') {
        if (typeof value !== 'object' || value === null) throw new PatchError('replace operation value must be object or array');
        state.doc = clone(value) as Container;
        return;
      }
      const found = findObject(state.doc, path);
      if (found === undefined) throw wrap(`replace operation does not apply: doc is missing path: ${path}`, missing);
      try {
        get(found[0], found[1]);
      } catch {
        throw wrap(`replace operation does not apply: doc is missing key: ${path}`, missing);
      }
      try {
        set(found[0], found[1], clone(value));
      } catch (e) {
        throw wrap(`error in remove for path: '${path}'`, (e as Error).message);
      }
      return;
    }
    case 'move': case 'copy': {
      if (from === undefined) throw wrap(`${kind} operation failed to decode from`, 'operation, missing from field: missing value');
      const source = findObject(state.doc, from);
      if (source === undefined) throw wrap(`${kind} operation does not apply: doc is missing from path: ${from}`, missing);
      let val: unknown;
      try {
        val = get(source[0], source[1]);
        if (kind === 'move') remove(source[0], source[1]);
      } catch (e) {
        throw kind === 'move' ? wrap(`error in move for path: '${source[1]}'`, (e as Error).message) : wrap(`error in copy for from: '${from}'`, (e as Error).message);
      }
      if (path === undefined) throw wrap(`${kind} operation failed to decode path`, missing);
      const dest = findObject(state.doc, path);
      if (dest === undefined) throw wrap(`${kind} operation does not apply: doc is missing destination path: ${path}`, missing);
      try {
        add(dest[0], dest[1], kind === 'copy' ? clone(val) : val);
      } catch (e) {
        throw kind === 'move' ? wrap(`error in move for path: '${path}'`, (e as Error).message) : wrap('error while adding value during copy', (e as Error).message);
      }
      return;
    }
    case 'test': {
      if (path === undefined) throw wrap('test operation failed to decode path', 'operation missing path field: missing value');
      if (path === '') {
        if (deepEqual(state.doc, value)) return;
        throw wrap(`testing value ${path} failed`, testFailed);
      }
      const found = findObject(state.doc, path);
      if (found === undefined) throw wrap(`test operation does not apply: is missing path: ${path}`, missing);
      let actual: unknown;
      try {
        actual = get(found[0], found[1]);
      } catch (e) {
        throw wrap(`error in test for path: '${path}'`, (e as Error).message);
      }
      if (actual === undefined) {
        if (value === null) return;
        throw wrap(`testing value ${path} failed`, testFailed);
      }
      if (deepEqual(actual, value)) return;
      throw wrap(`testing value ${path} failed`, testFailed);
    }
    default:
      throw new PatchError(`Unexpected kind: ${kind}`);
  }
}

/** Why a JSON patch could not be used: `decode` answers 400, `tooLarge` 413, `apply` a generic 422. */
export type JSONPatchResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly stage: 'decode' | 'apply' | 'tooLarge'; readonly error: string };

/** Applies a parsed JSON patch document to a parsed JSON document. */
export function applyJSONPatch(doc: unknown, patch: unknown): JSONPatchResult {
  // `null` decodes to an empty patch.
  if (patch === null) return { ok: true, value: doc };
  if (!Array.isArray(patch)) return { ok: false, stage: 'decode', error: `json: cannot unmarshal ${jsonKind(patch)} into Go value of type jsonpatch.Patch` };
  const bad = patch.find((p) => !isObject(p) && p !== null);
  if (bad !== undefined) return { ok: false, stage: 'decode', error: `json: cannot unmarshal ${jsonKind(bad)} into Go value of type jsonpatch.Operation` };
  if (patch.length > maxJSONPatchOperations) {
    return { ok: false, stage: 'tooLarge', error: `The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${patch.length}` };
  }
  const state = { doc: clone(doc) as Container };
  try {
    for (const op of patch as (Operation | null)[]) applyOperation(state, op ?? {});
  } catch (e) {
    if (e instanceof PatchError) return { ok: false, stage: 'apply', error: e.message };
    throw e;
  }
  return { ok: true, value: state.doc };
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'object';
}

/** The Status the apiserver answers for a failed JSON patch. */
export function jsonPatchErrorStatus(failure: Extract<JSONPatchResult, { ok: false }>): StatusError {
  switch (failure.stage) {
    case 'decode': return newBadRequest(failure.error);
    case 'tooLarge': return newRequestEntityTooLarge(failure.error);
    default: return newGenericServerResponse(422, failure.error);
  }
}
