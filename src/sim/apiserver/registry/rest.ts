// The REST storage of a subresource, as the handlers reach it: each verb it serves takes the parent
// resource's store and answers with an object the handler encodes (a Status for binding and eviction,
// a Scale for scale). The parent-shaped subresources (status, finalize) are the parent's store with
// another update strategy, as upstream's StatusREST is `store` with `UpdateStrategy = statusStrategy`.
// Models k8s.io/apiserver/pkg/registry/rest/rest.go (Creater, Getter, Updater, UpdatedObjectInfo) as
// the per-resource storage packages (pkg/registry/core/pod/storage, pkg/registry/apps/deployment/storage)
// implement them.

import type { KubeObject, Status } from '../../api/types/meta.ts';
import type { Co } from '../../engine/index.ts';
import type { GenericStore, RegistryContext } from './generic-store.ts';
import type { StatusStrategy } from './strategy.ts';

/** rest.UpdatedObjectInfo.UpdatedObject: the new subresource object from the current one. */
export type UpdatedObject = (current: KubeObject) => KubeObject;

export interface SubresourceREST {
  /** rest.Getter: what GET answers with (without it, the parent object as stored). */
  get?(store: GenericStore, ctx: RegistryContext, name: string, resourceVersion: string): Co<KubeObject>;
  /** rest.NamedCreater: POST with the decoded body of the subresource's kind; answered with 201. */
  create?(store: GenericStore, ctx: RegistryContext, name: string, body: Record<string, unknown>): Co<KubeObject | Status>;
  /** rest.Updater for a subresource of its own kind (PUT and PATCH of a Scale); answered with 200. */
  update?(store: GenericStore, ctx: RegistryContext, name: string, updated: UpdatedObject): Co<KubeObject>;
  /** For the parent-shaped subresources: the strategy PUT and PATCH of the parent object go through. */
  readonly updateStrategy?: StatusStrategy;
}

/** StatusREST (and namespaces' FinalizeREST): the parent's store updating through `strategy`. */
export function statusREST(strategy: StatusStrategy): SubresourceREST {
  return { updateStrategy: strategy };
}
