// The garbage collector of kube-controller-manager: deletes objects whose owners are gone (Background),
// deletes dependents before their owner (Foreground, the `foregroundDeletion` finalizer) and strips an
// owner from its dependents' ownerReferences (Orphan, the `orphan` finalizer). Every decision about an
// owner's absence is verified by a live GET against kube-apiserver, as upstream.
// Models k8s pkg/controller/garbagecollector/garbagecollector.go (Run, attemptToDeleteWorker,
// attemptToDeleteItem, isDangling, classifyReferences, processDeletingDependentsItem, orphanDependents,
// attemptToOrphanWorker), operations.go (deleteObject with a uid precondition, getObject, patchObject,
// removeFinalizer with retry.RetryOnConflict) and patch.go; pkg/controller/controller_ref_manager.go
// (GenerateDeleteOwnerRefStrategicMergeBytes); cmd/kube-controller-manager/app/core.go
// (startGarbageCollectorController: --concurrent-gc-syncs 20).
//
// Deviations: the monitored resources are a fixed list (upstream discovers every deletable resource and
// resyncs the list every 30 s); requests are JSON on the typed client (upstream's metadata client asks for
// PartialObjectMetadata in protobuf); the JSON-merge-patch fallback for resources without strategic merge
// patch is not needed (every monitored resource is built in).

import { isStatusError } from '../../api/errors.ts';
import { parseGroupVersion } from '../../api/gvk.ts';
import { resourceForKind, type ResourceInfo } from '../../api/resources.ts';
import type { DeletionPropagation, KubeObject, OwnerReference } from '../../api/types/meta.ts';
import { RateLimitingQueue, runWorkers, type ResourceClient } from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import { isProgrammingError } from '../controller-utils.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';
import { coordinatesKey, identityString, type GraphNode, type ObjectIdentity } from './graph.ts';
import { beingDeleted, finalizerDeleteDependents, finalizerOrphanDependents, GraphBuilder, hasFinalizer } from './graph-builder.ts';

/** The resources whose informers feed the graph: `[group, resource]`. */
export const monitoredResources: readonly (readonly [string, string])[] = [
  ['apps', 'deployments'], ['apps', 'replicasets'], ['', 'pods'], ['', 'services'], ['discovery.k8s.io', 'endpointslices'],
];

/** retry.DefaultBackoff: 4 steps from 10 ms, ×5 each (jitter 0.1 not modelled). */
const conflictRetryDelays = [10, 50, 250];

/** Outcome of one attempt: forget the item or requeue it rate-limited. */
type Action = 'forget' | 'requeue';

class VirtualDeleteEnqueued extends Error {}

/** Some dependents could not be orphaned; the owner is retried later. */
class OrphanFailed extends Error {}

export class GarbageCollector {
  readonly attemptToDelete: RateLimitingQueue;
  readonly attemptToOrphan: RateLimitingQueue;
  readonly graph: GraphBuilder;
  private readonly informers = new Map<string, ResourceInfo>();

  constructor(private readonly ctx: ControllerContext) {
    this.attemptToDelete = new RateLimitingQueue(ctx.host, 'garbage_collector_attempt_to_delete');
    this.attemptToOrphan = new RateLimitingQueue(ctx.host, 'garbage_collector_attempt_to_orphan');
    this.graph = new GraphBuilder(this.attemptToDelete, this.attemptToOrphan);
    for (const [group, resource] of monitoredResources) {
      const informer = ctx.informers.informerFor<KubeObject>(resource, group);
      this.informers.set(`${group}/${resource}`, informer.client.info);
      this.graph.monitor(informer.client.info, informer);
    }
  }

  run(workers: number): void {
    runWorkers(this.ctx.host, this.attemptToDelete, workers, (uid) => this.processAttemptToDelete(uid));
    runWorkers(this.ctx.host, this.attemptToOrphan, workers, (uid) => this.processAttemptToOrphan(uid));
  }

  /** The node of `uid` in the graph, for tests and the UI. */
  node(uid: string): GraphNode | undefined {
    return this.graph.uidToNode.get(uid);
  }

  private *processAttemptToDelete(uid: string): Co<void> {
    const action = yield* this.attemptToDeleteWorker(uid);
    if (action === 'forget') this.attemptToDelete.forget(uid);
    else this.attemptToDelete.addRateLimited(uid);
  }

  private *attemptToDeleteWorker(uid: string): Co<Action> {
    const node = this.graph.uidToNode.get(uid);
    if (!node) return 'forget';
    try {
      yield* this.attemptToDeleteItem(node);
    } catch (err) {
      if (err instanceof VirtualDeleteEnqueued) return 'forget';
      if (isProgrammingError(err) || !isStatusError(err)) throw err;
      return 'requeue';
    }
    // A virtual node whose owner exists: check again later whether an informer has shown it.
    return node.observed ? 'forget' : 'requeue';
  }

  private client(id: Pick<ObjectIdentity, 'apiVersion' | 'kind'>): ResourceClient<KubeObject> | undefined {
    const gv = parseGroupVersion(id.apiVersion);
    if ('error' in gv) return undefined;
    const info = resourceForKind({ ...gv, kind: id.kind });
    return info ? this.ctx.client.resource<KubeObject>(info.resource, info.group) : undefined;
  }

  /** getObject: a live GET; undefined when the object does not exist. */
  private *getObject(id: ObjectIdentity): Co<KubeObject | undefined> {
    const client = this.client(id);
    if (!client) return undefined;
    try {
      return yield* client.get(client.info.namespaced ? id.namespace : undefined, id.name);
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return undefined;
      throw err;
    }
  }

  private *deleteObject(id: ObjectIdentity, policy: DeletionPropagation): Co<void> {
    const client = this.client(id);
    if (!client) return;
    try {
      yield* client.delete(client.info.namespaced ? id.namespace : undefined, id.name, { preconditions: { uid: id.uid }, propagationPolicy: policy });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) {
        this.graph.enqueueVirtualDeleteEvent(id);
        throw new VirtualDeleteEnqueued();
      }
      throw err;
    }
  }

  /** Strategic merge patch removing the owner references with these uids (the dependent's uid as precondition). */
  private *deleteOwnerRefs(id: ObjectIdentity, ownerUids: readonly string[]): Co<void> {
    const client = this.client(id);
    if (!client) return;
    const patch = { metadata: { uid: id.uid, ownerReferences: ownerUids.map((uid) => ({ $patch: 'delete', uid })) } };
    yield* client.patch(client.info.namespaced ? id.namespace : undefined, id.name, 'application/strategic-merge-patch+json', patch);
  }

  private *attemptToDeleteItem(item: GraphNode): Co<void> {
    if (item.beingDeleted && !item.deletingDependents) return;
    const latest = yield* this.getObject(item.identity);
    if (!latest || latest.metadata.uid !== item.identity.uid) {
      this.graph.enqueueVirtualDeleteEvent(item.identity);
      throw new VirtualDeleteEnqueued();
    }
    if (item.deletingDependents) {
      yield* this.processDeletingDependentsItem(item);
      return;
    }
    const ownerReferences = latest.metadata.ownerReferences ?? [];
    if (ownerReferences.length === 0) return;
    const { solid, dangling, waiting } = yield* this.classifyReferences(item, ownerReferences);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      // Waiting references must go too, or their owners would wait for this item forever.
      yield* this.deleteOwnerRefs(item.identity, [...dangling, ...waiting].map((r) => r.uid));
      return;
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      if (item.dependentList().some((dep) => dep.deletingDependents)) yield* this.unblockOwnerReferences(item);
      yield* this.deleteObject(item.identity, 'Foreground');
      return;
    }
    const policy: DeletionPropagation = hasFinalizer(latest, finalizerOrphanDependents) ? 'Orphan'
      : hasFinalizer(latest, finalizerDeleteDependents) ? 'Foreground' : 'Background';
    yield* this.deleteObject(item.identity, policy);
  }

  /** Cycle breaking: the item's blocking references become non-blocking before it is deleted in Foreground. */
  private *unblockOwnerReferences(item: GraphNode): Co<void> {
    const client = this.client(item.identity);
    if (!client) return;
    const refs = item.owners.filter((o) => o.blockOwnerDeletion === true).map((o) => ({ ...o, blockOwnerDeletion: false }));
    yield* client.patch(client.info.namespaced ? item.identity.namespace : undefined, item.identity.name,
      'application/strategic-merge-patch+json', { metadata: { uid: item.identity.uid, ownerReferences: refs } });
  }

  /** isDangling: is the owner absent (absent-owner cache, then a live GET: 404 or another uid)? */
  private *isDangling(ref: OwnerReference, item: GraphNode): Co<{ dangling: boolean; owner?: KubeObject }> {
    if (this.graph.absentOwnerCache.has(coordinatesKey(ref, '')) || this.graph.absentOwnerCache.has(coordinatesKey(ref, item.identity.namespace))) {
      return { dangling: true };
    }
    const client = this.client(ref);
    if (!client) throw new Error(`garbage collector: no resource for ${ref.apiVersion} ${ref.kind}`);
    const key = coordinatesKey(ref, client.info.namespaced ? item.identity.namespace : '');
    const owner = yield* this.getObject({ ...ref, namespace: item.identity.namespace });
    if (!owner || owner.metadata.uid !== ref.uid) {
      this.graph.absentOwnerCache.add(key);
      return { dangling: true };
    }
    return { dangling: false, owner };
  }

  private *classifyReferences(item: GraphNode, refs: readonly OwnerReference[]) {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const { dangling: isDangling, owner } = yield* this.isDangling(ref, item);
      if (isDangling) dangling.push(ref);
      else if (beingDeleted(owner!) && hasFinalizer(owner!, finalizerDeleteDependents)) waiting.push(ref);
      else solid.push(ref);
    }
    return { solid, dangling, waiting };
  }

  private *processDeletingDependentsItem(item: GraphNode): Co<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      yield* this.removeFinalizer(item, finalizerDeleteDependents);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep.identity.uid);
  }

  /** removeFinalizer: GET, then a JSON merge patch of the finalizers with the resourceVersion read, retried on conflict. */
  private *removeFinalizer(owner: GraphNode, finalizer: string): Co<void> {
    const client = this.client(owner.identity);
    if (!client) return;
    for (let attempt = 0; ; attempt++) {
      const latest = yield* this.getObject(owner.identity);
      if (!latest) return;
      const finalizers = latest.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return;
      const rest = finalizers.filter((f) => f !== finalizer);
      // Go marshals an empty (nil) slice as null, which a merge patch reads as "remove the field".
      const patch = { metadata: { resourceVersion: latest.metadata.resourceVersion ?? '', finalizers: rest.length > 0 ? rest : null } };
      try {
        yield* client.patch(client.info.namespaced ? owner.identity.namespace : undefined, owner.identity.name, 'application/merge-patch+json', patch);
        return;
      } catch (err) {
        if (!isStatusError(err) || err.code !== 409 || attempt >= conflictRetryDelays.length) throw err;
        yield* this.ctx.host.sleep(conflictRetryDelays[attempt]!, { reason: 'conflict-retry' });
      }
    }
  }

  private *processAttemptToOrphan(uid: string): Co<void> {
    const owner = this.graph.uidToNode.get(uid);
    if (!owner) {
      this.attemptToOrphan.forget(uid);
      return;
    }
    try {
      yield* this.orphanDependents(owner.identity, owner.dependentList());
      yield* this.removeFinalizer(owner, finalizerOrphanDependents);
      this.attemptToOrphan.forget(uid);
    } catch (err) {
      if (!(err instanceof OrphanFailed) && (isProgrammingError(err) || !isStatusError(err))) throw err;
      this.attemptToOrphan.addRateLimited(uid);
    }
  }

  /** Removes the owner from every dependent's ownerReferences, all patches in flight at once. */
  private *orphanDependents(owner: ObjectIdentity, dependents: readonly GraphNode[]): Co<void> {
    const failures: string[] = [];
    yield* this.ctx.all('orphanDependents', dependents.map((dep) => (function* (this: GarbageCollector): Co<void> {
      try {
        yield* this.deleteOwnerRefs(dep.identity, [owner.uid]);
      } catch (err) {
        if (!isStatusError(err)) throw err;
        if (err.code !== 404) failures.push(`orphaning ${identityString(dep.identity)} failed, ${err.message}`);
      }
    }).call(this)));
    if (failures.length > 0) throw new OrphanFailed(`failed to orphan dependents of owner ${identityString(owner)}, got errors: ${failures.join(', ')}`);
  }
}
