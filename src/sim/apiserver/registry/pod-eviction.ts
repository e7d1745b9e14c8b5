// The pods/eviction subresource (`kubectl drain`): a policy/v1 Eviction names a pod; the apiserver checks
// the PodDisruptionBudgets covering it (Podflow serves none, so none ever covers a pod), marks the pod with
// the DisruptionTarget condition and deletes it with the Eviction's DeleteOptions (graceful, as any pod
// delete), answering 201 with a Success Status.
// Models k8s pkg/registry/core/pod/storage/eviction.go (EvictionREST.Create, propagateDryRun,
// canIgnorePDB, shouldEnforceResourceVersion, addConditionAndDeletePod with PodDisruptionConditions, on
// by default in 1.28) and create.go's Status code (a Success Status without a code gets 201).

import { newBadRequest, newConflict, successStatus } from '../../api/errors.ts';
import { formatTimestamp } from '../../api/time.ts';
import type { Pod, PodCondition } from '../../api/types/core.ts';
import type { Status } from '../../api/types/meta.ts';
import type { Co } from '../../engine/index.ts';
import type { GenericStore, RegistryContext } from './generic-store.ts';
import { podStatusStrategy } from './pods.ts';
import type { DeleteOptions } from './strategy.ts';

interface Eviction {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
  readonly deleteOptions?: DeleteOptions & { readonly kind?: string; readonly apiVersion?: string };
}

/** EvictionREST.Create: POST …/pods/<name>/eviction. `ctx.dryRun` is the request's `?dryRun=All`. */
export function* createEviction(store: GenericStore, ctx: RegistryContext, name: string, body: Record<string, unknown>): Co<Status> {
  const eviction = body as Eviction;
  // Both policy/v1 and policy/v1beta1 Evictions are accepted (EvictionREST.AcceptsGroupVersion).
  const apiVersion = eviction.apiVersion ?? '';
  if (apiVersion !== '' && apiVersion !== 'policy/v1' && apiVersion !== 'policy/v1beta1') {
    throw newBadRequest(`${eviction.kind ?? ''} in version "${apiVersion.split('/').at(-1) ?? ''}" cannot be handled as a Eviction: no kind "${eviction.kind ?? ''}" is registered for version "${apiVersion}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }
  if ((eviction.kind ?? '') !== '' && eviction.kind !== 'Eviction') {
    throw newBadRequest(`${eviction.kind ?? ''} in version "${apiVersion.split('/').at(-1) ?? ''}" cannot be handled as a Eviction: no kind "${eviction.kind ?? ''}" is registered for version "${apiVersion}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }
  const namespace = eviction.metadata?.namespace ?? '';
  if (namespace !== '' && namespace !== ctx.namespace) throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  if ((eviction.metadata?.name ?? '') !== name) throw newBadRequest('name in URL does not match name in Eviction object');

  // propagateDryRun: the request's dryRun and the Eviction's DeleteOptions.dryRun must agree.
  const { kind: _kind, apiVersion: _apiVersion, ...fromBody } = eviction.deleteOptions ?? {};
  const requestDryRun = ctx.dryRun ? ['All'] : [];
  const bodyDryRun = fromBody.dryRun ?? [];
  if (requestDryRun.length > 0 && bodyDryRun.length > 0 && bodyDryRun.join('\u0000') !== requestDryRun.join('\u0000')) {
    throw newBadRequest(`Non-matching dry-run options in request and content: [${requestDryRun.join(' ')}] and [${bodyDryRun.join(' ')}]`);
  }
  const original: DeleteOptions = { ...fromBody, ...(bodyDryRun.length === 0 && requestDryRun.length > 0 ? { dryRun: requestDryRun } : {}) };
  const dryRun = ctx.dryRun === true || (original.dryRun ?? []).includes('All');
  const evictionCtx = { ...ctx, ...(dryRun ? { dryRun: true } : {}) };

  const pod = (yield* store.get(ctx, name, '')) as Pod;
  let options = original;
  const resourceVersionUnset = original.preconditions?.resourceVersion === undefined;
  if (canIgnorePDB(pod) && shouldEnforceResourceVersion(pod) && resourceVersionUnset) {
    // Not racing with another PDB-impacting process: delete only the pod just read.
    options = { ...original, preconditions: { ...original.preconditions, resourceVersion: pod.metadata.resourceVersion ?? '' } };
  }
  // Otherwise the PodDisruptionBudgets would be checked here; no PodDisruptionBudget is served, so none
  // covers the pod and the eviction goes ahead with the original options.

  // addConditionAndDeletePod: the DisruptionTarget condition first (not on a dry run), then the delete.
  if (!dryRun) {
    const { object } = yield* store.update({ ...evictionCtx, fieldManager: '' }, name, (current) => {
      const latest = current as Pod;
      const p = options.preconditions;
      if (p?.uid !== undefined && p.uid !== '' && p.uid !== latest.metadata.uid) {
        throw newConflict({ group: '', resource: 'pods' }, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${latest.metadata.uid ?? ''}`);
      }
      if (p?.resourceVersion !== undefined && p.resourceVersion !== '' && p.resourceVersion !== latest.metadata.resourceVersion) {
        throw newConflict({ group: '', resource: 'pods' }, name, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${latest.metadata.resourceVersion ?? ''}`);
      }
      updatePodCondition(latest, {
        type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: formatTimestamp(ctx.epochMs + ctx.now),
        reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting',
      } as PodCondition);
      return latest;
    }, { status: podStatusStrategy, subresource: 'status' });
    if (options.preconditions?.resourceVersion !== undefined) {
      // Bump the precondition: this request made the pod's newest version itself.
      options = { ...options, preconditions: { ...options.preconditions, resourceVersion: object.metadata.resourceVersion ?? '' } };
    }
  }
  yield* store.delete(evictionCtx, name, options);
  return successStatus(undefined, 201);
}

/** Terminal, pending or already deleting pods are evicted without looking at PodDisruptionBudgets. */
function canIgnorePDB(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp != null;
}

function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata.deletionTimestamp != null);
}

/** podutil.UpdatePodCondition: replace the condition of that type; the transition time moves only when the status changes. */
function updatePodCondition(pod: Pod, condition: PodCondition): void {
  pod.status ??= {};
  const conditions = pod.status.conditions ?? [];
  const index = conditions.findIndex((c) => c.type === condition.type);
  if (index < 0) {
    pod.status.conditions = [...conditions, condition];
    return;
  }
  const old = conditions[index]!;
  const next = { ...condition, lastTransitionTime: old.status === condition.status ? old.lastTransitionTime : condition.lastTransitionTime };
  pod.status.conditions = conditions.map((c, i) => (i === index ? next : c));
}
