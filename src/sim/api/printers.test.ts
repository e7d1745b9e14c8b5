import { describe, expect, it } from 'vitest';
import { defaultEpochMs } from '../engine/time.ts';
import { isStatusError } from './errors.ts';
import { tableColumns, tableRowCells } from './printers.ts';
import { toTable } from './table-convertor.ts';
import { lookupResource, type ResourceInfo } from './resources.ts';
import type { ConfigMap, ContainerStatus, Lease, Namespace, Pod, Table } from './types/index.ts';

const res = (group: string, resource: string): ResourceInfo => lookupResource(group, resource)!;
const pods = res('', 'pods');
const created = '2023-08-15T00:00:00Z';
const now = defaultEpochMs + 5 * 60_000 + 3_000;

function pod(status: Pod['status'], extra: Partial<Pod['spec']> = {}, deletionTimestamp?: string): Pod {
  const metadata = { name: 'nginx-7c5ddbdf54-x8f9k', namespace: 'default', creationTimestamp: created, ...(deletionTimestamp ? { deletionTimestamp } : {}) };
  return { metadata, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }], ...extra }, status };
}

const waiting = (reason: string): ContainerStatus => ({ name: 'nginx', ready: false, restartCount: 0, image: 'nginx:1.14.2', imageID: '', state: { waiting: { reason } } });

describe('pod rows', () => {
  it('has the 1.28 columns, wide ones at priority 1', () => {
    expect(tableColumns(pods).map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0', 'Ready:0', 'Status:0', 'Restarts:0', 'Age:0', 'IP:1', 'Node:1', 'Nominated Node:1', 'Readiness Gates:1',
    ]);
    expect(tableColumns(pods)[0]).toEqual({ name: 'Name', type: 'string', format: 'name', description: '', priority: 0 });
  });

  it.each([
    ['a fresh pod', pod({ phase: 'Pending' }), ['0/1', 'Pending', '0']],
    ['a pod being created', pod({ phase: 'Pending', containerStatuses: [waiting('ContainerCreating')] }), ['0/1', 'ContainerCreating', '0']],
    ['an image pull failure', pod({ phase: 'Pending', containerStatuses: [waiting('ErrImagePull')] }), ['0/1', 'ErrImagePull', '0']],
    ['a running pod', pod({ phase: 'Running', podIPs: [{ ip: '10.244.1.5' }], containerStatuses: [{ name: 'nginx', ready: true, restartCount: 0, image: 'nginx:1.14.2', imageID: '', state: { running: { startedAt: created } } }] }, { nodeName: 'node-1' }), ['1/1', 'Running', '0']],
    ['a crash loop', pod({ phase: 'Running', containerStatuses: [{ ...waiting('CrashLoopBackOff'), restartCount: 3, lastState: { terminated: { exitCode: 1, finishedAt: '2023-08-15T00:04:03Z' } } }] }), ['0/1', 'CrashLoopBackOff', '3 (60s ago)']],
    ['a completed pod', pod({ phase: 'Succeeded', containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] }), ['0/1', 'Completed', '0']],
    ['a failed container without reason', pod({ phase: 'Failed', containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 2 } } }] }), ['0/1', 'ExitCode:2', '0']],
    ['a pod in deletion', pod({ phase: 'Running' }, {}, '2023-08-15T00:05:30Z'), ['0/1', 'Terminating', '0']],
    ['an initializing pod', pod({ phase: 'Pending', initContainerStatuses: [{ name: 'init', ready: false, restartCount: 0, image: '', imageID: '', state: { waiting: { reason: 'PodInitializing' } } }] }, { initContainers: [{ name: 'init', image: 'busybox' }] }), ['0/1', 'Init:0/1', '0']],
    ['an init failure', pod({ phase: 'Pending', initContainerStatuses: [{ name: 'init', ready: false, restartCount: 1, image: '', imageID: '', state: { terminated: { exitCode: 1, reason: 'Error' } } }] }, { initContainers: [{ name: 'init', image: 'busybox' }] }), ['0/1', 'Init:Error', '1']],
    ['a gated pod', pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }), ['0/1', 'SchedulingGated', '0']],
  ])('%s', (_, p, [ready, status, restarts]) => {
    const { cells } = tableRowCells(pods, p, now);
    expect(cells.slice(0, 5)).toEqual([p.metadata.name, ready, status, restarts, '5m3s']);
  });

  it('fills the wide columns and row conditions', () => {
    const running = pod({ phase: 'Running', podIPs: [{ ip: '10.244.1.5' }] }, { nodeName: 'node-1', readinessGates: [{ conditionType: 'x' }] });
    expect(tableRowCells(pods, running, now).cells.slice(5)).toEqual(['10.244.1.5', 'node-1', '<none>', '0/1']);
    expect(tableRowCells(pods, pod({ phase: 'Pending' }), now).cells.slice(5)).toEqual(['<none>', '<none>', '<none>', '<none>']);
    expect(tableRowCells(pods, pod({ phase: 'Succeeded' }), now).conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
  });
});

describe('other rows', () => {
  it('prints deployments and replicasets', () => {
    const d = { metadata: { name: 'nginx-deployment', creationTimestamp: created }, spec: { replicas: 3, selector: { matchLabels: { app: 'nginx' } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }, { name: 's', image: 'busybox' }] } } }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } };
    expect(tableRowCells(res('apps', 'deployments'), d, now).cells).toEqual(['nginx-deployment', '2/3', 3, 2, '5m3s', 'nginx,s', 'nginx:1.14.2,busybox', 'app=nginx']);
    const rs = { metadata: { name: 'my-replicaset', creationTimestamp: created }, spec: { replicas: 2, selector: { matchLabels: { app: 'my-app' } }, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } }, status: { replicas: 1 } };
    expect(tableRowCells(res('apps', 'replicasets'), rs, now).cells).toEqual(['my-replicaset', 2, 1, 0, '5m3s', 'c', 'nginx', 'app=my-app']);
  });

  it('prints nodes, namespaces, events, configmaps, service accounts, leases and bindings', () => {
    const node = { metadata: { name: 'node-1', creationTimestamp: created, labels: { 'node-role.kubernetes.io/control-plane': '' } }, spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'False' as const }], nodeInfo: { kubeletVersion: 'v1.28.0', osImage: 'Ubuntu', kernelVersion: '', containerRuntimeVersion: 'containerd://1.7.0' } as never, addresses: [{ type: 'InternalIP' as const, address: '172.18.0.2' }] } };
    expect(tableRowCells(res('', 'nodes'), node, now).cells).toEqual(['node-1', 'NotReady,SchedulingDisabled', 'control-plane', '5m3s', 'v1.28.0', '172.18.0.2', '<none>', 'Ubuntu', '<unknown>', 'containerd://1.7.0']);
    const ns: Namespace = { metadata: { name: 'default', creationTimestamp: created }, status: { phase: 'Active' } };
    expect(tableRowCells(res('', 'namespaces'), ns, now).cells).toEqual(['default', 'Active', '5m3s']);
    const event = { metadata: { name: 'nginx.17a2b3c4d5e6f789', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'nginx', fieldPath: 'spec.containers{nginx}' }, reason: 'Pulling', message: 'Pulling image "nginx:1.14.2"\n', type: 'Normal', source: { component: 'kubelet', host: 'node-1' }, firstTimestamp: '2023-08-15T00:04:00Z', lastTimestamp: '2023-08-15T00:05:00Z', count: 2 };
    expect(tableRowCells(res('', 'events'), event, now).cells).toEqual(['3s', 'Normal', 'Pulling', 'pod/nginx', 'spec.containers{nginx}', 'kubelet, node-1', 'Pulling image "nginx:1.14.2"', '63s', 2, 'nginx.17a2b3c4d5e6f789']);
    const cm: ConfigMap = { metadata: { name: 'kube-root-ca.crt', creationTimestamp: created }, data: { 'ca.crt': 'x' } };
    expect(tableRowCells(res('', 'configmaps'), cm, now).cells).toEqual(['kube-root-ca.crt', 1, '5m3s']);
    expect(tableRowCells(res('', 'serviceaccounts'), { metadata: { name: 'default', creationTimestamp: created } }, now).cells).toEqual(['default', 0, '5m3s']);
    const lease: Lease = { metadata: { name: 'node-1', creationTimestamp: created }, spec: { holderIdentity: 'node-1' } };
    expect(tableRowCells(res('coordination.k8s.io', 'leases'), lease, now).cells).toEqual(['node-1', 'node-1', '5m3s']);
    const rb = { metadata: { name: 'rb', creationTimestamp: created }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'default', namespace: 'ns' }, { kind: 'User', name: 'bob' }] };
    expect(tableRowCells(res('rbac.authorization.k8s.io', 'rolebindings'), rb, now).cells).toEqual(['rb', 'ClusterRole/view', '5m3s', 'alice, bob', '', 'ns/default']);
  });

  it('uses the default NAME / CREATED AT table for roles', () => {
    const roles = res('rbac.authorization.k8s.io', 'roles');
    expect(tableColumns(roles).map((c) => `${c.name}:${c.type}`)).toEqual(['Name:string', 'Created At:date']);
    expect(tableRowCells(roles, { metadata: { name: 'pod-reader', creationTimestamp: created } }, now).cells).toEqual(['pod-reader', '2023-08-15T00:00:00Z']);
  });
});

describe('toTable', () => {
  const p = pod({ phase: 'Pending' });

  it('carries PartialObjectMetadata by default, the object with includeObject=Object, nothing with None', () => {
    const table = toTable(pods, [p], { resourceVersion: '117' }, now) as Table;
    expect(table.kind).toBe('Table');
    expect(table.metadata).toEqual({ resourceVersion: '117' });
    expect(table.rows[0]!.object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: p.metadata });
    expect((toTable(pods, [p], {}, now, { includeObject: 'Object' }) as Table).rows[0]!.object).toMatchObject({ kind: 'Pod', apiVersion: 'v1', spec: p.spec });
    expect((toTable(pods, [p], {}, now, { includeObject: 'None' }) as Table).rows[0]).not.toHaveProperty('object');
    expect((toTable(pods, [p], {}, now, { noHeaders: true }) as Table).columnDefinitions).toBeNull();
  });

  it('rejects an unknown includeObject', () => {
    const r = toTable(pods, [p], {}, now, { includeObject: 'Everything' });
    expect(isStatusError(r) && r.message).toBe('unrecognized includeObject value: "Everything"');
  });
});
