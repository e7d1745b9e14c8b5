// A fresh cluster's keyspace and objects, as a real 1.28 cluster has them after start (README lists the
// key list beside a kubeadm cluster's), and the controllers that keep them: serviceaccount, root-CA
// publisher, leader election, the apiserver's identity lease, Services with their ClusterIP and
// NodePort allocation, Endpoints and EndpointSlices following ready Pods.

import type { Event } from './api/types/core.ts';
import { describe, expect, it } from 'vitest';
import { parseTimestamp } from './api/time.ts';
import type { Lease } from './api/types/coordination.ts';
import type { ConfigMap, Pod } from './api/types/core.ts';
import type { Status } from './api/types/meta.ts';
import type { Endpoints, EndpointSlice, RangeAllocation, Service } from './api/types/service.ts';
import { bootstrapClusterRoleBindingNames, bootstrapClusterRoleNames } from './apiserver/bootstrap-policy.ts';
import { builtinTokens } from './wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpRequest, type HttpResponse } from './wire/http.ts';
import { apiserverID, identityLeaseTimer } from './apiserver/identity-lease.ts';
import { AllocationBitmap, base64ToBigInt, bigIntToBase64, ipRange } from './apiserver/service-allocators.ts';
import { createCluster, type Cluster } from './cluster.ts';
import { clusterCACertificate, rootCACertConfigMapName } from './controllers/rootcacertpublisher/publisher.ts';
import { Rng, timerKind, type TimerPayload } from './engine/index.ts';
import { decodeStored } from './apiserver/storage/codec.ts';

function booted(seed: string): Cluster {
  const cluster = createCluster({ seed });
  cluster.boot();
  return cluster;
}

function call(cluster: Cluster, method: HttpMethod, path: string, body?: unknown): HttpResponse {
  const contentType = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  const sent = cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query: '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', ...(body ? { 'content-type': contentType } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  cluster.engine.runUntilIdle();
  return cluster.user.received().find((r) => r.requestId === sent.id)!.message.payload as HttpResponse;
}

const keys = (cluster: Cluster, prefix = '/registry/') =>
  cluster.etcd.kv.range({ key: prefix, rangeEnd: prefix.replace(/\/$/, '0'), keysOnly: true }).kvs.map((kv) => kv.key);
const stored = <T>(cluster: Cluster, key: string) => decodeStored(cluster.etcd.kv.range({ key }).kvs[0]!.value) as T;
const namespaces = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

const deployment = {
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ name: 'http', containerPort: 8080 }] }] } },
  },
};
const service = (spec: Record<string, unknown>, name = 'web') => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });

describe('a fresh cluster', () => {
  it('has the keys a real 1.28 cluster has after start (names derived where random)', () => {
    const cluster = booted('fresh-keys');
    const all = keys(cluster);
    const expected = [
      ...namespaces.map((ns) => `/registry/namespaces/${ns}`),
      ...namespaces.map((ns) => `/registry/serviceaccounts/${ns}/default`),
      ...namespaces.map((ns) => `/registry/configmaps/${ns}/${rootCACertConfigMapName}`),
      ...bootstrapClusterRoleNames.map((n) => `/registry/clusterroles/${n}`),
      ...bootstrapClusterRoleBindingNames.map((n) => `/registry/clusterrolebindings/${n}`),
      '/registry/priorityclasses/system-cluster-critical', '/registry/priorityclasses/system-node-critical',
      '/registry/ranges/serviceips', '/registry/ranges/servicenodeports',
      '/registry/services/specs/default/kubernetes', '/registry/services/endpoints/default/kubernetes', '/registry/endpointslices/default/kubernetes',
      `/registry/leases/kube-system/${apiserverID}`, '/registry/leases/kube-system/kube-controller-manager', '/registry/leases/kube-system/kube-scheduler',
      ...['node-1', 'node-2', 'node-3'].flatMap((n) => [`/registry/minions/${n}`, `/registry/leases/kube-node-lease/${n}`]),
    ];
    for (const key of expected) expect(all, key).toContain(key);
    // Everything else is an Event of the start (leader election, nodes registered).
    expect(all.filter((k) => !expected.includes(k) && !k.startsWith('/registry/events/'))).toEqual([]);
    expect(bootstrapClusterRoleNames).toEqual(expect.arrayContaining(['admin', 'edit', 'view', 'cluster-admin', 'system:node', 'system:kube-scheduler']));
    // No demo objects a real cluster does not have.
    expect(all.some((k) => k.startsWith('/registry/roles/') || k.startsWith('/registry/rolebindings/'))).toBe(false);
  });

  it('stores the kubernetes Service with the first IP of 10.96.0.0/12, its Endpoints and EndpointSlice at the apiserver', () => {
    const cluster = booted('fresh-kubernetes');
    const svc = stored<Service>(cluster, '/registry/services/specs/default/kubernetes');
    expect(svc.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.spec).toMatchObject({
      clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], type: 'ClusterIP', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
    });
    expect(svc.spec?.selector).toBeUndefined();
    const ep = stored<Endpoints>(cluster, '/registry/services/endpoints/default/kubernetes');
    expect(ep.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(ep.subsets).toEqual([{ addresses: [{ ip: '172.18.0.1' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    const slice = stored<EndpointSlice>(cluster, '/registry/endpointslices/default/kubernetes');
    expect(slice).toMatchObject({ addressType: 'IPv4', endpoints: [{ addresses: ['172.18.0.1'], conditions: { ready: true } }], ports: [{ name: 'https', protocol: 'TCP', port: 6443 }] });
    // The bitmap as upstream stores it: big.Int bytes of bit 0 (10.96.0.1), base64.
    const ips = stored<RangeAllocation>(cluster, '/registry/ranges/serviceips');
    expect([ips.range, ips.data]).toEqual(['10.96.0.0/12', 'AQ==']);
    expect(stored<RangeAllocation>(cluster, '/registry/ranges/servicenodeports')).toMatchObject({ range: '30000-32767', data: '' });
  });

  it('has a default ServiceAccount and kube-root-ca.crt in every namespace, and in a new one', () => {
    const cluster = booted('fresh-sa');
    for (const ns of namespaces) {
      const cm = stored<ConfigMap>(cluster, `/registry/configmaps/${ns}/kube-root-ca.crt`);
      expect(cm.data).toEqual({ 'ca.crt': clusterCACertificate });
      expect(cm.metadata.annotations?.['kubernetes.io/description']).toMatch(/^Contains a CA bundle/);
    }
    expect(clusterCACertificate).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/);
    expect(call(cluster, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } }).status).toBe(201);
    expect(keys(cluster, '/registry/serviceaccounts/demo/')).toEqual(['/registry/serviceaccounts/demo/default']);
    expect(keys(cluster, '/registry/configmaps/demo/')).toEqual(['/registry/configmaps/demo/kube-root-ca.crt']);
    // Deleted, they come back.
    expect(call(cluster, 'DELETE', '/api/v1/namespaces/demo/serviceaccounts/default').status).toBe(200);
    expect(call(cluster, 'DELETE', '/api/v1/namespaces/demo/configmaps/kube-root-ca.crt').status).toBe(200);
    expect(keys(cluster, '/registry/serviceaccounts/demo/')).toEqual(['/registry/serviceaccounts/demo/default']);
    expect(keys(cluster, '/registry/configmaps/demo/')).toEqual(['/registry/configmaps/demo/kube-root-ca.crt']);
  });

  it('elects kube-controller-manager and kube-scheduler leaders, renewing every 2 s in the background; the apiserver renews its identity every 10 s', () => {
    const cluster = booted('fresh-leases');
    expect(cluster.engine.idle).toBe(true);
    const kcm = stored<Lease>(cluster, '/registry/leases/kube-system/kube-controller-manager');
    expect(kcm.spec).toMatchObject({ leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(kcm.spec?.holderIdentity).toMatch(/^control-plane_[0-9a-f-]{36}$/);
    const identity = stored<Lease>(cluster, `/registry/leases/kube-system/${apiserverID}`);
    expect(identity.metadata.labels).toEqual({ 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': 'control-plane' });
    expect(identity.spec).toMatchObject({ leaseDurationSeconds: 3600 });
    expect(identity.spec?.holderIdentity).toMatch(new RegExp(`^${apiserverID}_[0-9a-f-]{36}$`));
    const leaderEvents = keys(cluster, '/registry/events/kube-system/');
    expect(leaderEvents.some((k) => k.startsWith('/registry/events/kube-system/kube-controller-manager.'))).toBe(true);
    expect(leaderEvents.some((k) => k.startsWith('/registry/events/kube-system/kube-scheduler.'))).toBe(true);

    const versionOf = (key: string) => cluster.etcd.kv.range({ key }).kvs[0]!.version;
    const before = { kcm: versionOf('/registry/leases/kube-system/kube-controller-manager'), id: versionOf(`/registry/leases/kube-system/${apiserverID}`) };
    cluster.engine.runFor(20_000);
    const renewed = versionOf('/registry/leases/kube-system/kube-controller-manager') - before.kcm;
    expect(renewed === 9 || renewed === 10, `${renewed} renewals in 20 s`).toBe(true);
    // The identity lease: 10 s plus up to 4 % between renewals (JitterUntil, factor 0.04), so one or two in 20 s.
    const identityRenewed = versionOf(`/registry/leases/kube-system/${apiserverID}`) - before.id;
    expect(identityRenewed === 1 || identityRenewed === 2, `${identityRenewed} identity renewals in 20 s`).toBe(true);
    cluster.engine.runFor(40_000);
    const waits = cluster.engine.trace.all()
      .filter((m) => m.kind === timerKind && m.to === 'kube-apiserver' && (m.payload as TimerPayload).name === identityLeaseTimer)
      .map((m) => m.deliverAt - m.sentAt);
    expect(waits.length).toBeGreaterThanOrEqual(5);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(10_000);
      expect(wait).toBeLessThan(10_400);
    }
    expect(new Set(waits).size).toBeGreaterThan(1);
    // A renewal is one PUT of the lease last written (client-go's fast path), never a GET first.
    const renewals = cluster.engine.trace.all().filter((m) => m.from === 'kube-scheduler' && m.kind === httpKinds.request && (m.payload as HttpRequest).path.endsWith('/leases/kube-scheduler'));
    expect(renewals.filter((m) => (m.payload as HttpRequest).method === 'GET')).toHaveLength(1);
    expect(renewals.filter((m) => (m.payload as HttpRequest).method === 'PUT').length).toBeGreaterThanOrEqual(9);
    expect(stored<Lease>(cluster, '/registry/leases/kube-system/kube-controller-manager').spec?.holderIdentity).toBe(kcm.spec?.holderIdentity);
  });
});

describe('start-up events', () => {
  it('each kubelet records its start about its Node, in the order a fresh node shows them', () => {
    const cluster = booted('startup-events');
    const events = (call(cluster, 'GET', '/api/v1/namespaces/default/events').body as { items: Event[] }).items
      .filter((e) => e.involvedObject.kind === 'Node' && e.involvedObject.name === 'node-1' && e.source?.component === 'kubelet')
      .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    expect(events.map((e) => `${e.reason}: ${e.message}`)).toEqual([
      'Starting: Starting kubelet.',
      'NodeHasSufficientMemory: Node node-1 status is now: NodeHasSufficientMemory',
      'NodeHasNoDiskPressure: Node node-1 status is now: NodeHasNoDiskPressure',
      'NodeHasSufficientPID: Node node-1 status is now: NodeHasSufficientPID',
      'NodeAllocatableEnforced: Updated Node Allocatable limit across pods',
      'NodeReady: Node node-1 status is now: NodeReady',
    ]);
    expect(events.every((e) => e.involvedObject.uid === 'node-1' && e.source?.host === 'node-1')).toBe(true);
  });
});

describe('leader election after a restart', () => {
  it('a restarted kube-scheduler takes the Lease over only once the old holder\'s 15 s have run out', () => {
    const cluster = booted('fresh-takeover');
    const key = '/registry/leases/kube-system/kube-scheduler';
    const before = stored<Lease>(cluster, key).spec!;
    cluster.fault({ type: 'stop', component: 'kube-scheduler' });
    cluster.engine.runFor(1_000);
    const stoppedAt = cluster.engine.epochMs + cluster.engine.now;
    cluster.fault({ type: 'start', component: 'kube-scheduler' });
    cluster.engine.runFor(5_000);
    // The new process has a new identity; the old one's lease has not expired yet.
    expect(stored<Lease>(cluster, key).spec!.holderIdentity).toBe(before.holderIdentity);
    expect(cluster.scheduler!.leaderElector!.isLeader).toBe(false);
    cluster.engine.runFor(20_000);
    const after = stored<Lease>(cluster, key).spec!;
    expect(after.holderIdentity).not.toBe(before.holderIdentity);
    expect(after.holderIdentity).toMatch(/^control-plane_/);
    expect(after.leaseTransitions).toBe(1);
    expect(parseTimestamp(after.acquireTime!)!).toBeGreaterThanOrEqual(parseTimestamp(before.renewTime!)! + 15_000);
    expect(parseTimestamp(after.acquireTime!)!).toBeGreaterThan(stoppedAt);
    expect(cluster.scheduler!.leaderElector!.isLeader).toBe(true);
  });
});

describe('Services', () => {
  it('allocates a ClusterIP from the upper range, releases it on delete, and keeps it immutable', () => {
    const cluster = booted('svc-alloc');
    const created = call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ selector: { app: 'web' }, ports: [{ port: 80 }] }));
    expect(created.status).toBe(201);
    const svc = created.body as Service;
    const { base, offset } = ipRange('10.96.0.0/12');
    const ipNumber = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
    expect(ipNumber(svc.spec!.clusterIP!) - base).toBeGreaterThanOrEqual(offset);
    expect(svc.spec).toMatchObject({ clusterIPs: [svc.spec!.clusterIP], type: 'ClusterIP', sessionAffinity: 'None', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] });
    expect(svc.status).toEqual({ loadBalancer: {} });
    const bits = () => base64ToBigInt(stored<RangeAllocation>(cluster, '/registry/ranges/serviceips').data);
    const bit = BigInt(ipNumber(svc.spec!.clusterIP!) - base);
    expect((bits() >> bit) & 1n).toBe(1n);

    const changed = call(cluster, 'PUT', '/api/v1/namespaces/default/services/web', { ...svc, spec: { ...svc.spec, clusterIP: '10.96.0.50', clusterIPs: ['10.96.0.50'] } });
    expect(changed.status).toBe(422);
    expect((changed.body as Status).message).toBe(`Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.50"}: may not change once set`);
    // An update without the allocated fields keeps them (kubectl apply of the manifest).
    const kept = call(cluster, 'PUT', '/api/v1/namespaces/default/services/web', { ...svc, spec: { selector: { app: 'web' }, ports: [{ port: 81 }] } });
    expect(kept.status).toBe(200);
    expect((kept.body as Service).spec?.clusterIP).toBe(svc.spec!.clusterIP);

    const taken = call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ clusterIP: svc.spec!.clusterIP, ports: [{ port: 80 }] }, 'other'));
    expect((taken.body as Status).message).toBe(`Service "other" is invalid: spec.clusterIPs: Invalid value: []string{"${svc.spec!.clusterIP}"}: failed to allocate IP ${svc.spec!.clusterIP}: provided IP is already allocated`);
    const outside = call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ clusterIP: '10.0.0.10', ports: [{ port: 80 }] }, 'other'));
    expect((outside.body as Status).message).toContain('the provided IP (10.0.0.10) is not in the valid range. The range of valid IPs is 10.96.0.0/12');

    expect(call(cluster, 'DELETE', '/api/v1/namespaces/default/services/web').status).toBe(200);
    expect((bits() >> bit) & 1n).toBe(0n);
    expect(bits()).toBe(1n);
  });

  it('gives NodePort Services a port in 30000–32767 and refuses one taken or out of range', () => {
    const cluster = booted('svc-nodeport');
    const a = call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80, nodePort: 30080 }] }, 'a'));
    expect(a.status).toBe(201);
    expect((a.body as Service).spec).toMatchObject({ externalTrafficPolicy: 'Cluster', ports: [{ nodePort: 30080 }] });
    const b = call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] }, 'b'));
    const port = (b.body as Service).spec!.ports![0]!.nodePort!;
    expect(port).toBeGreaterThanOrEqual(30000);
    expect(port).toBeLessThanOrEqual(32767);
    const dup = call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }, 'c'));
    expect((dup.body as Status).message).toBe('Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const low = call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }, 'c'));
    expect((low.body as Status).message).toBe('Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767');
    // The failed creates gave back their ClusterIPs: only kubernetes, a and b hold one.
    const ips = base64ToBigInt(stored<RangeAllocation>(cluster, '/registry/ranges/serviceips').data);
    expect(ips.toString(2).replaceAll('0', '').length).toBe(3);
    const onClusterIP = call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ ports: [{ port: 80, nodePort: 30001 }] }, 'd'));
    expect((onClusterIP.body as Status).message).toBe("Service \"d\" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'");
  });

  it('Endpoints and EndpointSlice follow the ready Pods, resolving a named targetPort; kubernetes is left to the apiserver', () => {
    const cluster = booted('svc-endpoints');
    expect(call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment).status).toBe(201);
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/services', service({ selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] })).status).toBe(201);
    cluster.engine.runFor(30_000);
    cluster.engine.runUntilIdle();
    const pods = (call(cluster, 'GET', '/api/v1/namespaces/default/pods').body as { items: Pod[] }).items;
    const ips = pods.map((p) => p.status!.podIP!).sort();
    expect(ips).toHaveLength(2);
    const ep = stored<Endpoints>(cluster, '/registry/services/endpoints/default/web');
    expect(ep.subsets).toEqual([{
      addresses: ips.map((ip) => expect.objectContaining({ ip, targetRef: expect.objectContaining({ kind: 'Pod', namespace: 'default' }) })),
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    }]);
    expect(ep.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toMatch(/^\d{4}-\d\d-\d\dT/);
    const sliceKeys = keys(cluster, '/registry/endpointslices/default/').filter((k) => !k.endsWith('/kubernetes'));
    expect(sliceKeys).toHaveLength(1);
    expect(sliceKeys[0]).toMatch(/^\/registry\/endpointslices\/default\/web-[a-z0-9]{5}$/);
    const slice = stored<EndpointSlice>(cluster, sliceKeys[0]!);
    expect(slice.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(slice.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Service', name: 'web', controller: true, blockOwnerDeletion: true })]);
    expect(slice.ports).toEqual([{ name: 'http', protocol: 'TCP', port: 8080 }]);
    expect(slice.endpoints!.map((e) => [e.addresses[0], e.conditions])).toEqual(ips.map((ip) => [ip, { ready: true, serving: true, terminating: false }]));
    // The kubernetes Service's objects are untouched by the controllers (no selector).
    expect(cluster.etcd.kv.range({ key: '/registry/services/endpoints/default/kubernetes' }).kvs[0]!.version).toBe(1);

    // Scaled to 0: no addresses; the slice keeps no endpoints.
    expect(call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web', { spec: { replicas: 0 } }).status).toBe(200);
    cluster.engine.runFor(60_000);
    cluster.engine.runUntilIdle();
    expect(stored<Endpoints>(cluster, '/registry/services/endpoints/default/web').subsets).toBeUndefined();
    expect(stored<EndpointSlice>(cluster, sliceKeys[0]!).endpoints ?? null).toBeNull();
    // Deleted: its Endpoints go, and its slice with it (owner reference).
    expect(call(cluster, 'DELETE', '/api/v1/namespaces/default/services/web').status).toBe(200);
    cluster.engine.runUntilIdle();
    expect(keys(cluster, '/registry/services/endpoints/default/')).toEqual(['/registry/services/endpoints/default/kubernetes']);
    expect(keys(cluster, '/registry/endpointslices/default/')).toEqual(['/registry/endpointslices/default/kubernetes']);
  });
});

describe('the allocation bitmap', () => {
  it('snapshots as big.Int bytes in base64 and restores the same bits', () => {
    expect(bigIntToBase64(0n)).toBe('');
    expect(bigIntToBase64(1n)).toBe('AQ==');
    expect(bigIntToBase64(1n << 16n)).toBe('AQAA');
    for (const n of [1n, 255n, 256n, (1n << 100n) + 5n]) expect(base64ToBigInt(bigIntToBase64(n))).toBe(n);
    const b = new AllocationBitmap(16, 'x', 4);
    const rng = new Rng('bitmap');
    const got = Array.from({ length: 16 }, () => b.allocateNext(rng));
    // The upper subrange [4, 16) fills first, then [0, 4); then it is full.
    expect(got.slice(0, 12).every((i) => i !== null && i >= 4)).toBe(true);
    expect(new Set(got).size).toBe(16);
    expect(b.allocateNext(rng)).toBeNull();
    const copy = new AllocationBitmap(16, 'x', 4);
    copy.restore(b.snapshot().data);
    expect(copy.used).toBe(16);
  });
});

