// Validation of the other core/v1 kinds Podflow serves, and of coordination.k8s.io Leases:
// Namespace, Node (taints, capacity), ConfigMap (keys, 1 MiB), ServiceAccount, Event (core/v1 rules)
// and Lease (duration and transitions).
// Models k8s pkg/apis/core/validation/validation.go (ValidateNamespace, ValidateNode,
// ValidateConfigMap, ValidateServiceAccount), events.go (legacyValidateEvent for core/v1 requests) and
// pkg/apis/coordination/validation/validation.go.

import { FieldPath, fieldError, type FieldError } from '../field.ts';
import { validateLabelName } from './meta-v1.ts';
import { parseQuantity, quantityString } from '../quantity.ts';
import { goQuote, utf8Length } from '../../go/strconv.ts';
import type { ConfigMap, Event, Lease, Namespace, Node, ServiceAccount, Taint } from '../types/index.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta.ts';
import { isConfigMapKey, isDNS1123Subdomain, isNegativeErrorMsg, isValidLabelValue, nameIsDNSSubdomain, validateNamespaceName } from './names.ts';
import { validateNodeName, validateServiceAccountName } from './pod.ts';

/** Largest total size of a ConfigMap's data and binaryData (MaxSecretSize, 1 MiB). */
export const maxConfigMapSize = 1024 * 1024;

const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

export function validateNamespace(ns: Namespace): FieldError[] {
  const errs = validateObjectMeta(ns.metadata, false, validateNamespaceName);
  const path = FieldPath.of('spec', 'finalizers');
  for (const f of ns.spec?.finalizers ?? []) {
    // The spec path is not indexed upstream.
    errs.push(...validateLabelName(f, path));
    if (f.split('/').length === 1 && !standardFinalizers.has(f)) errs.push(fieldError.invalid(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

export function validateNamespaceUpdate(ns: Namespace, old: Namespace): FieldError[] {
  return validateObjectMetaUpdate(ns.metadata, old.metadata);
}

function goTaint(t: Taint): string {
  const added = t.timeAdded === undefined ? '(*v1.Time)(nil)' : '(*v1.Time)(0xc000000000)';
  return `core.Taint{Key:${goQuote(t.key ?? '')}, Value:${goQuote(t.value ?? '')}, Effect:${goQuote(t.effect ?? '')}, TimeAdded:${added}}`;
}

/** Taint checks; upstream reports them under `metadata.taints`, not `spec.taints`. */
function validateNodeTaints(taints: readonly Taint[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((t, i) => {
    const idx = path.index(i);
    errs.push(...validateLabelName(t.key ?? '', idx.child('key')));
    const msgs = isValidLabelValue(t.value ?? '');
    if (msgs.length > 0) errs.push(fieldError.invalid(idx.child('value'), t.value ?? '', msgs.join(';')));
    if (!t.effect) errs.push(fieldError.required(idx.child('effect')));
    else if (!['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) errs.push(fieldError.notSupported(idx.child('effect'), t.effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
    const key = `${t.effect}\u0000${t.key}`;
    if (seen.has(key)) errs.push({ ...fieldError.duplicate(idx, { goSyntax: goTaint(t) }), detail: 'taints must be unique by key and effect pair' });
    else seen.add(key);
  });
  return errs;
}

function validateNodeResources(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  for (const list of ['capacity', 'allocatable'] as const) {
    for (const [name, text] of Object.entries(node.status?.[list] ?? {})) {
      const q = parseQuantity(text);
      if (q.ok && q.value.unscaled < 0n) errs.push(fieldError.invalid(FieldPath.of('status', list, name), quantityString(q.value), isNegativeErrorMsg));
    }
  }
  return errs;
}

export function validateNode(node: Node): FieldError[] {
  const meta = FieldPath.of('metadata');
  const errs = validateObjectMeta(node.metadata, false, validateNodeName, meta);
  if ((node.spec?.taints ?? []).length > 0) errs.push(...validateNodeTaints(node.spec!.taints!, meta.child('taints')));
  errs.push(...validateNodeResources(node));
  return errs;
}

export function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = validateObjectMetaUpdate(node.metadata, old.metadata);
  if ((node.spec?.taints ?? []).length > 0) errs.push(...validateNodeTaints(node.spec!.taints!, FieldPath.of('metadata', 'taints')));
  errs.push(...validateNodeResources(node));
  if (old.spec?.providerID && node.spec?.providerID !== old.spec.providerID) {
    errs.push(fieldError.forbidden(FieldPath.of('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  return errs;
}

export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs = validateObjectMeta(cm.metadata, true, nameIsDNSSubdomain);
  let total = 0;
  for (const [key, value] of Object.entries(cm.data ?? {})) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(FieldPath.of('data').key(key), key, msg));
    if (cm.binaryData !== undefined && key in cm.binaryData) errs.push(fieldError.invalid(FieldPath.of('data').key(key), key, 'duplicate of key present in binaryData'));
    total += utf8Length(value);
  }
  for (const [key, value] of Object.entries(cm.binaryData ?? {})) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(FieldPath.of('binaryData').key(key), key, msg));
    total += Math.floor((value.replace(/=+$/, '').length * 3) / 4);
  }
  if (total > maxConfigMapSize) errs.push(fieldError.tooLong(FieldPath.of(''), maxConfigMapSize));
  return errs;
}

export function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  const errs = validateObjectMetaUpdate(cm.metadata, old.metadata);
  if (old.immutable) {
    const msg = 'field is immutable when `immutable` is set';
    if (!cm.immutable) errs.push(fieldError.forbidden(FieldPath.of('immutable'), msg));
    if (JSON.stringify(sorted(cm.data)) !== JSON.stringify(sorted(old.data))) errs.push(fieldError.forbidden(FieldPath.of('data'), msg));
    if (JSON.stringify(sorted(cm.binaryData)) !== JSON.stringify(sorted(old.binaryData))) errs.push(fieldError.forbidden(FieldPath.of('binaryData'), msg));
  }
  return [...errs, ...validateConfigMap(cm)];
}

function sorted(m: Record<string, string> | undefined): [string, string][] | undefined {
  return m === undefined ? undefined : Object.entries(m).sort(([a], [b]) => (a < b ? -1 : 1));
}

export function validateServiceAccount(sa: ServiceAccount): FieldError[] {
  return validateObjectMeta(sa.metadata, true, validateServiceAccountName);
}

export function validateServiceAccountUpdate(sa: ServiceAccount, old: ServiceAccount): FieldError[] {
  return [...validateObjectMetaUpdate(sa.metadata, old.metadata), ...validateServiceAccount(sa)];
}

const reportingInstanceLengthLimit = 128;
const actionLengthLimit = 128;
const reasonLengthLimit = 128;
const noteLengthLimit = 1024;

/**
 * Events created through core/v1 pass only the legacy checks: the namespace must match the involved
 * object's, and events with an eventTime (events.k8s.io style) need reportingComponent,
 * reportingInstance, action and reason.
 */
export function validateEvent(e: Event): FieldError[] {
  const errs: FieldError[] = [];
  const ns = e.metadata.namespace ?? '';
  const involvedNs = e.involvedObject?.namespace ?? '';
  const involvedPath = FieldPath.of('involvedObject', 'namespace');
  if (!e.eventTime) {
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) errs.push(fieldError.invalid(involvedPath, involvedNs, 'does not match event.namespace'));
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== 'kube-system') errs.push(fieldError.invalid(involvedPath, involvedNs, 'does not match event.namespace'));
    const controller = e.reportingComponent ?? '';
    if (controller === '') errs.push(fieldError.required(FieldPath.of('reportingComponent')));
    errs.push(...validateLabelName(controller, FieldPath.of('reportingComponent')));
    if (!e.reportingInstance) errs.push(fieldError.required(FieldPath.of('reportingInstance')));
    if (utf8Length(e.reportingInstance ?? '') > reportingInstanceLengthLimit) errs.push(fieldError.invalid(FieldPath.of('reportingInstance'), '', `can have at most ${reportingInstanceLengthLimit} characters`));
    if (!e.action) errs.push(fieldError.required(FieldPath.of('action')));
    if (utf8Length(e.action ?? '') > actionLengthLimit) errs.push(fieldError.invalid(FieldPath.of('action'), '', `can have at most ${actionLengthLimit} characters`));
    if (!e.reason) errs.push(fieldError.required(FieldPath.of('reason')));
    if (utf8Length(e.reason ?? '') > reasonLengthLimit) errs.push(fieldError.invalid(FieldPath.of('reason'), '', `can have at most ${reasonLengthLimit} characters`));
    if (utf8Length(e.message ?? '') > noteLengthLimit) errs.push(fieldError.invalid(FieldPath.of('message'), '', `can have at most ${noteLengthLimit} characters`));
  }
  for (const msg of isDNS1123Subdomain(ns)) errs.push(fieldError.invalid(FieldPath.of('namespace'), ns, msg));
  return errs;
}

function validateLeaseSpec(lease: Lease): FieldError[] {
  const errs: FieldError[] = [];
  const spec = lease.spec ?? {};
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errs.push(fieldError.invalid(FieldPath.of('spec', 'leaseDurationSeconds'), spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errs.push(fieldError.invalid(FieldPath.of('spec', 'leaseTransitions'), spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  return errs;
}

export function validateLease(lease: Lease): FieldError[] {
  return [...validateObjectMeta(lease.metadata, true, nameIsDNSSubdomain), ...validateLeaseSpec(lease)];
}

export function validateLeaseUpdate(lease: Lease, old: Lease): FieldError[] {
  return [...validateObjectMetaUpdate(lease.metadata, old.metadata), ...validateLeaseSpec(lease)];
}
