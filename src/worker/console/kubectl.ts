// Runs a parsed kubectl command as a coroutine of the user component: the requests real kubectl 1.28
// sends (reference/kubectl-wire.md §3), in its order, with its output and error texts.
// Models k8s.io/kubectl/pkg/cmd/{get,create,apply,replace,delete,scale,set/set_image.go,rollout} and
// k8s.io/kubectl/pkg/polymorphichelpers (rollout_status.go, history.go, rollback.go).
// Categories (`get all`) expand from the served resources' categories, as discovery gives them.
// `-o jsonpath=…` is evaluated as client-go's jsonpath does (jsonpath.ts).
// `--sort-by` asks for the full objects in the Table (includeObject=Object, no limit) and sorts rows by the
// JSONPath's value on each (k8s.io/kubectl/pkg/cmd/get/sorter.go: numbers by value, strings in natural order).
// create, replace and apply read the OpenAPI v3 index and documents first, as kubectl's validation does.
// Not modelled: discovery requests (kubectl's cache is taken as warm).

import { parseManifest, type ManifestObject } from '../../sim/api/manifest.ts';
import { findResource, servedResources, type ResourceInfo } from '../../sim/api/resources.ts';
import { escapePath } from '../../sim/api/url-path.ts';
import type { KubeObject, Status, Table, TableColumnDefinition } from '../../sim/api/types/meta.ts';
import type { HttpResponse } from '../../sim/wire/http.ts';
import type { Co } from '../../sim/engine/index.ts';
import type { ManifestProblem } from '../../protocol/console.ts';
import { lastApplied, modifiedConfiguration, threeWayMergePatch, type JSONMap } from './apply-patch.ts';
import { sortedJSON } from '../../sim/api/strategic-merge-diff.ts';
import { canI, whoami } from './auth.ts';
import { describeObject } from './describe.ts';
import { explain } from './explain.ts';
import { klogLine, nextWatchMessage, send, tableAccept, type CommandIO } from './http.ts';
import { executeJsonPath, goJson, JsonPathError, parseTemplate, type JsonValue } from './jsonpath.ts';
import type { KubectlInvocation } from './kubectl-args.ts';
import { scenarioFiles } from '../scenarios.ts';
import {
  collectionPath as kubectlCollectionPath, createRequest, deleteRequest, deleteWaitRequests, getRequest, scaleRequest, setImageRequest,
} from '../../sim/scenarios/kubectl.ts';
import {
  kindName, labelsText, listOf, statusErrorText, statusOf, tableRows, tabwrite, toJson, toYaml, withTypeMeta,
} from './kubectl-print.ts';

export interface KubectlIO extends CommandIO {
  problem(problem: ManifestProblem): void;
}

const stdinSource = 'STDIN';

/** The name kubectl's errors give the manifest: `STDIN` for `-f -`, else the file name. */
function sourceName(cmd: KubectlInvocation): string {
  const file = cmd.flags.filename;
  return file === undefined || file === '-' ? stdinSource : file;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function field(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) cur = isObj(cur) ? cur[part] : undefined;
  return cur;
}

function collectionPath(r: ResourceInfo, namespace: string | null): string {
  return kubectlCollectionPath(r, namespace);
}

function itemPath(r: ResourceInfo, namespace: string, name: string): string {
  return `${collectionPath(r, namespace)}/${escapePath(name)}`;
}

/** url.Values.Encode: keys sorted, values query-escaped. */
function query(params: Record<string, string | undefined>): string {
  return Object.keys(params).sort().filter((k) => params[k] !== undefined)
    .map((k) => `${k}=${encodeURIComponent(params[k]!).replace(/%20/g, '+')}`).join('&');
}

function isError(response: HttpResponse): boolean {
  return response.status < 200 || response.status >= 300;
}

/** Fails the command with kubectl's text for an error reply; returns the exit code. */
function fail(io: KubectlIO, response: HttpResponse, fallback: string, action?: string): number {
  io.err(statusErrorText(statusOf(response), response.status, fallback, action));
  return 1;
}

function resolve(io: KubectlIO, typed: string): ResourceInfo | null {
  const r = findResource(typed);
  if (!r) io.err(`error: the server doesn't have a resource type "${typed}"\n`);
  return r ?? null;
}

/** `TYPE NAME…`, `TYPE1,TYPE2`, `TYPE/NAME…`: the (resource, names) pairs to act on. */
function targets(io: KubectlIO, args: readonly string[]): { r: ResourceInfo; names: string[] }[] | null {
  if (args.length === 0) {
    io.err('You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee \'kubectl get -h\' for help and examples\n');
    return null;
  }
  if (args.every((a) => a.includes('/'))) {
    const out: { r: ResourceInfo; names: string[] }[] = [];
    for (const a of args) {
      const [type, name] = [a.slice(0, a.indexOf('/')), a.slice(a.indexOf('/') + 1)];
      const r = resolve(io, type);
      if (!r) return null;
      const group = out.find((t) => t.r === r);
      if (group) group.names.push(name);
      else out.push({ r, names: [name] });
    }
    return out;
  }
  if (args.slice(1).some((a) => a.includes('/'))) {
    io.err('error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. \'kubectl get resource/<resource_name>\' instead of \'kubectl get resource resource/<resource_name>\'\n');
    return null;
  }
  const out: { r: ResourceInfo; names: string[] }[] = [];
  for (const type of args[0]!.split(',')) {
    const category = findResource(type) === undefined ? servedResources.filter((r) => r.categories.includes(type.toLowerCase())) : [];
    if (category.length > 0) {
      // A category (`all`) stands for its resources in discovery order, as kubectl's category expander does.
      for (const r of category) if (!out.some((t) => t.r === r)) out.push({ r, names: args.slice(1) });
      continue;
    }
    const r = resolve(io, type);
    if (!r) return null;
    out.push({ r, names: args.slice(1) });
  }
  if (out.length > 1 && args.length > 1) {
    io.err('error: arguments in resource/name form must have a single resource and name\n');
    return null;
  }
  return out;
}

/** Runs the command; returns its exit code. */
export function* runKubectl(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  if (io.verbosity >= 6) io.err(klogLine(io, 'loader.go:395', 'Config loaded from file:  /root/.kube/config'));
  switch (cmd.verb) {
    case 'get': return yield* get(io, cmd);
    case 'describe': return yield* describe(io, cmd);
    case 'create': case 'apply': case 'replace': return yield* fromManifest(io, cmd);
    case 'delete': return yield* remove(io, cmd);
    case 'scale': return yield* scale(io, cmd);
    case 'set image': return yield* setImage(io, cmd);
    case 'rollout status': return yield* rolloutStatus(io, cmd);
    case 'rollout history': return yield* rolloutHistory(io, cmd);
    case 'rollout undo': return yield* rolloutUndo(io, cmd);
    case 'version': return yield* version(io);
    case 'explain': return yield* explain(io, cmd.args, cmd.flags.recursive);
    case 'auth can-i': return yield* canI(io, cmd.args, {
      namespace: namespaceOf(cmd), allNamespaces: cmd.flags.allNamespaces, list: cmd.flags.list, quiet: cmd.flags.quiet, noHeaders: cmd.flags.noHeaders,
      ...(cmd.flags.subresource !== undefined ? { subresource: cmd.flags.subresource } : {}),
    });
    case 'auth whoami': return yield* whoami(io, cmd.flags.output);
  }
}

function namespaceOf(cmd: KubectlInvocation): string {
  return cmd.flags.namespace ?? 'default';
}

function* get(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  const { flags } = cmd;
  if (flags.raw !== undefined) {
    const q = flags.raw.indexOf('?');
    const { response } = yield* send(io, { method: 'GET', path: q < 0 ? flags.raw : flags.raw.slice(0, q), query: q < 0 ? '' : flags.raw.slice(q + 1), accept: 'application/json, */*' });
    if (isError(response)) return fail(io, response, 'the server could not find the requested resource');
    io.out(typeof response.body === 'string' ? response.body : `${JSON.stringify(response.body)}\n`);
    return 0;
  }
  const list = targets(io, cmd.args);
  if (!list) return 1;
  const namespace = flags.allNamespaces ? null : namespaceOf(cmd);
  const jsonpath = flags.output?.startsWith('jsonpath=') ? flags.output.slice('jsonpath='.length) : null;
  if (jsonpath !== null) {
    try {
      parseTemplate(jsonpath);
    } catch (err) {
      if (!(err instanceof JsonPathError)) throw err;
      io.err(`error: error parsing jsonpath ${jsonpath}, ${err.message}\n`);
      return 1;
    }
  }
  const structured = flags.output === 'yaml' || flags.output === 'json' || flags.output === 'name' || jsonpath !== null;
  const accept = structured ? 'application/json' : tableAccept;
  const kindPrefix = list.length > 1;
  const printed: KubeObject[] = [];
  let exit = 0;
  let anyRows = false;
  let firstTable = true;
  let watchFrom: { r: ResourceInfo; resourceVersion: string; columns: TableColumnDefinition[] } | null = null;
  for (const { r, names } of list) {
    if (names.length > 0 && flags.allNamespaces) {
      io.err('error: a resource cannot be retrieved by name across all namespaces\n');
      return 1;
    }
    const responses: HttpResponse[] = [];
    if (names.length === 0) {
      const listQuery = flags.sortBy !== undefined && !structured
        ? query({ includeObject: 'Object', labelSelector: flags.selector })
        : query({ labelSelector: flags.selector, limit: flags.sortBy !== undefined ? undefined : '500' });
      const { response } = yield* send(io, { method: 'GET', path: collectionPath(r, namespace), query: listQuery, accept });
      if (isError(response)) { exit = fail(io, response, `the server could not find the requested resource (get ${r.resource})`); continue; }
      responses.push(response);
    } else {
      for (const name of names) {
        const { response } = yield* send(io, { method: 'GET', path: itemPath(r, namespace ?? 'default', name), accept });
        if (isError(response)) { exit = fail(io, response, `the server could not find the requested resource (get ${r.resource} ${name})`); continue; }
        responses.push(response);
      }
    }
    for (const response of responses) {
      const body = response.body as Obj;
      if (structured) {
        const items = Array.isArray(body.items) ? (body.items as KubeObject[]) : [body as unknown as KubeObject];
        printed.push(...items.map((o) => withTypeMeta(o, r)));
        if (flags.output === 'name') for (const o of items) io.out(`${kindName(r)}/${o.metadata.name}\n`);
        continue;
      }
      const table = body as unknown as Table;
      const columns = table.columnDefinitions ?? [];
      if (table.rows.length === 0) continue;
      let rows = table.rows;
      if (flags.sortBy !== undefined) {
        const sorted = sortByField(table.rows, (row) => row.object as unknown as JsonValue, flags.sortBy);
        if (typeof sorted === 'string') { io.err(sorted); return 1; }
        rows = sorted;
      }
      anyRows = true;
      if (!firstTable) io.out('\n');
      firstTable = false;
      io.out(tabwrite(tableRows(columns, rows, {
        wide: flags.output === 'wide', withNamespace: flags.allNamespaces, showLabels: flags.showLabels, header: true,
        ...(kindPrefix ? { kindPrefix: kindName(r) } : {}),
      })));
      watchFrom = { r, resourceVersion: table.metadata.resourceVersion ?? '', columns };
    }
    if (!structured && names.length === 0 && !watchFrom) watchFrom = { r, resourceVersion: String(field(responses[0]?.body, 'metadata.resourceVersion') ?? ''), columns: [] };
  }
  if (structured && flags.sortBy !== undefined && printed.length > 1) {
    const sorted = sortByField(printed, (o) => o as unknown as JsonValue, flags.sortBy);
    if (typeof sorted === 'string') { io.err(sorted); return 1; }
    printed.splice(0, printed.length, ...sorted);
  }
  if (structured && flags.output !== 'name' && printed.length > 0) {
    const single = printed.length === 1 && list.length === 1 && list[0]!.names.length === 1;
    const value = single ? printed[0] : listOf(printed);
    if (jsonpath !== null) {
      try {
        io.out(executeJsonPath(jsonpath, value as unknown as JsonValue));
      } catch (err) {
        if (!(err instanceof JsonPathError)) throw err;
        io.err(`error: error executing jsonpath ${JSON.stringify(jsonpath)}: Error executing template: ${err.message}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${jsonpath}\n\tobject given to jsonpath engine was:\n\t\t${goJson(value as unknown as JsonValue)}\n\n\n`);
        return 1;
      }
    } else {
      io.out(flags.output === 'json' ? toJson(value) : toYaml(value));
    }
  }
  if (!structured && !anyRows && exit === 0 && list.every((t) => t.names.length === 0)) {
    io.err(namespace === null ? 'No resources found\n' : `No resources found in ${namespace} namespace.\n`);
  }
  if (flags.watch && watchFrom && list.length === 1) {
    return yield* watchRows(io, cmd, watchFrom.r, namespace, watchFrom.resourceVersion, watchFrom.columns, accept);
  }
  return exit;
}

function* watchRows(io: KubectlIO, cmd: KubectlInvocation, r: ResourceInfo, namespace: string | null, resourceVersion: string,
  columns: TableColumnDefinition[], accept: string): Co<number> {
  const names = cmd.args.slice(1);
  const q = query({
    labelSelector: cmd.flags.selector, fieldSelector: names.length === 1 ? `metadata.name=${names[0]}` : undefined,
    resourceVersion, watch: 'true',
  });
  const { response, requestId } = yield* send(io, { method: 'GET', path: collectionPath(r, namespace), query: q, accept });
  if (isError(response)) return fail(io, response, `the server could not find the requested resource (get ${r.resource})`);
  io.watching(requestId);
  let cols = columns;
  for (;;) {
    const next = yield* nextWatchMessage(requestId);
    if (io.interrupted) return 130;
    if ('end' in next) { io.watching(null); return 0; }
    const { event } = next;
    if (event.type === 'ERROR') {
      const status = event.object as Partial<Status>;
      io.err(`error: ${status.message ?? 'watch error'}\n`);
      io.watching(null);
      return 1;
    }
    if (event.type === 'BOOKMARK') continue;
    const obj = event.object as Obj;
    if (cmd.flags.output === 'name') { io.out(`${kindName(r)}/${String(field(obj, 'metadata.name'))}\n`); continue; }
    if (cmd.flags.output === 'yaml' || cmd.flags.output === 'json') {
      const typed = withTypeMeta(obj as unknown as KubeObject, r);
      io.out(cmd.flags.output === 'json' ? toJson(typed) : `---\n${toYaml(typed)}`);
      continue;
    }
    const table = obj as unknown as Table;
    if (table.columnDefinitions && table.columnDefinitions.length > 0 && cols.length === 0) cols = table.columnDefinitions;
    const rows = tableRows(cols, table.rows ?? [], { wide: cmd.flags.output === 'wide', withNamespace: cmd.flags.allNamespaces, showLabels: cmd.flags.showLabels, header: false });
    io.out(tabwrite(rows));
  }
}

function* describe(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  const list = targets(io, cmd.args);
  if (!list) return 1;
  const namespace = namespaceOf(cmd);
  let exit = 0;
  let first = true;
  for (const { r, names } of list) {
    let objects: Obj[] = [];
    if (names.length === 0) {
      const { response } = yield* send(io, { method: 'GET', path: collectionPath(r, cmd.flags.allNamespaces ? null : namespace), query: query({ labelSelector: cmd.flags.selector, limit: '500' }), accept: 'application/json' });
      if (isError(response)) { exit = fail(io, response, ''); continue; }
      objects = ((response.body as Obj).items as Obj[] | undefined) ?? [];
    } else {
      for (const name of names) {
        const { response } = yield* send(io, { method: 'GET', path: itemPath(r, namespace, name), accept: 'application/json' });
        if (isError(response)) { exit = fail(io, response, ''); continue; }
        objects.push(response.body as Obj);
      }
    }
    for (const obj of objects) {
      const meta = (obj.metadata ?? {}) as Obj;
      const fieldSelector = `involvedObject.name=${String(meta.name)},involvedObject.namespace=${String(meta.namespace ?? '')},involvedObject.uid=${String(meta.uid)}`;
      const { response } = yield* send(io, { method: 'GET', path: `/api/v1/namespaces/${String(meta.namespace ?? namespace)}/events`, query: query({ fieldSelector, limit: '500' }), accept: 'application/vnd.kubernetes.protobuf,application/json' });
      const events = isError(response) ? [] : (((response.body as Obj).items as Obj[] | undefined) ?? []);
      if (!first) io.out('\n\n');
      first = false;
      io.out(describeObject(r, obj, events, io.engine.epochMs + io.engine.now));
    }
  }
  return exit;
}

/**
 * Reads the manifest given with `-f -` (the editor's text) or `-f <file>`, where the console's working
 * directory holds the scenarios' manifests (`replicaset.yaml`, `nginx.yml` …, worker/scenarios.ts);
 * reports parse errors with positions.
 */
function readManifest(io: KubectlIO, cmd: KubectlInvocation): readonly ManifestObject[] | null {
  const file = cmd.flags.filename;
  if (file === undefined) {
    io.err(`error: must specify one of -f and -k\n\n`);
    return null;
  }
  const text = file === '-' ? io.stdin : scenarioFiles.get(file.replace(/^\.\//, ''));
  if (text === undefined) {
    io.err(`error: the path "${file}" does not exist\n`);
    return null;
  }
  const manifest = parseManifest(text, sourceName(cmd));
  if (manifest.errors.length > 0) {
    for (const e of manifest.errors) {
      io.err(`error: ${e.message}\n`);
      io.problem({ line: e.line, column: e.column, message: e.message });
    }
    return null;
  }
  if (manifest.objects.length === 0) {
    io.err('error: no objects passed to create\n');
    return null;
  }
  return manifest.objects;
}

function objectNamespace(m: ManifestObject, cmd: KubectlInvocation): string | null {
  if (!m.resource.namespaced) return null;
  const ns = field(m.object, 'metadata.namespace');
  return typeof ns === 'string' && ns !== '' ? ns : namespaceOf(cmd);
}

function withNamespace(object: KubeObject, namespace: string | null): Obj {
  const copy = JSON.parse(JSON.stringify(object)) as Obj;
  if (namespace !== null) copy.metadata = { ...(copy.metadata as Obj), namespace };
  return copy;
}

/** Reports a server error against the manifest: each cause at its field, else at the object's name. */
function reportProblems(io: KubectlIO, m: ManifestObject, response: HttpResponse): void {
  const status = statusOf(response);
  const base = { objectLine: m.position.line, code: response.status, ...(status?.reason ? { reason: status.reason } : {}) };
  const causes = status?.details?.causes ?? [];
  if (causes.length > 0) {
    for (const c of causes) io.problem({ ...base, ...(c.field ? { field: c.field } : {}), message: c.field ? `${c.field}: ${c.message ?? ''}` : c.message ?? '' });
    return;
  }
  const fieldByReason: Record<string, string> = { Conflict: 'metadata.resourceVersion', AlreadyExists: 'metadata.name', NotFound: 'metadata.name', Forbidden: 'kind' };
  const f = fieldByReason[status?.reason ?? ''];
  io.problem({ ...base, ...(f ? { field: f } : {}), message: status?.message ?? `HTTP ${response.status}` });
}

/**
 * What kubectl's schema validation reads before sending an object (create, replace, apply without
 * --validate=false): the OpenAPI v3 index once, then the document of each group-version it meets, to see
 * that the server validates fields itself (reference/kubectl-wire.md §3.5).
 * Models k8s.io/kubectl/pkg/cmd/util (QueryParamVerifierV3) over client-go's openapi3 root.
 */
function* verifyFieldValidation(io: KubectlIO, seen: { index: Record<string, { serverRelativeURL?: string }> | null; documents: Set<string> }, r: ResourceInfo): Co<void> {
  if (seen.index === null) {
    const { response } = yield* send(io, { method: 'GET', path: '/openapi/v3', accept: 'application/json, */*' });
    seen.index = response.status === 200 && isObj(response.body) && isObj(response.body.paths) ? (response.body.paths as Record<string, { serverRelativeURL?: string }>) : {};
  }
  const key = r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
  const url = seen.index[key]?.serverRelativeURL;
  if (url === undefined || seen.documents.has(key)) return;
  seen.documents.add(key);
  const q = url.indexOf('?');
  yield* send(io, { method: 'GET', path: q < 0 ? url : url.slice(0, q), query: q < 0 ? '' : url.slice(q + 1), accept: 'application/json' });
}

function* fromManifest(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  const objects = readManifest(io, cmd);
  if (!objects) return 1;
  let exit = 0;
  const openapi = { index: null, documents: new Set<string>() };
  for (const m of objects) {
    yield* verifyFieldValidation(io, openapi, m.resource);
    const namespace = objectNamespace(m, cmd);
    const name = String(field(m.object, 'metadata.name') ?? '');
    const collection = collectionPath(m.resource, namespace);
    const label = `${kindName(m.resource)}/${name}`;
    if (cmd.verb === 'create') {
      const { response } = yield* send(io, createRequest(m.resource, namespace, m.object));
      if (isError(response)) { exit = fail(io, response, '', `error when creating "${sourceName(cmd)}"`); reportProblems(io, m, response); continue; }
      io.out(`${label} created\n`);
    } else if (cmd.verb === 'replace') {
      const { response } = yield* send(io, { method: 'PUT', path: `${collection}/${escapePath(name)}`, query: 'fieldManager=kubectl-replace&fieldValidation=Strict', accept: 'application/json', contentType: 'application/json', body: `${sortedJSON(withNamespace(m.object, namespace))}\n` });
      if (isError(response)) { exit = fail(io, response, '', `error when replacing "${sourceName(cmd)}"`); reportProblems(io, m, response); continue; }
      io.out(`${label} replaced\n`);
    } else {
      exit = Math.max(exit, yield* applyOne(io, m, namespace, name, collection, label, sourceName(cmd)));
    }
  }
  return exit;
}

function* applyOne(io: KubectlIO, m: ManifestObject, namespace: string | null, name: string, collection: string, label: string, source: string): Co<number> {
  const modified = modifiedConfiguration(m.object as unknown as Obj, namespace);
  const { response: current } = yield* send(io, { method: 'GET', path: `${collection}/${escapePath(name)}`, accept: 'application/json' });
  if (current.status === 404) {
    const { response } = yield* send(io, { method: 'POST', path: collection, query: 'fieldManager=kubectl-client-side-apply&fieldValidation=Strict', accept: 'application/json', contentType: 'application/json', body: `${sortedJSON(modified)}\n` });
    if (isError(response)) { reportProblems(io, m, response); return fail(io, response, '', `error when creating "${source}"`); }
    io.out(`${label} created\n`);
    return 0;
  }
  if (isError(current)) { reportProblems(io, m, current); return fail(io, current, '', `error when retrieving current configuration of:\nResource: "${m.resource.group === '' ? '' : `${m.resource.group}/`}${m.resource.version}, Resource=${m.resource.resource}", GroupVersionKind: "${m.gvk.group === '' ? '' : `${m.gvk.group}/`}${m.gvk.version}, Kind=${m.gvk.kind}"\nName: "${name}", Namespace: "${namespace ?? ''}"\nfrom server for: "${source}"`); }
  const live = current.body as JSONMap;
  const original = lastApplied(live);
  if (original === null) {
    io.err(`Warning: resource ${m.resource.resource}/${name} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`);
  }
  const patch = threeWayMergePatch(m.gvk.kind, original, modified, live);
  if (Object.keys(patch).length === 0) {
    io.out(`${label} unchanged\n`);
    return 0;
  }
  const { response } = yield* send(io, { method: 'PATCH', path: `${collection}/${escapePath(name)}`, query: 'fieldManager=kubectl-client-side-apply&fieldValidation=Strict', accept: 'application/json', contentType: 'application/strategic-merge-patch+json', body: sortedJSON(patch) });
  if (isError(response)) { reportProblems(io, m, response); return fail(io, response, '', `error when applying patch:\n${JSON.stringify(patch)}\n\nto:\nResource: "${m.resource.group}/${m.resource.version}, Resource=${m.resource.resource}", GroupVersionKind: "${m.gvk.group}/${m.gvk.version}, Kind=${m.gvk.kind}"\nName: "${name}", Namespace: "${namespace ?? ''}"\nfor: "${source}"`); }
  io.out(`${label} configured\n`);
  return 0;
}

const propagation = { background: 'Background', foreground: 'Foreground', orphan: 'Orphan' } as const;

function* remove(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  const items: { r: ResourceInfo; namespace: string; name: string; m?: ManifestObject }[] = [];
  if (cmd.flags.filename !== undefined) {
    const objects = readManifest(io, cmd);
    if (!objects) return 1;
    for (const m of objects) items.push({ r: m.resource, namespace: objectNamespace(m, cmd) ?? '', name: String(field(m.object, 'metadata.name') ?? ''), m });
  } else {
    const list = targets(io, cmd.args);
    if (!list) return 1;
    for (const { r, names } of list) {
      if (names.length === 0 && cmd.flags.selector === undefined) {
        io.err('error: resource(s) were provided, but no name was specified\n');
        return 1;
      }
      if (names.length === 0) {
        const { response } = yield* send(io, { method: 'GET', path: collectionPath(r, namespaceOf(cmd)), query: query({ labelSelector: cmd.flags.selector, limit: '500' }), accept: 'application/json' });
        if (isError(response)) return fail(io, response, '');
        for (const o of ((response.body as Obj).items as KubeObject[] | undefined) ?? []) items.push({ r, namespace: namespaceOf(cmd), name: o.metadata.name ?? '' });
        if (items.length === 0) io.err(`No resources found\n`);
      }
      for (const name of names) items.push({ r, namespace: namespaceOf(cmd), name });
    }
  }
  let exit = 0;
  const waitFor: { r: ResourceInfo; namespace: string; name: string }[] = [];
  for (const item of items) {
    const { response } = yield* send(io, deleteRequest(item.r, item.namespace, item.name, propagation[cmd.flags.cascade]));
    if (isError(response)) {
      exit = fail(io, response, '', item.m ? `error when deleting "${sourceName(cmd)}"` : undefined);
      if (item.m) reportProblems(io, item.m, response);
      continue;
    }
    io.out(`${kindName(item.r)} "${item.name}" deleted\n`);
    waitFor.push(item);
  }
  if (!cmd.flags.wait) return exit;
  // --wait (the default): GET each object; while it is still there (graceful pod deletion, finalizers),
  // list it by name and watch from the list until it is DELETED, as kubectl's wait does.
  for (const item of waitFor) {
    const { response } = yield* send(io, getRequest(item.r, item.namespace, item.name));
    if (response.status !== 200) continue;
    const wait = deleteWaitRequests(item.r, item.namespace, item.name);
    const { response: list } = yield* send(io, wait.list);
    const items = isObj(list.body) && Array.isArray(list.body.items) ? list.body.items : [];
    if (isError(list) || items.length === 0) continue;
    const rv = String(field(list.body, 'metadata.resourceVersion') ?? '');
    const { response: watch, requestId } = yield* send(io, wait.watch(rv, 60));
    if (isError(watch)) continue;
    io.watching(requestId);
    for (;;) {
      const next = yield* nextWatchMessage(requestId);
      if (io.interrupted) return 130;
      if ('end' in next || next.event.type === 'DELETED') break;
    }
    io.watching(null);
  }
  return exit;
}

function* getOne(io: KubectlIO, cmd: KubectlInvocation, accept = 'application/json'): Co<{ r: ResourceInfo; name: string; obj: Obj } | number> {
  const list = targets(io, cmd.args.slice(0, cmd.args[0]?.includes('/') ? 1 : 2));
  if (!list) return 1;
  const [{ r, names }] = list as [{ r: ResourceInfo; names: string[] }];
  const name = names[0];
  if (name === undefined) {
    io.err('error: resource(s) were provided, but no name was specified\n');
    return 1;
  }
  const { response } = yield* send(io, getRequest(r, namespaceOf(cmd), name, accept));
  if (isError(response)) return fail(io, response, '');
  return { r, name, obj: response.body as Obj };
}

function* scale(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  if (cmd.flags.replicas === undefined || cmd.flags.replicas < 0) {
    io.err('error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n');
    return 1;
  }
  const target = yield* getOne(io, cmd);
  if (typeof target === 'number') return target;
  const { r, name } = target;
  const { response } = yield* send(io, scaleRequest(r, namespaceOf(cmd), name, cmd.flags.replicas));
  if (isError(response)) return fail(io, response, '');
  io.out(`${kindName(r)}/${name} scaled\n`);
  return 0;
}

function* setImage(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  const resourceArgs = cmd.args.filter((a) => !a.includes('='));
  const assignments = cmd.args.filter((a) => a.includes('='));
  if (assignments.length === 0) {
    io.err('error: at least one image update is required\n');
    return 1;
  }
  const target = yield* getOne(io, { ...cmd, args: resourceArgs }, 'application/json, */*');
  if (typeof target === 'number') return target;
  const { r, name, obj } = target;
  const patch = setImageRequest(r, namespaceOf(cmd), obj, assignments.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as const));
  if (patch === null) return 0;
  if ('missing' in patch) {
    io.err(`error: unable to find container named "${patch.missing}"\n`);
    return 1;
  }
  const { response } = yield* send(io, patch);
  if (isError(response)) return fail(io, response, '');
  io.out(`${kindName(r)}/${name} image updated\n`);
  return 0;
}

/** The status line `kubectl rollout status` prints for a Deployment, and whether the rollout is done. */
export function deploymentRolloutStatus(d: Obj): { message: string; done: boolean; error?: string } {
  const name = String(field(d, 'metadata.name'));
  const generation = Number(field(d, 'metadata.generation') ?? 0);
  const observed = Number(field(d, 'status.observedGeneration') ?? 0);
  if (generation > observed) return { message: 'Waiting for deployment spec update to be observed...\n', done: false };
  const conditions = (field(d, 'status.conditions') as Obj[] | undefined) ?? [];
  if (conditions.some((c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded')) {
    return { message: '', done: true, error: `deployment "${name}" exceeded its progress deadline` };
  }
  const specReplicas = field(d, 'spec.replicas') as number | undefined;
  const updated = Number(field(d, 'status.updatedReplicas') ?? 0);
  const replicas = Number(field(d, 'status.replicas') ?? 0);
  const available = Number(field(d, 'status.availableReplicas') ?? 0);
  if (specReplicas !== undefined && updated < specReplicas) {
    return { message: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${specReplicas} new replicas have been updated...\n`, done: false };
  }
  if (replicas > updated) return { message: `Waiting for deployment "${name}" rollout to finish: ${replicas - updated} old replicas are pending termination...\n`, done: false };
  if (available < updated) return { message: `Waiting for deployment "${name}" rollout to finish: ${available} of ${updated} updated replicas are available...\n`, done: false };
  return { message: `deployment "${name}" successfully rolled out\n`, done: true };
}

function* rolloutStatus(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  const target = yield* getOne(io, cmd);
  if (typeof target === 'number') return target;
  const { r, name } = target;
  if (r.kind !== 'Deployment') {
    io.err(`error: no status viewer has been implemented for ${r.kind}\n`);
    return 1;
  }
  let last = '';
  const report = (d: Obj): boolean | number => {
    const status = deploymentRolloutStatus(d);
    if (status.error) { io.err(`error: ${status.error}\n`); return 1; }
    if (status.message !== last) io.out(status.message);
    last = status.message;
    return status.done;
  };
  const first = report(target.obj);
  if (first === true) return 0;
  if (typeof first === 'number') return first;
  const rv = String(field(target.obj, 'metadata.resourceVersion') ?? '');
  const { response, requestId } = yield* send(io, { method: 'GET', path: collectionPath(r, namespaceOf(cmd)), query: query({ fieldSelector: `metadata.name=${name}`, resourceVersion: rv, watch: 'true' }), accept: 'application/json' });
  if (isError(response)) return fail(io, response, '');
  io.watching(requestId);
  for (;;) {
    const next = yield* nextWatchMessage(requestId);
    if (io.interrupted) return 130;
    if ('end' in next) { io.watching(null); return 1; }
    if (next.event.type !== 'ADDED' && next.event.type !== 'MODIFIED') continue;
    const result = report(next.event.object as Obj);
    if (result === false) continue;
    io.watching(null);
    io.user.request('kube-apiserver', 'http.cancel', { requestId });
    return result === true ? 0 : result;
  }
}

interface Revision { readonly revision: number; readonly rs: Obj }

function* revisionsOf(io: KubectlIO, cmd: KubectlInvocation, deployment: Obj): Co<Revision[] | number> {
  const selector = (field(deployment, 'spec.selector.matchLabels') ?? {}) as Record<string, string>;
  const rsResource = findResource('replicasets')!;
  const { response } = yield* send(io, { method: 'GET', path: collectionPath(rsResource, namespaceOf(cmd)), query: query({ labelSelector: labelsText(selector) === '<none>' ? undefined : labelsText(selector), limit: '500' }), accept: 'application/json' });
  if (isError(response)) return fail(io, response, '');
  const uid = field(deployment, 'metadata.uid');
  const owned = (((response.body as Obj).items as Obj[] | undefined) ?? [])
    .filter((rs) => ((field(rs, 'metadata.ownerReferences') as Obj[] | undefined) ?? []).some((o) => o.uid === uid && o.controller === true));
  const revisionOf = (rs: Obj): number => Number(((field(rs, 'metadata.annotations') ?? {}) as Obj)['deployment.kubernetes.io/revision'] ?? 0);
  return owned.map((rs) => ({ revision: revisionOf(rs), rs })).sort((a, b) => a.revision - b.revision);
}

function* rolloutHistory(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  const target = yield* getOne(io, cmd);
  if (typeof target === 'number') return target;
  const revisions = yield* revisionsOf(io, cmd, target.obj);
  if (typeof revisions === 'number') return revisions;
  io.out(`${kindName(target.r)}/${target.name} \n`);
  const rows = [['REVISION', 'CHANGE-CAUSE'], ...revisions.map(({ revision, rs }) => [String(revision), String(((field(rs, 'metadata.annotations') ?? {}) as Obj)['kubernetes.io/change-cause'] ?? '<none>')])];
  io.out(`${tabwrite(rows, 2)}\n`);
  return 0;
}

function* rolloutUndo(io: KubectlIO, cmd: KubectlInvocation): Co<number> {
  const target = yield* getOne(io, cmd);
  if (typeof target === 'number') return target;
  const revisions = yield* revisionsOf(io, cmd, target.obj);
  if (typeof revisions === 'number') return revisions;
  const current = revisions[revisions.length - 1];
  const wanted = cmd.flags.toRevision
    ? revisions.find((r) => r.revision === cmd.flags.toRevision)
    : revisions.filter((r) => r !== current).pop();
  if (!wanted) {
    io.err(cmd.flags.toRevision ? `error: unable to find specified revision ${cmd.flags.toRevision} in history\n` : 'error: no rollout history found for deployment "' + target.name + '"\n');
    return 1;
  }
  const template = JSON.parse(JSON.stringify(field(wanted.rs, 'spec.template'))) as Obj;
  const labels = ((template.metadata as Obj | undefined)?.labels ?? {}) as Obj;
  delete labels['pod-template-hash'];
  if (wanted === current) {
    io.out(`${kindName(target.r)}/${target.name} skipped rollback (current template already matches revision ${wanted.revision})\n`);
    return 0;
  }
  const patch = [{ op: 'replace', path: '/spec/template', value: template }];
  const { response } = yield* send(io, { method: 'PATCH', path: itemPath(target.r, namespaceOf(cmd), target.name), accept: 'application/json, */*', contentType: 'application/json-patch+json', body: JSON.stringify(patch) });
  if (isError(response)) return fail(io, response, '');
  io.out(`${kindName(target.r)}/${target.name} rolled back\n`);
  return 0;
}

function* version(io: KubectlIO): Co<number> {
  io.out('Client Version: v1.28.15\nKustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3\n');
  const { response } = yield* send(io, { method: 'GET', path: '/version', query: 'timeout=32s', accept: 'application/json, */*' });
  if (isError(response)) return fail(io, response, '');
  io.out(`Server Version: ${String(field(response.body, 'gitVersion') ?? '')}\n`);
  return 0;
}


/** fvbommel/sortorder's NaturalLess: digit runs compare by value, the rest byte by byte. */
export function naturalLess(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  const digit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  while (i < a.length && j < b.length) {
    if (digit(a[i]) && digit(b[j])) {
      let ei = i;
      while (ei < a.length && digit(a[ei])) ei++;
      let ej = j;
      while (ej < b.length && digit(b[ej])) ej++;
      const na = a.slice(i, ei).replace(/^0+/, '');
      const nb = b.slice(j, ej).replace(/^0+/, '');
      if (na.length !== nb.length) return na.length < nb.length;
      if (na !== nb) return na < nb;
      if (ei - i !== ej - j) return ei - i < ej - j;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] !== b[j]) return a[i]! < b[j]!;
    i++;
    j++;
  }
  return a.length - i < b.length - j;
}

/**
 * Sorts items by a `--sort-by` JSONPath (`.metadata.name` or `{.metadata.name}`), stably; the kubectl error
 * text when the path is bad or finds nothing in any item.
 * Models k8s.io/kubectl/pkg/cmd/get/sorter.go (RuntimeSort, isLess) with RelaxedJSONPathExpression.
 */
export function sortByField<T>(items: readonly T[], objectOf: (item: T) => JsonValue, sortBy: string): T[] | string {
  const expression = /^\{.*\}$/.test(sortBy) ? sortBy : `{${sortBy.startsWith('.') ? sortBy : `.${sortBy}`}}`;
  try {
    parseTemplate(expression);
  } catch (err) {
    if (!(err instanceof JsonPathError)) throw err;
    return `error: ${err.message}\n`;
  }
  const keys = items.map((item) => {
    try {
      return executeJsonPath(expression, objectOf(item));
    } catch {
      return null;
    }
  });
  if (keys.every((k) => k === null || k === '')) return `error: couldn't find any field with path "${expression}" in the list of objects\n`;
  const numeric = keys.every((k) => k === null || k === '' || /^-?\d+(\.\d+)?$/.test(k));
  const less = (a: string, b: string): boolean => (numeric ? Number(a) < Number(b) : naturalLess(a, b));
  const order = items.map((item, index) => ({ item, key: keys[index] ?? '', index }));
  order.sort((x, y) => (less(x.key, y.key) ? -1 : less(y.key, x.key) ? 1 : x.index - y.index));
  return order.map((o) => o.item);
}
