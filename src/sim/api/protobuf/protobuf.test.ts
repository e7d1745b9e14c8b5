import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { scenarioById } from '../../scenarios/catalog.ts';
import { runScenario } from '../../scenarios/runner.ts';
import { adminCall } from '../../testing/http.ts';
import { canonicalize } from '../decode.ts';
import type { KubeObject } from '../types/meta.ts';
import { mySeedReplicaSetBase64 } from './fixtures/seed-004-replicaset.ts';
import {
  decodeProtobuf, decodeWatchEvent, describeProtobuf, encodeProtobuf, encodeWatchEvent, encodeWatchEventFrame, type ProtoField,
} from './index.ts';
import { base64FromBytes, bytesFromBase64, utf8Encode } from './wire.ts';

const seedBytes = bytesFromBase64(mySeedReplicaSetBase64)!;

function decoded(bytes: Uint8Array): Record<string, unknown> {
  const r = decodeProtobuf(bytes);
  if (!r.ok) throw new Error(r.error);
  return r.object as unknown as Record<string, unknown>;
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** The raw message of an encoding (the Unknown's field 2), as hex. */
function rawHex(obj: { apiVersion?: string; kind?: string }): string {
  const raw = describeProtobuf(encodeProtobuf(obj)).find((f) => f.name === 'raw')!;
  const bytes = encodeProtobuf(obj);
  const first = raw.children?.[0];
  if (first === undefined) return '';
  return hex(bytes.subarray(first.offset, raw.offset + raw.size));
}

describe("seed 004's stored my-replicaset (the oracle)", () => {
  it('is 1,155 bytes that decode to the ReplicaSet', () => {
    expect(seedBytes.length).toBe(1155);
    const rs = decoded(seedBytes) as { kind: string; apiVersion: string; metadata: Record<string, unknown>; spec: Record<string, unknown>; status: Record<string, unknown> };
    expect(rs.kind).toBe('ReplicaSet');
    expect(rs.apiVersion).toBe('apps/v1');
    expect(rs.metadata.name).toBe('my-replicaset');
    expect(rs.metadata.namespace).toBe('default');
    expect(rs.metadata.uid).toBe('b22383e9-e414-423c-a03e-0633a2b1484a');
    expect(rs.metadata.creationTimestamp).toBe('2024-08-14T14:40:10Z');
    expect(rs.metadata).not.toHaveProperty('resourceVersion'); // etcd's mod_revision is the resourceVersion: not stored
    expect((rs.metadata.managedFields as { manager: string }[]).map((m) => m.manager)).toEqual(['kubectl-create', 'kube-controller-manager']);
    expect(rs.spec.replicas).toBe(2);
    expect(rs.spec.selector).toEqual({ matchLabels: { app: 'my-app' } });
    const template = rs.spec.template as { metadata: unknown; spec: { containers: Record<string, unknown>[]; terminationGracePeriodSeconds: number } };
    expect(template.metadata).toEqual({ creationTimestamp: null, labels: { app: 'my-app' } });
    expect(template.spec.containers[0]).toEqual({
      name: 'my-container', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: {},
      terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always',
    });
    expect(template.spec.terminationGracePeriodSeconds).toBe(30);
    expect(rs.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
  });

  it('encodes back to exactly the same bytes', () => {
    const again = encodeProtobuf(decoded(seedBytes));
    expect(again.length).toBe(seedBytes.length);
    expect(base64FromBytes(again)).toBe(mySeedReplicaSetBase64);
  });

  it('decodes to what the JSON decoder makes of the same object (the model shape)', () => {
    const rs = decoded(seedBytes);
    expect(canonicalize('ReplicaSet', rs as unknown as KubeObject)).toEqual(rs);
  });

  it('is described field by field with sizes that add up', () => {
    const fields = describeProtobuf(seedBytes);
    expect(fields.map((f) => f.name)).toEqual(['typeMeta', 'raw', 'contentEncoding', 'contentType']);
    expect(fields[0]!.offset).toBe(4); // after the k8s\0 magic
    expect(4 + fields.reduce((n, f) => n + f.size, 0)).toBe(seedBytes.length);
    const raw = fields[1]!;
    const [metadata, spec, status] = raw.children!;
    expect([metadata!.path, spec!.path, status!.path]).toEqual(['metadata', 'spec', 'status']);
    // The children of a message fill its payload exactly.
    const checkFill = (f: ProtoField): void => {
      if (f.children === undefined || f.children.length === 0) return;
      const last = f.children[f.children.length - 1]!;
      expect(last.offset + last.size).toBe(f.offset + f.size);
      f.children.forEach(checkFill);
    };
    fields.forEach(checkFill);
    const flat = (fs: ProtoField[]): ProtoField[] => fs.flatMap((f) => [f, ...flat(f.children ?? [])]);
    const all = flat(raw.children!);
    expect(all.find((f) => f.path === 'metadata.name')).toMatchObject({ number: 1, wireType: 2, value: 'my-replicaset', size: 15 });
    expect(all.find((f) => f.path === 'metadata.managedFields[1].manager')?.value).toBe('kube-controller-manager');
    expect(all.find((f) => f.path === 'spec.template.spec.containers[0].image')?.value).toBe('nginx');
    expect(all.find((f) => f.path === 'spec.selector.matchLabels[app]')?.value).toBe('my-app');
    expect(all.find((f) => f.path === 'metadata.creationTimestamp')?.value).toBe('2024-08-14T14:40:10Z');
    expect(all.find((f) => f.path === 'spec.replicas')).toMatchObject({ number: 1, wireType: 0, value: 2, size: 2 });
  });
});

describe('the encoding gogo-protobuf generates', () => {
  it('writes the runtime.Unknown envelope with empty contentEncoding and contentType', () => {
    const bytes = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } } as KubeObject);
    expect(hex(bytes.subarray(0, 4))).toBe('6b387300');
    expect(hex(bytes.subarray(4, 4 + 17))).toBe('0a0f' + '0a027631' + '1209' + '436f6e6669674d6170');
    expect(hex(bytes.subarray(bytes.length - 4))).toBe('1a002200');
  });

  it('always writes non-pointer strings and numbers, writes pointers only when set, sorts map keys', () => {
    // ConfigMap: metadata = 1, data = 2 (map), binaryData = 3, immutable = 4 (*bool).
    const cm = rawHex({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { b: '2', a: '' } } as KubeObject);
    // metadata{name "a", generateName "", namespace "", selfLink "", uid "", resourceVersion "", generation 0, creationTimestamp {}}
    expect(cm).toBe('0a11' + '0a0161' + '1200' + '1a00' + '2200' + '2a00' + '3200' + '3800' + '4200'
      + '1205' + '0a0161' + '1200' // data[a] = "" (value written though empty)
      + '1206' + '0a0162' + '120132'); // data[b] = "2"
    const immutable = rawHex({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, immutable: false } as KubeObject);
    expect(immutable.endsWith('2000')).toBe(true); // *bool set to false: written
  });

  it('writes negative numbers as ten-byte varints and repeated scalars unpacked', () => {
    const pod = encodeProtobuf({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
      spec: { containers: [], securityContext: { supplementalGroups: [1, 2], runAsUser: -1 } },
    } as unknown as KubeObject);
    const flat = (fs: ProtoField[]): ProtoField[] => fs.flatMap((f) => [f, ...flat(f.children ?? [])]);
    const all = flat(describeProtobuf(pod));
    const groups = all.filter((f) => f.path.startsWith('spec.securityContext.supplementalGroups'));
    expect(groups.map((g) => [g.wireType, g.value, g.size])).toEqual([[0, 1, 2], [0, 2, 2]]);
    expect(all.find((f) => f.path === 'spec.securityContext.runAsUser')).toMatchObject({ value: -1, size: 11 });
    const back = decoded(pod) as { spec: { securityContext: unknown } };
    expect(back.spec.securityContext).toEqual({ runAsUser: -1, supplementalGroups: [1, 2] });
  });

  it('writes Time as whole seconds, MicroTime with microseconds, Quantity canonical, IntOrString typed', () => {
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n', creationTimestamp: '2023-08-15T00:00:05Z' },
      spec: { holderIdentity: 'n', renewTime: '2023-08-15T00:00:05.123456Z' } };
    const back = decoded(encodeProtobuf(lease as unknown as KubeObject)) as typeof lease;
    expect(back.metadata.creationTimestamp).toBe('2023-08-15T00:00:05Z');
    expect(back.spec.renewTime).toBe('2023-08-15T00:00:05.123456Z');
    const all = describeProtobuf(encodeProtobuf(lease as unknown as KubeObject))[1]!.children!;
    const renew = all.find((f) => f.name === 'spec')!.children!.find((f) => f.name === 'renewTime')!;
    expect(renew.children!.map((c) => c.value)).toEqual([1692057605, 123456000]);

    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { containers: [{ name: 'c', resources: { limits: { memory: '1024Mi', cpu: '0.5' } } }] } };
    const p = decoded(encodeProtobuf(pod as unknown as KubeObject)) as { spec: { containers: { resources: unknown }[] } };
    expect(p.spec.containers[0]!.resources).toEqual({ limits: { cpu: '500m', memory: '1Gi' } });

    const d = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {}, spec: { template: { metadata: {}, spec: { containers: [] } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } } } };
    const dd = decoded(encodeProtobuf(d as unknown as KubeObject)) as { spec: { strategy: unknown } };
    expect(dd.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } });
  });

  it('encodes lists (ListMeta = 1, items = 2) without the items\' TypeMeta', () => {
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7' }, items: [{ metadata: { name: 'a' }, data: { k: 'v' } }] };
    const back = decoded(encodeProtobuf(list));
    expect(back).toEqual({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' },
      items: [{ metadata: { name: 'a', creationTimestamp: null }, data: { k: 'v' } }] });
  });

  it('encodes Status and DeleteOptions', () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "x" not found', reason: 'NotFound',
      details: { name: 'x', kind: 'pods' }, code: 404 };
    expect(decoded(encodeProtobuf(status))).toEqual(status);
    const options = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', dryRun: ['All'] };
    expect(decoded(encodeProtobuf(options))).toEqual(options);
  });

  it('encodes watch events with the object embedded in its own k8s\\0 envelope', () => {
    const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', creationTimestamp: null }, data: { k: 'v' } };
    const event = encodeWatchEvent('ADDED', cm);
    const back = decodeWatchEvent(event);
    expect(back).toEqual({ ok: true, object: { type: 'ADDED', object: cm } });
    const frame = encodeWatchEventFrame('ADDED', cm);
    expect(new DataView(frame.buffer).getUint32(0)).toBe(event.length);
    expect(hex(frame.subarray(4))).toBe(hex(event));
    // The embedded object is exactly encodeProtobuf's bytes.
    expect(hex(event)).toContain(hex(encodeProtobuf(cm)));
    const wrapped = decoded(encodeProtobuf({ kind: 'WatchEvent', apiVersion: 'meta.k8s.io/v1', type: 'DELETED', object: cm } as { kind: string; apiVersion: string }));
    expect(wrapped).toEqual({ kind: 'WatchEvent', apiVersion: 'meta.k8s.io/v1', type: 'DELETED', object: cm });
  });

  it('refuses to encode a kind it does not know', () => {
    expect(() => encodeProtobuf({ apiVersion: 'v1', kind: 'Frobnicator' })).toThrow(/Frobnicator/);
  });
});

describe('decoding errors (Go\'s texts, never a throw)', () => {
  const cases: [string, Uint8Array, string | RegExp][] = [
    ['empty', new Uint8Array(), 'empty data'],
    ['JSON', utf8Encode('{"kind":"Pod"}'), 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]'],
    ['magic only', new Uint8Array([0x6b, 0x38, 0x73, 0]), 'empty body'],
    ['truncated', seedBytes.subarray(0, 600), 'unexpected EOF'],
    ['illegal tag', new Uint8Array([0x6b, 0x38, 0x73, 0, 0x00]), 'proto: Unknown: illegal tag 0 (wire type 0)'],
    ['end group', new Uint8Array([0x6b, 0x38, 0x73, 0, 0x0c]), 'proto: Unknown: wiretype end group for non-group'],
    ['illegal wire type', new Uint8Array([0x6b, 0x38, 0x73, 0, 0x2e]), 'proto: illegal wireType 6'],
    ['varint overflow', new Uint8Array([0x6b, 0x38, 0x73, 0, 0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 'proto: integer overflow'],
    ['wrong wire type', new Uint8Array([0x6b, 0x38, 0x73, 0, 0x08, 0x01]), 'proto: wrong wireType = 0 for field TypeMeta'],
  ];
  for (const [name, bytes, error] of cases) {
    it(`${name}: ${String(error)}`, () => {
      const r = decodeProtobuf(bytes);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(error);
    });
  }

  it('names a missing kind, a missing apiVersion and an unregistered kind', () => {
    const envelope = (apiVersion: string, kind: string): Uint8Array => {
      const enc = { encode: utf8Encode };
      const av = enc.encode(apiVersion);
      const k = enc.encode(kind);
      const tm = [0x0a, av.length, ...av, 0x12, k.length, ...k];
      return new Uint8Array([0x6b, 0x38, 0x73, 0, 0x0a, tm.length, ...tm, 0x12, 0]);
    };
    expect(decodeProtobuf(envelope('v1', ''))).toEqual({ ok: false, error: 'Object \'Kind\' is missing in \'runtime.TypeMeta{APIVersion:"v1", Kind:""}\'' });
    expect(decodeProtobuf(envelope('', 'Pod'))).toEqual({ ok: false, error: 'Object \'apiVersion\' is missing in \'runtime.TypeMeta{APIVersion:"", Kind:"Pod"}\'' });
    expect(decodeProtobuf(envelope('apps/v1', 'Pod'))).toEqual({ ok: false,
      error: 'no kind "Pod" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"' });
    expect(decodeProtobuf(envelope('v1', 'Pod'))).toMatchObject({ ok: true, object: { kind: 'Pod', apiVersion: 'v1' } });
  });

  it('reports a wrong wire type inside the object with the Go field name', () => {
    // ReplicaSet raw = spec (2) holding replicas (1) sent as a length-delimited field.
    const bytes = new Uint8Array([0x6b, 0x38, 0x73, 0, 0x0a, 0x15, 0x0a, 0x07, ...utf8Encode('apps/v1'), 0x12, 0x0a,
      ...utf8Encode('ReplicaSet'), 0x12, 0x04, 0x12, 0x02, 0x0a, 0x00]);
    expect(decodeProtobuf(bytes)).toEqual({ ok: false, error: 'proto: wrong wireType = 2 for field Replicas' });
  });

  it('accepts packed repeated scalars and skips unknown fields', () => {
    // Pod raw: spec (2) { securityContext (14) { supplementalGroups (4) packed [3, 4] }, unknown field 999 varint }.
    const sc = [0x22, 0x02, 0x03, 0x04];
    const spec = [0x72, sc.length, ...sc, 0xb8, 0x3e, 0x01];
    const raw = [0x12, spec.length, ...spec];
    const tm = [0x0a, 0x02, 0x76, 0x31, 0x12, 0x03, 0x50, 0x6f, 0x64];
    const bytes = new Uint8Array([0x6b, 0x38, 0x73, 0, 0x0a, tm.length, ...tm, 0x12, raw.length, ...raw]);
    const pod = decoded(bytes) as { spec: { securityContext: unknown } };
    expect(pod.spec.securityContext).toEqual({ supplementalGroups: [3, 4] });
  });
});

describe('objects as the model stores them', () => {
  const cluster = createCluster({ seed: 'codec' });
  cluster.boot();
  runScenario(cluster, scenarioById('nginx-deployment')!);
  const list = (path: string): KubeObject[] => {
    const r = adminCall(cluster, 'GET', path);
    expect(r.status).toBe(200);
    const body = (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as { kind: string; apiVersion: string; items: KubeObject[] };
    return body.items.map((item) => ({ ...item, kind: body.kind.slice(0, -4), apiVersion: body.apiVersion }));
  };
  const paths = ['/api/v1/pods', '/api/v1/nodes', '/api/v1/namespaces', '/api/v1/configmaps', '/api/v1/events', '/api/v1/serviceaccounts',
    '/apis/apps/v1/deployments', '/apis/apps/v1/replicasets', '/apis/coordination.k8s.io/v1/leases',
    '/apis/rbac.authorization.k8s.io/v1/clusterroles', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
    '/apis/rbac.authorization.k8s.io/v1/roles', '/apis/rbac.authorization.k8s.io/v1/rolebindings'];
  for (const path of paths) {
    it(`round-trips every object of ${path}`, () => {
      const objects = list(path);
      if (path.endsWith('/pods') || path.endsWith('/replicasets') || path.endsWith('/nodes')) expect(objects.length).toBeGreaterThan(0);
      for (const obj of objects) {
        const canonical = canonicalize(obj.kind!, obj);
        const bytes = encodeProtobuf(canonical);
        expect(decoded(bytes)).toEqual(canonical);
        expect(hex(encodeProtobuf(decoded(bytes)))).toBe(hex(bytes));
      }
    });
  }

  it('stores the nginx Pod in fewer bytes than JSON', () => {
    const pod = list('/api/v1/pods')[0]!;
    const json = utf8Encode(JSON.stringify(pod)).length;
    const proto = encodeProtobuf(pod).length;
    expect(proto).toBeLessThan(json);
  });
});
