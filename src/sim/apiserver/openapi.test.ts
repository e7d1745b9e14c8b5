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
    expect(serveOpenAPI('/openapi/v3/apis/batch/v1')).toBeNull();
    expect(serveOpenAPI('/openapi/v2')).toBeNull();
  });
});
