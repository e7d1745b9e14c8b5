import { describe, expect, it } from 'vitest';
import { setDeploymentDefaults, setPodDefaults } from '../defaults.ts';
import { newInvalid } from '../errors.ts';
import { fieldErrorString, type FieldError } from '../field.ts';
import type { ConfigMap, Deployment, Lease, Namespace, Node, Pod, ReplicaSet, RoleBinding } from '../types/index.ts';
import { validateCreate, validateStatusUpdate, validateUpdate } from './index.ts';

const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function nginxDeployment(): Deployment {
  const d: Deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx-deployment', namespace: 'default', labels: { app: 'nginx' } },
    spec: {
      replicas: 1, selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] } },
    },
  };
  setDeploymentDefaults(d);
  return d;
}

function pod(spec: Partial<Pod['spec']> = {}): Pod {
  const p: Pod = { metadata: { name: 'nginx', namespace: 'default' }, spec: { containers: [{ name: 'nginx', image: 'nginx' }], ...spec } };
  setPodDefaults(p);
  return p;
}

const deploymentGVK = { group: 'apps', version: 'v1', kind: 'Deployment' };
const podGVK = { group: '', version: 'v1', kind: 'Pod' };

describe('Deployment validation', () => {
  it('accepts the seeds\' nginx Deployment', () => {
    expect(validateCreate(deploymentGVK, nginxDeployment())).toEqual([]);
  });

  it('words negative replicas and the aggregated 422 as the apiserver does', () => {
    const d = nginxDeployment();
    d.spec!.replicas = -1;
    const errs = validateCreate(deploymentGVK, d);
    expect(strings(errs)).toEqual(['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
    expect(newInvalid({ group: 'apps', kind: 'Deployment' }, 'nginx-deployment', errs).message)
      .toBe('Deployment.apps "nginx-deployment" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('reports a missing selector twice, as apps/v1 users see it', () => {
    const d = nginxDeployment();
    d.spec!.selector = null;
    expect(newInvalid({ group: 'apps', kind: 'Deployment' }, 'nginx-deployment', validateCreate(deploymentGVK, d)).message).toBe(
      'Deployment.apps "nginx-deployment" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`]');
  });

  it('rejects selectors that do not match and empty selectors', () => {
    const d = nginxDeployment();
    d.spec!.selector = { matchLabels: { app: 'web' } };
    expect(strings(validateCreate(deploymentGVK, d))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`',
    ]);
    d.spec!.selector = {};
    expect(strings(validateCreate(deploymentGVK, d))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    ]);
  });

  it('checks the rolling update parameters and the template restart policy', () => {
    const d = nginxDeployment();
    d.spec!.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25', maxUnavailable: 0 } };
    d.spec!.template.spec!.restartPolicy = 'Never';
    d.spec!.progressDeadlineSeconds = 0;
    expect(strings(validateCreate(deploymentGVK, d))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"25\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      'spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds',
    ]);
    d.spec!.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } };
    d.spec!.template.spec!.restartPolicy = 'Always';
    d.spec!.progressDeadlineSeconds = 600;
    expect(strings(validateCreate(deploymentGVK, d))).toEqual([
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when `maxSurge` is 0',
    ]);
  });

  it('checks names and status writes', () => {
    const d = nginxDeployment();
    d.metadata.name = 'Nginx';
    expect(strings(validateCreate(deploymentGVK, d))).toEqual([`metadata.name: Invalid value: "Nginx": ${subdomainMsg}`]);
    const old = nginxDeployment();
    old.metadata.resourceVersion = '5';
    const updated = { ...nginxDeployment(), metadata: { ...old.metadata }, status: { replicas: 1, readyReplicas: 2, availableReplicas: 1 } };
    expect(strings(validateStatusUpdate(deploymentGVK, updated, old))).toEqual(['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas']);
  });

  it('validates ReplicaSets with the same template rules', () => {
    const rs: ReplicaSet = { metadata: { name: 'my-replicaset', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' } } } };
    expect(validateCreate({ group: 'apps', version: 'v1', kind: 'ReplicaSet' }, rs)).toEqual([]);
  });
});

describe('Pod validation', () => {
  it('accepts a defaulted pod', () => {
    expect(validateCreate(podGVK, pod())).toEqual([]);
  });

  it('requires containers, names and images', () => {
    // kubectl-wire.md §4: `The Pod "x" is invalid: spec.containers[0].image: Required value`.
    const p = pod();
    delete p.spec!.containers[0]!.image;
    expect(strings(validateCreate(podGVK, p))).toEqual(['spec.containers[0].image: Required value']);
    expect(strings(validateCreate(podGVK, pod({ containers: [] })))).toEqual(['spec.containers: Required value']);
    const dup = pod({ containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'y' }, { name: 'B_c', image: 'z' }] });
    expect(strings(validateCreate(podGVK, dup))).toEqual([
      'spec.containers[1].name: Duplicate value: "a"',
      "spec.containers[2].name: Invalid value: \"B_c\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('checks ports, policies, resources, mounts and tolerations', () => {
    const p = pod({
      containers: [{
        name: 'app', image: 'app:1', ports: [{ containerPort: 0 }, { containerPort: 70000, name: 'Web' }], imagePullPolicy: 'Sometimes' as 'Always',
        resources: { limits: { cpu: '500m' }, requests: { cpu: '1' } }, volumeMounts: [{ name: 'data', mountPath: '/data' }],
      }],
      restartPolicy: 'Sometimes' as 'Always',
      tolerations: [{ operator: 'Equal', value: 'x' }],
    });
    p.spec!.containers[0]!.ports![1]!.protocol = 'HTTP' as 'TCP';
    expect(strings(validateCreate(podGVK, p))).toEqual([
      'spec.containers[0].ports[0].containerPort: Required value',
      'spec.containers[0].ports[1].name: Invalid value: "Web": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[0].volumeMounts[0].name: Not found: "data"',
      'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      'spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ]);
  });

  it('forbids pod spec changes other than images, deadlines and added tolerations', () => {
    const old = pod();
    old.metadata.resourceVersion = '10';
    const imageOnly = clone(old);
    imageOnly.spec!.containers[0]!.image = 'nginx:1.16';
    expect(validateUpdate(podGVK, imageOnly, old)).toEqual([]);

    const portChange = clone(old);
    portChange.spec!.containers[0]!.ports = [{ containerPort: 81, protocol: 'TCP' }];
    const [err] = validateUpdate(podGVK, portChange, old);
    expect(err?.field).toBe('spec');
    expect(err?.type).toBe('FieldValueForbidden');
    expect(err?.detail.split('\n')[0]).toBe('pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)');
    expect(err?.detail).toContain('+ spec.containers[0].ports: [{"containerPort":81,"protocol":"TCP"}]');

    const removed = clone(old);
    removed.spec!.containers = [];
    expect(strings(validateUpdate(podGVK, removed, old))).toContain('spec.containers: Forbidden: pod updates may not add or remove containers');

    const noVersion = clone(imageOnly);
    delete noVersion.metadata.resourceVersion;
    expect(strings(validateUpdate(podGVK, noVersion, old))).toEqual(['metadata.resourceVersion: Invalid value: "": must be specified for an update']);
  });

  it('validates binding targets', () => {
    const binding = { metadata: { name: 'p' }, target: { kind: 'Pod', name: '' } };
    expect(strings(validateCreate({ group: '', version: 'v1', kind: 'Binding' }, binding))).toEqual([
      'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"',
      'target.name: Required value',
    ]);
  });
});

describe('other kinds', () => {
  it('validates namespaces, nodes, configmaps and leases', () => {
    expect(strings(validateCreate({ group: '', version: 'v1', kind: 'Namespace' }, { metadata: { name: 'a.b' } } as Namespace))).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
    expect(strings(validateCreate({ group: '', version: 'v1', kind: 'Namespace' }, { metadata: { name: 'a', namespace: 'x' } } as Namespace))).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
    const node: Node = { metadata: { name: 'node-1' }, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', effect: 'NoSchedule' }, { key: 'k2', effect: 'Sometimes' as 'NoSchedule' }] } };
    expect(strings(validateCreate({ group: '', version: 'v1', kind: 'Node' }, node))).toEqual([
      'metadata.taints[1]: Duplicate value: core.Taint{Key:"k", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
      'metadata.taints[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]);
    const cm: ConfigMap = { metadata: { name: 'c', namespace: 'default' }, data: { 'bad key': 'v' } };
    expect(strings(validateCreate({ group: '', version: 'v1', kind: 'ConfigMap' }, cm))).toEqual([
      "data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
    const lease: Lease = { metadata: { name: 'node-1', namespace: 'kube-node-lease' }, spec: { leaseDurationSeconds: 0 } };
    expect(strings(validateCreate({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' }, lease))).toEqual(['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']);
  });

  it('requires namespaces on namespaced kinds and validates RBAC bindings', () => {
    expect(strings(validateCreate({ group: '', version: 'v1', kind: 'ServiceAccount' }, { metadata: { name: 'default' } }))).toEqual(['metadata.namespace: Required value']);
    const rb: RoleBinding = { metadata: { name: 'rb', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Pod', name: 'r' }, subjects: [{ kind: 'Robot', name: 'x' }] };
    expect(strings(validateCreate({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding' }, rb))).toEqual([
      'roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"',
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ]);
  });

  it('checks metadata on every create', () => {
    const errs = validateCreate(podGVK, { ...pod(), metadata: { namespace: 'default', labels: { 'app!': 'x' }, finalizers: ['custom'] } });
    expect(strings(errs)).toEqual([
      'metadata.name: Required value: name or generateName is required',
      "metadata.labels: Invalid value: \"app!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });
});
