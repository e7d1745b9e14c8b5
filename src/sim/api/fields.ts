// Field selectors: `?fieldSelector=spec.nodeName=node-1,status.phase!=Failed`. Parsing and matching,
// the per-kind set of supported field labels with Kubernetes' exact rejection texts, and the field
// values each resource exposes for matching (its GetAttrs).
// Models k8s.io/apimachinery/pkg/fields/selector.go, pkg/runtime/conversion.go
// (DefaultMetaV1FieldSelectorConversion), k8s pkg/apis/core/v1/conversion.go (field label
// conversions) and the registry strategies' ToSelectableFields.

import { fail, ok, type Result } from './result.ts';
import type { ResourceInfo } from './resources.ts';
import type { Event, Namespace, Node, Pod, ReplicaSet } from './types/index.ts';
import type { KubeObject } from './types/meta.ts';

export interface FieldTerm {
  readonly field: string;
  /** `=` and `==` both mean equality. */
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** All terms must hold; no terms selects everything. Terms are kept sorted by their source text. */
export interface FieldSelector {
  readonly terms: readonly FieldTerm[];
}

export const everythingFields: FieldSelector = { terms: [] };

function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** Undoes `\\`, `\,` and `\=` escapes; a bare `,` or `=` or another escape is an error. */
function unescapeValue(s: string): Result<string> {
  if (!/[\\,=]/.test(s)) return ok(s);
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') return fail(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Upstream prints the rune with %v, i.e. as its code point.
      return fail(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  return inSlash ? fail('invalid field selector: invalid escape sequence: \\') : ok(out);
}

/** `\`, `,` and `=` escaped, as fields.EscapeValue does. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.ParseSelector. */
export function parseFieldSelector(selector: string): Result<FieldSelector> {
  const terms: FieldTerm[] = [];
  for (const part of splitTerms(selector).sort()) {
    if (part === '') continue;
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(part);
    if (m === null) return fail(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeValue(m[3]!);
    if (!value.ok) return value;
    terms.push({ field: m[1]!, operator: m[2] === '!=' ? '!=' : '=', value: value.value });
  }
  return ok({ terms });
}

/** `spec.nodeName=node-1,status.phase!=Failed`, values escaped. */
export function fieldSelectorString(selector: FieldSelector): string {
  return selector.terms.map((t) => `${t.field}${t.operator}${escapeFieldValue(t.value)}`).join(',');
}

/** Whether an object exposing these field values is selected; an absent field reads as `""`. */
export function matchesFields(selector: FieldSelector, fieldSet: Readonly<Record<string, string>>): boolean {
  return selector.terms.every((t) => ((fieldSet[t.field] ?? '') === t.value) === (t.operator === '='));
}

/** The value the selector requires `field` to equal, if it is a single equality term on it. */
export function requiresExactFieldMatch(selector: FieldSelector, field: string): string | undefined {
  const term = selector.terms.length === 1 ? selector.terms[0]! : selector.terms.find((t) => t.field === field && t.operator === '=');
  return term !== undefined && term.field === field && term.operator === '=' ? term.value : undefined;
}

type LabelConversion = (label: string, value: string) => Result<{ label: string; value: string }>;

function oneOf(supported: readonly string[], renames: Readonly<Record<string, string>> = {}): LabelConversion {
  return (label, value) => {
    if (supported.includes(label)) return ok({ label, value });
    const renamed = renames[label];
    if (renamed !== undefined) return ok({ label: renamed, value });
    return fail(`field label not supported: ${label}`);
  };
}

/** Kinds without their own conversion accept only metadata.name and metadata.namespace. */
const defaultConversion: LabelConversion = (label, value) =>
  label === 'metadata.name' || label === 'metadata.namespace'
    ? ok({ label, value })
    : fail(`"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`);

const coreConversions: Readonly<Record<string, LabelConversion>> = {
  Pod: oneOf(['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName',
    'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  { 'spec.host': 'spec.nodeName' }),
  Node: oneOf(['metadata.name', 'spec.unschedulable']),
  Event: oneOf(['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
    'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason',
    'reportingComponent', 'source', 'type', 'metadata.namespace', 'metadata.name']),
  Namespace: oneOf(['status.phase', 'metadata.name']),
};

/**
 * Checks and renames every term's field for a resource, as the apiserver does before a list or
 * watch (`spec.host` becomes `spec.nodeName` for pods). The error is the 400 BadRequest message:
 * `field label not supported: spec.foo`, or for kinds without their own list
 * `"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"`.
 */
export function convertFieldSelector(r: ResourceInfo, selector: FieldSelector): Result<FieldSelector> {
  const convert = (r.group === '' ? coreConversions[r.kind] : undefined) ?? defaultConversion;
  const terms: FieldTerm[] = [];
  for (const t of selector.terms) {
    const c = convert(t.field, t.value);
    if (!c.ok) return c;
    terms.push({ field: c.value.label, operator: t.operator, value: c.value.value });
  }
  return ok({ terms });
}

/** The field values a resource's objects expose for field selectors (the registry's GetAttrs). */
export function selectableFields(r: ResourceInfo, obj: KubeObject): Record<string, string> {
  const meta: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
  if (r.namespaced) meta['metadata.namespace'] = obj.metadata.namespace ?? '';
  if (r.group === '' && r.kind === 'Pod') {
    const pod = obj as Pod;
    return {
      ...meta,
      'spec.nodeName': pod.spec?.nodeName ?? '',
      'spec.restartPolicy': pod.spec?.restartPolicy ?? '',
      'spec.schedulerName': pod.spec?.schedulerName ?? '',
      'spec.serviceAccountName': pod.spec?.serviceAccountName ?? '',
      'spec.hostNetwork': String(pod.spec?.hostNetwork ?? false),
      'status.phase': pod.status?.phase ?? '',
      'status.podIP': pod.status?.podIPs?.[0]?.ip ?? '',
      'status.nominatedNodeName': pod.status?.nominatedNodeName ?? '',
    };
  }
  if (r.group === '' && r.kind === 'Node') return { ...meta, 'spec.unschedulable': String((obj as Node).spec?.unschedulable ?? false) };
  if (r.group === '' && r.kind === 'Namespace') return { ...meta, 'status.phase': (obj as Namespace).status?.phase ?? '', name: obj.metadata.name ?? '' };
  if (r.group === '' && r.kind === 'Event') {
    const e = obj as Event;
    const io = e.involvedObject;
    return {
      'involvedObject.kind': io.kind ?? '',
      'involvedObject.namespace': io.namespace ?? '',
      'involvedObject.name': io.name ?? '',
      'involvedObject.uid': io.uid ?? '',
      'involvedObject.apiVersion': io.apiVersion ?? '',
      'involvedObject.resourceVersion': io.resourceVersion ?? '',
      'involvedObject.fieldPath': io.fieldPath ?? '',
      reason: e.reason ?? '',
      reportingComponent: e.reportingComponent ?? '',
      source: e.source?.component || e.reportingComponent || '',
      type: e.type ?? '',
      ...meta,
    };
  }
  if (r.group === 'apps' && r.kind === 'ReplicaSet') return { ...meta, 'status.replicas': String((obj as ReplicaSet).status?.replicas ?? 0) };
  return meta;
}
