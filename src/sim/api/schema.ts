// Typed access to the wire schema (schema-data.ts): parsed field types, inline structs flattened,
// lookups by JSON name, and the Go type names error messages print.

import { structs, type FieldSpec } from './schema-data.ts';

export type TypeNode =
  | { readonly kind: 'string' | 'bool' | 'int32' | 'int64' | 'float64' | 'Time' | 'MicroTime' | 'Quantity' | 'IntOrString' | 'Raw' | 'bytes' }
  | { readonly kind: 'pointer'; readonly elem: TypeNode }
  | { readonly kind: 'list'; readonly elem: TypeNode }
  | { readonly kind: 'map'; readonly elem: TypeNode }
  | { readonly kind: 'struct'; readonly name: string };

export interface SchemaField {
  readonly json: string;
  readonly type: TypeNode;
  readonly omitempty: boolean;
  /** `merge`, `retainKeys`, `merge,retainKeys`, `replace` or `''`. */
  readonly patchStrategy: string;
  readonly patchMergeKey: string;
  /** The Go struct the field is declared in (for error messages). */
  readonly declaredIn: string;
}

const scalarKinds = new Set(['string', 'bool', 'int32', 'int64', 'float64', 'Time', 'MicroTime', 'Quantity', 'IntOrString', 'Raw', 'bytes']);
const typeCache = new Map<string, TypeNode>();

/** Parses the schema's type notation (`*int32`, `[]Container`, `map[string]Quantity`, `PodSpec`). */
export function parseType(t: string): TypeNode {
  const cached = typeCache.get(t);
  if (cached !== undefined) return cached;
  let node: TypeNode;
  if (t.startsWith('*')) node = { kind: 'pointer', elem: parseType(t.slice(1)) };
  else if (t.startsWith('[]')) node = { kind: 'list', elem: parseType(t.slice(2)) };
  else if (t.startsWith('map[string]')) node = { kind: 'map', elem: parseType(t.slice('map[string]'.length)) };
  else if (scalarKinds.has(t)) node = { kind: t } as TypeNode;
  else if (structs[t] !== undefined) node = { kind: 'struct', name: t };
  else throw new Error(`schema: unknown type ${t}`);
  typeCache.set(t, node);
  return node;
}

const fieldCache = new Map<string, readonly SchemaField[]>();

/** A struct's JSON fields in encoding order, inline structs expanded in place. */
export function structFields(name: string): readonly SchemaField[] {
  const cached = fieldCache.get(name);
  if (cached !== undefined) return cached;
  const specs: readonly FieldSpec[] | undefined = structs[name];
  if (specs === undefined) throw new Error(`schema: unknown struct ${name}`);
  const fields: SchemaField[] = [];
  for (const [json, type, omitempty, patchStrategy, patchMergeKey] of specs) {
    if (json === '...') fields.push(...structFields(type));
    else fields.push({ json, type: parseType(type), omitempty: omitempty === 'o', patchStrategy: patchStrategy ?? '', patchMergeKey: patchMergeKey ?? '', declaredIn: name });
  }
  fieldCache.set(name, fields);
  return fields;
}

const fieldIndexCache = new Map<string, ReadonlyMap<string, SchemaField>>();

/** The field of a struct with this JSON name (case-sensitive, as Kubernetes decodes). */
export function structField(name: string, json: string): SchemaField | undefined {
  let index = fieldIndexCache.get(name);
  if (index === undefined) {
    index = new Map(structFields(name).map((f) => [f.json, f]));
    fieldIndexCache.set(name, index);
  }
  return index.get(json);
}

export interface StructSlots {
  /** The index in structFields(name) of the field each JSON name decodes into (the last field of that name, as structField finds it). */
  readonly slotOf: ReadonlyMap<string, number>;
  /** For each field of structFields(name), the index its JSON name decodes into. */
  readonly slots: readonly number[];
}

const slotCache = new Map<string, StructSlots>();

/** Where a decoder keeps each field's value while it reads a struct's JSON keys in any order. */
export function structSlots(name: string): StructSlots {
  let cached = slotCache.get(name);
  if (cached === undefined) {
    const fields = structFields(name);
    const slotOf = new Map(fields.map((f, i) => [f.json, i]));
    cached = { slotOf, slots: fields.map((f) => slotOf.get(f.json)!) };
    slotCache.set(name, cached);
  }
  return cached;
}

/** Whether the schema has a struct of this name (the root struct of a kind has the kind's name). */
export function hasStruct(name: string): boolean {
  return structs[name] !== undefined;
}

/** The Go type as `encoding/json` errors print it: `int32`, `[]v1.Container`, `v1.PodSpec`, `v1.ResourceList`. */
export function goTypeName(t: TypeNode): string {
  switch (t.kind) {
    case 'pointer': return `*${goTypeName(t.elem)}`;
    case 'list': return `[]${goTypeName(t.elem)}`;
    case 'map': return t.elem.kind === 'Quantity' ? 'v1.ResourceList' : `map[string]${goTypeName(t.elem)}`;
    case 'struct': return `v1.${t.name}`;
    case 'Time': return 'v1.Time';
    case 'MicroTime': return 'v1.MicroTime';
    case 'Quantity': return 'resource.Quantity';
    case 'IntOrString': return 'intstr.IntOrString';
    case 'Raw': return 'runtime.RawExtension';
    case 'bytes': return '[]uint8';
    default: return t.kind;
  }
}

/**
 * What encoding/json writes for the Go zero value of a type (nil slices, maps and pointers: null); a
 * struct's zero value is the struct with its own zero fields, which `zeroStruct` builds for the caller's
 * shape (the JSON decoder and the protobuf codec both need it).
 */
export function zeroValue(t: TypeNode, zeroStruct: (name: string) => unknown): unknown {
  switch (t.kind) {
    case 'string': return '';
    case 'bool': return false;
    case 'int32': case 'int64': case 'float64': case 'IntOrString': return 0;
    case 'Quantity': return '0';
    case 'struct': return zeroStruct(t.name);
    default: return null;
  }
}

/** encoding/json's isEmptyValue for `omitempty` (the JSON decoder and the protobuf codec both need it); structs (Time, Quantity, IntOrString included) are never empty. */
export function isEmptyValue(v: unknown, t: TypeNode): boolean {
  switch (t.kind) {
    case 'pointer': case 'Raw': return v === null;
    case 'list': case 'bytes': return v === null || (Array.isArray(v) && v.length === 0) || v === '';
    case 'map': return v === null || Object.keys(v as object).length === 0;
    case 'string': return v === '';
    case 'bool': return v === false;
    case 'int32': case 'int64': case 'float64': return v === 0;
    default: return false;
  }
}
