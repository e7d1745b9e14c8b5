// Property tests of the protobuf codec over random valid objects of every kind it knows, built from the
// schema tables (generic over structs), and over random, mutated and truncated bytes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeStruct } from '../decode.ts';
import { quantityString, parseQuantity } from '../quantity.ts';
import { structs, type FieldSpec } from '../schema-data.ts';
import { formatTimestamp } from '../time.ts';
import { pendingStructs } from './fixtures/pending-structs.ts';
import { decodeProtobuf, decodeWatchEvent, describeProtobuf, encodeProtobuf, encodeWatchEvent } from './index.ts';
import { kindVersions, listItemKind } from './kinds.ts';
import { specsOf } from './plan.ts';
import { base64FromBytes } from './wire.ts';

// Kinds other branches are adding: proven here on their Go structs until schema-data.ts has them.
for (const [name, specs] of Object.entries(pendingStructs)) {
  if (structs[name] === undefined) (structs as Record<string, readonly FieldSpec[]>)[name] = specs;
}

type Arb = fc.Arbitrary<unknown>;
const maxDepth = 5;

const quantities = ['0', '1', '100m', '1500m', '2', '64Mi', '1Gi', '128974848', '129e6', '1.5', '5Gi', '-3', '12k', '1e3'];
const quantity = fc.constantFrom(...quantities).map((q) => {
  const p = parseQuantity(q);
  return p.ok ? quantityString(p.value) : q;
});
const text = fc.string({ unit: 'binary', maxLength: 12 });
const seconds = fc.integer({ min: 0, max: 253402300799 });
const time = seconds.map((s) => formatTimestamp(s * 1000));
const microTime = fc.tuple(seconds, fc.integer({ min: 0, max: 999999 })).map(([s, us]) => `${formatTimestamp(s * 1000).slice(0, -1)}.${String(us).padStart(6, '0')}Z`);
const fieldKey = fc.string({ maxLength: 8 }).map((k) => `f:${k}`);
const fieldsV1: Arb = fc.dictionary(fieldKey, fc.dictionary(fieldKey, fc.dictionary(fieldKey, fc.constant({}), { maxKeys: 2 }), { maxKeys: 3 }), { maxKeys: 3 });

/** A value of Go type `t` in its JSON form; non-omitempty lists and maps are never empty (protobuf cannot tell `[]` from null). */
function valueArb(t: string, depth: number): Arb {
  if (t.startsWith('*')) return valueArb(t.slice(1), depth);
  if (t.startsWith('[]')) {
    return depth >= maxDepth ? fc.constant(null) : fc.option(fc.array(valueArb(t.slice(2), depth + 1), { minLength: 1, maxLength: 2 }), { nil: null });
  }
  if (t.startsWith('map[string]')) {
    // A map's []string value (ExtraValue) is never null: protobuf reads an empty one back as [] (as Go does).
    const elem = t.slice('map[string]'.length);
    const value = elem.startsWith('[]') ? fc.array(valueArb(elem.slice(2), depth + 1), { maxLength: 2 }) : valueArb(elem, depth + 1);
    return depth >= maxDepth ? fc.constant(null) : fc.option(fc.dictionary(text, value, { minKeys: 1, maxKeys: 3 }), { nil: null });
  }
  switch (t) {
    case 'string': return text;
    case 'bool': return fc.boolean();
    case 'int32': return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case 'int64': return fc.maxSafeInteger();
    case 'float64': return fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
    case 'Time': return time;
    case 'MicroTime': return microTime;
    case 'Quantity': return quantity;
    case 'IntOrString': return fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), text);
    case 'Raw': return fieldsV1;
    case 'bytes': return fc.uint8Array({ maxLength: 12 }).map((b) => base64FromBytes(b));
    default: return structArb(t, depth + 1);
  }
}

const structArbs = new Map<string, Arb>();

/** A struct with a random subset of its fields (TypeMeta left out: the envelope carries it). */
function structArb(name: string, depth: number): Arb {
  if (depth > maxDepth) return fc.constant({});
  const key = `${name}@${depth}`;
  const cached = structArbs.get(key);
  if (cached !== undefined) return cached;
  const record: Record<string, Arb> = {};
  const add = (specs: readonly FieldSpec[]): void => {
    for (const [json, type] of specs) {
      if (json === '...') { if (type !== 'TypeMeta') add(specsOf(type)!); } else record[json] = valueArb(type, depth);
    }
  };
  add(specsOf(name)!);
  const arb = fc.record(record, { requiredKeys: [] }) as Arb;
  structArbs.set(key, arb);
  return arb;
}

/** The canonical JSON form (what the JSON decoder makes of it): the model's shape of this object. */
function canonical(struct: string, value: unknown): Record<string, unknown> {
  const r = decodeStruct(struct, value);
  if (!r.ok) throw new Error(`${struct}: ${r.error}`);
  return r.value.object;
}

/** A random valid object of a kind, or of a list kind, in canonical form with its apiVersion and kind. */
function objectArb(kind: string): fc.Arbitrary<Record<string, unknown>> {
  const item = listItemKind(kind);
  if (item !== undefined) {
    return fc.tuple(structArb('ListMeta', 1), fc.array(structArb(item, 1), { maxLength: 2 })).map(([metadata, items]) => ({
      kind, apiVersion: kindVersions[item]!, metadata: canonical('ListMeta', metadata),
      items: items.length === 0 ? null : items.map((x) => canonical(item, x)),
    }));
  }
  const apiVersion = kindVersions[kind] ?? 'v1';
  return structArb(kind, 0).map((x) => canonical(kind, { ...(x as object), kind, apiVersion }));
}

const kinds = [...Object.keys(kindVersions), 'Status', 'DeleteOptions'];
const listKinds = Object.keys(kindVersions).filter((k) => listItemKind(`${k}List`) !== undefined).map((k) => `${k}List`);

describe('decode(encode(x)) == x for random valid objects', () => {
  for (const kind of [...kinds, ...listKinds]) {
    it(kind, () => {
      fc.assert(fc.property(objectArb(kind), (obj) => {
        const bytes = encodeProtobuf(obj);
        const back = decodeProtobuf(bytes);
        expect(back).toEqual({ ok: true, object: obj });
        // And the encoding is a function of the object: re-encoding gives the same bytes.
        if (back.ok) expect(base64FromBytes(encodeProtobuf(back.object))).toBe(base64FromBytes(bytes));
      }), { numRuns: kind === 'Pod' || kind === 'PodList' ? 60 : 25 });
    });
  }

  it('watch events', () => {
    fc.assert(fc.property(fc.constantFrom('ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK'), objectArb('ConfigMap'), (type, obj) => {
      expect(decodeWatchEvent(encodeWatchEvent(type, obj))).toEqual({ ok: true, object: { type, object: obj } });
    }), { numRuns: 25 });
  });
});

describe('bad bytes give a clean error, never a throw', () => {
  const samples = fc.sample(objectArb('Pod'), { numRuns: 5, seed: 16 }).map((p) => encodeProtobuf(p));

  it('random bytes, with and without the k8s\\0 magic', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (random, magic) => {
      const bytes = magic ? new Uint8Array([0x6b, 0x38, 0x73, 0, ...random]) : random;
      const r = decodeProtobuf(bytes);
      expect(typeof r.ok).toBe('boolean');
      if (!r.ok) expect(r.error.length).toBeGreaterThan(0);
      expect(Array.isArray(describeProtobuf(bytes))).toBe(true);
      expect(typeof decodeWatchEvent(random).ok).toBe('boolean');
    }), { numRuns: 2000 });
  });

  it('every truncation inside the envelope\'s typeMeta or raw is an unexpected EOF', () => {
    for (const bytes of samples) {
      const raw = describeProtobuf(bytes).find((f) => f.name === 'raw')!;
      for (let cut = 4; cut < raw.offset + raw.size; cut++) {
        if (cut === raw.offset) continue; // typeMeta whole, raw not begun: a valid (empty) object
        expect(decodeProtobuf(bytes.subarray(0, cut))).toEqual({ ok: false, error: cut === 4 ? 'empty body' : 'unexpected EOF' });
      }
    }
  });

  it('mutated encodings', () => {
    fc.assert(fc.property(fc.constantFrom(...samples), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (bytes, edits) => {
      const mutated = bytes.slice();
      for (const [at, b] of edits) mutated[at % mutated.length] = b;
      const r = decodeProtobuf(mutated);
      expect(typeof r.ok).toBe('boolean');
      expect(Array.isArray(describeProtobuf(mutated))).toBe(true);
    }), { numRuns: 2000 });
  });

  it('deeply nested groups and long lengths', () => {
    const groups = new Uint8Array([0x6b, 0x38, 0x73, 0, ...new Array<number>(100_000).fill(0x2b)]); // field 5, start group, nested
    expect(decodeProtobuf(groups)).toEqual({ ok: false, error: 'proto: unexpected end of group' });
    const huge = new Uint8Array([0x6b, 0x38, 0x73, 0, 0x12, 0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(decodeProtobuf(huge)).toEqual({ ok: false, error: 'unexpected EOF' });
  });
});
