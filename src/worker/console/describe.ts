// `kubectl describe` for the objects Podflow serves: the common header (Name, Namespace, Labels,
// Annotations, CreationTimestamp), a few kind-specific sections (Pod, Deployment, ReplicaSet, Node) and
// the Events table from the involvedObject field-selected event list.
// Models k8s.io/kubectl/pkg/describe/describe.go (PodDescriber, DeploymentDescriber,
// ReplicaSetDescriber, NodeDescriber, DescribeEvents) in a reduced form: volumes, QoS, tolerations and
// resource requests are not printed.

import type { ResourceInfo } from '../../sim/api/resources.ts';
import { tabwrite } from './kubectl-print.ts';

type Obj = Record<string, unknown>;

function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) cur = typeof cur === 'object' && cur !== null ? (cur as Obj)[part] : undefined;
  return cur;
}

const str = (v: unknown, none = '<none>'): string => (v === undefined || v === null || v === '' ? none : String(v));

/** Map fields as describe prints them: the first on the label's line, the rest indented below. */
function mapLines(label: string, map: unknown): string {
  const keys = Object.keys((map ?? {}) as Obj).sort();
  const pad = label.padEnd(16);
  if (keys.length === 0) return `${pad}<none>\n`;
  return keys.map((k, i) => `${i === 0 ? pad : ' '.repeat(16)}${k}=${String((map as Obj)[k])}\n`).join('');
}

/** Go's time.Time.String()-free RFC 1123 form describe uses: `Sun, 22 Nov 2026 04:51:19 +0000`. */
function rfc1123(ts: unknown): string {
  if (typeof ts !== 'string') return '<unknown>';
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** duration.HumanDuration in its short forms: `5s`, `3m20s`, `2h`. */
function age(fromMs: number, nowMs: number): string {
  const s = Math.max(0, Math.floor((nowMs - fromMs) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  return `${Math.floor(m / 60)}h`;
}

function podSection(pod: Obj): string {
  let out = '';
  out += `Node:             ${str(at(pod, 'spec.nodeName'))}\n`;
  out += `Status:           ${str(at(pod, 'status.phase'))}\n`;
  out += `IP:               ${str(at(pod, 'status.podIP'), '')}\n`;
  const owners = (at(pod, 'metadata.ownerReferences') as Obj[] | undefined) ?? [];
  const controller = owners.find((o) => o.controller === true);
  if (controller) out += `Controlled By:    ${String(controller.kind)}/${String(controller.name)}\n`;
  out += 'Containers:\n';
  const statuses = (at(pod, 'status.containerStatuses') as Obj[] | undefined) ?? [];
  for (const c of (at(pod, 'spec.containers') as Obj[] | undefined) ?? []) {
    const status = statuses.find((s) => s.name === c.name);
    out += `  ${String(c.name)}:\n`;
    out += `    Image:          ${str(c.image)}\n`;
    const ports = (c.ports as Obj[] | undefined) ?? [];
    out += `    Port:           ${ports.length === 0 ? '<none>' : ports.map((p) => `${String(p.containerPort)}/${String(p.protocol ?? 'TCP')}`).join(', ')}\n`;
    const state = (status?.state ?? {}) as Obj;
    const stateName = Object.keys(state)[0];
    out += `    State:          ${stateName ? stateName.charAt(0).toUpperCase() + stateName.slice(1) : 'Waiting'}\n`;
    const reason = stateName ? (state[stateName] as Obj).reason : undefined;
    if (reason) out += `      Reason:       ${String(reason)}\n`;
    out += `    Ready:          ${status?.ready === true ? 'True' : 'False'}\n`;
    out += `    Restart Count:  ${String(status?.restartCount ?? 0)}\n`;
  }
  const conditions = (at(pod, 'status.conditions') as Obj[] | undefined) ?? [];
  if (conditions.length > 0) {
    out += 'Conditions:\n';
    out += tabwrite([['Type', 'Status'], ...conditions.map((c) => [String(c.type), String(c.status)])]).replace(/^/gm, '  ');
  }
  return out;
}

function deploymentSection(d: Obj): string {
  const replicas = `${String(at(d, 'spec.replicas') ?? 1)} desired | ${String(at(d, 'status.updatedReplicas') ?? 0)} updated | ${String(at(d, 'status.replicas') ?? 0)} total | ${String(at(d, 'status.availableReplicas') ?? 0)} available | ${String(at(d, 'status.unavailableReplicas') ?? 0)} unavailable`;
  const labels = (at(d, 'spec.selector.matchLabels') ?? {}) as Obj;
  let out = `Selector:               ${Object.keys(labels).sort().map((k) => `${k}=${String(labels[k])}`).join(',') || '<none>'}\n`;
  out += `Replicas:               ${replicas}\n`;
  out += `StrategyType:           ${str(at(d, 'spec.strategy.type'))}\n`;
  out += `MinReadySeconds:        ${String(at(d, 'spec.minReadySeconds') ?? 0)}\n`;
  if (at(d, 'spec.strategy.type') === 'RollingUpdate') {
    out += `RollingUpdateStrategy:  ${String(at(d, 'spec.strategy.rollingUpdate.maxUnavailable') ?? '25%')} max unavailable, ${String(at(d, 'spec.strategy.rollingUpdate.maxSurge') ?? '25%')} max surge\n`;
  }
  out += 'Pod Template:\n';
  for (const c of (at(d, 'spec.template.spec.containers') as Obj[] | undefined) ?? []) {
    out += `   ${String(c.name)}:\n    Image:        ${str(c.image)}\n`;
  }
  const conditions = (at(d, 'status.conditions') as Obj[] | undefined) ?? [];
  if (conditions.length > 0) {
    out += 'Conditions:\n';
    out += tabwrite([['Type', 'Status', 'Reason'], ['----', '------', '------'], ...conditions.map((c) => [String(c.type), String(c.status), String(c.reason ?? '')])]).replace(/^/gm, '  ');
  }
  return out;
}

function replicaSetSection(rs: Obj): string {
  const owners = (at(rs, 'metadata.ownerReferences') as Obj[] | undefined) ?? [];
  const controller = owners.find((o) => o.controller === true);
  let out = '';
  if (controller) out += `Controlled By:  ${String(controller.kind)}/${String(controller.name)}\n`;
  out += `Replicas:       ${String(at(rs, 'status.replicas') ?? 0)} current / ${String(at(rs, 'spec.replicas') ?? 1)} desired\n`;
  out += `Pods Status:    ${String(at(rs, 'status.readyReplicas') ?? 0)} Running / 0 Waiting / 0 Succeeded / 0 Failed\n`;
  return out;
}

function nodeSection(node: Obj): string {
  const conditions = (at(node, 'status.conditions') as Obj[] | undefined) ?? [];
  let out = 'Conditions:\n';
  out += tabwrite([['Type', 'Status', 'Reason'], ['----', '------', '------'], ...conditions.map((c) => [String(c.type), String(c.status), String(c.reason ?? '')])]).replace(/^/gm, '  ');
  return out;
}

function eventsSection(events: readonly Obj[], nowMs: number): string {
  if (events.length === 0) return 'Events:            <none>\n';
  const rows = [['Type', 'Reason', 'Age', 'From', 'Message'], ['----', '------', '----', '----', '-------']];
  for (const e of events) {
    const last = Date.parse(String(e.lastTimestamp ?? e.eventTime ?? ''));
    const count = Number(e.count ?? 1);
    const first = Date.parse(String(e.firstTimestamp ?? e.eventTime ?? ''));
    const ageText = Number.isNaN(last) ? '<unknown>' : count > 1 && !Number.isNaN(first) ? `${age(last, nowMs)} (x${count} over ${age(first, nowMs)})` : age(last, nowMs);
    rows.push([String(e.type ?? ''), String(e.reason ?? ''), ageText, String(at(e, 'source.component') ?? e.reportingComponent ?? ''), String(e.message ?? '').trim()]);
  }
  return `Events:\n${tabwrite(rows, 2).replace(/^/gm, '  ')}`;
}

/** The describe text of one object with its events. */
export function describeObject(r: ResourceInfo, obj: Obj, events: readonly Obj[], nowMs: number): string {
  let out = `Name:             ${str(at(obj, 'metadata.name'))}\n`;
  if (r.namespaced) out += `Namespace:        ${str(at(obj, 'metadata.namespace'))}\n`;
  out += `CreationTimestamp:  ${rfc1123(at(obj, 'metadata.creationTimestamp'))}\n`;
  out += mapLines('Labels:', at(obj, 'metadata.labels'));
  out += mapLines('Annotations:', at(obj, 'metadata.annotations'));
  if (r.kind === 'Pod') out += podSection(obj);
  else if (r.kind === 'Deployment') out += deploymentSection(obj);
  else if (r.kind === 'ReplicaSet') out += replicaSetSection(obj);
  else if (r.kind === 'Node') out += nodeSection(obj);
  return out + eventsSection(events, nowMs);
}
