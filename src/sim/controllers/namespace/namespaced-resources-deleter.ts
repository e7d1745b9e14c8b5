// What the namespace controller does with one Namespace being deleted: mark it Terminating, discover
// every namespaced resource that can be deleted, delete each collection in the namespace, count what
// remains (with the deletion conditions), and once nothing remains remove the `kubernetes` finalizer
// through `/finalize`.
// Models k8s pkg/controller/namespace/deletion/namespaced_resources_deleter.go (Delete,
// retryOnConflictError, updateNamespaceStatusFunc, finalized, finalizeNamespace, deleteAllContent,
// deleteAllContentForGroupVersionResource, deleteCollection, listCollection,
// estimateGracefulTermination(ForPods)).
//
// Deviations: discovery is the aggregated `/api` and `/apis` (as client-go 1.28 asks for it), read on
// every sync as upstream's discoverResourcesFn does; resources are walked in discovery order (upstream
// ranges over a Go map, so its order varies from run to run); the metadata client's
// PartialObjectMetadata lists are the typed lists of the model; instead of the opCache of unsupported verbs
// the deleter reads `deletecollection` from discovery (and falls back on a 405), deleting item by item
// where it is missing (Services).

import { isStatusError } from '../../api/errors.ts';
import { copyJson } from '../../api/json-copy.ts';
import { aggregatedDiscoveryContentType } from '../../api/discovery.ts';
import { lookupResource, type ResourceInfo } from '../../api/resources.ts';
import type { Namespace, Pod } from '../../api/types/core.ts';
import type { KubeObject, List } from '../../api/types/meta.ts';
import { formatTimestamp, parseTimestamp } from '../../api/time.ts';
import { httpKinds } from '../../wire/http.ts';
import { apiserverName, errorFromResponse, type ResourceClient } from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';
import { ConditionUpdater } from './status-condition-utils.ts';

/** finalizerEstimateSeconds: the wait while content with finalizers is finalized. */
const finalizerEstimateSeconds = 15;

/** The finalizer this controller owns (v1.FinalizerKubernetes). */
export const finalizerKubernetes = 'kubernetes';

/** Content is still going away: requeue after estimate/2 + 1 seconds. */
export class ResourcesRemainingError extends Error {
  /** `waiting`: nothing the cluster is doing will remove the content (finalizers only), as opposed to pods terminating. */
  constructor(readonly estimate: number, readonly waiting: boolean) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
  }
}

/** One discovered group-version-resource. */
export interface GVR {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** Whether discovery lists `deletecollection` (Services, for one, do not: their items go one by one). */
  readonly deleteCollection?: boolean;
}

/** `/v1, Resource=pods` (schema.GroupVersionResource's String). */
function gvrString(g: GVR): string {
  return `${g.group}/${g.version}, Resource=${g.resource}`;
}

interface GVRDeletionMetadata {
  readonly finalizerEstimateSeconds: number;
  readonly numRemaining: number;
  readonly finalizersToNumRemaining: ReadonlyMap<string, number>;
}

export class NamespacedResourcesDeleter {
  private readonly namespaces: ResourceClient<Namespace>;
  private readonly pods: ResourceClient<Pod>;

  constructor(private readonly ctx: ControllerContext) {
    this.namespaces = ctx.client.resource<Namespace>('namespaces');
    this.pods = ctx.client.resource<Pod>('pods');
  }

  private nowTimestamp(): string {
    return formatTimestamp(this.ctx.host.epochMs + this.ctx.host.now);
  }

  /** namespacedResourcesDeleter.Delete. */
  *delete(name: string): Co<void> {
    let namespace: Namespace;
    try {
      namespace = yield* this.namespaces.get(undefined, name);
    } catch (err) {
      if (isStatusError(err) && err.status.reason === 'NotFound') return;
      throw err;
    }
    if (namespace.metadata.deletionTimestamp === undefined || namespace.metadata.deletionTimestamp === null) return;
    try {
      namespace = yield* this.retryOnConflict(namespace, (ns) => this.updateNamespaceStatus(ns));
    } catch (err) {
      if (isStatusError(err) && err.status.reason === 'NotFound') return;
      throw err;
    }
    if (namespace.metadata.deletionTimestamp === undefined || namespace.metadata.deletionTimestamp === null) return;
    if (!(namespace.spec?.finalizers ?? []).includes(finalizerKubernetes)) return;
    const { estimate, graceful } = yield* this.deleteAllContent(namespace);
    if (estimate > 0) throw new ResourcesRemainingError(estimate, graceful === 0);
    try {
      yield* this.retryOnConflict(namespace, (ns) => this.finalizeNamespace(ns));
    } catch (err) {
      if (isStatusError(err) && err.status.reason === 'NotFound') return;
      throw err;
    }
  }

  private *retryOnConflict(namespace: Namespace, fn: (ns: Namespace) => Co<Namespace>): Co<Namespace> {
    let latest = namespace;
    for (;;) {
      try {
        return yield* fn(latest);
      } catch (err) {
        if (!(isStatusError(err) && err.status.reason === 'Conflict')) throw err;
        const previous = latest;
        latest = yield* this.namespaces.get(undefined, latest.metadata.name ?? '');
        if (previous.metadata.uid !== latest.metadata.uid) throw new Error('namespace uid has changed across retries', { cause: err });
      }
    }
  }

  /** updateNamespaceStatusFunc: Terminating, if the registry has not said so already. */
  private *updateNamespaceStatus(ns: Namespace): Co<Namespace> {
    if (ns.metadata.deletionTimestamp === undefined || ns.metadata.deletionTimestamp === null || ns.status?.phase === 'Terminating') return ns;
    const next: Namespace = { ...ns, status: { ...ns.status, phase: 'Terminating' } };
    return yield* this.namespaces.update(next, { subresource: 'status' });
  }

  /** finalizeNamespace: spec.finalizers without ours (sorted, as a set), PUT to `/finalize`. */
  private *finalizeNamespace(ns: Namespace): Co<Namespace> {
    const finalizers = [...new Set((ns.spec?.finalizers ?? []).filter((f) => f !== finalizerKubernetes))].sort();
    const finalize: Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: ns.metadata, spec: { ...ns.spec, finalizers } };
    return yield* this.namespaces.update(finalize, { subresource: 'finalize' });
  }

  /**
   * ServerPreferredNamespacedResources over aggregated discovery: the namespaced resources (first
   * version of each group) that support delete.
   */
  private *discoverDeletableResources(): Co<GVR[]> {
    const out: GVR[] = [];
    for (const path of ['/api', '/apis']) {
      const plain = this.ctx.client.httpRequest('GET', path, '');
      const request = { ...plain, headers: { ...plain.headers, accept: `${aggregatedDiscoveryContentType('v2')},${aggregatedDiscoveryContentType('v2beta1')},application/json` } };
      const response = (yield* this.ctx.host.call(apiserverName, httpKinds.request, request)).payload;
      if (response.status !== 200) throw errorFromResponse(response);
      const list = response.body as { items?: { metadata?: { name?: string }; versions?: { version: string; resources?: { resource: string; scope: string; verbs: string[] }[] }[] }[] };
      for (const group of list.items ?? []) {
        const preferred = group.versions?.[0];
        if (!preferred) continue;
        for (const r of preferred.resources ?? []) {
          if (r.scope !== 'Namespaced' || !r.verbs.includes('delete')) continue;
          out.push({ group: group.metadata?.name ?? '', version: preferred.version, resource: r.resource, deleteCollection: r.verbs.includes('deletecollection') });
        }
      }
    }
    return out;
  }

  /** deleteAllContent: every deletable resource in the namespace, then the conditions; returns the wait estimate in seconds. */
  private *deleteAllContent(ns: Namespace): Co<{ estimate: number; graceful: number }> {
    const namespace = ns.metadata.name ?? '';
    const deletedAt = parseTimestamp(ns.metadata.deletionTimestamp ?? '') ?? 0;
    const conditions = new ConditionUpdater(this.nowTimestamp());
    let estimate = 0;
    const graceful = { estimate: 0 };
    let resources: GVR[] = [];
    const errors: string[] = [];
    try {
      resources = yield* this.discoverDeletableResources();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      errors.push(message);
      conditions.discoveryFailed(message);
    }
    const gvrToNumRemaining = new Map<GVR, number>();
    const finalizersToNumRemaining = new Map<string, number>();
    for (const gvr of resources) {
      let meta: GVRDeletionMetadata;
      try {
        meta = yield* this.deleteAllContentForGroupVersionResource(gvr, namespace, deletedAt, graceful);
      } catch (err) {
        const message = err instanceof RemainingContent ? err.message : err instanceof Error ? err.message : String(err);
        errors.push(message);
        conditions.deleteContentFailed(message);
        meta = err instanceof RemainingContent ? err.meta : { finalizerEstimateSeconds: 0, numRemaining: 0, finalizersToNumRemaining: new Map() };
      }
      if (meta.finalizerEstimateSeconds > estimate) estimate = meta.finalizerEstimateSeconds;
      if (meta.numRemaining > 0) {
        gvrToNumRemaining.set(gvr, meta.numRemaining);
        for (const [f, n] of meta.finalizersToNumRemaining) if (n > 0) finalizersToNumRemaining.set(f, (finalizersToNumRemaining.get(f) ?? 0) + n);
      }
    }
    conditions.contentTotals(gvrToNumRemaining, finalizersToNumRemaining);
    const updated = copyJson(ns);
    if (conditions.update(updated)) {
      try {
        yield* this.namespaces.update(updated, { subresource: 'status' });
      } catch {
        // couldn't update status condition for namespace: logged upstream, not fatal.
      }
    }
    if (errors.length > 0) throw new Error(errors.join(', '));
    return { estimate, graceful: graceful.estimate };
  }

  /** deleteAllContentForGroupVersionResource: estimate, DeleteCollection, then what remains. */
  private *deleteAllContentForGroupVersionResource(gvr: GVR, namespace: string, deletedAt: number, graceful: { estimate: number }): Co<GVRDeletionMetadata> {
    const estimate = yield* this.estimateGracefulTermination(gvr, namespace, deletedAt);
    if (estimate > graceful.estimate) graceful.estimate = estimate;
    const info = lookupResource(gvr.group, gvr.resource);
    if (!info) return { finalizerEstimateSeconds: estimate, numRemaining: 0, finalizersToNumRemaining: new Map() };
    if (!(gvr.deleteCollection === true && (yield* this.deleteCollection(info, namespace)))) yield* this.deleteEachItem(info, namespace);
    const items = yield* this.listCollection(info, namespace);
    const finalizersToNumRemaining = new Map<string, number>();
    for (const item of items) for (const f of item.metadata.finalizers ?? []) finalizersToNumRemaining.set(f, (finalizersToNumRemaining.get(f) ?? 0) + 1);
    if (items.length > 0 && estimate === 0) {
      if (items.some((item) => (item.metadata.finalizers ?? []).length > 0)) {
        return { finalizerEstimateSeconds: finalizerEstimateSeconds, numRemaining: items.length, finalizersToNumRemaining };
      }
      throw new RemainingContent(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(gvr)}`,
        { finalizerEstimateSeconds: estimate, numRemaining: items.length, finalizersToNumRemaining: new Map() });
    }
    return { finalizerEstimateSeconds: estimate, numRemaining: items.length, finalizersToNumRemaining };
  }

  /**
   * DeleteCollection with propagationPolicy Background (the metadata client's); false when the resource
   * does not support it (405 MethodNotAllowed), so the caller deletes item by item.
   */
  private *deleteCollection(info: ResourceInfo, namespace: string): Co<boolean> {
    const path = this.ctx.client.resource(info.resource, info.group).path(namespace);
    const response = yield* this.ctx.client.request('DELETE', path, '', { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    if (response.status === 404) return true;
    if (response.status === 405) return false;
    if (response.status < 200 || response.status > 299) throw errorFromResponse(response);
    return true;
  }

  /** deleteEachItem: list, then DELETE each item with propagationPolicy Background (a 404 is fine). */
  private *deleteEachItem(info: ResourceInfo, namespace: string): Co<void> {
    const client = this.ctx.client.resource<KubeObject>(info.resource, info.group);
    for (const item of yield* this.listCollection(info, namespace)) {
      try {
        yield* client.delete(namespace, item.metadata.name ?? '', { propagationPolicy: 'Background' });
      } catch (err) {
        if (!(isStatusError(err) && err.status.reason === 'NotFound')) throw err;
      }
    }
  }

  private *listCollection(info: ResourceInfo, namespace: string): Co<KubeObject[]> {
    try {
      const list: List<KubeObject> = yield* this.ctx.client.resource<KubeObject>(info.resource, info.group).list(namespace);
      return list.items;
    } catch (err) {
      if (isStatusError(err) && err.status.reason === 'NotFound') return [];
      throw err;
    }
  }

  /** estimateGracefulTermination: for pods, the longest grace period of a non-terminal pod, unless it has already passed. */
  private *estimateGracefulTermination(gvr: GVR, namespace: string, deletedAt: number): Co<number> {
    if (gvr.group !== '' || gvr.resource !== 'pods') return 0;
    const pods = (yield* this.pods.list(namespace)).items;
    let estimate = 0;
    for (const pod of pods) {
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      const grace = pod.spec?.terminationGracePeriodSeconds;
      if (grace !== undefined && grace > estimate) estimate = grace;
    }
    const elapsed = this.ctx.host.epochMs + this.ctx.host.now - deletedAt;
    return elapsed >= estimate * 1000 ? 0 : estimate;
  }
}

/** A resource's items remain without finalizers and without a graceful estimate (an error upstream). */
class RemainingContent extends Error {
  constructor(message: string, readonly meta: GVRDeletionMetadata) {
    super(message);
  }
}
