// Kubernetes API errors: every failure the apiserver answers is a metav1.Status with an exact reason,
// code, message and details. A StatusError carries one; it is thrown or returned by whoever detects the
// failure and written to the client unchanged.
// Models k8s.io/apimachinery/pkg/api/errors/errors.go, k8s.io/apiserver/pkg/endpoints/handlers/
// responsewriters/errors.go (forbidden texts), negotiation/errors.go, pkg/storage/errors.go and
// pkg/storage/cacher/watch_cache.go (resourceVersion errors), pkg/registry/generic/registry/store.go.

import { aggregateFieldErrors, fieldErrorBody, type FieldError } from './field.ts';
import { groupKindString, groupResourceString, type GroupKind, type GroupResource } from './gvk.ts';
import { goQuote } from '../go/strconv.ts';
import type { Status, StatusCause, StatusDetails, StatusReason } from './types/meta.ts';

/** An error whose whole meaning is a metav1.Status (failure). `message` is the Status message. */
export class StatusError extends Error {
  override readonly name = 'StatusError';
  constructor(readonly status: Status) {
    super(status.message ?? '');
  }

  get code(): number {
    return this.status.code ?? 0;
  }

  get reason(): StatusReason {
    return this.status.reason ?? '';
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

/** The reason of a StatusError, `''` for anything else (errors.ReasonForError). */
export function reasonForError(err: unknown): StatusReason {
  return isStatusError(err) ? err.reason : '';
}

/** Builds a failure Status with the apiserver's key order; `details` only when given. */
function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails): StatusError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason };
  if (details !== undefined) status.details = details;
  status.code = code;
  return new StatusError(status);
}

/** StatusDetails with Go's omitempty: empty strings, zero numbers and empty lists are left out. */
function details(d: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[]; retryAfterSeconds?: number }): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes && d.causes.length > 0) out.causes = d.causes;
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/** 404 `pods "x" not found`. */
export function newNotFound(gr: GroupResource, name: string): StatusError {
  return failure(404, 'NotFound', `${groupResourceString(gr)} ${goQuote(name)} not found`,
    details({ name, group: gr.group, kind: gr.resource }));
}

/** 409 `deployments.apps "x" already exists`. */
export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return failure(409, 'AlreadyExists', `${groupResourceString(gr)} ${goQuote(name)} already exists`,
    details({ name, group: gr.group, kind: gr.resource }));
}

/** 409 when generateName produced a taken name (1.28: CheckGeneratedNameError). */
export function newGenerateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
  return failure(409, 'AlreadyExists',
    `${groupResourceString(gr)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`,
    details({ name, group: gr.group, kind: gr.resource, retryAfterSeconds }));
}

/** 401; an empty reason reads `not authorized`. */
export function newUnauthorized(reason: string): StatusError {
  return failure(401, 'Unauthorized', reason === '' ? 'not authorized' : reason);
}

/** 403 `<resource> ["<name>" ]is forbidden: <why>`; `forbidden: <why>` without a resource. */
export function newForbidden(gr: GroupResource, name: string, why: string): StatusError {
  const qualified = groupResourceString(gr);
  const message = gr.group === '' && gr.resource === '' ? `forbidden: ${why}`
    : name === '' ? `${qualified} is forbidden: ${why}`
      : `${qualified} ${goQuote(name)} is forbidden: ${why}`;
  return failure(403, 'Forbidden', message, details({ name, group: gr.group, kind: gr.resource }));
}

/** The request attributes an authorizer decides on (authorizer.Attributes). */
export interface AuthorizationAttributes {
  readonly user: string;
  readonly verb: string;
  /** False for non-resource requests such as `/healthz`. */
  readonly resourceRequest: boolean;
  readonly path?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/**
 * `User "alice" cannot list resource "pods" in API group "" in the namespace "default"`
 * (`… at the cluster scope` without a namespace; `cannot get path "/x"` for non-resource requests).
 */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  if (!a.resourceRequest) return `User ${goQuote(a.user)} cannot ${a.verb} path ${goQuote(a.path ?? '')}`;
  const resource = a.subresource ? `${a.resource ?? ''}/${a.subresource}` : a.resource ?? '';
  const scope = a.namespace ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
  return `User ${goQuote(a.user)} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup ?? '')} ${scope}`;
}

/**
 * The 403 the authorization filter answers (responsewriters.Forbidden): the forbidden message, with
 * the authorizer's reason appended when it gave one, and `&`, `<`, `>` HTML-escaped.
 */
export function newAuthorizationForbidden(a: AuthorizationAttributes, reason = ''): StatusError {
  const msg = forbiddenMessage(a).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return newForbidden({ group: a.apiGroup ?? '', resource: a.resource ?? '' }, a.name ?? '', reason === '' ? msg : `${msg}: ${reason}`);
}

/** 409 `Operation cannot be fulfilled on pods "x": <why>`. */
export function newConflict(gr: GroupResource, name: string, why: string): StatusError {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${groupResourceString(gr)} ${goQuote(name)}: ${why}`,
    details({ name, group: gr.group, kind: gr.resource }));
}

/** The registry's optimistic-lock text, for an update whose resourceVersion is stale. */
export const optimisticLockErrorMsg = 'the object has been modified; please apply your changes to the latest version and try again';

/** 409 Conflict for an update carrying a stale resourceVersion (Store.Update). */
export function newOptimisticLockConflict(gr: GroupResource, name: string): StatusError {
  return newConflict(gr, name, optimisticLockErrorMsg);
}

/**
 * 409 Conflict for a failed DeleteOptions precondition (rest.BeforeDelete). Upstream builds the
 * GroupResource from the Kind here, so the message reads `… on Pod "x": …` / `… on Deployment.apps "x": …`.
 */
export function newDeletePreconditionConflict(gk: GroupKind, name: string, precondition: 'UID' | 'ResourceVersion', expected: string, actual: string): StatusError {
  const why = precondition === 'UID'
    ? `the UID in the precondition (${expected}) does not match the UID in record (${actual}). The object might have been deleted and then recreated`
    : `the ResourceVersion in the precondition (${expected}) does not match the ResourceVersion in record (${actual}). The object might have been modified`;
  return newConflict({ group: gk.group, resource: gk.kind }, name, why);
}

/** 410 reason Expired. */
export function newResourceExpired(message: string): StatusError {
  return failure(410, 'Expired', message);
}

/** The watch cache's 410: `too old resource version: <requested> (<oldest − 1>)`. */
export function newTooOldResourceVersion(requested: number, oldestMinusOne: number): StatusError {
  return newResourceExpired(`too old resource version: ${requested} (${oldestMinusOne})`);
}

/** etcd-path 410 texts (pkg/storage/etcd3/errors.go). */
export const expiredMessages = {
  watch: 'The resourceVersion for the provided watch is too old.',
  list: 'The resourceVersion for the provided list is too old.',
  continueExpired: 'The provided continue parameter is too old to display a consistent list result. '
    + 'You can start a new list without the continue parameter.',
  inconsistentContinue: 'The provided continue parameter is too old to display a consistent list result. '
    + 'You can start a new list without the continue parameter, or use the continue token in this response to '
    + 'retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list '
    + '- objects that were created, modified, or deleted between the time the first chunk was returned and now '
    + 'may show up in the list.',
} as const;

/**
 * 410 Expired for a compacted continue token: the Status carries a fresh token (rv −1) in
 * `metadata.continue` so the client may resume inconsistently.
 */
export function newContinueExpired(newToken: string | undefined): StatusError {
  if (newToken === undefined) return newResourceExpired(expiredMessages.continueExpired);
  const err = newResourceExpired(expiredMessages.inconsistentContinue);
  err.status.metadata = { continue: newToken };
  return err;
}

/**
 * 422 `Deployment.apps "x" is invalid: [spec.replicas: Invalid value: -1: must be greater than or
 * equal to 0, …]`; one cause per field error, `details.kind` is the Kind.
 */
export function newInvalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
  const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
  const aggregate = aggregateFieldErrors(errs);
  const qualified = `${groupKindString(gk)} ${goQuote(name)} is invalid`;
  return failure(422, 'Invalid', aggregate === undefined ? qualified : `${qualified}: ${aggregate}`,
    { ...details({ name, group: gk.group, kind: gk.kind }), causes });
}

/** 400 with the message as given. */
export function newBadRequest(message: string): StatusError {
  return failure(400, 'BadRequest', message);
}

/** 429 with `details.retryAfterSeconds` (details always present, even when 0). */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return failure(429, 'TooManyRequests', message, details({ retryAfterSeconds }));
}

/** 405 `<verb> is not supported on resources of kind "pods"`. */
export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${goQuote(groupResourceString(gr))}`,
    details({ group: gr.group, kind: gr.resource }));
}

/** 500 ServerTimeout: `The <op> operation against <resource> could not be completed at this time, please try again.` */
export function newServerTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  return failure(500, 'ServerTimeout',
    `The ${operation} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`,
    details({ name: operation, group: gr.group, kind: gr.resource, retryAfterSeconds }));
}

/**
 * What the handlers answer for a REST storage's plain Go error, one that is not a Status (ErrorToAPIStatus's
 * default): 500, reason empty (StatusReasonUnknown), the error's text as the message, no details.
 */
export function newPlainServerError(message: string): StatusError {
  return failure(500, '', message);
}

/** 500 `Internal error occurred: <err>`, the error also as the only cause. */
export function newInternalError(message: string): StatusError {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** 504 `Timeout: <message>` with `details.retryAfterSeconds` (details always present). */
export function newTimeoutError(message: string, retryAfterSeconds: number): StatusError {
  return failure(504, 'Timeout', `Timeout: ${message}`, details({ retryAfterSeconds }));
}

/**
 * The 504 for a get/list at a resourceVersion newer than the store has:
 * `Timeout: Too large resource version: N, current: M` with cause ResourceVersionTooLarge. The watch
 * cache passes retryAfterSeconds 1 (so the response gets `Retry-After: 1`), the etcd path 0.
 */
export function newTooLargeResourceVersion(minimum: number, current: number, retryAfterSeconds: number): StatusError {
  const err = newTimeoutError(`Too large resource version: ${minimum}, current: ${current}`, retryAfterSeconds);
  err.status.details = { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], ...err.status.details };
  return err;
}

const genericServerMessages: Readonly<Record<number, readonly [StatusReason, string]>> = {
  400: ['BadRequest', 'the server rejected our request for an unknown reason'],
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
};

/**
 * NewGenericServerResponse as the apiserver uses it for errors without a Status of their own
 * (go-restful's 404/405, JSON patch failures): a fixed message per code, the server's own text
 * dropped, `details` present but empty.
 */
export function newGenericServerResponse(code: number, serverMessage: string): StatusError {
  const known = genericServerMessages[code];
  const [reason, message]: readonly [StatusReason, string] = known ?? (code >= 500
    ? ['InternalError', `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`]
    : ['', `the server responded with the status code ${code} but did not return more information`]);
  return failure(code, reason, message, {});
}

/** 413 `Request entity too large: <message>`. */
export function newRequestEntityTooLarge(message: string): StatusError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/** 415 for a request body whose Content-Type the endpoint does not accept. */
export function newUnsupportedMediaType(accepted: readonly string[]): StatusError {
  return failure(415, 'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

/** 406 for an Accept header the endpoint cannot satisfy. */
export function newNotAcceptable(accepted: readonly string[]): StatusError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/**
 * A Success Status: the registry's answer to an immediate delete (`details {name, group, kind, uid}`,
 * no code) or to a binding (the create handler then fills in code 201).
 */
export function successStatus(d?: StatusDetails, code?: number): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  if (d !== undefined) status.details = d;
  if (code !== undefined && code !== 0) status.code = code;
  return status;
}
