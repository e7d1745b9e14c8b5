// The generic registry store: one fixed pipeline per verb, the same for every resource, with the
// resource's strategy called at fixed points. Reading a method top to bottom is reading what
// kube-apiserver does with a create, an update or a delete.
// Models k8s.io/apiserver/pkg/registry/generic/registry/store.go (Store.Create, Update, Get, List,
// Delete, updateForGracefulDeletionAndFinalizers; the delete helpers are store-delete.ts, dry run is
// dryrun.ts) and pkg/registry/rest (BeforeCreate, FillObjectMetaSystemFields; BeforeUpdate's fills in
// rest-update.ts, BeforeDelete in rest-delete.ts).

import {
  newAlreadyExists, newInvalid, newNotFound, newOptimisticLockConflict, newGenerateNameConflict,
} from '../../api/errors.ts';
import { fieldError } from '../../api/field.ts';
import { FieldPath } from '../../api/field.ts';
import { generateName } from '../../api/names.ts';
import { apiVersionOf, groupResourceOf, storageKey } from '../../api/resources.ts';
import { recordWrite } from '../fieldmanager/field-manager.ts';
import { formatTimestamp } from '../../api/time.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co, Rng, Time } from '../../engine/index.ts';
import type { AdmissionChain, AdmissionContext, AdmissionDecision, Operation } from '../admission/admission.ts';
import type { UserInfo } from '../filters/authentication.ts';
import { interpretStorageError, StorageError } from '../storage/errors.ts';
import type { ListOptions, ListResult, Preconditions, Storage } from '../storage/interface.ts';
import { dryRunCreate, dryRunUpdate } from './dryrun.ts';
import { beforeDelete, checkDeletePreconditions } from './rest-delete.ts';
import { fillFromExisting } from './rest-update.ts';
import {
  AlreadyDeleting, DeleteNow, deletionFinalizersForGarbageCollection, markAsDeleting, shouldDeleteDuringUpdate,
} from './store-delete.ts';
import type { DeleteOptions, StatusStrategy, Strategy } from './strategy.ts';
import type { RegistryStageName, StageDetails } from '../../messages/index.ts';
import { copyJson } from '../../api/json-copy.ts';

/** What the store needs to know about the request it serves. */
export interface RegistryContext {
  readonly user: UserInfo;
  readonly namespace: string;
  readonly rng: Rng;
  /** Virtual now and the wall-clock epoch it is measured from, for creationTimestamp and friends. */
  readonly now: Time;
  readonly epochMs: number;
  readonly admission: AdmissionChain;
  readonly admissionContext: AdmissionContext;
  /** The writer's field manager (managedFields); '' records nothing. */
  readonly fieldManager: string;
  /** `?dryRun=All`: everything up to the write, which is skipped (the result is what would be stored). */
  readonly dryRun?: boolean;
  /** Records a pipeline stage as a step of its own (visible in the trace). */
  stage<S extends RegistryStageName>(name: S, detail: StageDetails[S]): Co<void>;
}

export interface DeleteResult {
  readonly object: KubeObject;
  /** True when the object is gone from storage; false when it was only marked (graceful or finalizers). */
  readonly deleted: boolean;
}

/**
 * Resource-specific work around the generic pipeline (genericregistry.Store's BeginCreate and AfterDelete):
 * the Service REST allocates ClusterIPs and NodePorts before the create and releases them after a delete.
 */
export interface StoreHooks {
  /** Runs after mutating admission, before PrepareForCreate and validation; the finish function learns whether the create was stored. */
  beginCreate?(ctx: RegistryContext, obj: KubeObject): Co<(stored: boolean) => Co<void>>;
  afterDelete?(ctx: RegistryContext, obj: KubeObject): Co<void>;
}

/** The registry's observer of committed writes (e.g. the RBAC authorizer's index). */
export type CommitObserver = (resource: string, obj: KubeObject, deleted: boolean) => void;

export class GenericStore {
  constructor(
    readonly strategy: Strategy,
    private readonly storage: Storage,
    private readonly prefix: string,
    private readonly onCommit: CommitObserver = () => undefined,
    private readonly hooks: StoreHooks = {},
  ) {}

  private get gr() {
    return groupResourceOf(this.strategy.resource);
  }

  key(namespace: string, name: string): string {
    return storageKey(this.prefix, this.strategy.resource, namespace, name);
  }

  collectionKey(namespace: string): string {
    return storageKey(this.prefix, this.strategy.resource, namespace === '' ? undefined : namespace);
  }

  *create(ctx: RegistryContext, obj: KubeObject): Co<KubeObject> {
    this.recordWrite(ctx, obj, null, undefined);
    yield* this.admit(ctx, 'CREATE', obj, null, '');
    const finish = this.hooks.beginCreate ? yield* this.hooks.beginCreate(ctx, obj) : null;
    let stored = false;
    try {
      return yield* this.createAdmitted(ctx, obj, (created) => {
        stored = created;
      });
    } finally {
      if (finish) yield* finish(stored);
    }
  }

  private *createAdmitted(ctx: RegistryContext, obj: KubeObject, onStored: (stored: boolean) => void): Co<KubeObject> {
    const s = this.strategy;
    const generated = this.beforeCreate(ctx, obj);
    yield* this.strategyStage(ctx, 'PrepareForCreate, Validate, Canonicalize', obj);
    yield* this.validateAdmission(ctx, 'CREATE', obj, null, '');
    const name = obj.metadata.name!;
    try {
      if (ctx.dryRun) return yield* dryRunCreate(this.storage, this.key(ctx.namespace, name), obj);
      const created = yield* this.storage.create(this.key(ctx.namespace, name), obj, s.ttlSeconds);
      onStored(true);
      this.onCommit(s.resource.resource, created, false);
      return created;
    } catch (err) {
      if (err instanceof StorageError && err.code === 'KeyExists') {
        if (generated) throw newGenerateNameConflict(this.gr, name, 1);
        const existing = yield* this.storage.get(this.key(ctx.namespace, name), { resourceVersion: '', ignoreNotFound: true });
        if (existing?.metadata.deletionTimestamp) {
          const e = newAlreadyExists(this.gr, name);
          e.status.message = `object is being deleted: ${e.status.message}`;
          throw e;
        }
      }
      throw interpretStorageError(err, this.gr, name);
    }
  }

  /** rest.BeforeCreate: system fields, generated name, PrepareForCreate, Validate, Canonicalize. Returns whether the name was generated. */
  private beforeCreate(ctx: RegistryContext, obj: KubeObject): boolean {
    const s = this.strategy;
    const meta = obj.metadata;
    if (s.resource.namespaced) meta.namespace = ctx.namespace;
    else delete meta.namespace;
    meta.uid = ctx.rng.uuid();
    meta.creationTimestamp = formatTimestamp(ctx.epochMs + ctx.now);
    const generated = !meta.name && !!meta.generateName;
    if (generated) meta.name = generateName(meta.generateName!, ctx.rng);
    s.prepareForCreate(obj);
    const errs = s.validate(obj);
    if (errs.length > 0) throw newInvalid({ group: s.resource.group, kind: s.resource.kind }, meta.name ?? '', errs);
    s.canonicalize(obj);
    return generated;
  }

  private recordWrite(ctx: RegistryContext, obj: KubeObject, old: KubeObject | null, subresource: string | undefined): void {
    recordWrite(this.strategy.resource.kind, obj, old, {
      manager: ctx.fieldManager,
      apiVersion: apiVersionOf(this.strategy.resource),
      time: formatTimestamp(ctx.epochMs + ctx.now),
      ...(subresource ? { subresource } : {}),
    });
  }

  private *strategyStage(ctx: RegistryContext, step: string, obj: KubeObject): Co<void> {
    yield* ctx.stage('registry.strategy', { strategy: `${this.strategy.resource.kind}Strategy`, step, name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '' });
  }

  *get(ctx: RegistryContext, name: string, resourceVersion: string): Co<KubeObject> {
    try {
      const obj = yield* this.storage.get(this.key(ctx.namespace, name), { resourceVersion });
      return obj!;
    } catch (err) {
      throw interpretStorageError(err, this.gr, name);
    }
  }

  *list(ctx: RegistryContext, opts: Omit<ListOptions, 'recursive'>): Co<ListResult> {
    return yield* this.storage.getList(this.collectionKey(ctx.namespace), { ...opts, recursive: true });
  }

  /**
   * Update (PUT, PATCH and subresource writes): `updated` computes the desired object from the current
   * one (null when it does not exist). Conflicts are the registry's: a stale resourceVersion in the
   * desired object is a 409; an empty one is accepted when the strategy allows unconditional updates.
   * Runs inside the storage's GuaranteedUpdate, so it runs again on a fresh object after a lost race.
   * `updated` gets a copy of the current object, which it may change; with `readsCurrentOnly` it gets
   * the current object itself (possibly the watch cache's, frozen), for an `updated` that only reads it
   * and returns an object of its own (a PUT's body, a patch's result decoded anew).
   */
  *update(ctx: RegistryContext, name: string, updated: (current: KubeObject | null) => KubeObject,
    options: { readonly status?: StatusStrategy; readonly subresource?: string; readonly forceAllowCreate?: boolean; readonly readsCurrentOnly?: boolean } = {}): Co<{ object: KubeObject; created: boolean }> {
    const s = this.strategy;
    const subresource = options.subresource ?? '';
    const allowCreate = (s.allowCreateOnUpdate || options.forceAllowCreate === true) && subresource === '';
    let created = false;
    let previous: KubeObject | null = null;
    const tryUpdate = function* (this: GenericStore, current: KubeObject): Co<KubeObject> {
      const exists = (current.metadata.resourceVersion ?? '') !== '';
      previous = exists ? current : null;
      if (!exists && !allowCreate) throw newNotFound(this.gr, name);
      const obj = updated(!exists ? null : options.readsCurrentOnly === true ? current : structuredCopy(current));
      created = !exists;
      if (subresource !== 'binding') this.recordWrite(ctx, obj, exists ? current : null, subresource === '' ? undefined : subresource);
      if (!exists) {
        yield* this.admit(ctx, 'CREATE', obj, null, subresource);
        this.beforeCreate(ctx, obj);
        yield* this.strategyStage(ctx, 'PrepareForCreate, Validate, Canonicalize', obj);
        yield* this.validateAdmission(ctx, 'CREATE', obj, null, subresource);
        return obj;
      }
      yield* this.admit(ctx, 'UPDATE', obj, current, subresource);
      const newRv = obj.metadata.resourceVersion ?? '';
      if (newRv === '') {
        if (!s.allowUnconditionalUpdate) {
          throw newInvalid({ group: s.resource.group, kind: s.resource.kind }, name, [
            fieldError.invalid(FieldPath.of('metadata', 'resourceVersion'), { goSyntax: '0x0' }, 'must be specified for an update'),
          ]);
        }
        obj.metadata.resourceVersion = current.metadata.resourceVersion;
      } else if (newRv !== current.metadata.resourceVersion) {
        throw newOptimisticLockConflict(this.gr, name);
      }
      fillFromExisting(obj, current, s.resource.namespaced ? ctx.namespace : undefined);
      // rest.BeforeUpdate: requests cannot update generation (the strategy may bump it).
      if (current.metadata.generation !== undefined) obj.metadata.generation = current.metadata.generation;
      else delete obj.metadata.generation;
      const strategy = options.status ?? s;
      strategy.prepareForUpdate(obj, current);
      const errs = strategy.validateUpdate(obj, current);
      if (errs.length > 0) throw newInvalid({ group: s.resource.group, kind: s.resource.kind }, name, errs);
      s.canonicalize(obj);
      yield* this.strategyStage(ctx, options.status ? 'status PrepareForUpdate, ValidateUpdate' : 'PrepareForUpdate, ValidateUpdate, Canonicalize', obj);
      yield* this.validateAdmission(ctx, 'UPDATE', obj, current, subresource);
      return obj;
    }.bind(this);
    try {
      if (ctx.dryRun) return { object: yield* dryRunUpdate(this.storage, this.key(ctx.namespace, name), { ignoreNotFound: true }, tryUpdate), created };
      // tryUpdate copies the current object before `updated` changes it, and only reads `current`.
      const object = yield* this.storage.guaranteedUpdate(this.key(ctx.namespace, name), { ignoreNotFound: true, readsCurrentOnly: true }, tryUpdate, s.ttlSeconds);
      this.onCommit(s.resource.resource, object, false);
      if (previous !== null && (s.shouldDeleteDuringUpdate ?? shouldDeleteDuringUpdate)(object, previous)) {
        // deleteWithoutFinalizers: the update removed the last finalizer of an object marked for deletion.
        const preconditions = { uid: object.metadata.uid ?? '', resourceVersion: object.metadata.resourceVersion ?? '' };
        const deleted = yield* this.storage.delete(this.key(ctx.namespace, name), preconditions, () => undefined);
        this.onCommit(s.resource.resource, deleted, true);
        return { object: deleted, created };
      }
      return { object, created };
    } catch (err) {
      throw interpretStorageError(err, this.gr, name);
    }
  }

  /**
   * Delete: graceful (pods on a node) or with finalizers it only marks the object; otherwise it is removed.
   * A second delete of an object being deleted may only shorten its grace period; once the grace period
   * is 0 the object goes (after its finalizers). Namespaces first go Terminating (strategy.restDelete).
   */
  *delete(ctx: RegistryContext, name: string, options: DeleteOptions): Co<DeleteResult> {
    if (this.strategy.restDelete) return yield* this.strategy.restDelete(this, ctx, name, options);
    return yield* this.genericDelete(ctx, name, options);
  }

  /** Mutating, then validating admission of a DELETE of `current` (for a strategy's own REST Delete). */
  *admitDelete(ctx: RegistryContext, current: KubeObject): Co<void> {
    yield* this.admit(ctx, 'DELETE', null, current, '');
    yield* this.validateAdmission(ctx, 'DELETE', null, current, '');
  }

  /** A GuaranteedUpdate of the stored object outside the update pipeline (a namespace's first DELETE). */
  *updateForDelete(ctx: RegistryContext, name: string, preconditions: Preconditions | undefined, mutate: (existing: KubeObject) => KubeObject): Co<KubeObject> {
    const key = this.key(ctx.namespace, name);
    const update = ctx.dryRun ? this.dryRunUpdater() : this.storage.guaranteedUpdate.bind(this.storage);
    try {
      const object = yield* update(key, { ignoreNotFound: false, ...(preconditions ? { preconditions } : {}) }, function* (existing) {
        return mutate(existing);
      }, this.strategy.ttlSeconds);
      if (!ctx.dryRun) this.onCommit(this.strategy.resource.resource, object, false);
      return object;
    } catch (err) {
      throw interpretStorageError(err, this.gr, name);
    }
  }

  /** The generic Store.Delete, with rest.BeforeDelete's grace-period rules. */
  *genericDelete(ctx: RegistryContext, name: string, requested: DeleteOptions): Co<DeleteResult> {
    const s = this.strategy;
    const key = this.key(ctx.namespace, name);
    let current: KubeObject;
    try {
      current = (yield* this.storage.get(key, { resourceVersion: '' }))!;
    } catch (err) {
      throw interpretStorageError(err, this.gr, name);
    }
    checkDeletePreconditions(s, name, current, requested);
    yield* this.admit(ctx, 'DELETE', null, current, '');
    yield* this.validateAdmission(ctx, 'DELETE', null, current, '');

    const nowMs = ctx.epochMs + ctx.now;
    const first = beforeDelete(s, structuredCopy(current), { ...requested }, nowMs);
    // A delete that would not shorten a pending graceful deletion answers with the object as it is.
    if (first.pendingGraceful) return { object: current, deleted: false };
    const pendingFinalizers = (current.metadata.finalizers ?? []).length > 0;
    const gcUpdate = deletionFinalizersForGarbageCollection(s, current, requested).changed;
    let ignoreNotFound = false;
    if (first.graceful || pendingFinalizers || gcUpdate) {
      // updateForGracefulDeletionAndFinalizers: mark (timestamp, grace period, finalizers), do not remove.
      let lastGraceful = 0;
      let finalizersLeft = false;
      let outcome: 'updated' | 'deleteNow' | 'alreadyDeleting' = 'updated';
      let object: KubeObject | null = null;
      const update = ctx.dryRun ? this.dryRunUpdater() : this.storage.guaranteedUpdate.bind(this.storage);
      try {
        object = yield* update(key, { ignoreNotFound: false, ...(requested.preconditions ? { preconditions: requested.preconditions } : {}) }, function* (existing) {
          const options = { ...requested };
          const b = beforeDelete(s, existing, options, nowMs);
          if (b.pendingGraceful) throw new AlreadyDeleting();
          const gc = deletionFinalizersForGarbageCollection(s, existing, options);
          if (gc.changed) existing.metadata.finalizers = gc.finalizers;
          finalizersLeft = (existing.metadata.finalizers ?? []).length > 0;
          if (!b.graceful) {
            if (!finalizersLeft) throw new DeleteNow();
            markAsDeleting(existing, nowMs);
            return existing;
          }
          lastGraceful = b.gracePeriodSeconds;
          return existing;
        }, s.ttlSeconds);
      } catch (err) {
        if (err instanceof AlreadyDeleting) outcome = 'alreadyDeleting';
        else if (err instanceof DeleteNow) outcome = 'deleteNow';
        else throw interpretStorageError(err, this.gr, name);
      }
      if (outcome === 'alreadyDeleting') return { object: current, deleted: false };
      if (outcome === 'updated') {
        if (!ctx.dryRun) this.onCommit(s.resource.resource, object!, false);
        if (finalizersLeft || lastGraceful > 0) return { object: object!, deleted: false };
        // A graceful strategy deleting with a zero grace period: the update is followed by the delete,
        // which may race with another component's (tolerated).
        ignoreNotFound = true;
        if (ctx.dryRun) return { object: object!, deleted: true };
        current = object!;
      }
    }
    if (ctx.dryRun) return { object: current, deleted: true };
    const preconditions = requested.preconditions?.resourceVersion !== undefined
      ? { ...requested.preconditions, resourceVersion: current.metadata.resourceVersion ?? '' }
      : requested.preconditions;
    try {
      const deleted = yield* this.storage.delete(key, preconditions, (cur) => checkDeletePreconditions(s, name, cur, { ...requested, ...(preconditions ? { preconditions } : {}) }));
      this.onCommit(s.resource.resource, deleted, true);
      if (this.hooks.afterDelete) yield* this.hooks.afterDelete(ctx, deleted);
      return { object: deleted, deleted: true };
    } catch (err) {
      if (ignoreNotFound && err instanceof StorageError && err.code === 'KeyNotFound') return { object: current, deleted: true };
      throw interpretStorageError(err, this.gr, name);
    }
  }

  /** A GuaranteedUpdate of the storage that writes nothing (`?dryRun=All`). */
  private dryRunUpdater(): Storage['guaranteedUpdate'] {
    return (key, opts, tryUpdate) => dryRunUpdate(this.storage, key, opts, tryUpdate);
  }

  private *admit(ctx: RegistryContext, operation: Operation, obj: KubeObject | null, old: KubeObject | null, subresource: string): Co<void> {
    const decisions = yield* ctx.admission.admit(this.attributes(ctx, operation, obj, old, subresource), ctx.admissionContext);
    yield* ctx.stage('admission.mutating', { operation, decisions: describe(decisions) });
  }

  private *validateAdmission(ctx: RegistryContext, operation: Operation, obj: KubeObject | null, old: KubeObject | null, subresource: string): Co<void> {
    const decisions = yield* ctx.admission.validate(this.attributes(ctx, operation, obj, old, subresource), ctx.admissionContext);
    yield* ctx.stage('admission.validating', { operation, decisions: describe(decisions) });
  }

  private attributes(ctx: RegistryContext, operation: Operation, obj: KubeObject | null, old: KubeObject | null, subresource: string) {
    return {
      operation,
      resource: this.strategy.resource,
      subresource,
      namespace: ctx.namespace,
      name: obj?.metadata.name ?? old?.metadata.name ?? '',
      object: obj,
      oldObject: old,
      user: ctx.user,
    };
  }
}

function describe(decisions: readonly AdmissionDecision[]): string[] {
  return decisions.map((d) => `${d.plugin}: ${d.note}`);
}

/** A deep copy, so that an update function may change what it is given without touching the original. */
function structuredCopy(obj: KubeObject): KubeObject {
  return copyJson(obj);
}
