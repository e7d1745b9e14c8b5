// Cluster-wide invariants for tests, checked after every engine step (engine.addInvariant), and the
// convergence checks a settled cluster must pass. They read etcd's store directly (no messages, no
// trace steps) and the message just delivered (from the trace).
//
//   pod bound once            a pod's spec.nodeName, once set, never changes (no pod on two nodes)
//   controller refs resolve   every live pod whose controller is a ReplicaSet names a stored ReplicaSet
//                             with that uid (with owners that may be deleted: or one that existed, and
//                             the garbage collector has yet to remove the pod)
//   resourceVersion           every object a component receives (response, list item, watch event)
//                             carries the etcd mod_revision of its key at that version, or the
//                             revision that deleted the key (DELETED events, answers to deletes)
//   convergence (settled)     ReplicaSets own spec.replicas live pods and say so in their status;
//                             Deployments' ReplicaSets add up to spec.replicas, all updated and available

import type { Deployment, ReplicaSet } from '../api/types/apps.ts';
import type { Pod } from '../api/types/core.ts';
import type { KubeObject, List } from '../api/types/meta.ts';
import { parseGroupVersion } from '../api/gvk.ts';
import { resourceForKind, storageKey } from '../api/resources.ts';
import { httpKinds, type HttpResponse, type HttpWatchEvent } from '../wire/http.ts';
import type { Cluster } from '../cluster.ts';
import { getControllerOf } from '../controllers/controller-utils.ts';
import { decodeStored } from '../apiserver/storage/codec.ts';

const registry = '/registry';

/** Objects of one resource straight from etcd's current state, across namespaces. */
export function storedObjects<T>(cluster: Cluster, resource: string): T[] {
  const prefix = `${registry}/${resource}/`;
  return cluster.etcd.kv.range({ key: prefix, rangeEnd: prefix.slice(0, -1) + '0' }).kvs.map((kv) => decodeStored(kv.value) as T);
}

const live = (p: Pod): boolean => !p.metadata.deletionTimestamp;

/** Invariant: spec.nodeName, once set, never changes or disappears while the pod (its uid) exists. */
export function podBoundOnce(cluster: Cluster): () => string | undefined {
  const boundTo = new Map<string, string>();
  return () => {
    for (const p of storedObjects<Pod>(cluster, 'pods')) {
      const uid = p.metadata.uid ?? '';
      const before = boundTo.get(uid);
      const now = p.spec.nodeName ?? '';
      if (before !== undefined && before !== now) return `pod ${p.metadata.name} moved from node ${before} to ${now === '' ? 'none' : now}`;
      if (now !== '') boundTo.set(uid, now);
    }
    return undefined;
  };
}

export interface OwnershipOptions {
  /**
   * Owners may be deleted before their pods (Background cascade, a controller that lost its owner): a
   * pod may then name a ReplicaSet that is gone, but only one that existed with that uid.
   */
  readonly ownersMayBeDeleted?: boolean;
}

/** Invariant: live pods controlled by a ReplicaSet name a stored ReplicaSet with the same uid. */
export function podsOwnedByExistingReplicaSets(cluster: Cluster, options: OwnershipOptions = {}): () => string | undefined {
  const everSeen = new Set<string>();
  return () => {
    const current = new Map<string, ReplicaSet>();
    for (const rs of storedObjects<ReplicaSet>(cluster, 'replicasets')) {
      current.set(rs.metadata.uid ?? '', rs);
      everSeen.add(rs.metadata.uid ?? '');
    }
    for (const p of storedObjects<Pod>(cluster, 'pods').filter(live)) {
      const ref = getControllerOf(p);
      if (ref?.kind !== 'ReplicaSet') continue;
      const owner = current.get(ref.uid);
      if (owner) {
        if (owner.metadata.name !== ref.name || owner.metadata.namespace !== p.metadata.namespace) return `pod ${p.metadata.name}'s owner ${ref.name} (uid ${ref.uid}) is ${owner.metadata.namespace}/${owner.metadata.name}`;
        continue;
      }
      if (!(options.ownersMayBeDeleted && everSeen.has(ref.uid))) return `pod ${p.metadata.name} is controlled by ReplicaSet ${ref.name} (uid ${ref.uid}), which does not exist`;
    }
    return undefined;
  };
}

/** The etcd key an object lives under, if its kind is a served resource. */
function keyOf(obj: KubeObject, apiVersion: string | undefined, kind: string | undefined): string | undefined {
  if (apiVersion === undefined || kind === undefined) return undefined;
  const gv = parseGroupVersion(apiVersion);
  if ('error' in gv) return undefined;
  const r = resourceForKind({ ...gv, kind });
  if (!r || obj.metadata.name === undefined) return undefined;
  return storageKey(registry, r, r.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name);
}

/**
 * Checks one object received at its resourceVersion: at that revision its key was last written at
 * exactly that revision, by a write of this object (same uid). Revisions already compacted are skipped.
 */
function checkObjectVersion(cluster: Cluster, obj: KubeObject, apiVersion: string | undefined, kind: string | undefined): string | undefined {
  const key = keyOf(obj, apiVersion, kind);
  const rv = Number(obj.metadata.resourceVersion ?? '');
  if (key === undefined || !Number.isInteger(rv) || rv <= 0) return undefined;
  const store = cluster.etcd.store;
  if (rv > store.currentRev) return `${key} arrived at resourceVersion ${rv}, after etcd's revision ${store.currentRev}`;
  if (rv <= store.compactMainRev) return undefined;
  const [kv] = cluster.etcd.kv.range({ key, revision: rv }).kvs;
  if (kv === undefined) {
    // Deleted from etcd at rv (a DELETED event, the answer to a delete): the last version before it.
    if (rv - 1 <= store.compactMainRev) return undefined;
    const [before] = cluster.etcd.kv.range({ key, revision: rv - 1 }).kvs;
    if (before === undefined) return `${key} arrived at resourceVersion ${rv}, but etcd has no such key at that revision or before`;
    const last = decodeStored(before.value) as KubeObject;
    return last.metadata.uid === obj.metadata.uid ? undefined : `${key} deleted at ${rv} had uid ${last.metadata.uid}, the object received has ${obj.metadata.uid}`;
  }
  // A write at rv (for a DELETED event, possibly one that took the object out of the watcher's selection).
  if (kv.modRevision !== rv) return `${key} arrived with resourceVersion ${rv}, but its mod_revision at that revision is ${kv.modRevision}`;
  const stored = decodeStored(kv.value) as KubeObject;
  if (stored.metadata.uid !== obj.metadata.uid) return `${key} at ${rv} has uid ${stored.metadata.uid}, the object received has ${obj.metadata.uid}`;
  return undefined;
}

/**
 * Invariant: the objects in the message just delivered (a response body, the items of a list, a watch
 * event's object) carry resourceVersion = the etcd mod_revision of their key at that version.
 */
export function resourceVersionIsModRevision(cluster: Cluster): () => string | undefined {
  return () => {
    const m = cluster.engine.trace.at(cluster.engine.step);
    if (!m) return undefined;
    if (m.kind === httpKinds.watchEvent) {
      const e = m.payload as HttpWatchEvent;
      if (e.type === 'BOOKMARK' || e.type === 'ERROR') return undefined;
      const obj = e.object as KubeObject;
      return checkObjectVersion(cluster, obj, obj.apiVersion, obj.kind);
    }
    if (m.kind !== httpKinds.response) return undefined;
    const body = (m.payload as HttpResponse).body;
    if (body === null || typeof body !== 'object') return undefined;
    const obj = body as KubeObject & Partial<List<KubeObject>>;
    if (Array.isArray(obj.items) && obj.kind?.endsWith('List')) {
      const listRV = Number(obj.metadata.resourceVersion ?? '0');
      const kind = obj.kind.slice(0, -'List'.length);
      for (const item of obj.items) {
        if (Number(item.metadata.resourceVersion ?? '0') > listRV) return `${obj.kind} at ${listRV} holds ${item.metadata.name} at ${item.metadata.resourceVersion}`;
        const broken = checkObjectVersion(cluster, item, obj.apiVersion, kind);
        if (broken !== undefined) return broken;
      }
      return undefined;
    }
    return checkObjectVersion(cluster, obj, obj.apiVersion, obj.kind);
  };
}

/** Adds every per-step invariant above to the cluster's engine. */
export function addClusterInvariants(cluster: Cluster, options: OwnershipOptions = {}): void {
  cluster.engine.addInvariant('pod bound once', podBoundOnce(cluster));
  cluster.engine.addInvariant('pods owned by existing ReplicaSets', podsOwnedByExistingReplicaSets(cluster, options));
  cluster.engine.addInvariant('resourceVersion is the mod_revision', resourceVersionIsModRevision(cluster));
}

const condition = (d: Deployment, type: string) => d.status?.conditions?.find((c) => c.type === type);

/** What keeps a settled cluster from having converged; empty when every workload is where it should be. */
export function convergenceProblems(cluster: Cluster): string[] {
  const problems: string[] = [];
  const pods = storedObjects<Pod>(cluster, 'pods').filter(live);
  const replicaSets = storedObjects<ReplicaSet>(cluster, 'replicasets');
  for (const rs of replicaSets) {
    const name = `ReplicaSet ${rs.metadata.name}`;
    const owned = pods.filter((p) => getControllerOf(p)?.uid === rs.metadata.uid);
    const want = rs.spec.replicas ?? 1;
    const ready = owned.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
    if (owned.length !== want) problems.push(`${name} wants ${want} pods and controls ${owned.length}`);
    if (rs.status?.replicas !== owned.length) problems.push(`${name} status.replicas ${rs.status?.replicas} for ${owned.length} pods`);
    if ((rs.status?.readyReplicas ?? 0) !== ready) problems.push(`${name} status.readyReplicas ${rs.status?.readyReplicas ?? 0} for ${ready} ready pods`);
    if (rs.status?.observedGeneration !== rs.metadata.generation) problems.push(`${name} observedGeneration ${rs.status?.observedGeneration} of generation ${rs.metadata.generation}`);
  }
  for (const d of storedObjects<Deployment>(cluster, 'deployments')) {
    const name = `Deployment ${d.metadata.name}`;
    const want = d.spec.replicas ?? 1;
    const sets = replicaSets.filter((rs) => getControllerOf(rs)?.uid === d.metadata.uid);
    const total = sets.reduce((n, rs) => n + (rs.spec.replicas ?? 1), 0);
    if (total !== want) problems.push(`${name} wants ${want} replicas; its ReplicaSets want ${total}`);
    const s = d.status;
    if (s?.observedGeneration !== d.metadata.generation) problems.push(`${name} observedGeneration ${s?.observedGeneration} of generation ${d.metadata.generation}`);
    if ((s?.replicas ?? 0) !== want || (s?.updatedReplicas ?? 0) !== want || (s?.availableReplicas ?? 0) !== want) {
      problems.push(`${name} status replicas/updated/available ${s?.replicas ?? 0}/${s?.updatedReplicas ?? 0}/${s?.availableReplicas ?? 0} of ${want}`);
    }
    if (condition(d, 'Available')?.status !== 'True') problems.push(`${name} is not Available`);
  }
  return problems;
}

/** Pods (live, in any namespace) that are not Running with Ready=True. */
export function podsNotRunningAndReady(cluster: Cluster): string[] {
  return storedObjects<Pod>(cluster, 'pods').filter(live)
    .filter((p) => p.status?.phase !== 'Running' || !p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
    .map((p) => `${p.metadata.namespace}/${p.metadata.name} ${p.status?.phase ?? 'no phase'}`);
}
