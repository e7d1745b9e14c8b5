// The pods' subresources with their REST storage: binding (the scheduler's POST assigns the pod to a
// node), status (the kubelet's writes) and eviction (pod-eviction.ts).
// Models k8s pkg/registry/core/pod/storage/storage.go (BindingREST.Create, setPodHostAndAnnotations
// via assignPod, StatusREST) and eviction.go (EvictionREST).

import { newConflict, newInvalid, successStatus } from '../../api/errors.ts';
import { fieldError, FieldPath } from '../../api/field.ts';
import { formatTimestamp } from '../../api/time.ts';
import type { Binding, Pod } from '../../api/types/core.ts';
import type { Status } from '../../api/types/meta.ts';
import type { Co } from '../../engine/index.ts';
import type { GenericStore, RegistryContext } from './generic-store.ts';
import { createEviction } from './pod-eviction.ts';
import { podStatusStrategy } from './pods.ts';
import { statusREST, type SubresourceREST } from './rest.ts';

/** BindingREST.Create: checks the Binding, then sets spec.nodeName and PodScheduled=True in one update. */
function* createBinding(store: GenericStore, ctx: RegistryContext, name: string, body: Record<string, unknown>): Co<Status> {
  const binding = body as unknown as Binding;
  if (binding.metadata?.name !== undefined && binding.metadata.name !== name) {
    throw newInvalid({ group: '', kind: 'Binding' }, binding.metadata.name, [fieldError.invalid(FieldPath.of('metadata', 'name'), binding.metadata.name, 'name in URL does not match name in Binding')]);
  }
  const target = binding.target?.name ?? '';
  if (binding.target?.kind !== undefined && binding.target.kind !== '' && binding.target.kind !== 'Node') {
    throw newInvalid({ group: '', kind: 'Binding' }, name, [fieldError.notSupported(FieldPath.of('target', 'kind'), binding.target.kind, ['Node', '<empty>'])]);
  }
  if (target === '') throw newInvalid({ group: '', kind: 'Binding' }, name, [fieldError.required(FieldPath.of('target', 'name'), '')]);
  yield* store.update(ctx, name, (current) => {
    const pod = current as Pod;
    pod.spec ??= { containers: [] };
    if (pod.metadata.deletionTimestamp !== undefined) throw newConflict({ group: '', resource: 'pods' }, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (pod.spec.nodeName) throw newConflict({ group: '', resource: 'pods' }, name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    pod.spec.nodeName = target;
    const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: formatTimestamp(ctx.epochMs + ctx.now) });
    pod.status = { ...pod.status, conditions };
    if (binding.metadata?.annotations) pod.metadata.annotations = { ...pod.metadata.annotations, ...binding.metadata.annotations };
    return pod;
  }, { status: { prepareForUpdate: () => undefined, validateUpdate: () => [] }, subresource: 'binding' });
  return successStatus(undefined, 201);
}

/** The pods' subresources served from the registry (log, exec, attach and portforward are pod-streams.ts). */
export const podSubresources: ReadonlyMap<string, SubresourceREST> = new Map([
  ['binding', { create: createBinding }],
  ['eviction', { create: createEviction }],
  ['status', statusREST(podStatusStrategy)],
]);
