// The kubectl commands a scenario runs, as the requests real kubectl 1.28 sends and the lines it prints
// (reference/kubectl-wire.md §3.5, 3.8–3.10). Each command is a coroutine over HTTP: it yields a request,
// the runner sends it as the user and resumes it with the answer, so a command that needs an answer
// before its next request (set image reads the object first; delete waits for the object to go) unfolds
// over several engine steps like the real client.
//
// Deviations: kubectl's discovery and openapi requests are left out (as with a warm cache; the model
// serves no /openapi/v3); `delete` waits for the object to go with one watch, and stops waiting when
// that watch ends (kubectl would watch again, for up to 168 h).
// Models k8s.io/kubectl/pkg/cmd/{create,scale,set/set_image,delete}.go and cmd/util/helpers.go
// (StandardErrorMessage).

import { builtinTokens } from '../apiserver/filters/authentication.ts';
import type { HttpRequest, HttpResponse, HttpWatchEvent } from '../apiserver/http.ts';
import { formatQuery } from '../apiserver/http.ts';
import { parseManifest } from '../api/manifest.ts';
import { findResource, type ResourceInfo } from '../api/resources.ts';
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

function request(method: HttpRequest['method'], path: string, query: string, accept: string, body?: object, contentType = 'application/json'): HttpRequest {
  return {
    method, path, query,
    headers: {
      authorization: `Bearer ${builtinTokens.admin}`,
      accept,
      'user-agent': kubectlUserAgent,
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  };
}

function collectionPath(r: ResourceInfo, ns = namespace): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return r.namespaced ? `${base}/namespaces/${ns}/${r.resource}` : `${base}/${r.resource}`;
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
  const output: string[] = [];
  let ok = true;
  for (const { object, resource } of manifest.objects) {
    const ns = object.metadata.namespace ?? namespace;
    const body = resource.namespaced ? { ...object, metadata: { ...object.metadata, namespace: ns } } : object;
    const response = yield* send(request('POST', collectionPath(resource, ns), 'fieldManager=kubectl-create&fieldValidation=Strict', 'application/json', body));
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
  const path = `${collectionPath(r)}/${name}`;
  const got = yield* send(request('GET', path, '', 'application/json'));
  if (got.status !== 200) return { output: [errorFromServer(got)], ok: false };
  const patched = yield* send(request('PATCH', `${path}/scale`, '', 'application/json, */*', { spec: { replicas } }, 'application/merge-patch+json'));
  if (patched.status !== 200) return { output: [errorFromServer(patched)], ok: false };
  return { output: [`${objectRef(r, name)} scaled`], ok: true };
}

/** `kubectl set image <resource>/<name> <container>=<image>`: GET, then a strategic merge patch. */
export function* setImage(typed: string, name: string, container: string, image: string): KubectlCommand {
  const r = resolve(typed);
  if (typeof r === 'string') return { output: [r], ok: false };
  const path = `${collectionPath(r)}/${name}`;
  const got = yield* send(request('GET', path, '', 'application/json, */*'));
  if (got.status !== 200) return { output: [errorFromServer(got)], ok: false };
  const spec = (got.body as { spec?: { template?: { spec?: PodSpec } } }).spec?.template?.spec;
  const containers = spec?.containers ?? [];
  const target = containers.find((c) => c.name === container);
  if (!target) return { output: [`error: unable to find container named "${container}"`], ok: false };
  if (target.image === image) return { output: [], ok: true };
  const patch = {
    spec: { template: { spec: { '$setElementOrder/containers': containers.map((c) => ({ name: c.name })), containers: [{ image, name: container }] } } },
  };
  const patched = yield* send(request('PATCH', path, 'fieldManager=kubectl-set', 'application/json, */*', patch, 'application/strategic-merge-patch+json'));
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
  const path = `${collectionPath(r)}/${name}`;
  const deleted = yield* send(request('DELETE', path, '', 'application/json', { propagationPolicy }));
  if (deleted.status !== 200 && deleted.status !== 202) return { output: [errorFromServer(deleted)], ok: false };
  const output = [`${quotedRef(r, name)} deleted`];
  const got = yield* send(request('GET', path, '', 'application/json'));
  if (got.status === 404) return { output, ok: true };
  const selector = `metadata.name=${name}`;
  const list = yield* send(request('GET', collectionPath(r), formatQuery([['fieldSelector', selector], ['limit', '500'], ['resourceVersion', '0']]), 'application/json'));
  const listed = list.body as List<KubeObject>;
  if (list.status !== 200 || listed.items.length === 0) return { output, ok: list.status === 200 };
  const watchQuery = formatQuery([
    ['allowWatchBookmarks', 'true'], ['fieldSelector', selector], ['resourceVersion', listed.metadata.resourceVersion ?? ''],
    ['timeoutSeconds', String(watchTimeoutSeconds)], ['watch', 'true'],
  ]);
  const opened = yield* send(request('GET', collectionPath(r), watchQuery, 'application/json'), 'watch');
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
