// Server-side Tables, what `kubectl get` prints: the columns kube-apiserver 1.28 defines per
// resource (priority-1 columns are the `-o wide` ones; the server always fills them), the cells its
// printers compute (pod STATUS reasoning, READY counts, AGE as a human duration from the simulated
// now). Resources without a printer get the default NAME / CREATED AT row. The pod's row is
// print-pod.ts; the Table around the rows is table-convertor.ts.
// Models k8s pkg/printers/internalversion/printers.go and k8s.io/apiserver/pkg/registry/rest/table.go
// (defaultTableConvertor). Column descriptions drawn from API documentation are left empty; kubectl
// does not use them.

import { humanDuration, translateTimestampSince } from './duration.ts';
import { formatLabelSelector, labelSelectorAsSelector, labelSelectorString } from './labels.ts';
import { podRow } from './print-pod.ts';
import type { ResourceInfo } from './resources.ts';
import { formatTimestamp, parseTimestamp } from './time.ts';
import type {
  ClusterRoleBinding, ComponentStatus, ConfigMap, Container, Deployment, Event, Lease, Namespace, Node, Pod, ReplicaSet,
  RoleBinding, ServiceAccount, Service, Endpoints, EndpointSlice, PriorityClass, CronJob, DaemonSet, Ingress, Job, LabelSelector,
  PersistentVolume, PersistentVolumeClaim, ReplicationController, Secret, StatefulSet,
} from './types/index.ts';
import type { KubeObject, TableCell, TableColumnDefinition, TableRow } from './types/meta.ts';

type Column = readonly [name: string, type: string, priority?: 0 | 1, description?: string, format?: string];

const name: Column = ['Name', 'string', 0, '', 'name'];
const age: Column = ['Age', 'string'];

const templateColumns: readonly Column[] = [
  ['Containers', 'string', 1, 'Names of each container in the template.'], ['Images', 'string', 1, 'Images referenced by each container in the template.'],
];

const columns: Readonly<Record<string, readonly Column[]>> = {
  '/Pod': [
    name,
    ['Ready', 'string', 0, 'The aggregate readiness state of this pod for accepting traffic.'],
    ['Status', 'string', 0, 'The aggregate status of the containers in this pod.'],
    ['Restarts', 'string', 0, 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'],
    age, ['IP', 'string', 1], ['Node', 'string', 1], ['Nominated Node', 'string', 1], ['Readiness Gates', 'string', 1],
  ],
  'apps/Deployment': [
    name, ['Ready', 'string', 0, 'Number of the pod with ready state'], ['Up-to-date', 'string'], ['Available', 'string'], age,
    ['Containers', 'string', 1, 'Names of each container in the template.'], ['Images', 'string', 1, 'Images referenced by each container in the template.'], ['Selector', 'string', 1],
  ],
  'apps/ReplicaSet': [
    name, ['Desired', 'integer'], ['Current', 'integer'], ['Ready', 'integer'], age,
    ['Containers', 'string', 1, 'Names of each container in the template.'], ['Images', 'string', 1, 'Images referenced by each container in the template.'], ['Selector', 'string', 1],
  ],
  '/Node': [
    name, ['Status', 'string', 0, 'The status of the node'], ['Roles', 'string', 0, 'The roles of the node'], age, ['Version', 'string'],
    ['Internal-IP', 'string', 1], ['External-IP', 'string', 1], ['OS-Image', 'string', 1], ['Kernel-Version', 'string', 1], ['Container-Runtime', 'string', 1],
  ],
  '/Namespace': [name, ['Status', 'string', 0, 'The status of the namespace'], age],
  '/Event': [
    ['Last Seen', 'string'], ['Type', 'string'], ['Reason', 'string'], ['Object', 'string'], ['Subobject', 'string', 1], ['Source', 'string', 1],
    ['Message', 'string'], ['First Seen', 'string', 1], ['Count', 'string', 1], ['Name', 'string', 1, '', 'name'],
  ],
  '/ConfigMap': [name, ['Data', 'string'], age],
  '/ServiceAccount': [name, ['Secrets', 'string'], age],
  'coordination.k8s.io/Lease': [name, ['Holder', 'string'], age],
  '/Service': [
    name, ['Type', 'string', 0, 'The type of the service.'], ['Cluster-IP', 'string', 0, 'The IP address of the service.'],
    ['External-IP', 'string', 0, 'The external IP address of the service.'], ['Port(s)', 'string', 0, 'The ports that the service exposes.'], age,
    ['Selector', 'string', 1, 'The label selector of the service.'],
  ],
  '/Endpoints': [name, ['Endpoints', 'string', 0, 'Endpoints of the service'], age],
  '/ComponentStatus': [
    name, ['Status', 'string', 0, 'Status of the component conditions'], ['Message', 'string', 0, 'Message of the component conditions'],
    ['Error', 'string', 0, 'Error of the component conditions'],
  ],
  'discovery.k8s.io/EndpointSlice': [
    name, ['AddressType', 'string', 0, 'The address type of the EndpointSlice.'], ['Ports', 'string', 0, 'Ports that are contained within the EndpointSlice.'],
    ['Endpoints', 'string', 0, 'Endpoints contained within the EndpointSlice.'], age,
  ],
  'scheduling.k8s.io/PriorityClass': [
    name, ['Value', 'integer', 0, 'The value of the priority class.'], ['Global-Default', 'boolean', 0, 'The globalDefault field of the priority class.'], age,
  ],
  '/Secret': [name, ['Type', 'string'], ['Data', 'string'], age],
  '/PersistentVolumeClaim': [
    name, ['Status', 'string'], ['Volume', 'string'], ['Capacity', 'string'], ['Access Modes', 'string'], ['StorageClass', 'string'], age,
    ['VolumeMode', 'string', 1],
  ],
  '/PersistentVolume': [
    name, ['Capacity', 'string'], ['Access Modes', 'string'], ['Reclaim Policy', 'string'], ['Status', 'string'], ['Claim', 'string'],
    ['StorageClass', 'string'], ['Reason', 'string'], age, ['VolumeMode', 'string', 1],
  ],
  '/ReplicationController': [
    name, ['Desired', 'integer'], ['Current', 'integer'], ['Ready', 'integer'], age, ...templateColumns, ['Selector', 'string', 1],
  ],
  'apps/DaemonSet': [
    name, ['Desired', 'integer'], ['Current', 'integer'], ['Ready', 'integer'], ['Up-to-date', 'integer'], ['Available', 'integer'],
    ['Node Selector', 'string'], age, ...templateColumns, ['Selector', 'string', 1],
  ],
  'apps/StatefulSet': [name, ['Ready', 'string', 0, 'Number of the pod with ready state'], age, ...templateColumns],
  'batch/Job': [
    name, ['Completions', 'string'], ['Duration', 'string', 0, 'Time required to complete the job.'], age, ...templateColumns, ['Selector', 'string', 1],
  ],
  'batch/CronJob': [
    name, ['Schedule', 'string'], ['Suspend', 'boolean'], ['Active', 'integer'], ['Last Schedule', 'string'], age, ...templateColumns,
    ['Selector', 'string', 1],
  ],
  'networking.k8s.io/Ingress': [name, ['Class', 'string'], ['Hosts', 'string'], ['Address', 'string'], ['Ports', 'string'], age],
  'rbac.authorization.k8s.io/RoleBinding': [
    name, ['Role', 'string'], age, ['Users', 'string', 1, 'Users in the roleBinding'], ['Groups', 'string', 1, 'Groups in the roleBinding'],
    ['ServiceAccounts', 'string', 1, 'ServiceAccounts in the roleBinding'],
  ],
  'rbac.authorization.k8s.io/ClusterRoleBinding': [
    name, ['Role', 'string'], age, ['Users', 'string', 1, 'Users in the clusterRoleBinding'], ['Groups', 'string', 1, 'Groups in the clusterRoleBinding'],
    ['ServiceAccounts', 'string', 1, 'ServiceAccounts in the clusterRoleBinding'],
  ],
};

/** The default convertor's columns, for kinds without a printer (Roles, ClusterRoles). */
const defaultColumns: readonly Column[] = [name, ['Created At', 'date']];

const kindKey = (r: ResourceInfo): string => `${r.group}/${r.kind}`;

/** The Table columns of a resource, in order. */
export function tableColumns(r: ResourceInfo): TableColumnDefinition[] {
  return (columns[kindKey(r)] ?? defaultColumns).map(([n, type, priority = 0, description = '', format = '']) => ({ name: n, type, format, description, priority }));
}

// Models printers.go printComponentStatus: the Healthy condition's status, message and error.
function componentStatusRow(cs: ComponentStatus): TableCell[] {
  const healthy = (cs.conditions ?? []).find((c) => c.type === 'Healthy');
  const status = healthy === undefined ? 'Unknown' : healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
  return [cs.metadata.name ?? '', status, healthy?.message ?? '', healthy?.error ?? ''];
}

function containerCells(containers: readonly Container[] | undefined): [string, string] {
  return [(containers ?? []).map((c) => c.name).join(','), (containers ?? []).map((c) => c.image ?? '').join(',')];
}

function nodeRow(node: Node, nowMs: number): TableCell[] {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const status = ready === undefined ? ['Unknown'] : [ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  const address = (type: string): string => (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
  const info = node.status?.nodeInfo;
  return [
    node.metadata.name ?? '', status.join(','), [...roles].sort().join(',') || '<none>', translateTimestampSince(node.metadata.creationTimestamp, nowMs), info?.kubeletVersion ?? '',
    address('InternalIP'), address('ExternalIP'), info?.osImage || '<unknown>', info?.kernelVersion || '<unknown>', info?.containerRuntimeVersion || '<unknown>',
  ];
}

function eventRow(e: Event, nowMs: number): TableCell[] {
  let firstSeen = translateTimestampSince(e.firstTimestamp, nowMs);
  if (!e.firstTimestamp) firstSeen = translateTimestampSince(e.eventTime, nowMs);
  let lastSeen = e.lastTimestamp ? translateTimestampSince(e.lastTimestamp, nowMs) : firstSeen;
  let count = e.count ?? 0;
  if (e.series !== undefined) {
    lastSeen = translateTimestampSince(e.series.lastObservedTime, nowMs);
    count = e.series.count ?? 0;
  } else if (count === 0) {
    count = 1;
  }
  const kind = (e.involvedObject.kind ?? '').toLowerCase();
  const target = e.involvedObject.name ? `${kind}/${e.involvedObject.name}` : kind;
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  const source = instance === '' ? component : `${component}, ${instance}`;
  return [lastSeen, e.type ?? '', e.reason ?? '', target, e.involvedObject.fieldPath ?? '', source, (e.message ?? '').trim(), firstSeen, count, e.metadata.name ?? ''];
}

function bindingRow(b: RoleBinding | ClusterRoleBinding, nowMs: number): TableCell[] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of b.subjects ?? []) {
    if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`);
    else if (s.kind === 'User') users.push(s.name);
    else if (s.kind === 'Group') groups.push(s.name);
  }
  return [b.metadata.name ?? '', `${b.roleRef.kind}/${b.roleRef.name}`, translateTimestampSince(b.metadata.creationTimestamp, nowMs), users.join(', '), groups.join(', '), sas.join(', ')];
}

/** printService: TYPE, CLUSTER-IP, EXTERNAL-IP (getServiceExternalIP), PORT(S) (makePortString), SELECTOR. */
function serviceRow(svc: Service, nowMs: number): TableCell[] {
  const spec = svc.spec ?? {};
  const type = spec.type ?? '';
  const clusterIP = (spec.clusterIPs ?? []).length > 0 ? spec.clusterIPs![0]! : '<none>';
  const external = spec.externalIPs ?? [];
  let externalIP: string;
  switch (type) {
    case 'ClusterIP': case 'NodePort': externalIP = external.length > 0 ? external.join(',') : '<none>'; break;
    case 'LoadBalancer': {
      const ingress = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((x) => x !== '');
      const all = [...ingress, ...external];
      externalIP = all.length > 0 ? all.join(',') : '<pending>';
      break;
    }
    case 'ExternalName': externalIP = spec.externalName ?? ''; break;
    default: externalIP = '<unknown>';
  }
  const ports = (spec.ports ?? []).map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`)).join(',');
  const selector = Object.keys(spec.selector ?? {}).sort().map((k) => `${k}=${spec.selector![k]}`).join(',');
  return [svc.metadata.name ?? '', type, clusterIP, externalIP, ports === '' ? '<none>' : ports, translateTimestampSince(svc.metadata.creationTimestamp, nowMs), selector === '' ? '<none>' : selector];
}

/** formatEndpoints: up to 3 `ip:port` (or ip for port-less subsets), then ` + N more...`; `<none>` without subsets. */
function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    if ((ss.ports ?? []).length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(a.ip);
      }
      continue;
    }
    for (const port of ss.ports ?? []) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(a.ip.includes(':') ? `[${a.ip}]:${port.port}` : `${a.ip}:${port.port}`);
      }
    }
  }
  const joined = list.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

/** listWithMoreString: at most 3, then ` + N more...`; `<unset>` when empty. */
function listWithMore(items: readonly string[]): string {
  const max = 3;
  const joined = items.slice(0, max).join(',');
  if (items.length > max) return `${joined} + ${items.length - max} more...`;
  return joined === '' ? '<unset>' : joined;
}

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` when empty. */
function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const pairs = Object.keys(labels ?? {}).sort().map((k) => `${k}=${labels![k]}`);
  return pairs.length === 0 ? '<none>' : pairs.join(',');
}

/** GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
function accessModesString(modes: readonly string[] | undefined): string {
  const short: ReadonlyArray<readonly [string, string]> = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];
  return short.filter(([mode]) => (modes ?? []).includes(mode)).map(([, s]) => s).join(',');
}

function selectorString(selector: LabelSelector | null | undefined): string {
  const parsed = labelSelectorAsSelector(selector);
  return parsed.ok ? labelSelectorString(parsed.value) : '<invalid>';
}

/** printPersistentVolumeClaim: capacity and access modes from status once bound to a volume. */
function claimRow(pvc: PersistentVolumeClaim, created: string): TableCell[] {
  const bound = Boolean(pvc.spec?.volumeName);
  const phase = pvc.metadata.deletionTimestamp ? 'Terminating' : pvc.status?.phase ?? '';
  const storageClass = pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName ?? '';
  return [pvc.metadata.name ?? '', phase, pvc.spec?.volumeName ?? '', bound ? pvc.status?.capacity?.['storage'] ?? '0' : '',
    bound ? accessModesString(pvc.status?.accessModes) : '', storageClass, created, pvc.spec?.volumeMode ?? '<unset>'];
}

function volumeRow(pv: PersistentVolume, created: string): TableCell[] {
  const s = pv.spec ?? {};
  const claim = s.claimRef === undefined ? '' : `${s.claimRef.namespace ?? ''}/${s.claimRef.name ?? ''}`;
  const storageClass = pv.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? s.storageClassName ?? '';
  return [pv.metadata.name ?? '', s.capacity?.['storage'] ?? '0', accessModesString(s.accessModes), s.persistentVolumeReclaimPolicy ?? '',
    pv.metadata.deletionTimestamp ? 'Terminating' : pv.status?.phase ?? '', claim, storageClass, pv.status?.reason ?? '', created, s.volumeMode ?? '<unset>'];
}

/** printJob: COMPLETIONS (`n/c`, `n/1 of p`), DURATION from start to completion (or now). */
function jobRow(job: Job, created: string, nowMs: number): TableCell[] {
  const succeeded = job.status?.succeeded ?? 0;
  const parallelism = job.spec.parallelism ?? 0;
  const completions = job.spec.completions !== undefined ? `${succeeded}/${job.spec.completions}`
    : parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
  const start = job.status?.startTime ? parseTimestamp(job.status.startTime) : undefined;
  const end = job.status?.completionTime ? parseTimestamp(job.status.completionTime) : undefined;
  const duration = start === undefined ? '' : humanDuration((end ?? nowMs) - start);
  return [job.metadata.name ?? '', completions, duration, created, ...containerCells(job.spec.template?.spec?.containers), selectorString(job.spec.selector)];
}

/** printIngress: CLASS, HOSTS (3 then ` + N more...`, `*` when none), ADDRESS, PORTS (80, plus 443 with TLS). */
function ingressRow(ing: Ingress, created: string): TableCell[] {
  const rules = ing.spec?.rules ?? [];
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === 3) more = true;
    if (!more && rule.host) hosts.push(rule.host);
  }
  const hostsCell = hosts.length === 0 ? '*' : more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
  let address = (ing.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((a) => a !== '').join(',');
  if (address.length > 16) address = `${address.slice(0, 13)}...`;
  return [ing.metadata.name ?? '', ing.spec?.ingressClassName ?? '<none>', hostsCell, address, (ing.spec?.tls ?? []).length > 0 ? '80, 443' : '80', created];
}

/** The cells (and row conditions) of one object, as the server computes them at `nowMs`. */
export function tableRowCells(r: ResourceInfo, obj: KubeObject, nowMs: number): Pick<TableRow, 'cells' | 'conditions'> {
  const created = translateTimestampSince(obj.metadata.creationTimestamp, nowMs);
  const n = obj.metadata.name ?? '';
  switch (kindKey(r)) {
    case '/Pod': return podRow(obj as Pod, nowMs);
    case 'apps/Deployment': {
      const d = obj as Deployment;
      const selector = labelSelectorAsSelector(d.spec.selector);
      return {
        cells: [n, `${d.status?.readyReplicas ?? 0}/${d.spec.replicas ?? 0}`, d.status?.updatedReplicas ?? 0, d.status?.availableReplicas ?? 0, created,
          ...containerCells(d.spec.template?.spec?.containers), selector.ok ? labelSelectorString(selector.value) : '<invalid>'],
      };
    }
    case 'apps/ReplicaSet': {
      const rs = obj as ReplicaSet;
      return {
        cells: [n, rs.spec.replicas ?? 0, rs.status?.replicas ?? 0, rs.status?.readyReplicas ?? 0, created,
          ...containerCells(rs.spec.template?.spec?.containers), formatLabelSelector(rs.spec.selector)],
      };
    }
    case '/Node': return { cells: nodeRow(obj as Node, nowMs) };
    case '/Namespace': return { cells: [n, (obj as Namespace).status?.phase ?? '', created] };
    case '/Event': return { cells: eventRow(obj as Event, nowMs) };
    case '/ConfigMap': {
      const cm = obj as ConfigMap;
      return { cells: [n, Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length, created] };
    }
    case '/ServiceAccount': return { cells: [n, ((obj as ServiceAccount).secrets ?? []).length, created] };
    case 'coordination.k8s.io/Lease': return { cells: [n, (obj as Lease).spec?.holderIdentity ?? '', created] };
    case '/Service': return { cells: serviceRow(obj as Service, nowMs) };
    case '/Endpoints': return { cells: [n, formatEndpoints(obj as Endpoints), created] };
    case '/ComponentStatus': return { cells: componentStatusRow(obj as ComponentStatus) };
    case 'discovery.k8s.io/EndpointSlice': {
      const slice = obj as EndpointSlice;
      const ports = (slice.ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : p.name ?? '*'));
      const addresses = (slice.endpoints ?? []).flatMap((e) => e.addresses);
      return { cells: [n, slice.addressType, listWithMore(ports), listWithMore(addresses), created] };
    }
    case 'scheduling.k8s.io/PriorityClass': {
      const pc = obj as PriorityClass;
      return { cells: [n, pc.value, pc.globalDefault ?? false, created] };
    }
    case 'rbac.authorization.k8s.io/RoleBinding': case 'rbac.authorization.k8s.io/ClusterRoleBinding':
      return { cells: bindingRow(obj as RoleBinding, nowMs) };
    case '/Secret': {
      const secret = obj as Secret;
      return { cells: [n, secret.type ?? '', Object.keys(secret.data ?? {}).length, created] };
    }
    case '/PersistentVolumeClaim': return { cells: claimRow(obj as PersistentVolumeClaim, created) };
    case '/PersistentVolume': return { cells: volumeRow(obj as PersistentVolume, created) };
    case '/ReplicationController': {
      const rc = obj as ReplicationController;
      return {
        cells: [n, rc.spec?.replicas ?? 0, rc.status?.replicas ?? 0, rc.status?.readyReplicas ?? 0, created,
          ...containerCells(rc.spec?.template?.spec?.containers), formatLabels(rc.spec?.selector)],
      };
    }
    case 'apps/DaemonSet': {
      const ds = obj as DaemonSet;
      const st = ds.status;
      return {
        cells: [n, st?.desiredNumberScheduled ?? 0, st?.currentNumberScheduled ?? 0, st?.numberReady ?? 0, st?.updatedNumberScheduled ?? 0,
          st?.numberAvailable ?? 0, formatLabels(ds.spec.template?.spec?.nodeSelector), created, ...containerCells(ds.spec.template?.spec?.containers),
          selectorString(ds.spec.selector)],
      };
    }
    case 'apps/StatefulSet': {
      const sts = obj as StatefulSet;
      return { cells: [n, `${sts.status?.readyReplicas ?? 0}/${sts.spec.replicas ?? 0}`, created, ...containerCells(sts.spec.template?.spec?.containers)] };
    }
    case 'batch/Job': return { cells: jobRow(obj as Job, created, nowMs) };
    case 'batch/CronJob': {
      const cj = obj as CronJob;
      const last = cj.status?.lastScheduleTime ? translateTimestampSince(cj.status.lastScheduleTime, nowMs) : '<none>';
      const suspend = cj.spec.suspend === undefined ? '<unset>' : cj.spec.suspend ? 'True' : 'False';
      return {
        cells: [n, cj.spec.schedule, suspend, (cj.status?.active ?? []).length, last, created,
          ...containerCells(cj.spec.jobTemplate.spec?.template?.spec?.containers), formatLabelSelector(cj.spec.jobTemplate.spec?.selector)],
      };
    }
    case 'networking.k8s.io/Ingress': return { cells: ingressRow(obj as Ingress, created) };
    default: {
      const t = obj.metadata.creationTimestamp ? parseTimestamp(obj.metadata.creationTimestamp) : undefined;
      return { cells: [n, t === undefined ? '0001-01-01T00:00:00Z' : formatTimestamp(t)] };
    }
  }
}
