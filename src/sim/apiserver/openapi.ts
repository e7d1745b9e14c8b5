// The OpenAPI documents kube-apiserver serves: /openapi/v3 (the index of group-versions),
// /openapi/v3/<api|apis/group>/<version> (one document per group-version: the paths and operations with
// their parameters and request content types, and the component schemas of every type reachable from
// the group-version's kinds) and /openapi/v2 (one Swagger 2.0 document with every definition).
// kubectl reads openapi v3 to decide whether the server validates fields itself (a `fieldValidation`
// query parameter on the PATCH of the kind, x-kubernetes-group-version-kind naming it), for the patch
// strategies and merge keys of `apply`'s strategic merge patches (x-kubernetes-patch-strategy,
// x-kubernetes-patch-merge-key), and for `kubectl explain` (descriptions, types, required fields).
// Schemas are built from the Go struct table (api/schema-data.ts) and the doc comments
// (openapi-descriptions.ts). Deviation: /openapi/v2 is served as JSON only; a client asking for the
// protobuf form alone (kubectl's client-side validation) gets 406 Not Acceptable.
// Models k8s.io/kube-openapi/pkg/handler3 (the index with serverRelativeURL and ?hash=), pkg/builder3
// (components.schemas, allOf-wrapped references) and the operations
// k8s.io/apiserver/pkg/endpoints/installer.go registers per resource.

import { collectionPath, resourcesOf, servedGroups, servedResources, type ResourceInfo, type Verb } from '../api/resources.ts';
import { hasStruct, structFields, type SchemaField, type TypeNode } from '../api/schema.ts';
import { fnv1a32 } from '../engine/index.ts';
import { describeSchema } from './openapi-descriptions.ts';

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

/** The `io.k8s.api.apps.v1.Deployment` reference of a kind's schema. */
function schemaName(r: { group: string; version: string; kind: string }): string {
  return `#/components/schemas/${definitionName(r.kind, r.group, r.version)}`;
}

const metaStructs = new Set(['ObjectMeta', 'ListMeta', 'LabelSelector', 'LabelSelectorRequirement', 'OwnerReference', 'ManagedFieldsEntry', 'Status', 'StatusDetails', 'StatusCause', 'DeleteOptions', 'Preconditions', 'Time', 'MicroTime']);
const structPackages: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(Deployment|ReplicaSet|RollingUpdateDeployment|StatefulSet|DaemonSet|ControllerRevision|RollingUpdateDaemonSet|RollingUpdateStatefulSetStrategy)/, 'io.k8s.api.apps.v1'],
  [/^(Job|JobSpec|JobStatus|JobCondition|JobTemplateSpec|CronJob|CronJobSpec|CronJobStatus|PodFailurePolicy\w*|UncountedTerminatedPods)$/, 'io.k8s.api.batch.v1'],
  [/^(Ingress\w*|HTTPIngress\w*|ServiceBackendPort)$/, 'io.k8s.api.networking.v1'],
  [/^Scale(Spec|Status)?$/, 'io.k8s.api.autoscaling.v1'],
  [/^Lease(Spec)?$/, 'io.k8s.api.coordination.v1'],
  [/^(ClusterRole|ClusterRoleBinding|Role|RoleBinding|PolicyRule|Subject|RoleRef|AggregationRule)$/, 'io.k8s.api.rbac.v1'],
  [/^(SelfSubjectAccessReview|SelfSubjectAccessReviewSpec|SubjectAccessReview|SubjectAccessReviewSpec|SubjectAccessReviewStatus|SelfSubjectRulesReview|SelfSubjectRulesReviewSpec|SubjectRulesReviewStatus|ResourceAttributes|NonResourceAttributes|ResourceRule|NonResourceRule)$/, 'io.k8s.api.authorization.v1'],
  [/^(SelfSubjectReview|SelfSubjectReviewStatus|UserInfo)$/, 'io.k8s.api.authentication.v1'],
  [/^(EndpointSlice|Endpoint|EndpointConditions|EndpointHints|ForZone)$/, 'io.k8s.api.discovery.v1'],
  [/^PriorityClass$/, 'io.k8s.api.scheduling.v1'],
];

/** The definition name of a Go struct: its package path and type name (`io.k8s.api.core.v1.PodSpec`). */
function definitionName(struct: string, group?: string, version = 'v1'): string {
  const dot = struct.indexOf('.');
  if (dot >= 0) return `io.k8s.api.${struct.slice(0, dot)}.v1.${struct.slice(dot + 1)}`;
  if (metaStructs.has(struct)) return `io.k8s.apimachinery.pkg.apis.meta.v1.${struct}`;
  if (group !== undefined) return `io.k8s.api.${group === '' ? 'core' : group.split('.')[0]!}.${version}.${struct}`;
  for (const [re, pkg] of structPackages) if (re.test(struct)) return `${pkg}.${struct}`;
  return `io.k8s.api.core.v1.${struct}`;
}

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const scalarSchemas: Readonly<Record<string, Schema>> = {
  string: { type: 'string' }, bool: { type: 'boolean' }, int32: { type: 'integer', format: 'int32' }, int64: { type: 'integer', format: 'int64' },
  float64: { type: 'number', format: 'double' }, bytes: { type: 'string', format: 'byte' }, Raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
};
const namedScalars: Readonly<Record<string, readonly [string, Schema]>> = {
  Time: ['io.k8s.apimachinery.pkg.apis.meta.v1.Time', { type: 'string', format: 'date-time' }],
  MicroTime: ['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', { type: 'string', format: 'date-time' }],
  Quantity: ['io.k8s.apimachinery.pkg.api.resource.Quantity', { type: 'string' }],
  IntOrString: ['io.k8s.apimachinery.pkg.util.intstr.IntOrString', { type: 'string', format: 'int-or-string' }],
};

/** The schema of a field's type; struct references are wrapped in allOf as builder3 does. */
function typeSchema(t: TypeNode, used: Map<string, string>): Schema {
  switch (t.kind) {
    case 'pointer': return typeSchema(t.elem, used);
    case 'list': return { type: 'array', items: typeSchema(t.elem, used) };
    case 'map': return { type: 'object', additionalProperties: typeSchema(t.elem, used) };
    case 'struct': {
      const name = definitionName(t.name);
      used.set(name, t.name);
      return { allOf: [ref(name)], default: {} };
    }
    default: {
      const named = namedScalars[t.kind];
      if (named) {
        used.set(named[0], t.kind);
        return { $ref: `#/components/schemas/${named[0]}` };
      }
      return { ...scalarSchemas[t.kind] };
    }
  }
}

function fieldSchema(struct: string, f: SchemaField, used: Map<string, string>): Schema {
  const schema = typeSchema(f.type, used);
  const description = describeSchema(struct, f.json);
  const out: Schema = description !== undefined ? (schema.$ref !== undefined ? { description, allOf: [schema] } : { description, ...schema }) : schema;
  if (f.patchStrategy !== '') out['x-kubernetes-patch-strategy'] = f.patchStrategy;
  if (f.patchMergeKey !== '') out['x-kubernetes-patch-merge-key'] = f.patchMergeKey;
  return out;
}

/** The object schema of a Go struct: its properties (sorted, as the generator writes them) and required fields. */
function structSchema(struct: string, used: Map<string, string>, gvk?: { group: string; version: string; kind: string }): Schema {
  const fields = structFields(struct);
  const properties: Record<string, Schema> = {};
  for (const f of [...fields].sort((a, b) => (a.json < b.json ? -1 : a.json > b.json ? 1 : 0))) properties[f.json] = fieldSchema(struct, f, used);
  const required = fields.filter((f) => !f.omitempty && f.type.kind !== 'pointer').map((f) => f.json).sort();
  const description = describeSchema(struct);
  return {
    ...(description !== undefined ? { description } : {}),
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(gvk ? { 'x-kubernetes-group-version-kind': [{ group: gvk.group, kind: gvk.kind, version: gvk.version }] } : {}),
  };
}

/** The component schemas of the kinds given and of every type they reach, by definition name (sorted). */
export function componentSchemas(kinds: ReadonlyArray<{ group: string; version: string; kind: string }>): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const used = new Map<string, string>();
  for (const gvk of kinds) {
    if (!hasStruct(gvk.kind)) continue;
    out[definitionName(gvk.kind, gvk.group, gvk.version)] = structSchema(gvk.kind, used, gvk);
  }
  const pending = [...used.entries()];
  while (pending.length > 0) {
    const [name, struct] = pending.pop()!;
    if (out[name] !== undefined) continue;
    const named = namedScalars[struct];
    if (named) {
      const description = describeSchema(struct);
      out[name] = { ...(description !== undefined ? { description } : {}), ...named[1] };
      continue;
    }
    const before = new Set(used.keys());
    out[name] = structSchema(struct, used);
    for (const [n, s] of used) if (!before.has(n)) pending.push([n, s]);
  }
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]!]));
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
  const collection = collectionPath(r, '{namespace}');
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
    components: {
      schemas: componentSchemas(kindsOf(resources)),
      securitySchemes: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } },
    },
  };
}

/** The kinds a group-version's documents describe: each resource's kind and its subresources' kinds. */
function kindsOf(resources: readonly ResourceInfo[]): Array<{ group: string; version: string; kind: string }> {
  const kinds: Array<{ group: string; version: string; kind: string }> = [];
  for (const r of resources) {
    kinds.push({ group: r.group, version: r.version, kind: r.kind });
    for (const sub of r.subresources) if (!kinds.some((k) => k.kind === sub.kind.kind && k.group === sub.kind.group)) kinds.push(sub.kind);
  }
  return kinds;
}

/** Swagger 2.0's form of a v3 schema: `#/definitions/` references. */
function toV2(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV2);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/definitions/') : toV2(v);
  return out;
}

/** The /openapi/v2 document: every served kind's definition and the types they reach (paths left out). */
export function openAPIV2Document(): Record<string, unknown> {
  const kinds = kindsOf(servedResources);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths: {},
    definitions: toV2(componentSchemas(kinds)),
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
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

/** Answers GET /openapi/v2, /openapi/v3 and /openapi/v3/<group-version>; null for any other path. */
export function serveOpenAPI(pathname: string, accept = 'application/json'): { status: number; body: unknown } | null {
  if (pathname === '/openapi/v2') {
    const json = accept === '' || accept.split(',').some((a) => /^\s*(application\/json|\*\/\*|application\/\*)\s*(;|$)/.test(a));
    return json ? { status: 200, body: openAPIV2Document() } : { status: 406, body: '406 Not Acceptable\n' };
  }
  if (pathname === '/openapi/v3') return { status: 200, body: openAPIIndex() };
  const m = /^\/openapi\/v3\/(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))$/.exec(pathname);
  if (!m) return null;
  const [group, version] = m[1] !== undefined ? ['', m[1]] : [m[2]!, m[3]!];
  const doc = openAPIDocument(group, version);
  return doc ? { status: 200, body: doc } : null;
}

