// The codec's tables against the Go structs: every field of every struct reachable from a kind the codec
// knows has a protobuf field number (none is silently left out of the encoding), and the structs the
// other branches add to schema-data.ts agree with k8s.io/api's types.go (as transcribed in
// fixtures/pending-structs.ts).

import { describe, expect, it } from 'vitest';
import { structs, type FieldSpec } from '../schema-data.ts';
import { fieldNumbers } from './field-numbers.ts';
import { pendingStructs } from './fixtures/pending-structs.ts';
import { hasProtobufKind, kindVersions } from './kinds.ts';
import { planOf, specsOf } from './plan.ts';

const landed = Object.keys(pendingStructs).filter((name) => structs[name] !== undefined);
for (const [name, specs] of Object.entries(pendingStructs)) {
  if (structs[name] === undefined) (structs as Record<string, readonly FieldSpec[]>)[name] = specs;
}

/** Struct names reachable from a root struct. */
function reachable(root: string, seen = new Set<string>()): Set<string> {
  if (seen.has(root)) return seen;
  seen.add(root);
  for (const [, type] of specsOf(root) ?? []) {
    const base = type.replace(/^(\*|\[\]|map\[string\])+/, '');
    if (specsOf(base) !== undefined) reachable(base, seen);
  }
  return seen;
}

describe('field numbers', () => {
  const roots = [...Object.keys(kindVersions), 'Status', 'DeleteOptions'];
  const all = new Set<string>();
  for (const root of roots) for (const s of reachable(root)) all.add(s);
  all.delete('TypeMeta');

  it('cover every field of every struct reachable from the kinds', () => {
    const missing: string[] = [];
    for (const name of [...all].sort()) {
      const plan = planOf(name);
      const numbered = new Set(plan.fields.map((f) => f.name));
      for (const [json, type] of specsOf(name)!) {
        if (json === '...') continue;
        if (!numbered.has(json)) missing.push(`${name}.${json} (${type})`);
      }
    }
    expect(missing).toEqual([]);
    expect(all.size).toBeGreaterThan(150);
  });

  it('are upstream\'s for a sample of well-known fields', () => {
    expect(fieldNumbers.ObjectMeta).toMatchObject({ name: 1, namespace: 3, uid: 5, resourceVersion: 6, creationTimestamp: 8, labels: 11, managedFields: 17 });
    expect(fieldNumbers.PodSpec).toMatchObject({ volumes: 1, containers: 2, restartPolicy: 3, nodeName: 10, schedulerName: 19, tolerations: 22 });
    expect(fieldNumbers['discovery.EndpointPort']).toEqual({ name: 1, protocol: 2, port: 3, appProtocol: 4 });
    expect(fieldNumbers.EndpointPort).toMatchObject({ name: 1, port: 2, protocol: 3 });
    expect(fieldNumbers.Unknown).toEqual({ typeMeta: 1, raw: 2, contentEncoding: 3, contentType: 4 });
  });

  it('every kind and its list resolve to a plan', () => {
    for (const kind of Object.keys(kindVersions)) {
      expect(hasProtobufKind(kind)).toBe(true);
      expect(planOf(kind).fields.length).toBeGreaterThan(0);
    }
    expect(planOf('PodList').fields.map((f) => [f.name, f.number])).toEqual([['metadata', 1], ['items', 2]]);
    expect(hasProtobufKind('BindingList')).toBe(false);
  });
});

describe("the new kinds' structs in schema-data.ts", () => {
  it.skipIf(landed.length === 0)(`agree with k8s.io/api's types.go (${landed.join(', ') || 'none landed yet'})`, () => {
    // JSON name, Go type and omitempty (patch strategies are schema-data.ts's own business).
    const shape = (specs: readonly FieldSpec[]): string[] => specs.map(([json, type, omitempty]) => `${json} ${type}${omitempty === 'o' ? ',omitempty' : ''}`);
    for (const name of landed) expect([name, shape(structs[name]!)]).toEqual([name, shape(pendingStructs[name]!)]);
  });
});
