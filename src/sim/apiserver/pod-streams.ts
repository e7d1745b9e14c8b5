// The pod subresources that kube-apiserver does not store but passes on to the pod's kubelet: `log`,
// `exec`, `attach` and `portforward`. The apiserver reads the pod, checks the options and the container,
// then sends the request to the kubelet of the pod's node (`/containerLogs/{ns}/{pod}/{container}`,
// `/exec/…`, `/attach/…`, `/portForward/{ns}/{pod}`) and relays its answer: a body, or a stream.
// A kubelet error (its plain-text 400) becomes a Status whose message is the kubelet's text.
// Models pkg/registry/core/pod/rest/log.go (LogREST), pkg/registry/core/pod/rest/subresources.go
// (ExecREST, AttachREST, PortForwardREST), pkg/registry/core/pod/strategy.go (LogLocation,
// ExecLocation, streamLocation, validateContainer) and k8s.io/apiserver/pkg/registry/generic/rest
// (LocationStreamer, GenericHttpResponseChecker; UpgradeAwareHandler's "Upgrade request required").
//
// Not modelled: the kubelet's TLS and the apiserver's kubelet client certificates; proxying the raw
// upgraded connection (the kubelet answers an exec at once with its output and Status; each chunk of a
// port-forward's connection is one request through the apiserver, `ports` naming its port).

import { newBadRequest, newInternalError, StatusError } from '../api/errors.ts';
import { formatQuery } from '../go/url.ts';
import type { Pod } from '../api/types/core.ts';
import type { Co } from '../engine/index.ts';
import type { HandlerRequest } from './handlers/rest.ts';
import type { HttpRequest, HttpResponse } from '../wire/http.ts';

export const podStreamSubresources: ReadonlySet<string> = new Set(['log', 'exec', 'attach', 'portforward']);

/** How the apiserver reaches a node's kubelet. */
export interface KubeletConnection {
  /** Sends `request` to the kubelet of `node` and waits for its answer (the first message of a stream). */
  call(node: string, request: HttpRequest): Co<{ readonly response: HttpResponse; readonly requestId: number } | { readonly error: string }>;
}

/** The kubelet's answer to relay: a plain response, or a stream whose later messages come under `kubeletRequestId`. */
export type PodStreamAnswer =
  | { readonly response: HttpResponse }
  | { readonly stream: HttpResponse; readonly kubeletRequestId: number; readonly node: string };

// Models pkg/registry/core/pod/strategy.go validateContainer.
function validateContainer(container: string, pod: Pod): string {
  const name = pod.metadata.name ?? '';
  const names = pod.spec.containers.map((c) => c.name);
  if (container === '') {
    if (names.length === 1) return names[0]!;
    if (names.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
    throw newBadRequest(`a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`);
  }
  if (!names.includes(container) && !(pod.spec.initContainers ?? []).some((c) => c.name === container)) {
    throw newBadRequest(`container ${container} is not valid for pod ${name}`);
  }
  return container;
}

function isUpgradeRequest(http: HttpRequest): boolean {
  return (http.headers.connection ?? '').toLowerCase().split(',').some((t) => t.trim() === 'upgrade') && (http.headers.upgrade ?? '') !== '';
}

const streamParams: Readonly<Record<string, string>> = { stdin: 'input', stdout: 'output', stderr: 'error', tty: 'tty' };

/** pods/log, pods/exec, pods/attach, pods/portforward. */
export function* handlePodStream(h: HandlerRequest, kubelet: KubeletConnection): Co<PodStreamAnswer> {
  const { route, store, ctx, query, http } = h;
  const sub = route.subresource!.name;
  const pod = (yield* store.get(ctx, route.info.name, '')) as Pod;
  const name = pod.metadata.name ?? '';
  const namespace = pod.metadata.namespace ?? '';
  const node = pod.spec.nodeName ?? '';
  const enc = encodeURIComponent;
  let path: string;
  let params: [string, string][] = [];
  let method: HttpRequest['method'] = 'POST';
  if (sub === 'log') {
    const container = validateContainer(query.get('container') ?? '', pod);
    for (const key of ['follow', 'previous', 'timestamps', 'tailLines', 'sinceSeconds', 'limitBytes']) {
      const v = query.get(key);
      if (v === undefined || v === '') continue;
      if (['tailLines', 'sinceSeconds', 'limitBytes'].includes(key)) {
        const n = Number(v);
        if (!Number.isInteger(n)) throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
        if (n < (key === 'tailLines' ? 0 : 1)) {
          throw new StatusError({
            kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Invalid', code: 422,
            message: `PodLogOptions "${name}" is invalid: ${key}: Invalid value: ${n}: must be greater than ${key === 'tailLines' ? 'or equal to 0' : '0'}`,
            details: { name, kind: 'PodLogOptions', causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${n}: must be greater than ${key === 'tailLines' ? 'or equal to 0' : '0'}`, field: key }] },
          });
        }
      }
      params.push([key, v]);
    }
    // LocationStreamer: a pod with no node yet has no log (an empty 200).
    if (node === '') return { response: { status: 200, headers: { 'content-type': 'text/plain' }, body: '' } };
    path = `/containerLogs/${enc(namespace)}/${enc(name)}/${enc(container)}`;
    method = 'GET';
  } else if (sub === 'portforward') {
    if (!isUpgradeRequest(http)) throw newBadRequest('Upgrade request required');
    if (node === '') throw newBadRequest(`pod ${name} does not have a host assigned`);
    path = `/portForward/${enc(namespace)}/${enc(name)}`;
    const port = query.get('ports');
    if (port !== undefined) params.push(['port', port]);
  } else {
    const container = validateContainer(query.get('container') ?? '', pod);
    const command = sub === 'exec' ? allValues(http.query, 'command') : [];
    if (sub === 'exec' && command.length === 0) throw newBadRequest('you must specify at least 1 command');
    if (!isUpgradeRequest(http)) throw newBadRequest('Upgrade request required');
    if (node === '') throw newBadRequest(`pod ${name} does not have a host assigned`);
    path = `/${sub}/${enc(namespace)}/${enc(name)}/${enc(container)}`;
    params = command.map((c) => ['command', c]);
    for (const [option, param] of Object.entries(streamParams)) if (query.get(option) === 'true' || query.get(option) === '1') params.push([param, '1']);
  }
  // An exec's stdin (collected by the front before the request enters the simulation) and the bytes a
  // port-forward carries to its port travel with it; the kubelet tells a WebSocket port-forward by its upgrade.
  const body = (sub === 'exec' || sub === 'portforward') && typeof http.body === 'string' ? { body: http.body } : {};
  const headers: Record<string, string> = { 'user-agent': 'kube-apiserver' };
  if (sub === 'portforward' && http.headers.upgrade !== undefined) headers.upgrade = http.headers.upgrade;
  const request: HttpRequest = { method, path, query: formatQuery(params), headers, ...body };
  const answer = yield* kubelet.call(node, request);
  if ('error' in answer) {
    // ErrorToAPIStatus of a plain Go error: 500 with no reason, the error's text as the message.
    throw new StatusError({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
      message: `${method === 'GET' ? 'Get' : 'Post'} "https://${pod.status?.hostIP ?? node}:10250${path}${request.query ? `?${request.query}` : ''}": ${answer.error}`,
    });
  }
  const { response, requestId } = answer;
  if (response.status >= 200 && response.status < 300) {
    return response.stream ? { stream: response, kubeletRequestId: requestId, node } : { response };
  }
  // An upgrade (exec, attach, port-forward) goes through the upgrade-aware proxy, which writes a backend answer
  // other than 101 to the client as it is: the kubelet's `404 container not found ("nginx")`.
  // Models k8s.io/apimachinery/pkg/util/proxy/upgradeaware.go (tryUpgrade).
  if (sub !== 'log') return { response };
  // Models k8s.io/apiserver/pkg/registry/generic/rest/response_checker.go GenericHttpResponseChecker.Check.
  const bodyText = typeof response.body === 'string' ? response.body : '';
  if (response.status === 400) throw newBadRequest(bodyText);
  if (response.status === 500) throw newInternalError(bodyText);
  throw new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: response.status, reason: response.status === 404 ? 'NotFound' : '',
    message: `the server could not find the requested resource ( pods/${sub} ${name})`,
    details: { name, kind: `pods/${sub}` },
  });
}

function allValues(query: string, key: string): string[] {
  const out: string[] = [];
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    if (decode(k) === key) out.push(decode(eq < 0 ? '' : part.slice(eq + 1)));
  }
  return out;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
