// The garbage collector's graph builder: monitors (informers) for every resource it collects turn each
// add, update and delete into a graph change; processing a change keeps the dependency graph current and
// queues the nodes the workers must look at (attemptToDelete) or orphan (attemptToOrphan).
// Models k8s pkg/controller/garbagecollector/graph_builder.go (controllerFor, processGraphChanges,
// addDependentToOwners, removeNode, referencesDiffs, processTransitions, addUnblockedOwnersToDeleteQueue,
// enqueueVirtualDeleteEvent).
//
// Simplifications: graph changes are processed at once, in the informer delivery that produced them
// (upstream queues them for one goroutine, which drains them in the same order); a virtual node whose
// observed identity differs only gets its identity corrected (no namespace-mismatch events); the
// replacement-identity search among a virtual node's dependents is not modelled.

import type { KubeObject, OwnerReference } from '../../api/types/meta.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import { apiVersionOf } from '../../api/resources.ts';
import { DeletedFinalStateUnknown, type RateLimitingQueue, type SharedIndexInformer } from '../../client/index.ts';
import { AbsentOwnerCache, coordinatesKey, GraphNode, sameIdentity, type ObjectIdentity } from './graph.ts';

export const finalizerOrphanDependents = 'orphan';
export const finalizerDeleteDependents = 'foregroundDeletion';

type GraphEvent =
  | { readonly type: 'add' | 'update'; readonly obj: KubeObject; readonly oldObj: KubeObject | null; readonly resource: ResourceInfo }
  | { readonly type: 'delete'; readonly obj: KubeObject; readonly resource: ResourceInfo | null; readonly virtual?: ObjectIdentity };

export function beingDeleted(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && obj.metadata.deletionTimestamp !== null;
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}

function deletionStartsWithFinalizer(oldObj: KubeObject | null, obj: KubeObject, finalizer: string): boolean {
  if (!beingDeleted(obj) || !hasFinalizer(obj, finalizer)) return false;
  if (oldObj === null) return true;
  return !beingDeleted(oldObj) || !hasFinalizer(oldObj, finalizer);
}

function sameRef(a: OwnerReference, b: OwnerReference): boolean {
  return a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name && a.uid === b.uid
    && a.controller === b.controller && a.blockOwnerDeletion === b.blockOwnerDeletion;
}

/** referencesDiffs: owner references added, removed and changed (same uid, other fields) between two lists. */
export function referencesDiffs(old: readonly OwnerReference[], cur: readonly OwnerReference[]) {
  const oldByUid = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: { oldRef: OwnerReference; newRef: OwnerReference }[] = [];
  for (const ref of cur) {
    const before = oldByUid.get(ref.uid);
    if (!before) added.push(ref);
    else {
      if (!sameRef(before, ref)) changed.push({ oldRef: before, newRef: ref });
      oldByUid.delete(ref.uid);
    }
  }
  return { added, removed: [...oldByUid.values()], changed };
}

export class GraphBuilder {
  readonly uidToNode = new Map<string, GraphNode>();
  readonly absentOwnerCache = new AbsentOwnerCache();

  constructor(private readonly attemptToDelete: RateLimitingQueue, private readonly attemptToOrphan: RateLimitingQueue) {}

  /** Subscribes to one monitored resource's informer. */
  monitor(resource: ResourceInfo, informer: SharedIndexInformer<KubeObject>): void {
    informer.addEventHandler({
      onAdd: (obj) => this.process({ type: 'add', obj, oldObj: null, resource }),
      onUpdate: (oldObj, obj) => this.process({ type: 'update', obj, oldObj, resource }),
      onDelete: (obj) => this.process({ type: 'delete', obj: obj instanceof DeletedFinalStateUnknown ? obj.obj : obj, resource }),
    });
  }

  enqueueVirtualDeleteEvent(id: ObjectIdentity): void {
    this.process({
      type: 'delete', resource: null, virtual: id,
      obj: { apiVersion: id.apiVersion, kind: id.kind, metadata: { name: id.name, namespace: id.namespace, uid: id.uid } },
    });
  }

  private identityOf(event: GraphEvent): ObjectIdentity {
    if (event.type === 'delete' && event.virtual) return event.virtual;
    const r = event.resource!;
    const meta = event.obj.metadata;
    return { apiVersion: apiVersionOf(r), kind: r.kind, name: meta.name ?? '', uid: meta.uid ?? '', namespace: meta.namespace ?? '' };
  }

  private process(event: GraphEvent): void {
    const { obj } = event;
    const uid = obj.metadata.uid ?? '';
    const virtualEvent = event.type === 'delete' && event.virtual !== undefined;
    let existing = this.uidToNode.get(uid);
    if (existing && !virtualEvent && existing.virtual) {
      const observed = this.identityOf(event);
      if (!sameIdentity(observed, existing.identity)) {
        for (const dep of existing.dependentList()) this.addToDelete(dep);
        existing.identity = observed;
      }
      existing.markObserved();
    }
    const owners = obj.metadata.ownerReferences ?? [];
    if ((event.type === 'add' || event.type === 'update') && !existing) {
      const node = new GraphNode(this.identityOf(event), {
        owners: [...owners],
        deletingDependents: beingDeleted(obj) && hasFinalizer(obj, finalizerDeleteDependents),
        beingDeleted: beingDeleted(obj),
      });
      this.insertNode(node);
      this.processTransitions(event.oldObj, obj, node);
      return;
    }
    if ((event.type === 'add' || event.type === 'update') && existing) {
      const { added, removed, changed } = referencesDiffs(existing.owners, owners);
      if (added.length > 0 || removed.length > 0 || changed.length > 0) {
        this.addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = [...owners];
        this.addDependentToOwners(existing, added);
        this.removeDependentFromOwners(existing, removed);
      }
      if (beingDeleted(obj)) existing.markBeingDeleted();
      this.processTransitions(event.oldObj, obj, existing);
      return;
    }
    if (!existing) return;
    existing = existing as GraphNode;
    if (virtualEvent) {
      const deleted = this.identityOf(event);
      // A virtual delete of an identity other than the node's (a dependent named the uid with other
      // coordinates): only the dependents that used those coordinates learn their owner is absent.
      if (!sameIdentity(existing.identity, deleted)) {
        const matching = existing.dependentList().filter((d) => d.owners.some((o) => o.uid === deleted.uid
          && o.apiVersion === deleted.apiVersion && o.kind === deleted.kind && o.name === deleted.name));
        if (matching.length > 0) {
          this.absentOwnerCache.add(coordinatesKey(deleted, deleted.namespace));
          for (const dep of matching) this.addToDelete(dep);
        }
        return;
      }
    }
    this.removeNode(existing);
    if (existing.dependents.size > 0) {
      this.absentOwnerCache.add(coordinatesKey(existing.identity, existing.identity.namespace));
    }
    for (const dep of existing.dependentList()) this.addToDelete(dep);
    for (const owner of existing.owners) {
      const ownerNode = this.uidToNode.get(owner.uid);
      if (ownerNode?.deletingDependents) this.addToDelete(ownerNode);
    }
  }

  private addToDelete(node: GraphNode): void {
    this.attemptToDelete.add(node.identity.uid);
  }

  private insertNode(node: GraphNode): void {
    this.uidToNode.set(node.identity.uid, node);
    this.addDependentToOwners(node, node.owners);
  }

  /** Adds `node` to its owners' dependents, creating (and queueing) a virtual node for an owner not seen yet. */
  private addDependentToOwners(node: GraphNode, owners: readonly OwnerReference[]): void {
    for (const owner of owners) {
      let ownerNode = this.uidToNode.get(owner.uid);
      const found = ownerNode !== undefined;
      if (!ownerNode) {
        ownerNode = new GraphNode({ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, namespace: node.identity.namespace }, { virtual: true });
        this.uidToNode.set(owner.uid, ownerNode);
      }
      ownerNode.dependents.add(node);
      if (!found) this.addToDelete(ownerNode);
    }
  }

  private removeDependentFromOwners(node: GraphNode, owners: readonly OwnerReference[]): void {
    for (const owner of owners) this.uidToNode.get(owner.uid)?.dependents.delete(node);
  }

  private removeNode(node: GraphNode): void {
    this.uidToNode.delete(node.identity.uid);
    this.removeDependentFromOwners(node, node.owners);
  }

  /** An owner that a dependent no longer blocks may be able to finish its foreground deletion. */
  private addUnblockedOwnersToDeleteQueue(removed: readonly OwnerReference[], changed: readonly { oldRef: OwnerReference; newRef: OwnerReference }[]): void {
    for (const ref of removed) {
      if (ref.blockOwnerDeletion !== true) continue;
      const node = this.uidToNode.get(ref.uid);
      if (node) this.addToDelete(node);
    }
    for (const { oldRef, newRef } of changed) {
      if (oldRef.blockOwnerDeletion === true && newRef.blockOwnerDeletion !== true) {
        const node = this.uidToNode.get(newRef.uid);
        if (node) this.addToDelete(node);
      }
    }
  }

  private processTransitions(oldObj: KubeObject | null, obj: KubeObject, node: GraphNode): void {
    if (deletionStartsWithFinalizer(oldObj, obj, finalizerOrphanDependents)) {
      this.attemptToOrphan.add(node.identity.uid);
      return;
    }
    if (deletionStartsWithFinalizer(oldObj, obj, finalizerDeleteDependents)) {
      node.markDeletingDependents();
      for (const dep of node.dependentList()) this.addToDelete(dep);
      this.addToDelete(node);
    }
  }
}
