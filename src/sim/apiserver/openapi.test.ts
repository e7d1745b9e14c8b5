import { describe, expect, test } from 'vitest';
import { servedGroups } from '../api/resources.ts';
import { openAPIDocument, openAPIIndex, serveOpenAPI } from './openapi.ts';

interface Operation {
  readonly parameters: ReadonlyArray<{ name: string; in: string }>;
  readonly requestBody?: { content: Record<string, unknown> };
  readonly 'x-kubernetes-group-version-kind': { group: string; version: string; kind: string };
}

describe('openapi v3', () => {
  test('the index lists every served group-version (kubectl gives up on validation when one is missing)', () => {
    const keys = Object.keys(openAPIIndex().paths);
    const served = servedGroups.flatMap(({ group, versions }) => versions.map((v) => (group === '' ? `api/${v}` : `apis/${group}/${v}`)));
    expect(keys.sort()).toEqual(served.sort());
    for (const key of keys) expect(openAPIIndex().paths[key]!.serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${key.replace(/\./g, '\\.')}\\?hash=[0-9A-F]{8}$`));
  });

  test('the PATCH of each kind names its GVK, takes fieldValidation and the four patch types', () => {
    const doc = openAPIDocument('apps', 'v1') as { paths: Record<string, { patch?: Operation }> };
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!.patch!;
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(patch.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(expect.arrayContaining(['fieldValidation', 'fieldManager', 'force']));
    expect(Object.keys(patch.requestBody!.content).sort()).toEqual(['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
    const scale = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']!.patch!;
    expect(scale['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    const core = openAPIDocument('', 'v1') as { paths: Record<string, unknown> };
    expect(Object.keys(core.paths)).toContain('/api/v1/nodes/{name}');
  });

  test('documents are served by path; unknown group-versions are not', () => {
    expect(serveOpenAPI('/openapi/v3/apis/apps/v1')?.status).toBe(200);
    expect(serveOpenAPI('/openapi/v3/apis/batch/v1')?.status).toBe(200);
    expect(serveOpenAPI('/openapi/v3/apis/storage.k8s.io/v1')).toBeNull();
    expect(serveOpenAPI('/openapi/v2')?.status).toBe(200);
    expect(serveOpenAPI('/openapi/v2', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf')?.status).toBe(406);
  });

  test('component schemas: every served kind with its GVK, descriptions, required fields and patch strategies', () => {
    type S = { description?: string; required?: string[]; properties?: Record<string, Record<string, unknown>>; 'x-kubernetes-group-version-kind'?: unknown };
    for (const { group, versions } of servedGroups) {
      for (const version of versions) {
        const schemas = (openAPIDocument(group, version) as { components: { schemas: Record<string, S> } }).components.schemas;
        // Every reference resolves inside the document.
        const refs = JSON.stringify(schemas).match(/#\/components\/schemas\/[^"]+/g) ?? [];
        for (const ref of refs) expect(schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
        const kinds = Object.values(schemas).filter((s) => s['x-kubernetes-group-version-kind'] !== undefined);
        expect(kinds.length).toBeGreaterThan(0);
        for (const k of kinds) expect(k.description, JSON.stringify(k['x-kubernetes-group-version-kind'])).toBeTruthy();
      }
    }
    const core = (openAPIDocument('', 'v1') as { components: { schemas: Record<string, S> } }).components.schemas;
    expect(core['io.k8s.api.core.v1.Pod']!['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(core['io.k8s.api.core.v1.PodSpec']!.required).toEqual(['containers']);
    expect(core['io.k8s.api.core.v1.Container']!.required).toEqual(['name']);
    expect(core['io.k8s.api.core.v1.PodSpec']!.properties!.containers).toMatchObject({
      type: 'array', items: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Container' }] },
      'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name',
    });
    expect(core['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!.properties!.creationTimestamp).toMatchObject({ allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' }] });
    const rbac = (openAPIDocument('rbac.authorization.k8s.io', 'v1') as { components: { schemas: Record<string, S> } }).components.schemas;
    expect(Object.keys(rbac)).toContain('io.k8s.api.rbac.v1.ClusterRoleBinding');
    const v2 = serveOpenAPI('/openapi/v2')!.body as { swagger: string; definitions: Record<string, S> };
    expect(v2.swagger).toBe('2.0');
    expect(v2.definitions['io.k8s.api.apps.v1.Deployment']!.properties!.metadata).toMatchObject({ allOf: [{ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] });
  });
});
