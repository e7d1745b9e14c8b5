// kubectl's HTTP client inside the simulation: every request is an `http.request` the user component
// sends to kube-apiserver (so it animates like any other), answered by one `http.response` (and, for a
// watch, `http.watchEvent`s). Verbosity lines are klog lines as client-go prints them.
// Models k8s.io/client-go/transport/round_trippers.go (debugging round tripper: -v=6 one line per
// request with status and latency; -v=7 the request line and headers; -v=8 response headers) and
// rest/request.go (-v=8 request and response bodies, truncated to 1024 characters).

import { builtinTokens } from '../../sim/apiserver/filters/authentication.ts';
import { httpKinds, type HttpMethod, type HttpRequest, type HttpResponse, type HttpWatchEnd, type HttpWatchEvent } from '../../sim/apiserver/http.ts';
import { awaitReply, type Co, type Engine, type Message } from '../../sim/engine/index.ts';
import type { User } from '../../sim/user/user.ts';
import { statusText } from './kubectl-print.ts';

export const apiserverComponent = 'kube-apiserver';
/** The apiserver URL in log lines (the simulation has no sockets; kubeadm's default address). */
export const serverURL = 'https://127.0.0.1:6443';
export const kubectlUserAgent = 'kubectl/v1.28.15 (linux/amd64) kubernetes/841856557ef';
export const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const pid = 12345;
const bodyLogLimit = 1024;

/** What a running command may do: send as the user, print, log. */
export interface CommandIO {
  readonly engine: Engine;
  readonly user: User;
  readonly stdin: string;
  readonly verbosity: number;
  /** `--as`: impersonate this user (the admin's credentials do the impersonating). */
  readonly impersonate?: string;
  out(text: string): void;
  err(text: string): void;
  /** A kubectl request line for the logs panel (always recorded, whatever the verbosity). */
  requestLog(line: string, method: string, path: string): void;
  /** True once the user pressed Ctrl-C. */
  readonly interrupted: boolean;
  /** Called with the id of a watch request so an interrupt can cancel it. */
  watching(requestId: number | null): void;
}

/** `I1122 04:51:19.123456   12345 file:line] text` with the engine's wall clock. */
export function klogLine(io: CommandIO, where: string, text: string): string {
  const iso = new Date(io.engine.epochMs + io.engine.now).toISOString();
  const micros = String(Math.floor((io.engine.now * 1000) % 1_000_000)).padStart(6, '0');
  const stamp = `${iso.slice(5, 7)}${iso.slice(8, 10)} ${iso.slice(11, 19)}.${micros}`;
  return `I${stamp} ${String(pid).padStart(7)} ${where}] ${text}\n`;
}

export interface RequestSpec {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query?: string;
  readonly accept: string;
  readonly contentType?: string;
  readonly body?: string;
  /** Further request headers (an exec's `connection: Upgrade`). */
  readonly upgrade?: Readonly<Record<string, string>>;
}

function truncated(body: string): string {
  return body.length > bodyLogLimit ? `${body.slice(0, bodyLogLimit)} [truncated ${body.length - bodyLogLimit} chars]` : body;
}

function headersOf(io: CommandIO, spec: RequestSpec): Record<string, string> {
  return {
    accept: spec.accept,
    authorization: `Bearer ${builtinTokens.admin}`,
    ...(spec.contentType ? { 'content-type': spec.contentType } : {}),
    ...(io.impersonate !== undefined ? { 'impersonate-user': io.impersonate } : {}),
    'user-agent': kubectlUserAgent,
    ...spec.upgrade,
  };
}

function titleCase(header: string): string {
  return header.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('-');
}

/** Sends one request and waits for its response (for a watch: the response that opens the stream). */
export function* send(io: CommandIO, spec: RequestSpec): Co<{ readonly response: HttpResponse; readonly requestId: number }> {
  const url = `${serverURL}${spec.path}${spec.query ? `?${spec.query}` : ''}`;
  const headers = headersOf(io, spec);
  if (io.verbosity >= 8 && spec.body !== undefined) io.err(klogLine(io, 'request.go:1212', `Request Body: ${truncated(spec.body)}`));
  if (io.verbosity >= 7) {
    io.err(klogLine(io, 'round_trippers.go:463', `${spec.method} ${url}`));
    io.err(klogLine(io, 'round_trippers.go:469', 'Request Headers:'));
    for (const [name, value] of Object.entries(headers)) {
      if (name === 'authorization') continue;
      io.err(klogLine(io, 'round_trippers.go:473', `    ${titleCase(name)}: ${value}`));
    }
  }
  const request: HttpRequest = { method: spec.method, path: spec.path, query: spec.query ?? '', headers, ...(spec.body !== undefined ? { body: spec.body } : {}) };
  const sentAt = io.engine.now;
  const message = io.user.request(apiserverComponent, httpKinds.request, request);
  const reply = (yield* awaitReply<HttpResponse>(message.id)) as Message<HttpResponse>;
  const response = reply.payload;
  const ms = Math.floor(io.engine.now - sentAt);
  const line6 = klogLine(io, 'round_trippers.go:553', `${spec.method} ${url} ${statusText(response.status)} in ${ms} milliseconds`);
  io.requestLog(line6, spec.method, spec.path);
  if (io.verbosity === 6) io.err(line6);
  if (io.verbosity >= 7) io.err(klogLine(io, 'round_trippers.go:574', `Response Status: ${statusText(response.status)} in ${ms} milliseconds`));
  if (io.verbosity >= 8) {
    io.err(klogLine(io, 'round_trippers.go:577', 'Response Headers:'));
    for (const [name, value] of Object.entries(response.headers)) io.err(klogLine(io, 'round_trippers.go:580', `    ${titleCase(name)}: ${value}`));
    if (!response.stream) io.err(klogLine(io, 'request.go:1212', `Response Body: ${truncated(typeof response.body === 'string' ? response.body : JSON.stringify(response.body))}`));
  }
  return { response, requestId: message.id };
}

/** The next message of an open watch: an event, or the end of the stream. */
export function* nextWatchMessage(requestId: number): Co<{ event: HttpWatchEvent } | { end: HttpWatchEnd }> {
  const reply = (yield* awaitReply<HttpWatchEvent | HttpWatchEnd>(requestId)) as Message<HttpWatchEvent | HttpWatchEnd>;
  if (reply.kind === httpKinds.watchEvent) return { event: reply.payload as HttpWatchEvent };
  return { end: reply.kind === httpKinds.watchEnd ? (reply.payload as HttpWatchEnd) : { reason: 'error' } };
}

/** Ends a watch from the client side (Ctrl-C). */
export function cancelWatch(io: Pick<CommandIO, 'user'>, requestId: number): void {
  io.user.request(apiserverComponent, httpKinds.cancel, { requestId });
}
