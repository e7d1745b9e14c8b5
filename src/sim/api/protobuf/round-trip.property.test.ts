// encodeProtobufReadBack(x) is exactly encodeProtobuf(x) (the bytes) and decodeProtobuf(encodeProtobuf(x))
// (the read-back), key order included, for random objects of every kind the codec knows in the shapes a writer hands the storage — not only canonical
// ones: fields missing, null or zero, empty lists and maps, timestamps with fractions and offsets, the
// zero time, quantities in any notation, int-or-string either way, unknown fields, keys in any order,
// strings with lone surrogates.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { structs, type FieldSpec } from '../schema-data.ts';
import { formatTimestamp } from '../time.ts';
import type { KubeObject } from '../types/meta.ts';
import { pendingStructs } from './fixtures/pending-structs.ts';
import { decodeProtobuf, encodeProtobuf } from './index.ts';
import { kindVersions, listItemKind } from './kinds.ts';
import { specsOf } from './plan.ts';
import { encodeProtobufReadBack } from './round-trip.ts';

/** The read-back of `obj`, its bytes checked to be encodeProtobuf's. */
function protobufRoundTrip(obj: KubeObject): KubeObject | undefined {
  const { bytes, readBack } = encodeProtobufReadBack(obj);
  expect(bytes).toEqual(encodeProtobuf(obj));
  return readBack;
}
import { base64FromBytes } from './wire.ts';

for (const [name, specs] of Object.entries(pendingStructs)) {
  if (structs[name] === undefined) (structs as Record<string, readonly FieldSpec[]>)[name] = specs;
}

type Arb = fc.Arbitrary<unknown>;
const maxDepth = 4;

const loneSurrogate = fc.constantFrom('\ud800', 'a\udfffb', '\udc00\ud800');
const text = fc.oneof({ weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) }, { weight: 1, arbitrary: loneSurrogate });
const key = fc.string({ unit: 'binary', maxLength: 6 });
const seconds = fc.integer({ min: 0, max: 253402300799 });
const fraction = fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 999999999 }).map((n) => `.${String(n).padStart(9, '0').slice(0, 1 + (n % 9))}`));
const offset = fc.constantFrom('Z', '+08:00', '-05:30', '+00:00');
/** RFC 3339 timestamps as writers set them: whole seconds or fractions, UTC or an offset, the zero time. */
const time = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(seconds, fraction, offset).map(([s, f, z]) => `${formatTimestamp(s * 1000).slice(0, -1)}${f}${z}`) },
  { weight: 1, arbitrary: fc.constant('0001-01-01T00:00:00Z') },
);
const quantity = fc.oneof(
  fc.constantFrom('0', '1', '100m', '1000m', '1500m', '0.5', '2', '64Mi', '1Gi', '1024Mi', '128974848', '129e6', '1.5', '5Gi', '-3', '12k', '1e3', '0.1Ki', '1Ei', '500u', '2n'),
  fc.integer({ min: 0, max: 1e9 }),
);
const fieldsV1: Arb = fc.dictionary(key.map((k) => `f:${k}`), fc.dictionary(key.map((k) => `k:${k}`), fc.constant({}), { maxKeys: 2 }), { maxKeys: 3 });
const jsonValue: Arb = fc.jsonValue({ maxDepth: 2 });

/** A value of Go type `t` as a writer may hold it: often unset-like (null, zero, empty). */
function valueArb(t: string, depth: number): Arb {
  if (t.startsWith('*')) return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: valueArb(t.slice(1), depth) });
  if (t.startsWith('[]')) {
    if (depth >= maxDepth) return fc.constantFrom(null, []);
    return fc.oneof(fc.constantFrom(null, []), fc.array(valueArb(t.slice(2), depth + 1), { minLength: 1, maxLength: 3 }));
  }
  if (t.startsWith('map[string]')) {
    if (depth >= maxDepth) return fc.constantFrom(null, {});
    const elem = t.slice('map[string]'.length);
    return fc.oneof(fc.constantFrom(null, {}), fc.dictionary(key, valueArb(elem, depth + 1), { minKeys: 1, maxKeys: 3 }));
  }
  switch (t) {
    case 'string': return fc.oneof(text, fc.constantFrom('', null));
    case 'bool': return fc.constantFrom(true, false, null);
    case 'int32': return fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -0, null));
    case 'int64': return fc.oneof(fc.maxSafeInteger(), fc.constantFrom(0, -0, null));
    case 'float64': return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, null));
    case 'Time': case 'MicroTime': return fc.oneof({ weight: 4, arbitrary: time }, { weight: 1, arbitrary: fc.constant(null) });
    case 'Quantity': return fc.oneof({ weight: 4, arbitrary: quantity }, { weight: 1, arbitrary: fc.constant(null) });
    case 'IntOrString': return fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), text, fc.constantFrom(null, 0, ''));
    case 'Raw': return fc.oneof({ weight: 4, arbitrary: fieldsV1 }, { weight: 1, arbitrary: fc.constantFrom(null, {}) });
    case 'bytes': return fc.oneof(fc.uint8Array({ maxLength: 8 }).map((b) => base64FromBytes(b)), fc.constantFrom(null, ''));
    default: return structArb(t, depth + 1);
  }
}

const structArbs = new Map<string, Arb>();

/** A struct with a random subset of its fields (any of them null or zero), unknown fields, keys shuffled. */
function structArb(name: string, depth: number): Arb {
  if (depth > maxDepth) return fc.constantFrom({}, null);
  const cacheKey = `${name}@${depth}`;
  const cached = structArbs.get(cacheKey);
  if (cached !== undefined) return cached;
  const record: Record<string, Arb> = {};
  const add = (specs: readonly FieldSpec[]): void => {
    for (const [json, type] of specs) {
      if (json === '...') { if (type !== 'TypeMeta') add(specsOf(type)!); } else record[json] = valueArb(type, depth);
    }
  };
  add(specsOf(name)!);
  const unknown = fc.dictionary(fc.constantFrom('unknownField', 'x-extra', 'Spec'), jsonValue, { maxKeys: 2 });
  const arb = fc.tuple(fc.record(record, { requiredKeys: [] }), unknown, fc.integer())
    .map(([known, extra, seed]) => shuffled({ ...(known as object), ...extra }, seed));
  structArbs.set(cacheKey, arb);
  return arb;
}

/** The object with its keys in an order picked by `seed`. */
function shuffled(obj: Record<string, unknown>, seed: number): Record<string, unknown> {
  const keys = Object.keys(obj);
  let s = seed >>> 0;
  for (let i = keys.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = obj[k];
  return out;
}

function objectArb(kind: string): fc.Arbitrary<KubeObject> {
  const apiVersion = kindVersions[listItemKind(kind) ?? kind] ?? 'v1';
  return structArb(kind, 0).map((x) => shuffled({ ...(x as object), kind, apiVersion }, kind.length) as unknown as KubeObject);
}

/** The round trip equals the decode, as data (toEqual: -0, undefined) and as JSON text (key order). */
function expectSameAsDecode(obj: KubeObject): void {
  const decoded = decodeProtobuf(encodeProtobuf(obj));
  const mirrored = protobufRoundTrip(obj);
  if (!decoded.ok) {
    expect(mirrored).toBeUndefined();
    return;
  }
  expect(mirrored).toEqual(decoded.object);
  expect(JSON.stringify(mirrored)).toBe(JSON.stringify(decoded.object));
}

describe('encodeProtobufReadBack(x) == encode(x) and decode(encode(x))', () => {
  for (const kind of Object.keys(kindVersions)) {
    it(kind, () => {
      fc.assert(fc.property(objectArb(kind), expectSameAsDecode), { numRuns: kind === 'Pod' ? 150 : 40 });
    });
  }

  it('lists, Status and DeleteOptions (never stored, but the codec has them)', () => {
    const others = ['Status', 'DeleteOptions', ...Object.keys(kindVersions).map((k) => `${k}List`).filter((k) => listItemKind(k) !== undefined)];
    for (const kind of others) fc.assert(fc.property(objectArb(kind), expectSameAsDecode), { numRuns: 8 });
  });

  it('shares nothing with its input', () => {
    fc.assert(fc.property(objectArb('Pod'), (pod) => {
      const before = JSON.stringify(pod);
      const mirrored = protobufRoundTrip(pod);
      if (mirrored === undefined) return;
      const inputs = new Set<unknown>();
      const collect = (v: unknown): void => {
        if (typeof v !== 'object' || v === null || inputs.has(v)) return;
        inputs.add(v);
        for (const x of Object.values(v)) collect(x);
      };
      collect(pod);
      const walk = (v: unknown): void => {
        if (typeof v !== 'object' || v === null) return;
        expect(inputs.has(v)).toBe(false);
        for (const x of Object.values(v)) walk(x);
      };
      walk(mirrored);
      expect(JSON.stringify(pod)).toBe(before);
    }), { numRuns: 40 });
  });
});

describe('what it does not mirror, it leaves to the decoder', () => {
  const pod = (metadata: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject =>
    ({ kind: 'Pod', apiVersion: 'v1', metadata, spec } as unknown as KubeObject);

  it('a quantity that does not read back: the decode fails, and there is no round trip', () => {
    const obj = pod({ name: 'p' }, { overhead: { cpu: 'lots' } });
    expect(decodeProtobuf(encodeProtobuf(obj)).ok).toBe(false);
    expect(protobufRoundTrip(obj)).toBeUndefined();
  });

  it('a map key with a lone surrogate, an int64 beyond 2^53, a kind not registered for its apiVersion', () => {
    expect(protobufRoundTrip(pod({ name: 'p', labels: { 'a\ud800': 'x' } }))).toBeUndefined();
    expect(protobufRoundTrip(pod({ name: 'p', generation: 2 ** 60 }))).toBeUndefined();
    expect(protobufRoundTrip({ ...pod({ name: 'p' }), apiVersion: 'apps/v1' })).toBeUndefined();
  });

  it('the shapes kube-apiserver normalizes on the way to etcd', () => {
    const obj = pod(
      { name: 'p', labels: {}, annotations: null, creationTimestamp: '2024-05-01T10:00:00.750+02:00', finalizers: [], generation: -0 },
      { containers: [{ name: 'c', image: 'nginx', resources: {}, ports: [{ containerPort: 80 }] }], nodeSelector: {}, overhead: { cpu: '1000m' }, unknownField: 1 },
    );
    expectSameAsDecode(obj);
    expect(protobufRoundTrip(obj)).toMatchObject({ metadata: { name: 'p', creationTimestamp: '2024-05-01T08:00:00Z' }, spec: { overhead: { cpu: '1' } } });
  });
});
