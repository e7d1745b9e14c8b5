// How each Go struct maps onto its protobuf message: the struct's fields (from schema-data.ts, with
// their Go types and pointer-ness) joined with their field numbers (field-numbers.ts). An embedded
// struct other than TypeMeta is a nested message field named after its type (`localObjectReference`);
// TypeMeta is not encoded (the runtime.Unknown envelope carries apiVersion and kind). `<Kind>List`
// structs are synthesized (ListMeta = 1, items = 2).
// Models k8s.io/code-generator/cmd/go-to-protobuf (how Go structs become generated.proto messages).

import { structs, type FieldSpec } from '../schema-data.ts';
import type { TypeNode } from '../schema.ts';
import { fieldNumbers } from './field-numbers.ts';

export interface PlanField {
  readonly number: number;
  /** The JSON name; for an embedded struct, the proto field name (`localObjectReference`). */
  readonly name: string;
  readonly type: TypeNode;
  /** An embedded struct: its fields are the parent's in JSON, a nested message in protobuf. */
  readonly inline: boolean;
}

export interface OutField {
  readonly json: string;
  readonly type: TypeNode;
  readonly omitempty: boolean;
}

export interface Plan {
  readonly name: string;
  /** Fields by ascending number (the order gogo-protobuf writes them). */
  readonly fields: readonly PlanField[];
  readonly byNumber: ReadonlyMap<number, PlanField>;
  /** The JSON fields in struct order, embedded structs flattened (the shape decode produces). */
  readonly out: readonly OutField[];
}

const scalarKinds = new Set(['string', 'bool', 'int32', 'int64', 'float64', 'Time', 'MicroTime', 'Quantity', 'IntOrString', 'Raw', 'bytes']);

/** A struct's field specs, `<Kind>List` and WatchEvent synthesized. */
export function specsOf(name: string): readonly FieldSpec[] | undefined {
  const specs = structs[name];
  if (specs !== undefined) return specs;
  if (name === 'WatchEvent') return [['type', 'string'], ['object', 'Raw']];
  if (name.endsWith('List') && structs[name.slice(0, -4)] !== undefined) {
    return [['...', 'TypeMeta'], ['metadata', 'ListMeta', 'o'], ['items', `[]${name.slice(0, -4)}`]];
  }
  return undefined;
}

const typeCache = new Map<string, TypeNode>();

export function typeOf(t: string): TypeNode {
  const cached = typeCache.get(t);
  if (cached !== undefined) return cached;
  let node: TypeNode;
  if (t.startsWith('*')) node = { kind: 'pointer', elem: typeOf(t.slice(1)) };
  else if (t.startsWith('[]')) node = { kind: 'list', elem: typeOf(t.slice(2)) };
  else if (t.startsWith('map[string]')) node = { kind: 'map', elem: typeOf(t.slice('map[string]'.length)) };
  else if (scalarKinds.has(t)) node = { kind: t } as TypeNode;
  else if (specsOf(t) !== undefined) node = { kind: 'struct', name: t };
  else throw new Error(`protobuf: unknown type ${t}`);
  typeCache.set(t, node);
  return node;
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
/** `discovery.EndpointPort` → `EndpointPort` (the Go type name a proto field is named after). */
const goName = (s: string): string => s.slice(s.lastIndexOf('.') + 1);

function numbersOf(name: string): Readonly<Record<string, number>> {
  const numbers = fieldNumbers[name];
  if (numbers !== undefined) return numbers;
  if (name.endsWith('List')) return { metadata: 1, items: 2 };
  if (name === 'WatchEvent') return { type: 1, object: 2 };
  throw new Error(`protobuf: no field numbers for ${name}`);
}

/**
 * The proto field of an embedded struct: named after its type (`localObjectReference`), or, where the
 * Go field's tag names it otherwise (Probe's `handler`), the one field no JSON name claims.
 */
function embeddedName(numbers: Readonly<Record<string, number>>, specs: readonly FieldSpec[], type: string): string {
  const byType = lowerFirst(goName(type));
  if (numbers[byType] !== undefined) return byType;
  const claimed = new Set(specs.map(([json]) => json));
  const left = Object.keys(numbers).filter((n) => !claimed.has(n));
  return left.length === 1 ? left[0]! : byType;
}

const planCache = new Map<string, Plan>();

export function planOf(name: string): Plan {
  const cached = planCache.get(name);
  if (cached !== undefined) return cached;
  const specs = specsOf(name);
  if (specs === undefined) throw new Error(`protobuf: unknown struct ${name}`);
  const numbers = numbersOf(name);
  const fields: PlanField[] = [];
  const out: OutField[] = [];
  for (const [json, type, omitempty] of specs) {
    if (json === '...') {
      out.push(...outFields(type));
      if (type === 'TypeMeta') continue;
      const protoName = embeddedName(numbers, specs, type);
      const number = numbers[protoName];
      if (number === undefined) throw new Error(`protobuf: ${name} has no field for embedded ${type}`);
      fields.push({ number, name: protoName, type: typeOf(type), inline: true });
      continue;
    }
    out.push({ json, type: typeOf(type), omitempty: omitempty === 'o' });
    const number = numbers[json];
    // A field with no number is not in the protobuf message (`protobuf:"-"`): it is not encoded.
    if (number !== undefined) fields.push({ number, name: json, type: typeOf(type), inline: false });
  }
  fields.sort((a, b) => a.number - b.number);
  const plan: Plan = { name, fields, byNumber: new Map(fields.map((f) => [f.number, f])), out };
  planCache.set(name, plan);
  return plan;
}

function outFields(name: string): readonly OutField[] {
  const result: OutField[] = [];
  for (const [json, type, omitempty] of specsOf(name) ?? []) {
    if (json === '...') result.push(...outFields(type));
    else result.push({ json, type: typeOf(type), omitempty: omitempty === 'o' });
  }
  return result;
}
