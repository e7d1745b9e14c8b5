// The quick readers of objects.ts for protobuf values (kube-apiserver's default storage): a stored
// update's facts read from the few fields that carry them (src/protocol/protobuf-reader.ts), without
// decoding the whole object. Like the JSON readers they answer
// undefined whenever they cannot be sure (a back-off, a disruption, an Unschedulable condition, a
// generation change), and the caller decodes the object.
// Field numbers from k8s.io/api generated.proto (core/v1, apps/v1) and apimachinery meta/v1: ObjectMeta
// generation 7 (varint), deletionTimestamp 9; Pod, Deployment, ReplicaSet and Node: metadata 1, spec 2,
// status 3; PodSpec nodeName 10; PodStatus phase 1, conditions 2; DeploymentStatus readyReplicas 7,
// conditions 6; ReplicaSetStatus readyReplicas 4; NodeStatus conditions 4; every condition type 1,
// status 2, and reason / message 5 / 6 (Pod, Node) or 4 / 5 (Deployment).

import { firstBytes as first, protoFields, unknownFields, type ProtoFields } from '../../protocol/index.ts';
import type { PodFacts, WorkloadFacts } from './objects.ts';

/** The object's message (Unknown.raw) split into metadata, spec and status, and its TypeMeta; null if not protobuf. */
function parts(value: string): { typeMeta: string | undefined; metadata: ProtoFields | null; spec: string | undefined; status: ProtoFields | null } | null {
  const unknown = unknownFields(value);
  if (unknown === null) return null;
  const obj = protoFields(unknown.raw);
  if (obj === null) return null;
  return {
    typeMeta: unknown.typeMeta,
    metadata: protoFields(first(obj, 1) ?? ''), spec: first(obj, 2), status: protoFields(first(obj, 3) ?? ''),
  };
}

/** Text of a (short, ASCII) string field; the values read here are names, phases and condition words. */
const text = (s: string | undefined): string | undefined => (s !== undefined && /^[\x20-\x7e]*$/.test(s) ? s : undefined);

interface Condition { readonly status: string; readonly reason: string; readonly message: string }

/** The condition of `type` among `list`, null when absent, undefined when unreadable. */
function condition(list: readonly string[] | undefined, type: string, reasonField: number, messageField: number): Condition | null | undefined {
  for (const c of list ?? []) {
    const f = protoFields(c);
    if (f === null) return undefined;
    if (first(f, 1) !== type) continue;
    const status = text(first(f, 2));
    const reason = text(first(f, reasonField) ?? '');
    const message = text(first(f, messageField) ?? '');
    if (status === undefined || reason === undefined || message === undefined) return undefined;
    return { status, reason, message };
  }
  return null;
}

const emptyBackOff: PodFacts['backOff'] = new Map();
const noImages: PodFacts['images'] = new Map();

export function protobufPodFacts(value: string): PodFacts | undefined {
  if (value.includes('BackOff') || value.includes('DisruptionTarget') || value.includes('Unschedulable')) return undefined;
  const p = parts(value);
  if (p === null || p.metadata === null || p.status === null) return undefined;
  const ready = condition(p.status.bytes.get(2), 'Ready', 5, 6);
  if (ready === undefined) return undefined;
  const node = text(first(protoFields(p.spec ?? ''), 10));
  const phase = text(first(p.status, 1));
  return {
    node: node || null,
    phase: phase || 'Pending',
    ready: ready?.status === 'True',
    terminating: p.metadata.bytes.has(9),
    disruption: null,
    unschedulable: null,
    backOff: emptyBackOff,
    images: noImages,
  };
}

export function protobufWorkloadFacts(value: string, before: WorkloadFacts): WorkloadFacts | undefined {
  const p = parts(value);
  if (p === null || p.metadata === null || p.status === null) return undefined;
  if ((p.metadata.varints.get(7) ?? 0) !== before.generation) return undefined;
  if (p.metadata.bytes.has(9) !== before.terminating) return undefined;
  const kind = text(first(protoFields(p.typeMeta ?? ''), 2));
  if (kind !== 'Deployment' && kind !== 'ReplicaSet') return undefined;
  const available = kind === 'Deployment' ? condition(p.status.bytes.get(6), 'Available', 4, 5) : null;
  if (available === undefined) return undefined;
  const readyReplicas = p.status.varints.get(kind === 'Deployment' ? 7 : 4) ?? 0;
  return { ...before, available: available ? available.status : null, readyReplicas };
}

export function protobufNodeReady(value: string): { readonly status: string; readonly message: string } | undefined {
  const p = parts(value);
  if (p === null || p.status === null) return undefined;
  const ready = condition(p.status.bytes.get(4), 'Ready', 5, 6);
  if (ready === undefined) return undefined;
  if (ready === null) return { status: 'Unknown', message: '' };
  return { status: ready.status, message: [ready.reason, ready.message].filter((s) => s).join(': ') };
}
