// recordWrite keeps a manager's FieldsV1 as it is, without parsing and writing it again, when the JSON
// is canonical (isCanonicalFieldsV1) and the write neither takes from it (subtractChanges) nor adds to it
// (unionChanges). For random FieldsV1 JSON (canonical or not: keys in any order, `.` anywhere, non-object
// values, empty nodes) and random changes, each "unchanged" answer must be what the parse, the set
// operation and toFieldsV1 give, as JSON text.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyJson } from '../../api/json-copy.ts';
import { deepFreeze } from '../storage/codec.ts';
import {
  fromFieldsV1, isCanonicalFieldsV1, subtract, subtractChanges, toFieldsV1, union, unionChanges, type FieldSetNode,
} from './field-set.ts';

const key = fc.constantFrom('f:a', 'f:b', 'f:c', 'k:{"name":"x"}', 'v:"y"', '.');
const { node } = fc.letrec((tie) => ({
  node: fc.oneof({ maxDepth: 4, depthSize: 'small' }, fc.constant({}), tie('map'), fc.constantFrom(null, 1, 'x')),
  map: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
}));

/** A FieldsV1 as toFieldsV1 writes it (sorted, `.` first beside children) from random JSON, so the canonical case is common. */
function canonicalOf(json: unknown): Record<string, unknown> {
  const set = fromFieldsV1(json);
  set.member = false;
  return toFieldsV1(set);
}

const fieldsV1 = fc.oneof(node, node.map(canonicalOf));

/** A change: a field set as changedFields makes them (the root not a member). */
const change = node.map((json): FieldSetNode => {
  const set = fromFieldsV1(json);
  set.member = false;
  return set;
});

const text = (v: unknown) => JSON.stringify(v);

describe('FieldsV1 kept as it is', () => {
  it('canonical JSON is what parsing and writing it gives; a write that takes nothing from it leaves it so', () => {
    fc.assert(fc.property(fieldsV1, change, (raw, remove) => {
      const json = deepFreeze(copyJson(raw)) as unknown;
      if (!isCanonicalFieldsV1(json)) return;
      const set = fromFieldsV1(json);
      set.member = false;
      expect(text(toFieldsV1(set))).toBe(text(json));
      if (subtractChanges(json, remove)) return;
      expect(subtract(set, remove)).toBe(true);
      expect(text(toFieldsV1(set))).toBe(text(json));
    }), { numRuns: 3000 });
  });

  it('a write that adds nothing to its writer\'s canonical FieldsV1 leaves it so', () => {
    fc.assert(fc.property(fieldsV1, change, (raw, add) => {
      const json = deepFreeze(copyJson(raw)) as unknown;
      if (!isCanonicalFieldsV1(json) || unionChanges(json, add)) return;
      const set = fromFieldsV1(json);
      set.member = false;
      union(set, add);
      set.member = false;
      expect(text(toFieldsV1(set))).toBe(text(json));
    }), { numRuns: 3000 });
  });

  it('answers "unchanged" often enough to matter, and never for JSON that is not frozen, empty or out of order', () => {
    const json = deepFreeze({ 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } });
    expect(isCanonicalFieldsV1(json)).toBe(true);
    const replicas = fromFieldsV1({ 'f:spec': { 'f:replicas': {} } });
    replicas.member = false;
    const selector = fromFieldsV1({ 'f:spec': { 'f:selector': {} } });
    selector.member = false;
    expect(subtractChanges(json, replicas)).toBe(true);
    expect(subtractChanges(json, selector)).toBe(false);
    expect(unionChanges(json, replicas)).toBe(false);
    expect(unionChanges(json, selector)).toBe(true);
    expect(isCanonicalFieldsV1({ 'f:spec': {} })).toBe(false);
    expect(isCanonicalFieldsV1(deepFreeze({}))).toBe(false);
    expect(isCanonicalFieldsV1(deepFreeze({ 'f:spec': {}, 'f:metadata': {} }))).toBe(false);
    expect(isCanonicalFieldsV1(deepFreeze({ 'f:a': { 'f:b': {}, '.': {} } }))).toBe(false);
    expect(isCanonicalFieldsV1(deepFreeze({ 'f:a': { '.': {} } }))).toBe(false);
  });
});
