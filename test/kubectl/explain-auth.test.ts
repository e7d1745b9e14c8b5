// Real kubectl against the Podflow apiserver for explain (from the served OpenAPI v3 schemas, compared
// line for line with the console's explain on the same documents), /openapi/v2, and the access and
// identity reviews (`auth can-i`, `auth can-i --list`, `auth whoami`, and the reviews posted as JSON), and
// componentstatuses (`get cs`).
// kubectl 1.32 posts its reviews in protobuf (its typed clientset), so the `auth` commands need the
// server's protobuf request decoding (helper "wire"); the JSON posts below do not.
// Skipped, with a message, when kubectl is not installed.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openAPIDocument } from '../../src/sim/apiserver/openapi.ts';
import { findResource } from '../../src/sim/api/resources.ts';
import { rulesTable } from '../../src/worker/console/auth.ts';
import { explainText } from '../../src/worker/console/explain.ts';
import { findKubectl, startKubectlEnv, type KubectlEnv, type KubectlResult } from './harness.ts';

const kubectl = findKubectl();
if (!kubectl) console.warn('test/kubectl: kubectl is not on PATH; the explain/auth suite is SKIPPED');

let env: KubectlEnv;
const k = (...args: string[]): Promise<KubectlResult> => env.run(args);

/** What the console prints for `kubectl explain <path>`, from the same document the server serves. */
function consoleExplain(path: string, recursive = false): { out: string; err?: string } {
  const [resource, ...fields] = path.split('.');
  const r = findResource(resource!)!;
  return explainText(openAPIDocument(r.group, r.version)!, { group: r.group, version: r.version, kind: r.kind }, fields, recursive);
}

describe.skipIf(!kubectl)('real kubectl: explain, /openapi/v2 and the reviews', () => {
  beforeAll(async () => {
    env = await startKubectlEnv(kubectl!);
  });
  afterAll(async () => {
    await env?.close();
  });

  test('explain prints what the console prints, for kinds, fields, maps, lists and --recursive', async () => {
    for (const path of ['pods', 'pods.spec', 'pods.spec.containers', 'pods.metadata.labels', 'deploy.spec.strategy', 'rs.spec.template.spec.containers.ports', 'cm', 'clusterrolebindings.subjects', 'leases.spec', 'selfsubjectaccessreviews.status']) {
      const real = await k('explain', path);
      expect(real.stderr, path).toBe('');
      expect(real.code, path).toBe(0);
      expect(real.stdout, path).toBe(consoleExplain(path).out);
    }
    const recursive = await k('explain', 'deploy.spec', '--recursive');
    expect(recursive.stdout).toBe(consoleExplain('deploy.spec', true).out);
    expect(recursive.stdout).toContain('\n  template\t<PodTemplateSpec> -required-\n    metadata\t<ObjectMeta>\n');
  });

  test('explain of an unknown field or resource fails as the console says', async () => {
    const field = await k('explain', 'pods.spec.nope');
    expect(field.code).toBe(1);
    expect(field.stderr).toBe(consoleExplain('pods.spec.nope').err);
    expect(field.stdout).toBe(consoleExplain('pods.spec.nope').out);
    const resource = await k('explain', 'widgets');
    expect(resource.code).toBe(1);
    expect(resource.stderr).toBe('the server doesn\'t have a resource type "widgets"\n');
  });

  test('get componentstatuses: the probed components as a Table, the deprecation warning on stderr; explain cs as the console', async () => {
    const cs = await k('get', 'cs');
    expect(cs.code).toBe(0);
    expect(cs.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    expect(cs.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['NAME', 'STATUS', 'MESSAGE', 'ERROR'], ['scheduler', 'Healthy', 'ok'], ['controller-manager', 'Healthy', 'ok'], ['etcd-0', 'Healthy', 'ok'],
    ]);
    const one = JSON.parse((await k('get', 'componentstatus', 'etcd-0', '-o', 'json')).stdout) as { conditions: unknown };
    expect(one.conditions).toEqual([{ type: 'Healthy', status: 'True', message: 'ok' }]);
    const missing = await k('get', 'cs', 'etcd-9');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error from server: Component not found: etcd-9\n');
    expect((await k('explain', 'cs')).stdout).toBe(consoleExplain('cs').out);
  });

  test('/openapi/v2 is a Swagger 2.0 document with every served kind', async () => {
    const v2 = await k('get', '--raw', '/openapi/v2');
    expect(v2.code).toBe(0);
    const doc = JSON.parse(v2.stdout) as { swagger: string; definitions: Record<string, { 'x-kubernetes-group-version-kind'?: { kind: string }[] }> };
    expect(doc.swagger).toBe('2.0');
    const kinds = Object.values(doc.definitions).flatMap((d) => d['x-kubernetes-group-version-kind'] ?? []).map((g) => g.kind);
    expect(kinds).toEqual(expect.arrayContaining(['Pod', 'Deployment', 'ReplicaSet', 'ConfigMap', 'Namespace', 'Node', 'ClusterRole', 'Lease', 'SelfSubjectAccessReview']));
  });

  test('reviews posted as JSON: a SelfSubjectAccessReview, a SubjectAccessReview for alice, a SelfSubjectReview', async () => {
    const file = (name: string, body: object): string => {
      const path = join(env.dir, name);
      writeFileSync(path, JSON.stringify(body));
      return path;
    };
    const ssar = await k('create', '--raw', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', '-f',
      file('ssar.json', { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } } }));
    expect(ssar.code).toBe(0);
    expect(JSON.parse(ssar.stdout)).toMatchObject({ kind: 'SelfSubjectAccessReview', metadata: { creationTimestamp: null }, status: { allowed: true } });
    const sar = await k('create', '--raw', '/apis/authorization.k8s.io/v1/subjectaccessreviews', '-f',
      file('sar.json', { kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: { user: 'alice', resourceAttributes: { namespace: 'default', verb: 'delete', resource: 'pods' } } }));
    expect(JSON.parse(sar.stdout)).toMatchObject({ spec: { user: 'alice' }, status: { allowed: false } });
    const whoami = await k('create', '--raw', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '-f', file('ssr.json', { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' }));
    expect(JSON.parse(whoami.stdout)).toMatchObject({ status: { userInfo: { username: expect.any(String) } } });
    const rules = await k('create', '--raw', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', '-f', file('ssrr.json', { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', spec: { namespace: 'default' } }));
    expect(JSON.parse(rules.stdout)).toMatchObject({ status: { incomplete: false, resourceRules: expect.arrayContaining([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]) } });
  });

  test('auth can-i answers yes or no with its exit code; --list and whoami print kubectl\'s tables', async () => {
    expect(await k('auth', 'can-i', 'create', 'pods')).toEqual({ stdout: 'yes\n', stderr: '', code: 0 });
    expect(await k('auth', 'can-i', 'create', 'pods', '--as', 'alice')).toMatchObject({ code: 1 });
    expect(await k('auth', 'can-i', 'get', 'nodes')).toEqual({ stdout: 'yes\n', stderr: 'Warning: resource \'nodes\' is not namespace scoped\n\n', code: 0 });
    const listed = await k('auth', 'can-i', '--list');
    const list = listed.stdout.split('\n');
    expect(list[0]).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    expect(list[1]).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/);
    // The console's table from the same rules review is what kubectl prints.
    const path = join(env.dir, 'rules.json');
    writeFileSync(path, JSON.stringify({ kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', spec: { namespace: 'default' } }));
    const status = (JSON.parse((await k('create', '--raw', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', '-f', path)).stdout) as { status: { resourceRules: never[]; nonResourceRules: never[] } }).status;
    expect(listed.stdout).toBe(rulesTable([...status.resourceRules, ...status.nonResourceRules], true));
    const whoami = await k('auth', 'whoami');
    expect(whoami.stdout).toMatch(/^ATTRIBUTE\s+VALUE\nUsername\s+\S+\nGroups\s+\[.*system:authenticated\]\n$/);
  });
});
