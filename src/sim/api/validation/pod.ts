// Pod and pod-template validation: what `kubectl create` gets back as 422 for a bad Pod, Deployment or
// ReplicaSet template. Covered: metadata, containers and init containers (names, images, ports, env,
// volume mounts, pull policy, resources, probes), volumes, restart and DNS policies, node selector,
// affinity requirements, tolerations, service account and node names, deadlines, preemption policy,
// binding targets, and the rules for pod updates (images, activeDeadlineSeconds, added tolerations).
// Not covered: security contexts, DNS config, topology spread, resource claims, Windows options.
// Models k8s pkg/apis/core/validation/validation.go (ValidatePodCreate, ValidatePodSpec,
// ValidatePodUpdate, ValidatePodBinding); the containers' checks are container.ts.

import { FieldPath, fieldError, type FieldError } from '../field.ts';
import { setOperatorValueErrors, validateLabelName, validateLabels } from './meta-v1.ts';
import { goQuote } from '../../go/strconv.ts';
import type { Affinity, Binding, NodeSelectorRequirement, Pod, PodSpec, PodTemplateSpec, Toleration, Volume } from '../types/index.ts';
import { validateContainers, validateInitContainers } from './container.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta.ts';
import {
  inclusiveRangeError, isValidLabelValue, nameIsDNSSubdomain, validateDNS1123Label, type NameValidator,
} from './names.ts';

export const validatePodName: NameValidator = nameIsDNSSubdomain;
export const validateNodeName: NameValidator = nameIsDNSSubdomain;
export const validateServiceAccountName: NameValidator = nameIsDNSSubdomain;

const maxInt32 = 2 ** 31 - 1;

/** The VolumeSource fields a volume may set exactly one of, in upstream's checking order. */
const volumeSourceOrder = [
  'hostPath', 'emptyDir', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs', 'flexVolume',
  'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk',
  'portworxVolume', 'scaleIO', 'storageos', 'configMap', 'projected', 'csi', 'ephemeral', 'rbd', 'persistentVolumeClaim',
] as const;

/** ValidateVolumes: the names of the valid volumes, for volume mount checks, and the errors. */
function validateVolumes(volumes: readonly Volume[] | undefined, path: FieldPath): [Set<string>, FieldError[]] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (volumes ?? []).forEach((vol, i) => {
    const idx = path.index(i);
    const el: FieldError[] = [];
    const set = volumeSourceOrder.filter((s) => vol[s] !== undefined && vol[s] !== null);
    if (set.length === 0) el.push(fieldError.required(idx, 'must specify a volume type'));
    for (const extra of set.slice(1)) el.push(fieldError.forbidden(idx.child(extra), 'may not specify more than 1 volume type'));
    if (!vol.name) el.push(fieldError.required(idx.child('name')));
    else el.push(...validateDNS1123Label(vol.name, idx.child('name')));
    if (names.has(vol.name)) el.push(fieldError.duplicate(idx.child('name'), vol.name));
    if (el.length === 0) names.add(vol.name);
    else errs.push(...el);
  });
  return [names, errs];
}

function validateNodeSelectorRequirement(rq: NodeSelectorRequirement, path: FieldPath): FieldError[] {
  const values = rq.values ?? [];
  const errs = setOperatorValueErrors(rq.operator, values, path) ?? (rq.operator === 'Gt' || rq.operator === 'Lt'
    ? (values.length !== 1 ? [fieldError.required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'")] : [])
    : [fieldError.invalid(path.child('operator'), rq.operator, 'not a valid selector operator')]);
  errs.push(...validateLabelName(rq.key, path.child('key')));
  return errs;
}

function validateAffinity(affinity: Affinity | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const node = affinity?.nodeAffinity;
  if (node === undefined) return errs;
  const required = node.requiredDuringSchedulingIgnoredDuringExecution;
  if (required !== undefined) {
    const rp = path.child('nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution');
    if ((required.nodeSelectorTerms ?? []).length === 0) errs.push(fieldError.required(rp.child('nodeSelectorTerms'), 'must have at least one node selector term'));
    (required.nodeSelectorTerms ?? []).forEach((term, i) => (term.matchExpressions ?? []).forEach((rq, j) => {
      errs.push(...validateNodeSelectorRequirement(rq, rp.child('nodeSelectorTerms').index(i).child('matchExpressions').index(j)));
    }));
  }
  (node.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
    const tp = path.child('nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution').index(i);
    if (term.weight <= 0 || term.weight > 100) errs.push(fieldError.invalid(tp.child('weight'), term.weight, 'must be in the range 1-100'));
    (term.preference.matchExpressions ?? []).forEach((rq, j) => errs.push(...validateNodeSelectorRequirement(rq, tp.child('preference', 'matchExpressions').index(j))));
  });
  return errs;
}

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function validateTolerations(tolerations: readonly Toleration[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const idx = path.index(i);
    if (t.key) errs.push(...validateLabelName(t.key, idx.child('key')));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(fieldError.invalid(idx.child('operator'), t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(fieldError.invalid(idx.child('effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (t.operator) {
      case 'Equal': case undefined: case '' as never: {
        const msgs = isValidLabelValue(t.value ?? '');
        if (msgs.length > 0) errs.push(fieldError.invalid(idx.child('operator'), t.value ?? '', msgs.join(';')));
        break;
      }
      case 'Exists':
        if (t.value) errs.push(fieldError.invalid(idx.child('operator'), { goSyntax: goToleration(t) }, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(fieldError.notSupported(idx.child('operator'), t.operator, ['Equal', 'Exists']));
    }
    if (t.effect && !taintEffects.includes(t.effect)) errs.push(fieldError.notSupported(idx.child('effect'), t.effect, taintEffects));
  });
  return errs;
}

function goToleration(t: Toleration): string {
  const seconds = t.tolerationSeconds === undefined ? '(*int64)(nil)' : '(*int64)(0xc000000000)';
  return `core.Toleration{Key:${goQuote(t.key ?? '')}, Operator:${goQuote(t.operator ?? '')}, Value:${goQuote(t.value ?? '')}, Effect:${goQuote(t.effect ?? '')}, TolerationSeconds:${seconds}}`;
}

/** ValidatePodSpec: shared by Pods and the templates of Deployments and ReplicaSets. */
export function validatePodSpec(spec: PodSpec | undefined, path: FieldPath): FieldError[] {
  const s: PodSpec = spec ?? { containers: [] };
  const [volumes, errs] = validateVolumes(s.volumes, path.child('volumes'));
  errs.push(...validateContainers(s.containers, volumes, path.child('containers')));
  errs.push(...validateInitContainers(s.initContainers, s.containers, volumes, path.child('initContainers')));
  switch (s.restartPolicy) {
    case 'Always': case 'OnFailure': case 'Never': break;
    case undefined: case '' as never: errs.push(fieldError.required(path.child('restartPolicy'))); break;
    default: errs.push(fieldError.notSupported(path.child('restartPolicy'), s.restartPolicy, ['Always', 'OnFailure', 'Never']));
  }
  switch (s.dnsPolicy) {
    case 'ClusterFirstWithHostNet': case 'ClusterFirst': case 'Default': case 'None': break;
    case undefined: case '' as never: errs.push(fieldError.required(path.child('dnsPolicy'))); break;
    default: errs.push(fieldError.notSupported(path.child('dnsPolicy'), s.dnsPolicy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  }
  errs.push(...validateLabels(s.nodeSelector, path.child('nodeSelector')));
  (s.imagePullSecrets ?? []).forEach((ref, i) => {
    if (!ref.name) errs.push(fieldError.required(path.child('imagePullSecrets').index(i).child('name')));
  });
  errs.push(...validateAffinity(s.affinity, path.child('affinity')));
  if (s.serviceAccountName) for (const msg of validateServiceAccountName(s.serviceAccountName, false)) errs.push(fieldError.invalid(path.child('serviceAccountName'), s.serviceAccountName, msg));
  if (s.nodeName) for (const msg of validateNodeName(s.nodeName, false)) errs.push(fieldError.invalid(path.child('nodeName'), s.nodeName, msg));
  if (s.activeDeadlineSeconds !== undefined && (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > maxInt32)) {
    errs.push(fieldError.invalid(path.child('activeDeadlineSeconds'), s.activeDeadlineSeconds, inclusiveRangeError(1, maxInt32)));
  }
  if (s.hostname) errs.push(...validateDNS1123Label(s.hostname, path.child('hostname')));
  if (s.subdomain) errs.push(...validateDNS1123Label(s.subdomain, path.child('subdomain')));
  if ((s.tolerations ?? []).length > 0) errs.push(...validateTolerations(s.tolerations!, path.child('tolerations')));
  // validatePodDNSConfig's DNSNone case: a pod with dnsPolicy None must bring its own nameservers.
  if (s.dnsPolicy === 'None') {
    const dnsConfig = (s as { dnsConfig?: { nameservers?: string[] } }).dnsConfig;
    if (dnsConfig === undefined || dnsConfig === null) errs.push(fieldError.required(path.child('dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None'));
    else if ((dnsConfig.nameservers ?? []).length === 0) errs.push(fieldError.required(path.child('dnsConfig', 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None'));
  }
  if (s.priorityClassName) for (const msg of nameIsDNSSubdomain(s.priorityClassName, false)) errs.push(fieldError.invalid(path.child('priorityClassName'), s.priorityClassName, msg));
  if (s.preemptionPolicy !== undefined && s.preemptionPolicy !== 'PreemptLowerPriority' && s.preemptionPolicy !== 'Never') {
    errs.push(fieldError.notSupported(path.child('preemptionPolicy'), s.preemptionPolicy, ['PreemptLowerPriority', 'Never']));
  }
  return errs;
}

/** ValidatePodTemplateSpec: template metadata labels and annotations, then the spec. */
export function validatePodTemplateSpec(template: PodTemplateSpec, path: FieldPath): FieldError[] {
  return [
    ...validateLabels(template.metadata?.labels, path.child('metadata', 'labels')),
    ...validatePodSpec(template.spec, path.child('spec')),
  ];
}

function validatePodMetadataAndSpec(pod: Pod): FieldError[] {
  const spec = FieldPath.of('spec');
  const errs = validateObjectMeta(pod.metadata, true, validatePodName);
  errs.push(...validatePodSpec(pod.spec, spec));
  if (!pod.spec?.serviceAccountName) {
    (pod.spec?.volumes ?? []).forEach((v, vi) => (v.projected?.sources ?? []).forEach((src, si) => {
      if (src.serviceAccountToken !== undefined) {
        errs.push(fieldError.forbidden(spec.child('volumes').index(vi).child('projected', 'sources').index(si).child('serviceAccountToken'), 'must not be specified when serviceAccountName is not set'));
      }
    }));
  }
  for (const list of ['containers', 'initContainers'] as const) {
    (pod.spec?.[list] ?? []).forEach((c, i) => {
      if (c.image !== undefined && c.image !== c.image.trim()) errs.push(fieldError.invalid(spec.child(list).index(i).child('image'), c.image, 'must not have leading or trailing whitespace'));
    });
  }
  return errs;
}

/** ValidatePodCreate. */
export function validatePodCreate(pod: Pod): FieldError[] {
  const errs = validatePodMetadataAndSpec(pod);
  if ((pod.spec?.ephemeralContainers ?? []).length > 0) errs.push(fieldError.forbidden(FieldPath.of('spec', 'ephemeralContainers'), 'cannot be set on create'));
  if (pod.spec?.nodeName && (pod.spec.schedulingGates ?? []).length > 0) {
    errs.push(fieldError.forbidden(FieldPath.of('spec', 'nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/** The fields an update may change, as the 1.28 message lists them (InPlacePodVerticalScaling off). */
export const updatablePodSpecFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `- old` / `+ new` lines for every leaf that differs, as a readable stand-in for Go's cmp.Diff. */
function specDiff(oldValue: unknown, newValue: unknown, path: string, out: string[]): void {
  if (canonicalJSON(oldValue) === canonicalJSON(newValue)) return;
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
  if (isObject(oldValue) && isObject(newValue) && Array.isArray(oldValue) === Array.isArray(newValue)) {
    const keys = [...new Set([...Object.keys(oldValue), ...Object.keys(newValue)])].sort();
    for (const k of keys) specDiff(oldValue[k], newValue[k], Array.isArray(newValue) ? `${path}[${k}]` : `${path}.${k}`, out);
    return;
  }
  out.push(`- ${path}: ${oldValue === undefined ? '<unset>' : canonicalJSON(oldValue)}`);
  out.push(`+ ${path}: ${newValue === undefined ? '<unset>' : canonicalJSON(newValue)}`);
}

/**
 * ValidatePodUpdate. The forbidden-change message starts exactly as upstream's
 * (`pod updates may not change fields other than …`); upstream then appends a Go cmp.Diff of the
 * internal PodSpec structs, which is rendered here as `- path: old` / `+ path: new` lines.
 */
export function validatePodUpdate(newPod: Pod, oldPod: Pod): FieldError[] {
  const specPath = FieldPath.of('spec');
  const errs = validateObjectMetaUpdate(newPod.metadata, oldPod.metadata);
  errs.push(...validatePodMetadataAndSpec(newPod));
  const newSpec = newPod.spec ?? { containers: [] };
  const oldSpec = oldPod.spec ?? { containers: [] };
  for (const list of ['containers', 'initContainers'] as const) {
    const n = newSpec[list] ?? [];
    if (n.length !== (oldSpec[list] ?? []).length) {
      errs.push(fieldError.forbidden(specPath.child(list), 'pod updates may not add or remove containers'));
      return errs;
    }
    n.forEach((c, i) => {
      if (!c.image) errs.push(fieldError.required(specPath.child(list).index(i).child('image')));
    });
  }
  if (newSpec.activeDeadlineSeconds !== undefined) {
    const v = newSpec.activeDeadlineSeconds;
    if (v < 0 || v > maxInt32) return [...errs, fieldError.invalid(specPath.child('activeDeadlineSeconds'), v, inclusiveRangeError(0, maxInt32))];
    if (oldSpec.activeDeadlineSeconds !== undefined && oldSpec.activeDeadlineSeconds < v) {
      return [...errs, fieldError.invalid(specPath.child('activeDeadlineSeconds'), v, 'must be less than or equal to previous value')];
    }
  } else if (oldSpec.activeDeadlineSeconds !== undefined) {
    errs.push(fieldError.invalid(specPath.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'));
  }
  // Existing tolerations may only change their tolerationSeconds; new ones may be added.
  const withoutSeconds = (t: Toleration): string => canonicalJSON({ ...t, tolerationSeconds: undefined });
  const newTolerations = (newSpec.tolerations ?? []).map(withoutSeconds);
  if ((oldSpec.tolerations ?? []).some((t) => !newTolerations.includes(withoutSeconds(t)))) {
    errs.push(fieldError.forbidden(specPath.child('tolerations'), 'existing toleration can not be modified except its tolerationSeconds'));
  } else {
    errs.push(...validateTolerations(newSpec.tolerations ?? [], specPath.child('tolerations')));
  }

  // Everything but the updatable fields must be unchanged.
  const munged: PodSpec = {
    ...newSpec,
    containers: newSpec.containers.map((c, i) => ({ ...c, image: oldSpec.containers[i]?.image })),
    initContainers: newSpec.initContainers?.map((c, i) => ({ ...c, image: oldSpec.initContainers?.[i]?.image })),
    activeDeadlineSeconds: oldSpec.activeDeadlineSeconds,
    tolerations: oldSpec.tolerations,
    schedulingGates: oldSpec.schedulingGates,
  };
  if ((oldSpec.terminationGracePeriodSeconds ?? 0) < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
  if (canonicalJSON(munged) !== canonicalJSON(oldSpec)) {
    const lines: string[] = [];
    specDiff(oldSpec, munged, 'spec', lines);
    errs.push(fieldError.forbidden(specPath, `pod updates may not change fields other than ${updatablePodSpecFields.join(',')}\n${lines.join('\n')}`));
  }
  return errs;
}

/** ValidatePodBinding: the target must be a Node (or kindless) with a name. */
export function validatePodBinding(binding: Binding): FieldError[] {
  const errs: FieldError[] = [];
  if (binding.target?.kind && binding.target.kind !== 'Node') errs.push(fieldError.notSupported(FieldPath.of('target', 'kind'), binding.target.kind, ['Node', '<empty>']));
  if (!binding.target?.name) errs.push(fieldError.required(FieldPath.of('target', 'name')));
  return errs;
}
