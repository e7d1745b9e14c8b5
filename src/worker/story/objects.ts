// Small readers of what the model sends and stores, for the story classifier: the object an HTTP path or
// an etcd key names, and the parts of stored objects whose changes are milestones. Everything here reads
// plain data the model produced; nothing is invented.

import type { ObjectRef } from '../../protocol/index.ts';
import { servedResources } from '../../sim/api/resources.ts';

const byStorage = new Map(servedResources.map((r) => [r.storageResource, r] as const));
const byResource = new Map(servedResources.map((r) => [`${r.group}/${r.resource}`, r] as const));

/** The etcd key prefix the model stores objects under. */
export const registryPrefix = '/registry/';

/**
 * The object an etcd key holds: `/registry/<storageResource>/<ns>/<name>` or `/registry/<storageResource>/<name>`
 * (cluster-scoped). Null for keys outside `/registry/`.
 */
export function objectOfKey(key: string, kind?: string): ObjectRef | null {
  if (!key.startsWith(registryPrefix)) return null;
  const parts = key.slice(registryPrefix.length).split('/');
  if (parts.length < 2 || parts.length > 3) return null;
  const storage = parts[0]!;
  const info = byStorage.get(storage);
  const resource = info?.resource ?? storage;
  const name = parts[parts.length - 1]!;
  if (name === '') return null;
  return { resource, kind: kind ?? info?.kind ?? '', namespace: parts.length === 3 ? parts[1]! : null, name };
}

/** The resource (plural) an etcd key prefix covers, e.g. `/registry/minions/` → `nodes`. */
export function resourceOfKeyPrefix(key: string): string {
  if (!key.startsWith(registryPrefix)) return key;
  const storage = key.slice(registryPrefix.length).split('/')[0] ?? '';
  return byStorage.get(storage)?.resource ?? storage;
}

export interface ParsedPath {
  readonly group: string;
  readonly resource: string;
  readonly namespace: string | null;
  readonly name: string | null;
  readonly subresource: string | null;
}

/** Reads a Kubernetes API path: `/api/v1/namespaces/default/pods/x/status`, `/apis/apps/v1/deployments`. */
export function parsePath(path: string): ParsedPath | null {
  const parts = path.split('/').filter((p) => p !== '');
  let i: number;
  let group: string;
  if (parts[0] === 'api') {
    group = '';
    i = 2;
  } else if (parts[0] === 'apis') {
    group = parts[1] ?? '';
    i = 3;
  } else return null;
  let namespace: string | null = null;
  if (parts[i] === 'namespaces' && parts.length > i + 2) {
    namespace = parts[i + 1]!;
    i += 2;
  }
  const resource = parts[i];
  if (resource === undefined) return null;
  return { group, resource, namespace, name: parts[i + 1] ?? null, subresource: parts[i + 2] ?? null };
}

/** The object a request path names (null for a collection without a name in `body`). */
export function objectOfPath(path: string, body?: unknown): ObjectRef | null {
  const parsed = parsePath(path);
  if (!parsed) return null;
  const info = byResource.get(`${parsed.group}/${parsed.resource}`);
  const kind = info?.kind ?? '';
  if (parsed.name !== null) return { resource: parsed.resource, kind, namespace: parsed.namespace, name: parsed.name };
  const meta = metadataOf(body);
  if (meta?.name) return { resource: parsed.resource, kind: kindOf(body) ?? kind, namespace: parsed.namespace ?? meta.namespace ?? null, name: meta.name };
  return null;
}

/** The resource a request path is about, e.g. `pods`. */
export function resourceOfPath(path: string): string {
  return parsePath(path)?.resource ?? path;
}

interface Meta {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly generation?: number;
  readonly deletionTimestamp?: string | null;
  readonly ownerReferences?: ReadonlyArray<{ readonly kind: string; readonly name: string; readonly controller?: boolean; readonly apiVersion?: string }>;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

/** A request or response body as an object (JSON text is parsed). */
export function bodyObject(body: unknown): Record<string, unknown> | null {
  if (typeof body === 'string') {
    if (!body.startsWith('{')) return null;
    try {
      return asRecord(JSON.parse(body));
    } catch {
      return null;
    }
  }
  return asRecord(body);
}

export function metadataOf(obj: unknown): Meta | null {
  return asRecord(asRecord(obj)?.['metadata']) as Meta | null;
}

export function kindOf(obj: unknown): string | null {
  const kind = asRecord(obj)?.['kind'];
  return typeof kind === 'string' ? kind : null;
}

/** A Kubernetes object as a reference (`resource` from its kind). */
export function refOf(obj: unknown, resource?: string): ObjectRef | null {
  const meta = metadataOf(obj);
  const kind = kindOf(obj);
  if (!meta?.name || !kind) return null;
  const info = servedResources.find((r) => r.kind === kind);
  return { resource: resource ?? info?.resource ?? `${kind.toLowerCase()}s`, kind, namespace: meta.namespace ?? null, name: meta.name };
}

/** The controller owner of an object (its ownerReference with controller: true), as a reference. */
export function ownerOf(obj: unknown, namespace: string | null): ObjectRef | null {
  const owners = metadataOf(obj)?.ownerReferences;
  const owner = owners?.find((o) => o.controller === true) ?? owners?.[0];
  if (!owner) return null;
  const info = servedResources.find((r) => r.kind === owner.kind);
  return { resource: info?.resource ?? `${owner.kind.toLowerCase()}s`, kind: owner.kind, namespace: info?.namespaced === false ? null : namespace, name: owner.name };
}

interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string | null;
  readonly message?: string | null;
}

interface ContainerStatusLike {
  readonly name: string;
  readonly state?: { readonly waiting?: { readonly reason?: string; readonly message?: string } };
}

/** What the story compares between two stored versions of a Pod. */
export interface PodFacts {
  readonly node: string | null;
  readonly phase: string;
  readonly ready: boolean;
  readonly terminating: boolean;
  /** The DisruptionTarget condition's reason and message when True. */
  readonly disruption: string | null;
  /** PodScheduled False, reason Unschedulable: its message. */
  readonly unschedulable: string | null;
  /** Containers waiting with ImagePullBackOff / CrashLoopBackOff: `name` → reason and message. */
  readonly backOff: ReadonlyMap<string, { readonly reason: string; readonly message: string }>;
  /** The pod's images, in spec order (for failure facts). */
  readonly images: ReadonlyMap<string, string>;
}

function conditions(obj: Record<string, unknown>): readonly Condition[] {
  const status = asRecord(obj['status']);
  const list = status?.['conditions'];
  return Array.isArray(list) ? (list as Condition[]) : [];
}

function containerImages(spec: Record<string, unknown> | null): Map<string, string> {
  const images = new Map<string, string>();
  const containers = spec?.['containers'];
  if (Array.isArray(containers)) for (const c of containers as Array<{ name: string; image?: string }>) images.set(c.name, c.image ?? '');
  return images;
}

export function podFacts(obj: Record<string, unknown>): PodFacts {
  const spec = asRecord(obj['spec']);
  const status = asRecord(obj['status']);
  const conds = conditions(obj);
  const ready = conds.some((c) => c.type === 'Ready' && c.status === 'True');
  const disruptionCondition = conds.find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
  const scheduled = conds.find((c) => c.type === 'PodScheduled');
  const backOff = new Map<string, { reason: string; message: string }>();
  const statuses = status?.['containerStatuses'];
  if (Array.isArray(statuses)) {
    for (const cs of statuses as ContainerStatusLike[]) {
      const reason = cs.state?.waiting?.reason;
      if (reason === 'ImagePullBackOff' || reason === 'CrashLoopBackOff') backOff.set(cs.name, { reason, message: cs.state?.waiting?.message ?? '' });
    }
  }
  const nodeName = spec?.['nodeName'];
  return {
    node: typeof nodeName === 'string' && nodeName !== '' ? nodeName : null,
    phase: typeof status?.['phase'] === 'string' ? (status['phase'] as string) : 'Pending',
    ready,
    terminating: Boolean(metadataOf(obj)?.deletionTimestamp),
    disruption: disruptionCondition ? `${disruptionCondition.reason ?? ''}: ${disruptionCondition.message ?? ''}` : null,
    unschedulable: scheduled && scheduled.status === 'False' && scheduled.reason === 'Unschedulable' ? (scheduled.message ?? '') : null,
    backOff,
    images: containerImages(spec),
  };
}

/** What the story compares between two stored versions of a Deployment or ReplicaSet. */
export interface WorkloadFacts {
  readonly generation: number;
  readonly terminating: boolean;
  readonly replicas: number;
  readonly readyReplicas: number;
  /** The Available condition's status (Deployments), null without one. */
  readonly available: string | null;
  readonly images: ReadonlyMap<string, string>;
}

export function workloadFacts(obj: Record<string, unknown>): WorkloadFacts {
  const meta = metadataOf(obj);
  const spec = asRecord(obj['spec']);
  const status = asRecord(obj['status']);
  const template = asRecord(asRecord(spec?.['template'])?.['spec']);
  const available = conditions(obj).find((c) => c.type === 'Available');
  return {
    generation: meta?.generation ?? 0,
    terminating: Boolean(meta?.deletionTimestamp),
    replicas: typeof spec?.['replicas'] === 'number' ? (spec['replicas'] as number) : 1,
    readyReplicas: typeof status?.['readyReplicas'] === 'number' ? (status['readyReplicas'] as number) : 0,
    available: available ? available.status : null,
    images: containerImages(template),
  };
}

/** The spec changes between two versions, in the model's own field names: `spec.replicas 1→3`. */
export function specChange(before: WorkloadFacts, after: WorkloadFacts): string {
  const changes: string[] = [];
  if (before.replicas !== after.replicas) changes.push(`spec.replicas ${before.replicas}→${after.replicas}`);
  for (const [name, image] of after.images) {
    const was = before.images.get(name);
    if (was !== undefined && was !== image) changes.push(`${name} image ${was}→${image}`);
  }
  return changes.length > 0 ? changes.join(', ') : `generation ${before.generation}→${after.generation}`;
}

/** A Node's Ready condition: its status and, when not True, its reason and message. */
export function nodeReady(obj: Record<string, unknown>): { readonly status: string; readonly message: string } {
  const ready = conditions(obj).find((c) => c.type === 'Ready');
  if (!ready) return { status: 'Unknown', message: '' };
  return { status: ready.status, message: [ready.reason, ready.message].filter((s) => s).join(': ') };
}
