import { describe, expect, it } from 'vitest';
import { applyDefaults, defaultImagePullPolicy, setDeploymentDefaults, setNamespaceDefaults, setNodeDefaults, setPodDefaults, setReplicaSetDefaults } from './defaults.ts';
import type { Deployment, Namespace, Node, Pod, ReplicaSet, RoleBinding } from './types/index.ts';

describe('imagePullPolicy rule', () => {
  it.each([
    ['nginx', 'Always'], ['nginx:latest', 'Always'], ['nginx:1.14.2', 'IfNotPresent'],
    ['registry.k8s.io/pause:3.9', 'IfNotPresent'], [`busybox@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
    ['localhost:5000/app', 'Always'], ['Nginx', 'IfNotPresent'], [undefined, 'IfNotPresent'],
  ])('%s → %s', (image, policy) => {
    expect(defaultImagePullPolicy(image)).toBe(policy);
  });
});

describe('Deployment defaults', () => {
  it('fills the nginx Deployment the way `kubectl get deploy -o yaml` shows it on 1.28', () => {
    const d: Deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
      spec: {
        selector: { matchLabels: { app: 'nginx' } },
        template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] } },
      },
    };
    setDeploymentDefaults(d);
    expect(d.spec).toEqual({
      progressDeadlineSeconds: 600,
      replicas: 1,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'nginx' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: {
          containers: [{
            image: 'nginx:1.14.2', imagePullPolicy: 'IfNotPresent', name: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }],
            resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
          }],
          dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    });
  });

  it('keeps what the user set and leaves rollingUpdate out of Recreate', () => {
    const d: Deployment = { metadata: {}, spec: { replicas: 0, selector: null, template: {}, strategy: { type: 'Recreate' }, revisionHistoryLimit: 2 } };
    setDeploymentDefaults(d);
    expect(d.spec?.replicas).toBe(0);
    expect(d.spec?.strategy).toEqual({ type: 'Recreate' });
    expect(d.spec?.revisionHistoryLimit).toBe(2);
  });

  it('does not add Pod-only defaults (enableServiceLinks, requests from limits) to templates', () => {
    const rs: ReplicaSet = { metadata: {}, spec: { selector: null, template: { spec: { containers: [{ name: 'c', image: 'x:1', resources: { limits: { cpu: '1' } } }] } } } };
    setReplicaSetDefaults(rs);
    expect(rs.spec?.replicas).toBe(1);
    expect(rs.spec?.template?.spec?.enableServiceLinks).toBeUndefined();
    expect(rs.spec?.template?.spec?.containers[0]?.resources).toEqual({ limits: { cpu: '1' } });
  });
});

describe('Pod defaults', () => {
  it('fills pod spec, containers, probes and volumes', () => {
    const pod: Pod = {
      metadata: { name: 'p' },
      spec: {
        containers: [{
          name: 'app', image: 'busybox', resources: { limits: { cpu: '0.5', memory: '128Mi' }, requests: { memory: '64Mi' } },
          livenessProbe: { httpGet: { port: 8080 } }, env: [{ name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
        }],
        volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'cfg' } }],
      },
    };
    setPodDefaults(pod);
    const c = pod.spec!.containers[0]!;
    expect(c.imagePullPolicy).toBe('Always');
    expect(c.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '64Mi' } });
    expect(c.livenessProbe).toEqual({ httpGet: { port: 8080, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.env?.[0]?.valueFrom?.fieldRef).toEqual({ fieldPath: 'metadata.namespace', apiVersion: 'v1' });
    expect(pod.spec!.volumes).toEqual([{ name: 'scratch', emptyDir: {} }, { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } }]);
    expect(pod.spec!.enableServiceLinks).toBe(true);
    expect(pod.spec!.schedulerName).toBe('default-scheduler');
    // Admission adds these, not defaulting.
    expect(pod.spec!.priority).toBeUndefined();
    expect(pod.spec!.tolerations).toBeUndefined();
    expect(pod.spec!.serviceAccountName).toBeUndefined();
  });

  it('copies container ports to host ports on the host network', () => {
    const pod: Pod = { metadata: {}, spec: { hostNetwork: true, containers: [{ name: 'c', ports: [{ containerPort: 53 }] }] } };
    setPodDefaults(pod);
    expect(pod.spec!.containers[0]!.ports).toEqual([{ containerPort: 53, hostPort: 53, protocol: 'TCP' }]);
  });
});

describe('other kinds', () => {
  it('labels namespaces with their name and marks them Active', () => {
    const ns: Namespace = { metadata: { name: 'team-a' } };
    setNamespaceDefaults(ns);
    expect(ns).toEqual({ metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } }, status: { phase: 'Active' } });
  });

  it('defaults node allocatable to capacity', () => {
    const node: Node = { metadata: { name: 'node-1' }, status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' } } };
    setNodeDefaults(node);
    expect(node.status?.allocatable).toEqual({ cpu: '4', memory: '8Gi', pods: '110' });
  });

  it('defaults RBAC binding groups and dispatches by kind', () => {
    const b: RoleBinding = { metadata: {}, roleRef: { apiGroup: '', kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'default', namespace: 'ns' }] };
    applyDefaults({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding' }, b);
    expect(b.roleRef.apiGroup).toBe('rbac.authorization.k8s.io');
    expect(b.subjects).toEqual([{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'default', namespace: 'ns' }]);
    const cm = { metadata: { name: 'c' }, data: {} };
    applyDefaults({ group: '', version: 'v1', kind: 'ConfigMap' }, cm);
    expect(cm).toEqual({ metadata: { name: 'c' }, data: {} });
  });
});
