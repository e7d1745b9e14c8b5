import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, decodeForRequest, decodeStruct, strictDecodingError } from './decode.ts';
import { setDeploymentDefaults } from './defaults.ts';
import type { Deployment } from './types/index.ts';

const deploymentGVK = { group: 'apps', version: 'v1', kind: 'Deployment' };

function decoded(kind: string, value: unknown): Record<string, unknown> {
  const r = decodeStruct(kind, value);
  if (!r.ok) throw new Error(r.error);
  return r.value.object;
}

describe('decodeStruct', () => {
  it('produces the wire shape of a defaulted Deployment, in Go struct order', () => {
    const d: Deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx', labels: { b: '2', a: '1' } },
      spec: { selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] } } },
    };
    setDeploymentDefaults(d);
    expect(JSON.stringify(canonicalize('Deployment', d))).toBe(
      '{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"nginx","creationTimestamp":null,"labels":{"a":"1","b":"2"}},'
      + '"spec":{"replicas":1,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"nginx"}},'
      + '"spec":{"containers":[{"name":"nginx","image":"nginx:1.14.2","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{},'
      + '"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],'
      + '"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}},'
      + '"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600},'
      + '"status":{}}');
  });

  it('writes non-omitempty zero values and canonical custom types', () => {
    expect(decoded('Role', { metadata: { name: 'r' } })).toEqual({ metadata: { name: 'r', creationTimestamp: null }, rules: null });
    const pod = decoded('Pod', { metadata: { creationTimestamp: '2023-08-15T02:00:00.5+02:00' }, spec: { containers: [{ name: 'c', resources: { limits: { cpu: 0.5, memory: '1024Mi' } } }] } });
    expect((pod.metadata as Record<string, unknown>).creationTimestamp).toBe('2023-08-15T00:00:00Z');
    expect(((pod.spec as { containers: { resources: unknown }[] }).containers[0]!.resources)).toEqual({ limits: { cpu: '500m', memory: '1Gi' } });
    const lease = decoded('Lease', { spec: { renewTime: '2023-08-15T00:00:05.1234567Z', holderIdentity: 'node-1' } });
    expect(lease.spec).toEqual({ holderIdentity: 'node-1', renewTime: '2023-08-15T00:00:05.123456Z' });
    const status = decoded('Pod', { status: { containerStatuses: [{ name: 'c' }] } }).status as { containerStatuses: unknown[] };
    expect(status.containerStatuses[0]).toEqual({ name: 'c', state: {}, lastState: {}, ready: false, restartCount: 0, image: '', imageID: '' });
  });

  it('collects unknown fields with list indexes, case-sensitively', () => {
    const r = decodeStruct('Deployment', { spec: { foo: 1, template: { spec: { containers: [{ name: 'a', Image: 'x' }] } } }, extra: true });
    expect(r.ok && r.value.unknownFields).toEqual(['spec.foo', 'spec.template.spec.containers[0].Image', 'extra']);
    expect(strictDecodingError(['spec.foo', 'extra'])).toBe('strict decoding error: unknown field "spec.foo", unknown field "extra"');
  });

  it.each([
    [{ spec: { replicas: '3' } }, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { replicas: 1.5 } }, 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { replicas: 3000000000 } }, 'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { template: { spec: { containers: [{ name: 'c', image: 5 }] } } } }, 'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string'],
    [{ spec: { template: { spec: { containers: { name: 'c' } } } } }, 'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container'],
    [{ metadata: { labels: ['a'] } }, 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    [{ spec: 'x' }, 'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec'],
    [{ spec: { template: { spec: { containers: [{ resources: { limits: { cpu: 'lots' } } }] } } } }, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    [{ metadata: { creationTimestamp: 'yesterday' } }, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    [{ metadata: { creationTimestamp: '2023-13-01T00:00:00Z' } }, 'parsing time "2023-13-01T00:00:00Z": month out of range'],
    [{ spec: { strategy: { rollingUpdate: { maxSurge: true } } } }, 'json: cannot unmarshal bool into Go value of type int32'],
    // Map values and list items of the wrong type, next to ones that decode as themselves.
    [{ metadata: { labels: { a: 'x', app: 1 } } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    [{ spec: { template: { spec: { containers: [{ name: 'c', args: ['a', 2] }] } } } }, 'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.args of type string'],
    [{ spec: { template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }, { containerPort: 2147483648 }] }] } } } }, 'json: cannot unmarshal number 2147483648 into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32'],
  ])('%j → %s', (value, error) => {
    expect(decodeStruct('Deployment', value)).toEqual({ ok: false, error });
  });

  it('rejects a body that is not an object', () => {
    expect(decodeStruct('Pod', [1])).toEqual({ ok: false, error: 'json: cannot unmarshal array into Go value of type v1.Pod' });
  });

  it('is idempotent and never throws on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const r = decodeStruct('Pod', { spec: { containers: [{ name: 'c', env: v }] }, metadata: { labels: v } });
      if (r.ok) expect(decoded('Pod', r.value.object)).toEqual(r.value.object);
    }));
  });
});

describe('decodeStruct: what it builds once', () => {
  it('hands out a new zero struct each time (the remembered one never leaks)', () => {
    const a = decoded('Pod', { spec: { containers: [{ name: 'a' }] } });
    const b = decoded('Pod', { spec: { containers: [{ name: 'b' }] } });
    const statusA = a.status as Record<string, unknown>;
    expect(statusA).toEqual({});
    expect(statusA).not.toBe(b.status);
    statusA.phase = 'Running';
    ((a.spec as { containers: Record<string, unknown>[] }).containers[0]!.resources as Record<string, unknown>).limits = { cpu: '1' };
    const c = decoded('Pod', { spec: { containers: [{ name: 'c' }] } });
    expect(c.status).toEqual({});
    expect((c.spec as { containers: Record<string, unknown>[] }).containers[0]!.resources).toEqual({});
  });

  it('strings and booleans of the right type decode as themselves; of the wrong type fail as before', () => {
    expect(decoded('Container', { name: 'web', stdin: true, tty: false })).toEqual({ name: 'web', resources: {}, stdin: true });
    expect(decodeStruct('Container', { name: 1 })).toEqual({ ok: false, error: 'json: cannot unmarshal number into Go struct field Container.name of type string' });
    expect(decodeStruct('Container', { stdin: 'yes' })).toEqual({ ok: false, error: 'json: cannot unmarshal string into Go struct field Container.stdin of type bool' });
  });
});

describe('decodeForRequest', () => {
  it('turns unknown fields into the apiserver 400 under Strict', () => {
    const r = decodeForRequest(deploymentGVK, { spec: { foo: 1 } }, 'Strict');
    expect(!r.ok && r.error.status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"', reason: 'BadRequest', code: 400,
    });
  });

  it('warns under Warn and stays silent under Ignore', () => {
    const warn = decodeForRequest(deploymentGVK, { spec: { foo: 1 } }, 'Warn');
    expect(warn.ok && warn.warnings).toEqual(['unknown field "spec.foo"']);
    const ignore = decodeForRequest(deploymentGVK, { spec: { foo: 1 } }, 'Ignore');
    expect(ignore.ok && ignore.warnings).toEqual([]);
  });

  it('wraps type errors the same way', () => {
    const r = decodeForRequest(deploymentGVK, { spec: { replicas: 'x' } }, 'Ignore');
    expect(!r.ok && r.error.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });
});
