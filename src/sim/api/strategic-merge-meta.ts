// What the strategic merge patch reads beside the patch: each field's patch strategy and merge key from
// the wire schema (`patchStrategy:"merge"`, `patchMergeKey:"name"`), and the errors it fails with, with
// upstream's texts and the status the apiserver gives each (400, 422 or 500).
// Models k8s.io/apimachinery/pkg/util/strategicpatch/meta.go (LookupPatchMetadataForStruct/Slice),
// errors.go and patch.go's extractRetainKeysPatchStrategy, and how k8s.io/apiserver's
// pkg/endpoints/handlers/patch.go answers them (interpretStrategicMergePatchError).

import { newBadRequest, newGenericServerResponse, newInternalError, type StatusError } from './errors.ts';
import { isObject } from './json.ts';
import { structField, type TypeNode } from './schema.ts';

/** How the apiserver answers a strategic-merge failure. */
export type PatchFailureCode = 400 | 422 | 500;

export class PatchError extends Error {
  constructor(message: string, readonly code: PatchFailureCode) {
    super(message);
  }
}

const badRequest = (m: string): PatchError => new PatchError(m, 400);
export const internal = (m: string): PatchError => new PatchError(m, 500);
export const errBadPatchFormatForPrimitiveList = (): PatchError => badRequest('invalid patch format of primitive list');
export const errBadPatchFormatForRetainKeys = (): PatchError => badRequest('invalid patch format of retainKeys');
export const errBadPatchFormatForSetElementOrderList = (): PatchError => badRequest('invalid patch format of setElementOrder list');

/** Go's `%v` of decoded JSON, for the messages that print patch content (`map[name:a]`, `[a b]`). */
export function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goV(v[k])}`).join(' ')}]`;
  return String(v);
}

/** reflect.Kind of a decoded JSON value. */
export function kindOf(v: unknown): 'map' | 'slice' | 'string' | 'float64' | 'bool' | 'nil' {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (isObject(v)) return 'map';
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? 'float64' : 'bool';
}

export interface PatchMeta {
  /** The schema of the value (struct, map, list element…), undefined when the schema has no such field. */
  readonly schema: TypeNode | undefined;
  readonly strategies: readonly string[];
  readonly mergeKey: string;
}

export function schemaName(schema: TypeNode | undefined): string {
  return schema?.kind === 'struct' ? schema.name : '';
}

function unwrap(t: TypeNode): TypeNode {
  return t.kind === 'pointer' ? unwrap(t.elem) : t;
}

/** LookupPatchMetadataForStruct: the field's type and patch tags. */
export function lookupForStruct(schema: TypeNode | undefined, key: string): PatchMeta {
  if (schema === undefined) return { schema: undefined, strategies: [], mergeKey: '' };
  if (schema.kind === 'map') return { schema: unwrap(schema.elem), strategies: [], mergeKey: '' };
  if (schema.kind !== 'struct') return { schema: undefined, strategies: [], mergeKey: '' };
  const field = structField(schema.name, key);
  if (field === undefined) throw internal(`unable to find api field in struct ${schema.name} for the json field ${JSON.stringify(key)}`);
  return { schema: unwrap(field.type), strategies: field.patchStrategy === '' ? [] : field.patchStrategy.split(','), mergeKey: field.patchMergeKey };
}

/** LookupPatchMetadataForSlice: like the struct lookup, with the schema of the list's elements. */
export function lookupForSlice(schema: TypeNode | undefined, key: string): PatchMeta {
  const meta = lookupForStruct(schema, key);
  const t = meta.schema;
  return { ...meta, schema: t?.kind === 'list' ? unwrap(t.elem) : t };
}

/** extractRetainKeysPatchStrategy: the strategy other than retainKeys. */
export function patchStrategyOf(strategies: readonly string[]): string {
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === 'retainKeys' ? '' : strategies[0]!;
  if (strategies.length === 2 && strategies.includes('retainKeys')) return strategies.find((s) => s !== 'retainKeys')!;
  throw internal(`unexpected patch strategy: ${strategies.join(',')}`);
}

export function errNoMergeKey(m: unknown, key: string): PatchError {
  return internal(`map: ${goV(m)} does not contain declared merge key: ${key}`);
}

export function errBadPatchType(t: unknown, m: unknown): PatchError {
  return internal(`unknown patch type: ${goV(t)} in map: ${goV(m)}`);
}

/** The Status for a failed strategic merge: 400 BadRequest, a generic 422, or 500 `Internal error occurred: …`. */
export function strategicMergeErrorStatus(failure: { readonly code: PatchFailureCode; readonly error: string }): StatusError {
  switch (failure.code) {
    case 400: return newBadRequest(failure.error);
    case 422: return newGenericServerResponse(422, failure.error);
    default: return newInternalError(failure.error);
  }
}
