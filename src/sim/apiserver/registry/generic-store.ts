// The generic registry store: one fixed pipeline per verb, the same for every resource, with the
// resource's strategy called at fixed points. Reading a method top to bottom is reading what
// kube-apiserver does with a create, an update or a delete.
// Models k8s.io/apiserver/pkg/registry/generic/registry/store.go (Store.Create, Update, Get, List,
// Delete, updateForGracefulDeletionAndFinalizers, deletionFinalizersForGarbageCollection) and
// pkg/registry/rest (BeforeCreate, BeforeUpdate, BeforeDelete, FillObjectMetaSystemFields).

import {
  newAlreadyExists, newDeletePreconditionConflict, newInvalid, newNotFound, newOptimisticLockConflict,
  newGenerateNameConflict,
} from '../../api/errors.ts';
import { fieldError } from '../../api/field.ts';
import { FieldPath } from '../../api/field.ts';
import { generateName } from '../../api/names.ts';
import { apiVersionOf, groupResourceOf, storageKey } from '../../api/resources.ts';
import { recordWrite } from '../fieldmanager/field-manager.ts';
import { formatTimestamp, parseTimestamp } from '../../api/time.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co, Rng, Time } from '../../engine/index.ts';
import type { AdmissionChain, AdmissionContext, AdmissionDecision, Operation } from '../admission/admission.ts';
import type { UserInfo } from '../filters/authentication.ts';
import { interpretStorageError, StorageError } from '../storage/errors.ts';
import { checkPreconditions, type ListOptions, type ListResult, type Preconditions, type Storage } from '../storage/interface.ts';
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
      if (ctx.dryRun) return yield* this.dryRunCreate(this.key(ctx.namespace, name), obj);
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
   */
  *update(ctx: RegistryContext, name: string, updated: (current: KubeObject | null) => KubeObject,
    options: { readonly status?: StatusStrategy; readonly subresource?: string; readonly forceAllowCreate?: boolean } = {}): Co<{ object: KubeObject; created: boolean }> {
    const s = this.strategy;
    const subresource = options.subresource ?? '';
    const allowCreate = (s.allowCreateOnUpdate || options.forceAllowCreate === true) && subresource === '';
    let created = false;
    let previous: KubeObject | null = null;
    const tryUpdate = function* (this: GenericStore, current: KubeObject): Co<KubeObject> {
      const exists = (current.metadata.resourceVersion ?? '') !== '';
      previous = exists ? current : null;
      if (!exists && !allowCreate) throw newNotFound(this.gr, name);
      const obj = updated(exists ? structuredCopy(current) : null);
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
      if (ctx.dryRun) return { object: yield* this.dryRunUpdate(this.key(ctx.namespace, name), { ignoreNotFound: true }, tryUpdate), created };
      const object = yield* this.storage.guaranteedUpdate(this.key(ctx.namespace, name), { ignoreNotFound: true }, tryUpdate, s.ttlSeconds);
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
    const update = ctx.dryRun ? this.dryRunUpdate.bind(this) : this.storage.guaranteedUpdate.bind(this.storage);
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
      const update = ctx.dryRun ? this.dryRunUpdate.bind(this) : this.storage.guaranteedUpdate.bind(this.storage);
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

  // Models k8s.io/apiserver/pkg/registry/generic/registry/dryrun.go (DryRunnableStorage): reads as
  // usual, writes nothing.
  private *dryRunCreate(key: string, obj: KubeObject): Co<KubeObject> {
    const existing = yield* this.storage.get(key, { resourceVersion: '', ignoreNotFound: true });
    if (existing) throw new StorageError('KeyExists', key, 0);
    return copyJson(obj);
  }

  private *dryRunUpdate(key: string, opts: { readonly ignoreNotFound: boolean; readonly preconditions?: Preconditions },
    tryUpdate: (current: KubeObject) => Co<KubeObject>): Co<KubeObject> {
    const current = (yield* this.storage.get(key, { resourceVersion: '', ignoreNotFound: opts.ignoreNotFound })) ?? ({ metadata: {} } as KubeObject);
    checkPreconditions(opts.preconditions, key, current);
    return yield* tryUpdate(copyJson(current));
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

// Models rest.BeforeDelete's precondition checks (with the registry's own 409 texts).
function checkDeletePreconditions(s: Strategy, name: string, current: KubeObject, options: DeleteOptions): void {
  const p = options.preconditions;
  if (!p) return;
  const gk = { group: s.resource.group, kind: s.resource.kind };
  if (p.uid !== undefined && p.uid !== current.metadata.uid) {
    throw newDeletePreconditionConflict(gk, name, 'UID', p.uid, current.metadata.uid ?? '');
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== current.metadata.resourceVersion) {
    throw newDeletePreconditionConflict(gk, name, 'ResourceVersion', p.resourceVersion, current.metadata.resourceVersion ?? '');
  }
}

/**
 * rest.BeforeUpdate's fills: an update may leave out the namespace (the request's), the UID and the
 * creationTimestamp (the stored object's); a `kubectl replace` of a plain manifest does.
 */
function fillFromExisting(obj: KubeObject, current: KubeObject, namespace: string | undefined): void {
  const meta = obj.metadata;
  if (namespace !== undefined && !meta.namespace) meta.namespace = namespace;
  if (!meta.uid && current.metadata.uid) meta.uid = current.metadata.uid;
  if (current.metadata.creationTimestamp) meta.creationTimestamp = current.metadata.creationTimestamp;
  // An update can never remove or change a deletion timestamp, nor remove the grace period seconds.
  const old = current.metadata;
  if (old.deletionTimestamp !== undefined && old.deletionTimestamp !== null && meta.deletionTimestamp !== old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined && old.deletionGracePeriodSeconds !== null && (meta.deletionGracePeriodSeconds === undefined || meta.deletionGracePeriodSeconds === null)) {
    meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  }
}

/**
 * Models ShouldDeleteDuringUpdate: no finalizers left, the existing object was marked for deletion, and
 * with no grace period or a zero one (a strategy may add its own condition: namespaces' spec.finalizers).
 */
export function shouldDeleteDuringUpdate(obj: KubeObject, existing: KubeObject): boolean {
  if ((obj.metadata.finalizers ?? []).length > 0) return false;
  if (existing.metadata.deletionTimestamp === undefined || existing.metadata.deletionTimestamp === null) return false;
  const grace = existing.metadata.deletionGracePeriodSeconds;
  return grace === undefined || grace === null || grace === 0;
}

/** Thrown inside the marking update: a graceful deletion is already pending (errAlreadyDeleting). */
class AlreadyDeleting extends Error {}
/** Thrown inside the marking update: nothing to wait for, delete now (errDeleteNow). */
class DeleteNow extends Error {}

/**
 * rest.BeforeDelete's grace-period rules on `obj` (changed in place). `graceful`: the object is marked
 * with a grace period (`gracePeriodSeconds`, possibly 0); `pendingGraceful`: it already is, and this
 * delete would not shorten it.
 */
// Models k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete), 1.28.
function beforeDelete(s: Strategy, obj: KubeObject, options: { gracePeriodSeconds?: number }, nowMs: number): { graceful: boolean; pendingGraceful: boolean; gracePeriodSeconds: number } {
  const meta = obj.metadata;
  const none = { graceful: false, pendingGraceful: false, gracePeriodSeconds: 0 };
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) options.gracePeriodSeconds = 1;
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds !== null && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  if (!s.gracePeriod) return none;
  if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null) {
    const existing = meta.deletionGracePeriodSeconds;
    if (existing === undefined || existing === null || existing === 0) return none;
    if (options.gracePeriodSeconds !== undefined) {
      const period = options.gracePeriodSeconds;
      if (period >= existing) return { graceful: false, pendingGraceful: true, gracePeriodSeconds: existing };
      meta.deletionTimestamp = formatTimestamp(parseTimestampMs(meta.deletionTimestamp) - existing * 1000 + period * 1000);
      meta.deletionGracePeriodSeconds = period;
      return { graceful: true, pendingGraceful: false, gracePeriodSeconds: period };
    }
    return { graceful: false, pendingGraceful: true, gracePeriodSeconds: existing };
  }
  const period = s.gracePeriod(obj, options.gracePeriodSeconds);
  if (period === undefined) return none;
  meta.deletionTimestamp = formatTimestamp(nowMs + period * 1000);
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  return { graceful: true, pendingGraceful: false, gracePeriodSeconds: period };
}

/** markAsDeleting: grace period 0, deletionTimestamp now (or kept when earlier), generation bumped on the first mark. */
function parseTimestampMs(t: string): number {
  return parseTimestamp(t) ?? 0;
}

function markAsDeleting(obj: KubeObject, nowMs: number): void {
  const meta = obj.metadata;
  if ((meta.deletionTimestamp === undefined || meta.deletionTimestamp === null) && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  if (meta.deletionTimestamp === undefined || meta.deletionTimestamp === null || parseTimestampMs(meta.deletionTimestamp) > nowMs) {
    meta.deletionTimestamp = formatTimestamp(nowMs);
  }
  meta.deletionGracePeriodSeconds = 0;
}

function shouldOrphanDependents(s: Strategy, obj: KubeObject, options: DeleteOptions): boolean {
  if (s.defaultGarbageCollectionPolicy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Orphan';
  for (const f of obj.metadata.finalizers ?? []) {
    if (f === 'orphan') return true;
    if (f === 'foregroundDeletion') return false;
  }
  return s.defaultGarbageCollectionPolicy === 'OrphanDependents';
}

function shouldDeleteDependents(s: Strategy, obj: KubeObject, options: DeleteOptions): boolean {
  if (s.defaultGarbageCollectionPolicy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Foreground';
  for (const f of obj.metadata.finalizers ?? []) {
    if (f === 'foregroundDeletion') return true;
    if (f === 'orphan') return false;
  }
  return false;
}

/** The finalizers a propagation policy asks for (orphan, foregroundDeletion), and whether the set changes. */
// Models Store deletionFinalizersForGarbageCollection.
function deletionFinalizersForGarbageCollection(s: Strategy, obj: KubeObject, options: DeleteOptions): { changed: boolean; finalizers: string[] } {
  const old = obj.metadata.finalizers ?? [];
  const next = old.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
  if (shouldOrphanDependents(s, obj, options)) next.push('orphan');
  if (shouldDeleteDependents(s, obj, options)) next.push('foregroundDeletion');
  const a = new Set(old);
  const b = new Set(next);
  const same = a.size === b.size && [...a].every((f) => b.has(f));
  return same ? { changed: false, finalizers: [...old] } : { changed: true, finalizers: next };
}

/** A deep copy, so that an update function may change what it is given without touching the original. */
function structuredCopy(obj: KubeObject): KubeObject {
  return copyJson(obj);
}
