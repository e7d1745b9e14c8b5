// The request scope of the REST handlers: what every verb's handler does the same way. Objects leave with
// their kind and apiVersion (list items without); list and watch options are parsed and checked into a
// selection predicate; `?dryRun=All` and the delete options are validated; a create drops the system fields
// a client may not set.
// Models k8s.io/apiserver/pkg/endpoints/handlers/rest.go (RequestScope and its helpers), response.go
// (newNotAcceptableError) and k8s.io/apimachinery/pkg/apis/meta/internalversion/validation.

import { newBadRequest, newInvalid, StatusError } from '../api/errors.ts';
import { fieldError, FieldPath, goStringSlice } from '../api/field.ts';
import { convertFieldSelector, everythingFields, parseFieldSelector, selectableFields } from '../api/fields.ts';
import { everything, parseLabelSelector } from '../api/labels.ts';
import type { ResolvedRoute } from '../api/request-info.ts';
import { apiVersionOf, type ResourceInfo } from '../api/resources.ts';
import type { KubeObject } from '../api/types/meta.ts';
import { newOptionsInvalid, validateListOptions } from '../api/validation/options.ts';
import type { HttpRequest } from '../wire/http.ts';
import type { RegistryContext } from './registry/generic-store.ts';
import type { DeleteOptions } from './registry/strategy.ts';
import { decodeBody } from './request-body.ts';
import type { ResourceVersionMatch, SelectionPredicate } from './storage/interface.ts';

/**
 * List items carry no kind and apiVersion: the real apiserver encodes a typed list, whose items' TypeMeta
 * is empty (`kubectl get --raw /api/v1/pods` shows items without them; watch events' objects have them).
 */
export function withoutTypeMeta(obj: KubeObject): KubeObject {
  if (obj.kind === undefined && obj.apiVersion === undefined) return obj;
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = obj;
  return rest as KubeObject;
}

/** Responses carry kind and apiVersion (list items do not, as in the real apiserver). */
export function withTypeMeta(r: ResourceInfo, obj: KubeObject): KubeObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = obj;
  return { kind: r.kind, apiVersion: apiVersionOf(r), ...rest } as KubeObject;
}

/** The package of a resource's internal Go type, as `%T` prints it (`*core.PodList`, `*apps.Deployment`). */
export function internalPackage(r: ResourceInfo): string {
  return r.group === '' ? 'core' : r.group.split('.')[0]!;
}

/** errNotAcceptable with its own message (response.go's newNotAcceptableError). */
export function newNotAcceptable406(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'NotAcceptable', code: 406 });
}

export function checkNamespace(route: ResolvedRoute, obj: KubeObject): void {
  const ns = obj.metadata.namespace;
  if (route.resource.namespaced && ns !== undefined && ns !== '' && ns !== route.info.namespace) {
    throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

/** Fields a client may not set on create (rest.FillObjectMetaSystemFields and WipeObjectMetaSystemFields). */
export function wipeSystemFields(obj: KubeObject): void {
  const meta = obj.metadata;
  delete meta.creationTimestamp;
  delete meta.uid;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

/**
 * `?dryRun=All` (kubectl --dry-run=server, kubectl diff): the request goes through admission, the
 * strategies and validation as usual, and the registry skips the write (RegistryContext.dryRun). Any
 * other value is 422, as ValidateDryRun answers it.
 * Models k8s.io/apimachinery/pkg/apis/meta/internalversion/validation (ValidateDryRun via
 * Validate{Create,Update,Patch,Delete}Options).
 */
export function withDryRun<H extends { readonly query: Map<string, string>; readonly ctx: RegistryContext }>(h: H, options: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions', fromBody: readonly string[] = []): H {
  const query = h.query.get('dryRun');
  const dryRun = [...fromBody, ...(query !== undefined && query !== '' ? [query] : [])];
  if (dryRun.length === 0) return h;
  if (dryRun.some((v) => v !== 'All')) {
    throw newInvalid({ group: 'meta.k8s.io', kind: options }, '',
      [fieldError.notSupported(FieldPath.of('dryRun'), goStringSlice(dryRun), ['All'])]);
  }
  return { ...h, ctx: { ...h.ctx, dryRun: true } };
}

export function selectionPredicate(r: ResourceInfo, query: Map<string, string>): SelectionPredicate {
  const labelText = query.get('labelSelector') ?? '';
  const label = labelText === '' ? everything : unwrap(parseLabelSelector(labelText));
  const fieldText = query.get('fieldSelector') ?? '';
  const field = fieldText === '' ? everythingFields : unwrap(convertFieldSelector(r, unwrap(parseFieldSelector(fieldText))));
  const limitText = query.get('limit') ?? '';
  const limit = limitText === '' ? 0 : Number(limitText);
  if (!Number.isInteger(limit)) throw newBadRequest(`invalid limit: ${limitText}`);
  return {
    label,
    field,
    limit: Math.max(0, limit),
    continueToken: query.get('continue') ?? '',
    getAttrs: (obj) => ({ labels: obj.metadata.labels ?? {}, fields: selectableFields(r, obj) }),
  };
}

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw newBadRequest(r.error);
  return r.value;
}

export function checkListOptions(query: Map<string, string>, resourceVersion: string, watch: boolean): ResourceVersionMatch {
  const resourceVersionMatch = query.get('resourceVersionMatch') ?? '';
  const sendInitialEvents = query.get('sendInitialEvents');
  const errs = validateListOptions({
    watch, resourceVersion, resourceVersionMatch, continue: query.get('continue') ?? '',
    ...(sendInitialEvents !== undefined ? { sendInitialEvents: sendInitialEvents === 'true' } : {}),
  });
  if (errs.length > 0) throw newOptionsInvalid('ListOptions', errs);
  return resourceVersionMatch as ResourceVersionMatch;
}

export function deleteOptions(http: HttpRequest, q: Map<string, string>): DeleteOptions {
  const body = http.body;
  const { kind: _kind, apiVersion: _apiVersion, ...fromBody } = body === undefined || body === '' ? {} : decodeBody(http, 'DeleteOptions', 'meta.k8s.io/v1') as DeleteOptions & { kind?: string; apiVersion?: string };
  const grace = q.get('gracePeriodSeconds');
  const policy = q.get('propagationPolicy');
  const options: DeleteOptions = {
    ...fromBody,
    ...(grace !== undefined && grace !== '' ? { gracePeriodSeconds: Number(grace) } : {}),
    ...(policy !== undefined && policy !== '' ? { propagationPolicy: policy as DeleteOptions['propagationPolicy'] & string } : {}),
  };
  // Models k8s.io/apimachinery/pkg/apis/meta/internalversion/validation ValidateDeleteOptions.
  const errs = [];
  if (options.orphanDependents !== undefined && options.orphanDependents !== null && options.propagationPolicy !== undefined && options.propagationPolicy !== null) {
    errs.push(fieldError.invalid(FieldPath.of('propagationPolicy'), options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (options.propagationPolicy !== undefined && options.propagationPolicy !== null && !['Orphan', 'Background', 'Foreground'].includes(options.propagationPolicy)) {
    errs.push(fieldError.notSupported(FieldPath.of('propagationPolicy'), options.propagationPolicy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return options;
}
