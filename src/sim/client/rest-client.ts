// A typed REST client for one component: get/list/create/update/patch/delete/watch on any served
// resource, each a coroutine of the hosting component that sends one `http.request` to kube-apiserver
// and returns the decoded object, or throws the StatusError the Status body describes.
// Models k8s.io/client-go/rest/request.go (URL building, transformResponse, newUnstructuredResponseError),
// rest/config.go (DefaultKubernetesUserAgent) and the typed clientsets' paths and parameter encoding
// (k8s.io/apimachinery/pkg/runtime/parameter_codec.go: only non-zero ListOptions fields are sent).
//
// Not modelled: protobuf (kube-controller-manager and the scheduler negotiate
// `application/vnd.kubernetes.protobuf`; here every request speaks JSON), client-side QPS limiting
// (the flowcontrol token bucket) and request timeouts.

import { newGenericServerResponse, StatusError } from '../api/errors.ts';
import { collectionPath, lookupResource, type ResourceInfo } from '../api/resources.ts';
import type { KubeObject, List, Status } from '../api/types/meta.ts';
import type { Co } from '../engine/index.ts';
import { httpKinds, type HttpMethod, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import { formatQuery } from '../go/url.ts';
import type { ClientHost, WatchSink } from './client-component.ts';

/** The kube-apiserver component every client talks to. */
export const apiserverName = 'kube-apiserver';

/** The release this client models (client-go v0.28.15) and its git commit, as in the user agent. */
export const clientVersion = { gitVersion: 'v1.28.15', gitCommit: '841856557ef0f6a399096c42635d114d6f2cf7f4' } as const;

/** `kube-scheduler/v1.28.15 (linux/amd64) kubernetes/8418565` (rest.DefaultKubernetesUserAgent). */
export function defaultUserAgent(command: string): string {
  return `${command}/${clientVersion.gitVersion} (linux/amd64) kubernetes/${clientVersion.gitCommit.slice(0, 7)}`;
}

/** rest.Request's default maxRetries. */
const maxRetries = 10;

/** checkWait: the seconds to wait before sending again, or null when the response is final. */
function retryAfterSeconds(response: HttpResponse): number | null {
  if (response.status !== 429 && response.status < 500) return null;
  const header = response.headers['retry-after'];
  if (header === undefined || !/^\d+$/.test(header)) return null;
  return Number(header);
}

/** metav1.ListOptions as a client sets them; unset and zero fields are not sent. */
export interface ListOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  readonly limit?: number;
  readonly continue?: string;
  readonly timeoutSeconds?: number;
  readonly allowWatchBookmarks?: boolean;
}

export type PatchType = 'application/strategic-merge-patch+json' | 'application/merge-patch+json' | 'application/json-patch+json';

export interface WriteOptions {
  /** `status`, `scale`, `binding`… */
  readonly subresource?: string;
  readonly fieldManager?: string;
}

export interface DeleteOptions {
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
}

/** An open watch: `stop` sends `http.cancel` and drops whatever the server still sends. */
export interface Watch {
  readonly requestId: number;
  stop(): void;
}

/** ListOptions in client-go's order of fields, encoded as url.Values.Encode would. */
export function encodeListOptions(options: ListOptions, watch = false): string {
  const params: [string, string][] = [];
  if (options.labelSelector) params.push(['labelSelector', options.labelSelector]);
  if (options.fieldSelector) params.push(['fieldSelector', options.fieldSelector]);
  if (watch) params.push(['watch', 'true']);
  if (options.allowWatchBookmarks) params.push(['allowWatchBookmarks', 'true']);
  if (options.resourceVersion) params.push(['resourceVersion', options.resourceVersion]);
  if (options.resourceVersionMatch) params.push(['resourceVersionMatch', options.resourceVersionMatch]);
  if (options.timeoutSeconds) params.push(['timeoutSeconds', String(options.timeoutSeconds)]);
  if (options.limit) params.push(['limit', String(options.limit)]);
  if (options.continue) params.push(['continue', options.continue]);
  return formatQuery(params);
}

/** The error a non-2xx response stands for: its Status, or a generic one when the body is not a Status. */
export function errorFromResponse(response: HttpResponse): StatusError {
  const body = response.body as Partial<Status> | null;
  if (body && typeof body === 'object' && body.kind === 'Status') {
    const status = { ...(body as Status) };
    if (status.code === undefined || status.code === 0) status.code = response.status;
    return new StatusError(status);
  }
  return newGenericServerResponse(response.status, typeof response.body === 'string' ? response.body : '');
}

/** A client for every resource, authenticated with one bearer token. */
export class RestClient {
  readonly userAgent: string;

  constructor(readonly host: ClientHost, readonly token: string, userAgent?: string) {
    this.userAgent = userAgent ?? defaultUserAgent(host.name);
  }

  /** The client of `resource` in `group` (`''` for the core group); throws on a resource nobody serves. */
  resource<T extends KubeObject>(resource: string, group = ''): ResourceClient<T> {
    const info = lookupResource(group, resource);
    if (!info) throw new Error(`no served resource ${resource} in group "${group}"`);
    return new ResourceClient<T>(this, info);
  }

  /**
   * Sends one request and returns the raw response (no error mapping). A 429 or 5xx carrying a whole
   * number of seconds in Retry-After (max-in-flight's `Retry-After: 1`) is sent again after that wait,
   * up to ten times, whatever the verb: the server did not act on it.
   */
  // Models k8s.io/client-go/rest/request.go (request with retry.IsNextRetry) and rest/with_retry.go checkWait.
  *request(method: HttpMethod, path: string, query: string, body?: object, contentType = 'application/json'): Co<HttpResponse> {
    for (let retries = 0; ; retries++) {
      const response = (yield* this.host.call(apiserverName, httpKinds.request, this.httpRequest(method, path, query, body, contentType))).payload;
      const wait = retryAfterSeconds(response);
      if (wait === null || retries >= maxRetries) return response;
      yield* this.host.sleep(wait * 1000, { reason: 'retry-after' });
    }
  }

  httpRequest(method: HttpMethod, path: string, query: string, body?: object, contentType = 'application/json'): HttpRequest {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.userAgent,
      authorization: `Bearer ${this.token}`,
    };
    if (body !== undefined) headers['content-type'] = contentType;
    return body === undefined ? { method, path, query, headers } : { method, path, query, headers, body };
  }
}

/** Typed verbs on one resource. Namespaced resources take a namespace; cluster-scoped ones ignore it. */
export class ResourceClient<T extends KubeObject> {
  constructor(readonly client: RestClient, readonly info: ResourceInfo) {}

  /** `/api/v1/namespaces/default/pods[/name[/sub]]`; no namespace segment for all namespaces or cluster scope. */
  path(namespace: string | undefined, name?: string, subresource?: string): string {
    const tail = name === undefined ? '' : `/${name}${subresource ? `/${subresource}` : ''}`;
    return `${collectionPath(this.info, namespace || null)}${tail}`;
  }

  *get(namespace: string | undefined, name: string, options: { resourceVersion?: string } = {}): Co<T> {
    const query = options.resourceVersion ? formatQuery([['resourceVersion', options.resourceVersion]]) : '';
    return (yield* this.expect('GET', this.path(namespace, name), query)) as T;
  }

  *list(namespace: string | undefined, options: ListOptions = {}): Co<List<T>> {
    return (yield* this.expect('GET', this.path(namespace), encodeListOptions(options))) as List<T>;
  }

  *create(namespace: string | undefined, object: T, options: WriteOptions = {}): Co<T> {
    const path = options.subresource === undefined
      ? this.path(namespace)
      : this.path(namespace, object.metadata.name ?? '', options.subresource);
    return (yield* this.expect('POST', path, writeQuery(options), object)) as T;
  }

  *update(object: T, options: WriteOptions = {}): Co<T> {
    const path = this.path(object.metadata.namespace, object.metadata.name ?? '', options.subresource);
    return (yield* this.expect('PUT', path, writeQuery(options), object)) as T;
  }

  *patch(namespace: string | undefined, name: string, patchType: PatchType, patch: object, options: WriteOptions = {}): Co<T> {
    return (yield* this.expect('PATCH', this.path(namespace, name, options.subresource), writeQuery(options), patch, patchType)) as T;
  }

  /** Returns what the server answers: the object (graceful or foreground deletion) or a Success Status. */
  *delete(namespace: string | undefined, name: string, options?: DeleteOptions): Co<T | Status> {
    const body = options === undefined ? undefined : { kind: 'DeleteOptions', apiVersion: 'v1', ...options };
    return (yield* this.expect('DELETE', this.path(namespace, name), '', body)) as T | Status;
  }

  /**
   * Opens a watch (`?watch=true`): waits for the first response, then routes the stream to `sink`.
   * Throws the StatusError of a non-2xx answer, or a 500 if the server answered without a stream.
   */
  *watch(namespace: string | undefined, options: ListOptions, sink: WatchSink): Co<Watch> {
    const { host } = this.client;
    const request = this.client.httpRequest('GET', this.path(namespace), encodeListOptions(options, true));
    const reply = yield* host.call(apiserverName, httpKinds.request, request);
    const response = reply.payload;
    if (response.status < 200 || response.status > 299) throw errorFromResponse(response);
    if (!response.stream) throw newGenericServerResponse(500, 'watch answered without a stream');
    const requestId = reply.replyTo!;
    host.openWatch(requestId, sink);
    return {
      requestId,
      stop: () => {
        host.closeWatch(requestId);
        host.send(apiserverName, httpKinds.cancel, { requestId });
      },
    };
  }

  private *expect(method: HttpMethod, path: string, query: string, body?: object, contentType?: string): Co<unknown> {
    const response = yield* this.client.request(method, path, query, body, contentType);
    if (response.status < 200 || response.status > 299) throw errorFromResponse(response);
    return response.body;
  }
}

function writeQuery(options: WriteOptions): string {
  return options.fieldManager ? formatQuery([['fieldManager', options.fieldManager]]) : '';
}
