import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from './decode.ts';
import { setReplicaSetDefaults } from './defaults.ts';
import { parseManifest } from './manifest.ts';
import type { ReplicaSet } from './types/index.ts';
import { myReplicaSetYaml as replicaSetYaml } from '../scenarios/manifests.ts';

// seeds/004: the manifest (as the scenarios carry it) and the body a real apiserver answered.
const seedResponse = '{"kind":"ReplicaSet","apiVersion":"apps/v1","metadata":{"name":"my-replicaset","namespace":"default","uid":"b22383e9-e414-423c-a03e-0633a2b1484a","resourceVersion":"42746512","generation":1,"creationTimestamp":"2024-08-14T14:40:10Z"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"my-app"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"my-app"}},"spec":{"containers":[{"name":"my-container","image":"nginx","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}}},"status":{"replicas":0}}';

describe('parseManifest', () => {
  it('reads the seeds\' ReplicaSet, and defaulting plus canonical encoding reproduce the real apiserver\'s answer byte for byte', () => {
    const m = parseManifest(replicaSetYaml, 'replicaset.yaml');
    expect(m.errors).toEqual([]);
    expect(m.objects).toHaveLength(1);
    const { object, gvk, resource, unknownFields } = m.objects[0]!;
    expect(gvk).toEqual({ group: 'apps', version: 'v1', kind: 'ReplicaSet' });
    expect(resource.resource).toBe('replicasets');
    expect(unknownFields).toEqual([]);
    // What the request body carries (kubectl-wire.md §3.5), keys as kubectl sorts them.
    expect(JSON.stringify(object)).toBe('{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"namespace":"default","name":"my-replicaset"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"my-app"}},"template":{"metadata":{"labels":{"app":"my-app"}},"spec":{"containers":[{"name":"my-container","image":"nginx","ports":[{"containerPort":80}]}]}}}}');

    const rs = JSON.parse(JSON.stringify(object)) as ReplicaSet;
    setReplicaSetDefaults(rs);
    Object.assign(rs.metadata, { uid: 'b22383e9-e414-423c-a03e-0633a2b1484a', resourceVersion: '42746512', generation: 1, creationTimestamp: '2024-08-14T14:40:10Z' });
    rs.status = { replicas: 0 };
    expect(JSON.stringify(canonicalize('ReplicaSet', rs))).toBe(seedResponse);
  });

  it('splits documents, skips empty ones and expands Lists', () => {
    const text = `---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\n# nothing\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "b"}}\n`;
    const m = parseManifest(text, 'all.yaml');
    expect(m.errors).toEqual([]);
    expect(m.objects.map((o) => `${o.gvk.kind}/${o.object.metadata.name} @${o.position.line}:${o.position.column}`)).toEqual([
      'Namespace/team-a @2:1', 'ConfigMap/a @11:3', 'ServiceAccount/b @14:3',
    ]);
  });

  it('resolves scalars as YAML 1.1 does (Go\'s yaml library)', () => {
    const m = parseManifest('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: yes, b: "yes", c: 0755}\n', 'cm.yaml');
    expect((m.objects[0]!.object as unknown as { data: unknown }).data).toEqual({ a: true, b: 'yes', c: 493 });
  });

  it('locates unknown fields for the editor', () => {
    const m = parseManifest('apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n    imagePullPolice: Always\n  restartPolicyy: Never\n', 'pod.yaml');
    expect(m.objects[0]!.unknownFields).toEqual([
      { path: 'spec.containers[0].imagePullPolice', line: 9, column: 5 },
      { path: 'spec.restartPolicyy', line: 10, column: 3 },
    ]);
  });

  it.each([
    ['kind: Pod\nmetadata: {name: p}\n', 'error validating "f.yaml": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false'],
    ['metadata: {name: p}\n', 'error validating "f.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false'],
    ['apiVersion: a/b/c\nkind: Pod\n', 'error validating "f.yaml": error validating data: unexpected GroupVersion string: a/b/c; if you choose to ignore these errors, turn validation off with --validate=false'],
    ['apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: nginx}\n', 'resource mapping not found for name: "nginx" namespace: "" from "f.yaml": no matches for kind "Deployment" in version "apps/v1beta1"\nensure CRDs are installed first'],
    ['apiVersion: v1\nkind: LimitRange\nmetadata: {name: s, namespace: x}\n', 'resource mapping not found for name: "s" namespace: "x" from "f.yaml": no matches for kind "LimitRange" in version "v1"\nensure CRDs are installed first'],
    ['- a\n- b\n', 'error validating "f.yaml": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false'],
  ])('reports %j as kubectl does', (text, message) => {
    const m = parseManifest(text, 'f.yaml');
    expect(m.objects).toEqual([]);
    expect(m.errors.map((e) => e.message)).toEqual([message]);
  });

  it('reports a missing kind as a decode error with --validate=false', () => {
    const m = parseManifest('apiVersion: v1\nmetadata: {name: p}\n', 'f.yaml', false);
    expect(m.errors.map((e) => e.message)).toEqual(['unable to decode "f.yaml": Object \'Kind\' is missing in \'{"apiVersion":"v1","metadata":{"name":"p"}}\'']);
  });

  it('points YAML syntax errors at their line and column', () => {
    const m = parseManifest('apiVersion: v1\nkind: Pod\nmetadata:\n  name: [p\n', 'bad.yaml');
    expect(m.objects).toEqual([]);
    expect(m.errors[0]).toMatchObject({ line: 5, column: 1 });
    expect(m.errors[0]!.message).toMatch(/^error parsing bad\.yaml: error converting YAML to JSON: /);
  });

  it('reports an alias to an undefined anchor as go-yaml does, at the alias', () => {
    const m = parseManifest('apiVersion: v1\nkind: Pod\nmetadata:\n  name: *nosuch\n', 'a.yaml');
    expect(m.objects).toEqual([]);
    expect(m.errors).toEqual([{ line: 4, column: 9, message: "error parsing a.yaml: error converting YAML to JSON: yaml: unknown anchor 'nosuch' referenced" }]);
  });

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'ak:- {}[]\n"\'#&*!|>1 ,'.split('')), maxLength: 60 }), (text) => {
      const m = parseManifest(`apiVersion: v1\nkind: ConfigMap\n${text}`, 'f.yaml');
      expect(m.objects.length + m.errors.length).toBeGreaterThanOrEqual(0);
    }));
  });
});
