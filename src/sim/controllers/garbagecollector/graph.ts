// The garbage collector's dependency graph: one node per object it has seen (or that an owner reference
// names), with the object's owner references and the set of its dependents.
// Models k8s pkg/controller/garbagecollector/graph.go (node, objectReference, blockingDependents) and the
// absent-owner cache of uidcache.go (an LRU of 500 owner coordinates verified absent).
//
// A "virtual" node stands for an owner that some dependent names but that no informer has shown yet; it
// becomes observed when its object arrives, or is removed after a live GET finds it absent.

import type { OwnerReference } from '../../api/types/meta.ts';

/** objectReference: an owner reference's coordinates plus the namespace. */
export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
}

export function identityString(id: ObjectIdentity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

export function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name && a.uid === b.uid && a.namespace === b.namespace;
}

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[];
  /** The object is being deleted with the foregroundDeletion finalizer: its dependents go first. */
  deletingDependents: boolean;
  beingDeleted: boolean;
  /** Not yet seen through an informer (only named by a dependent's owner reference). */
  virtual: boolean;

  constructor(public identity: ObjectIdentity, init: { owners?: OwnerReference[]; deletingDependents?: boolean; beingDeleted?: boolean; virtual?: boolean }) {
    this.owners = init.owners ?? [];
    this.deletingDependents = init.deletingDependents ?? false;
    this.beingDeleted = init.beingDeleted ?? false;
    this.virtual = init.virtual ?? false;
  }

  get observed(): boolean {
    return !this.virtual;
  }

  markObserved(): void {
    this.virtual = false;
  }

  markBeingDeleted(): void {
    this.beingDeleted = true;
  }

  markDeletingDependents(): void {
    this.beingDeleted = true;
    this.deletingDependents = true;
  }

  /** Dependents, in the order they were added (Go iterates a map; any order is faithful, this one is stable). */
  dependentList(): GraphNode[] {
    return [...this.dependents];
  }

  /** Dependents whose reference to this node has blockOwnerDeletion: true. */
  blockingDependents(): GraphNode[] {
    return this.dependentList().filter((dep) => dep.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true));
  }
}

/** An owner reference's coordinates (apiVersion, kind, name, uid) in a namespace, as the absent-owner cache keys it. */
export function coordinatesKey(ref: Pick<OwnerReference, 'apiVersion' | 'kind' | 'name' | 'uid'>, namespace: string): string {
  return `${ref.apiVersion}\u0000${ref.kind}\u0000${namespace}\u0000${ref.name}\u0000${ref.uid}`;
}

/** The absent-owner cache: an LRU of owner coordinates a live GET found missing. */
export class AbsentOwnerCache {
  private readonly entries = new Map<string, true>();

  constructor(private readonly size = 500) {}

  add(key: string): void {
    this.entries.delete(key);
    this.entries.set(key, true);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }

  has(key: string): boolean {
    if (!this.entries.has(key)) return false;
    this.add(key);
    return true;
  }
}
