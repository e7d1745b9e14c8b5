import { describe, expect, it } from 'vitest';
import { ManifestError, parseManifest } from './manifest.ts';

describe('parseManifest', () => {
  it('reads every document of a multi-document manifest', () => {
    const objects = parseManifest(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
---
apiVersion: v1
kind: Service
metadata:
  name: nginx
  namespace: web
---
`);
    expect(objects.map((o) => [o.kind, o.name, o.namespace])).toEqual([
      ['Deployment', 'nginx-deployment', null],
      ['Service', 'nginx', 'web'],
    ]);
    expect(objects[0]?.object).toMatchObject({ apiVersion: 'apps/v1', metadata: { name: 'nginx-deployment' } });
  });

  it.each([
    ['kind: [', /document 1: /],
    ['- a\n- b', /document 1: expected a mapping/],
    ['kind: Pod\nmetadata: {name: x}', /document 1: apiVersion not set/],
    ['apiVersion: v1\nmetadata: {name: x}', /document 1: kind not set/],
    ['apiVersion: v1\nkind: Pod', /document 1: Pod has no metadata.name/],
    ['', /no objects in the manifest/],
  ])('rejects %j', (text, message) => {
    expect(() => parseManifest(text)).toThrow(ManifestError);
    expect(() => parseManifest(text)).toThrow(message);
  });
});
