// Adoption and release: a controller claims the objects its selector matches. It keeps those it
// controls and that still match, releases those it controls that no longer match (a strategic merge
// patch deleting its ownerReference), and adopts matching orphans (a patch adding a controller
// ownerReference) after checking once, with an uncached GET, that it is not being deleted.
// Models k8s pkg/controller/controller_ref_manager.go (BaseControllerRefManager.ClaimObject,
// PodControllerRefManager/ReplicaSetControllerRefManager AdoptPod/ReleasePod, ownerRefControllerPatch,
// GenerateDeleteOwnerRefStrategicMergeBytes, RecheckDeletionTimestamp).

import { isStatusError } from '../api/errors.ts';
import { matchesLabels, type Selector } from '../api/labels.ts';
import type { KubeObject, OwnerReference } from '../api/types/meta.ts';
import type { ResourceClient } from '../client/index.ts';
import type { Co } from '../engine/index.ts';
import { getControllerOf } from './controller-utils.ts';

export interface ClaimOptions<O extends KubeObject, T extends KubeObject> {
  readonly owner: O;
  readonly ownerApiVersion: string;
  readonly ownerKind: string;
  readonly selector: Selector;
  /** The owner's client, for the uncached RecheckDeletionTimestamp GET. */
  readonly ownerClient: ResourceClient<O>;
  /** The claimed objects' client, for the adopt and release patches. */
  readonly client: ResourceClient<T>;
  /** getControllerOf, or a memoized equivalent. */
  readonly controllerOf?: (obj: T) => OwnerReference | undefined;
}

/** ClaimObjects: returns the objects the owner controls after adopting and releasing. */
export function* claim<O extends KubeObject, T extends KubeObject>(objects: readonly T[], o: ClaimOptions<O, T>): Co<T[]> {
  const { owner } = o;
  const uid = owner.metadata.uid ?? '';
  const claimed: T[] = [];
  let adoptable: boolean | undefined;
  let adoptError: Error | undefined;
  const canAdopt = function* (): Co<void> {
    if (adoptable === undefined) {
      const fresh = yield* o.ownerClient.get(owner.metadata.namespace, owner.metadata.name ?? '');
      if (fresh.metadata.uid !== uid) {
        adoptError = new Error(`original ${o.ownerKind} ${owner.metadata.namespace}/${owner.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${uid}`);
      } else if (fresh.metadata.deletionTimestamp) {
        adoptError = new Error(`${owner.metadata.namespace}/${owner.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
      }
      adoptable = adoptError === undefined;
    }
    if (adoptError) throw adoptError;
  };
  const controllerOf = o.controllerOf ?? getControllerOf;
  for (const obj of objects) {
    const match = matchesLabels(o.selector, obj.metadata.labels);
    const ref = controllerOf(obj);
    if (ref) {
      if (ref.uid !== uid) continue;
      if (match) {
        claimed.push(obj);
        continue;
      }
      if (owner.metadata.deletionTimestamp) continue;
      const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid }], uid: obj.metadata.uid } };
      try {
        yield* o.client.patch(obj.metadata.namespace, obj.metadata.name ?? '', 'application/strategic-merge-patch+json', patch);
      } catch (err) {
        if (!(isStatusError(err) && (err.code === 404 || err.code === 422))) throw err;
      }
      continue;
    }
    if (owner.metadata.deletionTimestamp || !match || obj.metadata.deletionTimestamp) continue;
    if (owner.metadata.namespace && owner.metadata.namespace !== obj.metadata.namespace) continue;
    yield* canAdopt();
    const patch = {
      metadata: {
        ownerReferences: [{ apiVersion: o.ownerApiVersion, kind: o.ownerKind, name: owner.metadata.name, uid, controller: true, blockOwnerDeletion: true }],
        uid: obj.metadata.uid,
      },
    };
    try {
      claimed.push(yield* o.client.patch(obj.metadata.namespace, obj.metadata.name ?? '', 'application/strategic-merge-patch+json', patch));
    } catch (err) {
      if (isStatusError(err) && err.code === 404) continue;
      throw err;
    }
  }
  return claimed;
}
