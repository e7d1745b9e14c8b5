// The generator, proven on excerpts of the upstream sources it reads (scripts/fixtures/schema-excerpt:
// whole type declarations cut verbatim from k8s.io/api and k8s.io/apimachinery v0.28.15, with each
// file's license and imports): what it produces from them is what schema-data.ts holds. With
// PODFLOW_K8S_SOURCES=<dir holding api/ and apimachinery/ checkouts of v0.28.15>, the whole file is
// regenerated and compared; without it that case reports itself skipped.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { structs } from '../src/sim/api/schema-data.ts';
import { generate, readSources, render } from './gen-schema-data.ts';

const excerpt = (file: string): string => readFileSync(join(import.meta.dirname, 'fixtures', 'schema-excerpt', file), 'utf8');
const sources = new Map([
  ['meta', [excerpt('meta-v1-types.go')]],
  ['types', [excerpt('types-uid.go')]],
  ['core', [excerpt('core-v1-types.go')]],
  ['apps', [excerpt('apps-v1-types.go')]],
  ['batch', [excerpt('batch-v1-types.go')]],
  ['discovery', [excerpt('discovery-v1-types.go')]],
]);
const roots = [
  ['meta', ['DeleteOptions']],
  ['core', ['Secret', 'SecretKeySelector']],
  ['apps', ['StatefulSetOrdinals']],
  ['batch', ['PodFailurePolicyOnExitCodesRequirement']],
  ['discovery', ['EndpointSlice']],
] as const;

describe('scripts/gen-schema-data.ts', () => {
  const generated = generate(sources, roots);

  it('walks every struct reachable from the roots, and only those', () => {
    expect([...generated.keys()]).toEqual(['DeleteOptions', 'Endpoint', 'EndpointConditions', 'EndpointHints',
      'EndpointSlice', 'ForZone', 'LocalObjectReference', 'ManagedFieldsEntry', 'ObjectMeta', 'ObjectReference',
      'OwnerReference', 'PodFailurePolicyOnExitCodesRequirement', 'Preconditions', 'Secret', 'SecretKeySelector',
      'StatefulSetOrdinals', 'TypeMeta', 'discovery.EndpointPort']);
  });

  it('produces from the excerpts exactly what schema-data.ts holds for those structs', () => {
    for (const [name, fields] of generated) expect([name, fields]).toEqual([name, structs[name]]);
  });

  it('resolves named types, qualifies a name an earlier package has, and keeps inline, omitempty and patch tags', () => {
    expect(generated.get('Secret')).toContainEqual(['data', 'map[string]bytes', 'o']);
    expect(generated.get('Secret')![0]).toEqual(['...', 'TypeMeta']);
    expect(generated.get('SecretKeySelector')![0]).toEqual(['...', 'LocalObjectReference']);
    expect(generated.get('ObjectMeta')).toContainEqual(['finalizers', '[]string', 'o', 'merge', '']);
    expect(generated.get('ObjectMeta')).toContainEqual(['ownerReferences', '[]OwnerReference', 'o', 'merge', 'uid']);
    expect(generated.get('Preconditions')).toEqual([['uid', '*string', 'o'], ['resourceVersion', '*string', 'o']]);
    expect(generated.get('EndpointSlice')).toContainEqual(['ports', '[]discovery.EndpointPort']);
    expect(generated.get('StatefulSetOrdinals')).toEqual([['start', 'int32']]);
  });

  it('renders the same text twice', () => {
    expect(render(generate(sources, roots))).toBe(render(generated));
  });

  const upstream = process.env['PODFLOW_K8S_SOURCES'];
  it.skipIf(upstream === undefined || !existsSync(join(upstream, 'api')))(
    'regenerates schema-data.ts byte for byte from the upstream checkouts', () => {
      const text = render(generate(readSources(join(upstream!, 'api'), join(upstream!, 'apimachinery'))));
      expect(text).toBe(readFileSync(join(import.meta.dirname, '..', 'src', 'sim', 'api', 'schema-data.ts'), 'utf8'));
    });
});
