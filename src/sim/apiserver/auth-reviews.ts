// The reviews kube-apiserver answers at once and never stores: SelfSubjectAccessReview,
// SubjectAccessReview and SelfSubjectRulesReview (authorization.k8s.io/v1), answered by the same
// authorizer that guards every request (the privileged group, then RBAC), and SelfSubjectReview
// (authentication.k8s.io/v1), answered with the requester's identity. `kubectl auth can-i` sends the
// first and the rules review (`--list`), `kubectl auth whoami` the last.
// Models pkg/registry/authorization/{selfsubjectaccessreview,subjectaccessreview,selfsubjectrulesreview}/rest.go,
// pkg/registry/authorization/util/helpers.go (ResourceAttributesFrom, NonResourceAttributesFrom),
// pkg/apis/authorization/validation/validation.go and pkg/registry/authentication/selfsubjectreview/rest.go.

import { newBadRequest, newInvalid, type AuthorizationAttributes } from '../api/errors.ts';
import type { FieldError } from '../api/field.ts';
import type { ResourceInfo } from '../api/resources.ts';
import { formatTimestamp } from '../api/time.ts';
import type { PolicyRule } from '../api/types/rbac.ts';
import type { UserInfo } from './filters/authentication.ts';
import type { RbacIndex } from './filters/rbac.ts';
import type { HttpRequest, HttpResponse } from '../wire/http.ts';
import { decodeObject, fieldValidationOf, warningHeader } from './request-body.ts';

export interface ResourceAttributes {
  namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string;
}
export interface NonResourceAttributes { path?: string; verb?: string }
export interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}
export interface SubjectAccessReviewStatus { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string }
export interface ResourceRule { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }
export interface NonResourceRule { verbs: string[]; nonResourceURLs?: string[] }
export interface SubjectRulesReviewStatus { resourceRules: ResourceRule[]; nonResourceRules: NonResourceRule[]; incomplete: boolean; evaluationError?: string }

/** What a review needs from the server: who asks, the authorizer, the clock. */
export interface ReviewContext {
  readonly user: UserInfo;
  readonly rbac: RbacIndex;
  readonly epochMs: number;
  readonly now: number;
}

type Obj = Record<string, unknown>;

/** The answer to a POST of a review, or null when `r` is not a review resource. */
export function handleReview(http: HttpRequest, query: Map<string, string>, r: ResourceInfo, ctx: ReviewContext): HttpResponse | null {
  if (r.unstored !== 'review') return null;
  if (http.method !== 'POST') throw newBadRequest(`the server does not allow this method on the requested resource`);
  const { object, warnings } = decodeObject(http, r, fieldValidationOf(query));
  const review = object as unknown as Obj & { metadata: Obj; spec?: Obj };
  const metadata = { ...review.metadata, creationTimestamp: review.metadata.creationTimestamp ?? null };
  const headers = { 'content-type': 'application/json', ...warningHeader(warnings) };
  switch (r.kind) {
    case 'SelfSubjectReview': {
      // Models selfsubjectreview/rest.go: the identity the request was authenticated (and impersonated) as.
      const userInfo = { username: ctx.user.name, ...(ctx.user.groups.length > 0 ? { groups: [...ctx.user.groups] } : {}) };
      return { status: 201, headers, body: { kind: r.kind, apiVersion: 'authentication.k8s.io/v1', metadata: { ...metadata, creationTimestamp: formatTimestamp(ctx.epochMs + ctx.now) }, status: { userInfo } } };
    }
    case 'SelfSubjectAccessReview':
    case 'SubjectAccessReview': {
      const spec = (review.spec ?? {}) as AccessReviewSpec;
      const errs = validateAccessReviewSpec(spec, r.kind === 'SubjectAccessReview');
      if (errs.length > 0) throw newInvalid({ group: r.group, kind: r.kind }, '', errs);
      const subject: UserInfo = r.kind === 'SelfSubjectAccessReview' ? ctx.user : { name: spec.user ?? '', groups: [...(spec.groups ?? [])] };
      const status = accessReview(ctx.rbac, subject, spec);
      const echoedSpec = r.kind === 'SelfSubjectAccessReview'
        ? { ...(spec.resourceAttributes ? { resourceAttributes: spec.resourceAttributes } : {}), ...(spec.nonResourceAttributes ? { nonResourceAttributes: spec.nonResourceAttributes } : {}) }
        : spec;
      return { status: 201, headers, body: { kind: r.kind, apiVersion: 'authorization.k8s.io/v1', metadata, spec: echoedSpec, status } };
    }
    case 'SelfSubjectRulesReview': {
      const namespace = String(((review.spec ?? {}) as Obj).namespace ?? '');
      if (namespace === '') throw newBadRequest('no namespace on request');
      return { status: 201, headers, body: { kind: r.kind, apiVersion: 'authorization.k8s.io/v1', metadata, spec: {}, status: rulesReview(ctx.rbac, ctx.user, namespace) } };
    }
    default:
      return null;
  }
}

// Models validation.go ValidateSelfSubjectAccessReviewSpec / ValidateSubjectAccessReviewSpec.
function validateAccessReviewSpec(spec: AccessReviewSpec, needsSubject: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.resourceAttributes', badValue: 'null', detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' });
  }
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', badValue: 'null', detail: 'cannot be specified in combination with resourceAttributes' });
  }
  if (needsSubject && (spec.user ?? '') === '' && (spec.groups ?? []).length === 0) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.user', badValue: spec.user ?? '', detail: 'at least one of user or group must be specified' });
  }
  return errs;
}

/** The authorizer's decision on the review's attributes, as a SubjectAccessReviewStatus. */
export function accessReview(rbac: RbacIndex, subject: UserInfo, spec: AccessReviewSpec): SubjectAccessReviewStatus {
  const ra = spec.resourceAttributes;
  const attrs: AuthorizationAttributes = ra !== undefined
    ? {
      user: subject.name, verb: ra.verb ?? '', resourceRequest: true, apiGroup: ra.group ?? '', apiVersion: ra.version ?? '',
      resource: ra.resource ?? '', subresource: ra.subresource ?? '', namespace: ra.namespace ?? '', name: ra.name ?? '',
    }
    : { user: subject.name, verb: spec.nonResourceAttributes?.verb ?? '', resourceRequest: false, path: spec.nonResourceAttributes?.path ?? '' };
  const decision = rbac.authorize(subject, attrs);
  // The privileged-group authorizer allows with no reason (authorizerfactory/builtin.go).
  const reason = decision.allowed && decision.reason.startsWith('group ') ? '' : decision.reason;
  return { allowed: decision.allowed, ...(reason !== '' ? { reason } : {}) };
}

/** Every rule RBAC grants the user in the namespace, split into resource and non-resource rules. */
export function rulesReview(rbac: RbacIndex, user: UserInfo, namespace: string): SubjectRulesReviewStatus {
  const { rules, incomplete, errors } = rbac.rulesFor(user, namespace);
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  const nonEmpty = (k: keyof PolicyRule, v: string[] | undefined): Obj => (v !== undefined && v.length > 0 ? { [k]: [...v] } : {});
  for (const rule of rules) {
    if ((rule.resources ?? []).length > 0) {
      resourceRules.push({ verbs: [...rule.verbs], ...nonEmpty('apiGroups', rule.apiGroups), ...nonEmpty('resources', rule.resources), ...nonEmpty('resourceNames', rule.resourceNames) } as ResourceRule);
    }
    if ((rule.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs!] });
  }
  return { resourceRules, nonResourceRules, incomplete, ...(incomplete ? { evaluationError: `[${errors.join(', ')}]` } : {}) };
}
