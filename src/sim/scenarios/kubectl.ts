// Podflow's one model of kubectl's requests: the request builders below (paths, queries, Accept and
// Content-Type, bodies, headers) are what both the console's kubectl (src/worker/console, with its parser,
// printers and -v lines) and the scenarios' commands send, so a scenario step and the same line typed in
// the console put the same requests on the wire (reference/kubectl-wire.md §3.5, 3.8–3.10).
//
// The scenarios' commands: each is a coroutine over HTTP: it yields a request, the runner sends it as the
// user and resumes it with the answer, so a command that needs an answer before its next request (set
// image reads the object first; delete waits for the object to go) unfolds over several engine steps like
// the real client.
//
// Deviations: kubectl's discovery requests are left out (as with a warm cache), and in the scenarios the
// openapi requests of create's validation too (the console sends them); `delete` waits for the object to go
// with one watch, and stops waiting when that watch ends (kubectl would watch again, for up to 168 h).
// Models k8s.io/kubectl/pkg/cmd/{create,scale,set/set_image,delete}.go and cmd/util/helpers.go
// (StandardErrorMessage).

import { builtinTokens } from '../wire/credentials.ts';
import type { HttpRequest, HttpResponse, HttpWatchEvent } from '../wire/http.ts';
import { formatQuery } from '../go/url.ts';
import { parseManifest } from '../api/manifest.ts';
import { sortedJSON } from '../api/strategic-merge-diff.ts';
import { collectionPath as resourceCollectionPath, findResource, type ResourceInfo } from '../api/resources.ts';
import { escapePath } from '../api/url-path.ts';
import type { KubeObject, List, Status } from '../api/types/meta.ts';
import type { PodSpec } from '../api/types/core.ts';
import type { PropagationPolicy } from './scenario.ts';

export const kubectlUserAgent = 'kubectl/v1.28.15 (linux/amd64) kubernetes/841856557ef';

/**
 * What a command yields: a request (resumed with its response), a watch (resumed with its response, then
 * read with `next`), or `next` (resumed with the open watch's next event or its end). A watch still open
 * when the command yields a request or returns is cancelled.
 */
export type KubectlCall =
  | { readonly call: 'request'; readonly request: HttpRequest }
  | { readonly call: 'watch'; readonly request: HttpRequest }
  | { readonly call: 'next' };

/** What the runner resumes a command with. */
export type KubectlInput =
  | { readonly type: 'response'; readonly response: HttpResponse }
  | { readonly type: 'event'; readonly event: HttpWatchEvent }
  | { readonly type: 'end' };

export interface KubectlResult {
  /** What kubectl prints, stdout and stderr interleaved. */
  readonly output: readonly string[];
  /** kubectl's exit status would be 0. */
  readonly ok: boolean;
}

export type KubectlCommand = Generator<KubectlCall, KubectlResult, KubectlInput>;

const namespace = 'default';

/** The Accept kubectl's printers send for server-side Tables. */
export const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

/** One request as kubectl builds it, before its credentials and User-Agent are added. */
export interface KubectlRequestSpec {
  readonly method: HttpRequest['method'];
  readonly path: string;
  readonly query?: string;
  readonly accept: string;
  readonly contentType?: string;
  readonly body?: string;
  /** Further request headers (an exec's `connection: Upgrade`). */
  readonly upgrade?: Readonly<Record<string, string>>;
}

/** The headers kubectl sends with a request: Accept, the bearer token, Content-Type, Impersonate-User, User-Agent. */
export function kubectlHeaders(spec: KubectlRequestSpec, impersonate?: string): Record<string, string> {
  return {
    accept: spec.accept,
    authorization: `Bearer ${builtinTokens.admin}`,
    ...(spec.contentType ? { 'content-type': spec.contentType } : {}),
    ...(impersonate !== undefined ? { 'impersonate-user': impersonate } : {}),
    'user-agent': kubectlUserAgent,
    ...spec.upgrade,
  };
}

/** The HTTP request of a spec. */
export function kubectlHttpRequest(spec: KubectlRequestSpec, impersonate?: string): HttpRequest {
  return { method: spec.method, path: spec.path, query: spec.query ?? '', headers: kubectlHeaders(spec, impersonate), ...(spec.body !== undefined ? { body: spec.body } : {}) };
}

function request(method: HttpRequest['method'], path: string, query: string, accept: string, body?: object, contentType = 'application/json'): HttpRequest {
  return kubectlHttpRequest({ method, path, query, accept, ...(body !== undefined ? { contentType, body: JSON.stringify(body) } : {}) });
}

/** `/api/v1/namespaces/default/pods`, `/apis/apps/v1/deployments` (all namespaces: `namespace` null), `/api/v1/nodes`. */
export function collectionPath(r: ResourceInfo, ns: string | null = namespace): string {
  return resourceCollectionPath(r, ns);
}

/** The item path of a named object (the namespace is ignored for cluster-scoped resources). */
export function itemPath(r: ResourceInfo, ns: string, name: string): string {
  return `${collectionPath(r, ns)}/${escapePath(name)}`;
}

/**
 * `kubectl create -f`: the POST of one object: the manifest decoded into a map and marshalled by Go's
 * encoding/json (keys sorted at every level), with its namespace, and a trailing newline.
 */
export function createRequest(r: ResourceInfo, ns: string | null, object: KubeObject | Record<string, unknown>): KubectlRequestSpec {
  const metadata = ((object as { metadata?: Record<string, unknown> }).metadata ?? {});
  const body = r.namespaced && ns !== null ? { ...object, metadata: { ...metadata, namespace: ns } } : object;
  return { method: 'POST', path: collectionPath(r, ns), query: 'fieldManager=kubectl-create&fieldValidation=Strict', accept: 'application/json', contentType: 'application/json', body: `${sortedJSON(body)}\n` };
}

/** `kubectl scale`: the merge patch of the scale subresource (no query), after a GET of the object. */
export function scaleRequest(r: ResourceInfo, ns: string, name: string, replicas: number): KubectlRequestSpec {
  return { method: 'PATCH', path: `${itemPath(r, ns, name)}/scale`, accept: 'application/json, */*', contentType: 'application/merge-patch+json', body: JSON.stringify({ spec: { replicas } }) };
}

/** The GET that scale (Accept application/json) and set image (Accept with the any-type fallback) send first. */
export function getRequest(r: ResourceInfo, ns: string, name: string, accept = 'application/json'): KubectlRequestSpec {
  return { method: 'GET', path: itemPath(r, ns, name), accept };
}

/**
 * `kubectl set image`: the strategic merge patch for the containers whose image changes (`*` is every
 * container), or the name of a container that is not there, or null when nothing changes.
 */
export function setImageRequest(r: ResourceInfo, ns: string, live: { kind?: string; spec?: unknown }, assignments: ReadonlyArray<readonly [container: string, image: string]>): KubectlRequestSpec | { missing: string } | null {
  const spec = live.spec as { containers?: { name: string; image?: string }[]; template?: { spec?: { containers?: { name: string; image?: string }[] } } } | undefined;
  const containers = (live.kind === 'Pod' ? spec?.containers : spec?.template?.spec?.containers) ?? [];
  const changed: { image: string; name: string }[] = [];
  for (const [container, image] of assignments) {
    const matching = container === '*' ? containers : containers.filter((c) => c.name === container);
    if (matching.length === 0) return { missing: container };
    for (const c of matching) if (c.image !== image) changed.push({ image, name: c.name });
  }
  if (changed.length === 0) return null;
  const specPatch = { '$setElementOrder/containers': containers.map((c) => ({ name: c.name })), containers: changed };
  const patch = live.kind === 'Pod' ? { spec: specPatch } : { spec: { template: { spec: specPatch } } };
  const name = String((live as { metadata?: { name?: string } }).metadata?.name ?? '');
  return { method: 'PATCH', path: itemPath(r, ns, name), query: 'fieldManager=kubectl-set', accept: 'application/json, */*', contentType: 'application/strategic-merge-patch+json', body: JSON.stringify(patch) };
}

/** `kubectl delete`: the DELETE with its DeleteOptions body (the propagation policy of --cascade). */
export function deleteRequest(r: ResourceInfo, ns: string, name: string, propagationPolicy: PropagationPolicy = 'Background'): KubectlRequestSpec {
  return { method: 'DELETE', path: itemPath(r, ns, name), accept: 'application/json', contentType: 'application/json', body: JSON.stringify({ propagationPolicy }) };
}

/** delete's wait (--wait=true): the list of the object by name, then the watch from the list's resourceVersion. */
export function deleteWaitRequests(r: ResourceInfo, ns: string, name: string): { list: KubectlRequestSpec; watch: (resourceVersion: string, timeoutSeconds: number) => KubectlRequestSpec } {
  const selector = `metadata.name=${name}`;
  return {
    list: { method: 'GET', path: collectionPath(r, ns), query: formatQuery([['fieldSelector', selector], ['limit', '500'], ['resourceVersion', '0']]), accept: 'application/json' },
    watch: (resourceVersion, timeoutSeconds) => ({
      method: 'GET', path: collectionPath(r, ns), accept: 'application/json',
      query: formatQuery([['allowWatchBookmarks', 'true'], ['fieldSelector', selector], ['resourceVersion', resourceVersion], ['timeoutSeconds', String(timeoutSeconds)], ['watch', 'true']]),
    }),
  };
}

/** `deployment.apps/nginx`, `pod/user-service`: how kubectl names an object in its messages. */
function objectRef(r: ResourceInfo, name: string): string {
  return `${r.singular}${r.group === '' ? '' : `.${r.group}`}/${name}`;
}

/** `deployment.apps "nginx"` as in `deployment.apps "nginx" deleted`. */
function quotedRef(r: ResourceInfo, name: string): string {
  return `${r.singular}${r.group === '' ? '' : `.${r.group}`} "${name}"`;
}

/** kubectl's StandardErrorMessage for a Status answer. */
export function errorFromServer(response: HttpResponse, context = ''): string {
  const status = response.body as Partial<Status> | string;
  if (typeof status === 'string') return `Error from server: ${context}${status}`;
  const reason = status.reason ?? '';
  return reason === '' ? `Error from server: ${context}${status.message ?? ''}` : `Error from server (${reason}): ${context}${status.message ?? ''}`;
}

function* send(req: HttpRequest, call: 'request' | 'watch' = 'request'): Generator<KubectlCall, HttpResponse, KubectlInput> {
  const input = yield { call, request: req };
  if (input.type !== 'response') throw new Error(`kubectl expected a response to ${req.method} ${req.path}, got ${input.type}`);
  return input.response;
}

function resolve(typed: string): ResourceInfo | string {
  return findResource(typed) ?? `error: the server doesn't have a resource type "${typed}"`;
}

/** `kubectl create -f <file>`: validates every document first, then POSTs each object in turn. */
export function* create(yaml: string, file: string): KubectlCommand {
  const manifest = parseManifest(yaml, file);
  if (manifest.errors.length > 0) return { output: manifest.errors.map((e) => `error: ${e.message}`), ok: false };
  if (manifest.objects.length === 0) return { output: ['error: no objects passed to create'], ok: false };
  const output: string[] = [];
  let ok = true;
  for (const { object, resource } of manifest.objects) {
    const ns = object.metadata.namespace ?? namespace;
    const response = yield* send(kubectlHttpRequest(createRequest(resource, resource.namespaced ? ns : null, object)));
    if (response.status === 201) {
      output.push(`${objectRef(resource, object.metadata.name ?? '')} created`);
    } else {
      ok = false;
      output.push(errorFromServer(response, `error when creating "${file}": `));
    }
  }
  return { output, ok };
}

/** `kubectl scale <resource>/<name> --replicas=N`: GET the object, then a merge patch of its scale. */
export function* scale(typed: string, name: string, replicas: number): KubectlCommand {
  const r = resolve(typed);
  if (typeof r === 'string') return { output: [r], ok: false };
  const got = yield* send(kubectlHttpRequest(getRequest(r, namespace, name)));
  if (got.status !== 200) return { output: [errorFromServer(got)], ok: false };
  const patched = yield* send(kubectlHttpRequest(scaleRequest(r, namespace, name, replicas)));
  if (patched.status !== 200) return { output: [errorFromServer(patched)], ok: false };
  return { output: [`${objectRef(r, name)} scaled`], ok: true };
}

/** `kubectl set image <resource>/<name> <container>=<image>`: GET, then a strategic merge patch. */
export function* setImage(typed: string, name: string, container: string, image: string): KubectlCommand {
  const r = resolve(typed);
  if (typeof r === 'string') return { output: [r], ok: false };
  const got = yield* send(kubectlHttpRequest(getRequest(r, namespace, name, 'application/json, */*')));
  if (got.status !== 200) return { output: [errorFromServer(got)], ok: false };
  const patch = setImageRequest(r, namespace, got.body as { kind?: string; spec?: PodSpec }, [[container, image]]);
  if (patch === null) return { output: [], ok: true };
  if ('missing' in patch) return { output: [`error: unable to find container named "${patch.missing}"`], ok: false };
  const patched = yield* send(kubectlHttpRequest(patch));
  if (patched.status !== 200) return { output: [errorFromServer(patched)], ok: false };
  return { output: [`${objectRef(r, name)} image updated`], ok: true };
}

/**
 * `kubectl delete <resource> <name> [--cascade=…]`: the DELETE, then (as `--wait=true`) a GET; if the
 * object is still there (graceful deletion, finalizers) kubectl's wait runs a reflector on its name: a
 * list, then a watch (with the reflector's random timeout, drawn by the caller) until DELETED.
 */
export function* deleteObject(typed: string, name: string, propagationPolicy: PropagationPolicy = 'Background', watchTimeoutSeconds = 300): KubectlCommand {
  const r = resolve(typed);
  if (typeof r === 'string') return { output: [r], ok: false };
  const deleted = yield* send(kubectlHttpRequest(deleteRequest(r, namespace, name, propagationPolicy)));
  if (deleted.status !== 200 && deleted.status !== 202) return { output: [errorFromServer(deleted)], ok: false };
  const output = [`${quotedRef(r, name)} deleted`];
  const got = yield* send(kubectlHttpRequest(getRequest(r, namespace, name)));
  if (got.status === 404) return { output, ok: true };
  const wait = deleteWaitRequests(r, namespace, name);
  const list = yield* send(kubectlHttpRequest(wait.list));
  const listed = list.body as List<KubeObject>;
  if (list.status !== 200 || listed.items.length === 0) return { output, ok: list.status === 200 };
  const opened = yield* send(kubectlHttpRequest(wait.watch(listed.metadata.resourceVersion ?? '', watchTimeoutSeconds)), 'watch');
  if (opened.status !== 200) return { output: [...output, errorFromServer(opened)], ok: false };
  for (;;) {
    const input = yield { call: 'next' };
    if (input.type === 'end' || (input.type === 'event' && input.event.type === 'DELETED')) return { output, ok: true };
  }
}

/** `kubectl get pods -l <selector> -o name`, then `kubectl delete pod <first>`. */
export function* deleteOnePod(labelSelector: string, watchTimeoutSeconds = 300): KubectlCommand {
  const pods = findResource('pods')!;
  const list = yield* send(request('GET', collectionPath(pods), formatQuery([['labelSelector', labelSelector], ['limit', '500']]), 'application/json'));
  if (list.status !== 200) return { output: [errorFromServer(list)], ok: false };
  const names = (list.body as List<KubeObject>).items.map((p) => p.metadata.name ?? '');
  const first = names[0];
  if (first === undefined) return { output: [`No resources found in ${namespace} namespace.`], ok: true };
  const result = yield* deleteObject('pods', first, 'Background', watchTimeoutSeconds);
  return { output: [...names.map((n) => `pod/${n}`), ...result.output], ok: result.ok };
}
