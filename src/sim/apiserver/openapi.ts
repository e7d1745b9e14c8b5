// The OpenAPI v3 documents kube-apiserver serves at /openapi/v3 (the index of group-versions) and
// /openapi/v3/<api|apis/group>/<version> (one document per group-version). Podflow serves the paths and
// operations with their parameters and request content types, not the component schemas: kubectl reads
// openapi v3 to decide whether the server validates fields itself (a `fieldValidation` query parameter on
// the PATCH of the kind, x-kubernetes-group-version-kind naming it), and then sends
// `fieldValidation=Strict` and leaves validation to the server. Without component schemas kubectl's
// apply falls back to the Go types compiled into it for strategic merge patches, which is what it
// needs for the kinds Podflow serves (reference/kubectl-wire.md §3.5, §3.6).
// /openapi/v2 is not served (404): kubectl asks for it only in protobuf.
// Models k8s.io/kube-openapi/pkg/handler3 (the index with serverRelativeURL and ?hash=) and the
// operations k8s.io/apiserver/pkg/endpoints/installer.go registers per resource.

import { resourcesOf, servedGroups, type ResourceInfo, type Verb } from '../api/resources.ts';
import { fnv1a32 } from '../engine/index.ts';

interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly description: string;
  readonly required?: boolean;
  readonly schema: { readonly type: string; readonly uniqueItems?: boolean };
}

const query = (name: string, description: string, type = 'string'): Parameter => ({ name, in: 'query', description, schema: { type, uniqueItems: true } });
const path = (name: string, description: string): Parameter => ({ name, in: 'path', description, required: true, schema: { type: 'string', uniqueItems: true } });

const dryRun = query('dryRun', 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed');
const fieldManager = query('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.');
const fieldValidation = query('fieldValidation', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict');
const force = query('force', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people.', 'boolean');
const pretty = query('pretty', "If 'true', then the output is pretty printed.");
const listParameters = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch']
  .map((name) => query(name, `${name} (see ListOptions)`, name === 'limit' || name === 'timeoutSeconds' ? 'integer' : name === 'watch' || name === 'allowWatchBookmarks' || name === 'sendInitialEvents' ? 'boolean' : 'string'));

const patchContentTypes = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];
const jsonTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function content(types: readonly string[], ref: string): Record<string, unknown> {
  return Object.fromEntries(types.map((t) => [t, { schema: { $ref: ref } }]));
}

/** The `io.k8s.api.apps.v1.Deployment` style name components would use. */
function schemaName(r: { group: string; version: string; kind: string }): string {
  const group = r.group === '' ? 'core' : r.group.endsWith('.k8s.io') ? r.group.slice(0, -'.k8s.io'.length) : r.group;
  return `#/components/schemas/io.k8s.api.${group}.${r.version}.${r.kind}`;
}

function operation(r: ResourceInfo, verb: string, action: string, parameters: readonly Parameter[], body: readonly string[] | null, sub?: ResourceInfo['subresources'][number]): Record<string, unknown> {
  const gvk = sub ? sub.kind : { group: r.group, version: r.version, kind: r.kind };
  const ref = schemaName(gvk);
  const kindWord = sub ? `${sub.name} of the specified ${r.kind}` : `the specified ${r.kind}`;
  return {
    tags: [`${r.group === '' ? 'core' : r.group.split('.')[0]}_${r.version}`],
    description: `${verb} ${kindWord}`,
    operationId: `${verb}${r.namespaced ? 'Namespaced' : ''}${r.kind}${sub ? sub.name[0]!.toUpperCase() + sub.name.slice(1) : ''}`,
    parameters,
    ...(body ? { requestBody: { content: content(body, ref), required: true } } : {}),
    responses: { 200: { description: 'OK', content: content(['application/json', 'application/yaml'], ref) }, 401: { description: 'Unauthorized' } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  };
}

/** The paths of one resource: collection, item and subresources, with the operations its verbs allow. */
function resourcePaths(r: ResourceInfo): Record<string, unknown> {
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const collection = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.resource}` : `${prefix}/${r.resource}`;
  const item = `${collection}/{name}`;
  const scope = [path('name', `name of the ${r.kind}`), ...(r.namespaced ? [path('namespace', 'object name and auth scope, such as for teams and projects')] : []), pretty];
  const has = (v: Verb): boolean => r.verbs.includes(v);
  const out: Record<string, unknown> = {};
  const coll: Record<string, unknown> = { parameters: r.namespaced ? [path('namespace', 'object name and auth scope, such as for teams and projects'), pretty] : [pretty] };
  if (has('list')) coll.get = operation(r, 'list', 'list', listParameters, null);
  if (has('create')) coll.post = operation(r, 'create', 'post', [dryRun, fieldManager, fieldValidation], jsonTypes);
  if (has('deletecollection')) coll.delete = operation(r, 'delete collection of', 'deletecollection', [dryRun, ...listParameters], jsonTypes);
  out[collection] = coll;
  const one: Record<string, unknown> = { parameters: scope };
  if (has('get')) one.get = operation(r, 'read', 'get', [], null);
  if (has('update')) one.put = operation(r, 'replace', 'put', [dryRun, fieldManager, fieldValidation], jsonTypes);
  if (has('patch')) one.patch = operation(r, 'partially update', 'patch', [dryRun, fieldManager, fieldValidation, force], patchContentTypes);
  if (has('delete')) one.delete = operation(r, 'delete', 'delete', [dryRun, query('gracePeriodSeconds', 'The duration in seconds before the object should be deleted.', 'integer'), query('propagationPolicy', 'Whether and how garbage collection will be performed.')], jsonTypes);
  out[item] = one;
  for (const sub of r.subresources) {
    const ops: Record<string, unknown> = { parameters: scope };
    if (sub.verbs.includes('get')) ops.get = operation(r, 'read', 'get', [], null, sub);
    if (sub.verbs.includes('update')) ops.put = operation(r, 'replace', 'put', [dryRun, fieldManager, fieldValidation], jsonTypes, sub);
    if (sub.verbs.includes('patch')) ops.patch = operation(r, 'partially update', 'patch', [dryRun, fieldManager, fieldValidation, force], patchContentTypes, sub);
    if (sub.verbs.includes('create')) ops.post = operation(r, 'create', 'post', [dryRun, fieldManager, fieldValidation], jsonTypes, sub);
    out[`${item}/${sub.name}`] = ops;
  }
  return out;
}

/** `api/v1`, `apis/apps/v1`: the keys of the index and the tails of the document paths. */
function groupVersionKey(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/** The document of one group-version, or null when it is not served. */
export function openAPIDocument(group: string, version: string): Record<string, unknown> | null {
  const resources = resourcesOf(group, version);
  if (resources.length === 0) return null;
  const paths: Record<string, unknown> = {};
  for (const r of resources) Object.assign(paths, resourcePaths(r));
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    components: { securitySchemes: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } } },
  };
}

/** The index at /openapi/v3: every served group-version with its URL; the hash changes when the document does. */
export function openAPIIndex(): { paths: Record<string, { serverRelativeURL: string }> } {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { group, versions } of servedGroups) {
    for (const version of versions) {
      const key = groupVersionKey(group, version);
      const hash = fnv1a32(JSON.stringify(openAPIDocument(group, version))).toString(16).toUpperCase().padStart(8, '0');
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
    }
  }
  return { paths };
}

/** Answers GET /openapi/v3 and /openapi/v3/<group-version>; null for any other path. */
export function serveOpenAPI(pathname: string): { status: number; body: unknown } | null {
  if (pathname === '/openapi/v3') return { status: 200, body: openAPIIndex() };
  const m = /^\/openapi\/v3\/(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))$/.exec(pathname);
  if (!m) return null;
  const [group, version] = m[1] !== undefined ? ['', m[1]] : [m[2]!, m[3]!];
  const doc = openAPIDocument(group, version);
  return doc ? { status: 200, body: doc } : null;
}

