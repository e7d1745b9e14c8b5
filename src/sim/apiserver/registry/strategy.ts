// Per-resource behaviour of the generic registry, the way kube-apiserver splits it: what a create,
// update or delete does to an object beyond storing it. The generic store runs a fixed pipeline and
// calls these hooks at fixed points, so reading `generic-store.ts` top to bottom tells the whole story.
// Models k8s.io/apiserver/pkg/registry/rest (RESTCreateStrategy, RESTUpdateStrategy,
// RESTDeleteStrategy, RESTGracefulDeleteStrategy, GarbageCollectionDeleteStrategy).

import type { FieldError } from '../../api/field.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co } from '../../engine/index.ts';
import type { DeleteResult, GenericStore, RegistryContext } from './generic-store.ts';

export interface DeleteOptions {
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly orphanDependents?: boolean;
  /** `["All"]` for a dry run (kubectl delete --dry-run=server sends it in the body). */
  readonly dryRun?: readonly string[];
}

export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

export interface Strategy {
  readonly resource: ResourceInfo;
  /** PUT on a missing object creates it (events, leases, nodes' status is not). */
  readonly allowCreateOnUpdate: boolean;
  /** An update without metadata.resourceVersion is accepted. */
  readonly allowUnconditionalUpdate: boolean;
  /** Pods answer a delete with the deleted object; most resources with a Success Status. */
  readonly returnDeletedObject: boolean;
  /** What happens to dependents when the client sets no propagation policy. */
  readonly defaultGarbageCollectionPolicy: GarbageCollectionPolicy;

  prepareForCreate(obj: KubeObject): void;
  prepareForUpdate(obj: KubeObject, old: KubeObject): void;
  validate(obj: KubeObject): FieldError[];
  validateUpdate(obj: KubeObject, old: KubeObject): FieldError[];
  canonicalize(obj: KubeObject): void;
  /** Seconds until a stored object expires (an etcd lease); 0 = never. */
  readonly ttlSeconds: number;
  /**
   * Graceful deletion: the grace period to apply (seconds), or undefined when the object is deleted at
   * once. Receives the client's requested period, if any.
   */
  gracePeriod?(obj: KubeObject, requested: number | undefined): number | undefined;
  /** A REST Delete of the resource's own (namespaces: the first DELETE marks the namespace Terminating). */
  restDelete?(store: GenericStore, ctx: RegistryContext, name: string, options: DeleteOptions): Co<DeleteResult>;
  /** Replaces the generic ShouldDeleteDuringUpdate (namespaces also wait for spec.finalizers). */
  shouldDeleteDuringUpdate?(obj: KubeObject, existing: KubeObject): boolean;
}

/** The status subresource's own update behaviour: status changes, spec stays. */
export interface StatusStrategy {
  prepareForUpdate(obj: KubeObject, old: KubeObject): void;
  validateUpdate(obj: KubeObject, old: KubeObject): FieldError[];
}
