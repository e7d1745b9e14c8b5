// kubectl's HTTP client inside the simulation: every request is an `http.request` the user component
// sends to kube-apiserver (so it animates like any other), answered by one `http.response` (and, for a
// watch, `http.watchEvent`s). Verbosity lines are klog lines as client-go prints them.
// Models k8s.io/client-go/transport/round_trippers.go (DebugWrappers and the debugging round tripper:
// -v=6 one line per request with status and latency; -v=7 the request line and headers, Authorization
// masked, and the response status; -v=8 response headers too; -v=9 and up the request as a curl command,
// the latency line, HTTP statistics and the response headers) and rest/request.go (glogBody: -v=8 request
// and response bodies, truncated to 1024 characters below -v=10). Line numbers are client-go v0.28's.
// Deviation: the simulation has no TLS or DNS; the first request of a command dials (`HTTP Trace: Dial`),
// later ones reuse the connection, and the statistics' DNS, dial and TLS times are 0 ms.

import { kubectlHeaders, tableAccept, type KubectlRequestSpec } from '../../sim/scenarios/kubectl.ts';
import { httpKinds, type HttpRequest, type HttpResponse, type HttpWatchEnd, type HttpWatchEvent } from '../../sim/wire/http.ts';
import { awaitReply, type Co, type Engine, type Message } from '../../sim/engine/index.ts';
import type { User } from '../../sim/user/user.ts';
import { statusText } from './kubectl-print.ts';

export const apiserverComponent = 'kube-apiserver';
/** The apiserver URL in log lines (the simulation has no sockets; kubeadm's default address). */
export const serverURL = 'https://127.0.0.1:6443';
export { tableAccept };
const pid = 12345;
const bodyLogLimit = 1024;

/** What a running command may do: send as the user, print, log. */
export interface CommandIO {
  readonly engine: Engine;
  /** Set once the command's first request has opened its connection (for -v=9 dial lines). */
  connected?: boolean;
  /** The server warnings this command has printed (kubectl prints each text once). */
  warned?: Set<string>;
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

/** A request as kubectl builds it (src/sim/scenarios/kubectl.ts, the one model of kubectl's requests). */
export type RequestSpec = KubectlRequestSpec;

/** truncateBody: the whole body at -v=10, 10240 characters at -v=9, 1024 at -v=8. */
function truncated(body: string, verbosity: number): string {
  if (verbosity >= 10) return body;
  const max = verbosity >= 9 ? bodyLogLimit * 10 : bodyLogLimit;
  return body.length > max ? `${body.slice(0, max)} [truncated ${body.length - max} chars]` : body;
}

function headersOf(io: CommandIO, spec: RequestSpec): Record<string, string> {
  return kubectlHeaders(spec, io.impersonate);
}

function titleCase(header: string): string {
  return header.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('-');
}

/** maskValue: credentials in Authorization are never logged. */
function masked(name: string, value: string): string {
  if (name !== 'authorization') return value;
  const type = value.includes(' ') ? value.slice(0, value.indexOf(' ')) : value;
  if (!['bearer', 'basic', 'negotiate'].includes(type.toLowerCase())) return '<masked>';
  return value.length > type.length + 1 ? `${type} <masked>` : type;
}

/** requestInfo.toCurl: `curl -v -XGET  -H "Accept: …" … 'URL'` (Go's %q of each header). */
function curlLine(method: string, url: string, headers: Record<string, string>): string {
  const hs = Object.entries(headers).map(([name, value]) => ` -H ${JSON.stringify(`${titleCase(name)}: ${masked(name, value)}`)}`).join('');
  return `curl -v -X${method} ${hs} '${url}'`;
}

/** Sends one request and waits for its response (for a watch: the response that opens the stream). */
export function* send(io: CommandIO, spec: RequestSpec): Co<{ readonly response: HttpResponse; readonly requestId: number }> {
  const url = `${serverURL}${spec.path}${spec.query ? `?${spec.query}` : ''}`;
  const headers = headersOf(io, spec);
  const v = io.verbosity;
  if (v >= 8 && spec.body !== undefined) io.err(klogLine(io, 'request.go:1212', `Request Body: ${truncated(spec.body, v)}`));
  if (v >= 7 && v < 9) io.err(klogLine(io, 'round_trippers.go:463', `${spec.method} ${url}`));
  if (v >= 9) io.err(klogLine(io, 'round_trippers.go:466', curlLine(spec.method, url, headers)));
  if (v >= 7 && v < 9) {
    io.err(klogLine(io, 'round_trippers.go:469', 'Request Headers:'));
    for (const [name, value] of Object.entries(headers)) io.err(klogLine(io, 'round_trippers.go:473', `    ${titleCase(name)}: ${masked(name, value)}`));
  }
  const reused = io.connected === true;
  io.connected = true;
  if (v >= 9 && !reused) io.err(klogLine(io, 'round_trippers.go:510', `HTTP Trace: Dial to tcp:${serverURL.replace(/^https:\/\//, '')} succeed`));
  const request: HttpRequest = { method: spec.method, path: spec.path, query: spec.query ?? '', headers, ...(spec.body !== undefined ? { body: spec.body } : {}) };
  const sentAt = io.engine.now;
  const message = io.user.request(apiserverComponent, httpKinds.request, request);
  const reply = (yield* awaitReply<HttpResponse>(message.id)) as Message<HttpResponse>;
  const response = reply.payload;
  const ms = Math.floor(io.engine.now - sentAt);
  const line6 = klogLine(io, 'round_trippers.go:553', `${spec.method} ${url} ${statusText(response.status)} in ${ms} milliseconds`);
  io.requestLog(line6, spec.method, spec.path);
  if (v === 6 || v >= 9) io.err(line6);
  if (v >= 9) io.err(klogLine(io, 'round_trippers.go:570', `HTTP Statistics: ${reused ? 'GetConnection 0 ms' : 'DNSLookup 0 ms Dial 0 ms TLSHandshake 0 ms'} ServerProcessing ${ms} ms Duration ${ms} ms`));
  if (v >= 7 && v < 9) io.err(klogLine(io, 'round_trippers.go:574', `Response Status: ${statusText(response.status)} in ${ms} milliseconds`));
  if (v >= 8) {
    io.err(klogLine(io, 'round_trippers.go:577', 'Response Headers:'));
    for (const [name, value] of Object.entries(response.headers)) io.err(klogLine(io, 'round_trippers.go:580', `    ${titleCase(name)}: ${value}`));
    if (!response.stream) {
      const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      io.err(klogLine(io, 'request.go:1212', `Response Body: ${truncated(body, v)}`));
    }
  }
  printWarnings(io, response.headers.warning);
  return { response, requestId: message.id };
}

/**
 * The server's `Warning: 299 - "text"` headers, as kubectl's warning writer prints them to stderr: `Warning: text`,
 * each text once per command (Deduplicate). Models client-go rest/warnings.go (handleWarnings, ParseWarningHeaders
 * for code 299 only, NewWarningWriter) as kubectl sets it up.
 */
function printWarnings(io: CommandIO, header: string | undefined): void {
  if (header === undefined || header === '') return;
  for (const text of warningTexts(header)) {
    io.warned ??= new Set();
    if (io.warned.has(text)) continue;
    io.warned.add(text);
    io.err(`Warning: ${text}\n`);
  }
}

/** The texts of a Warning header's code-299 values (`299 - "text"`, comma-separated; `\"` and `\\` escaped in the text). */
function warningTexts(header: string): string[] {
  const texts: string[] = [];
  for (const match of header.matchAll(/(\d{3}) [^ ]+ "((?:[^"\\]|\\.)*)"(?: "[^"]*")?/g)) {
    if (match[1] === '299') texts.push(match[2]!.replace(/\\(.)/g, '$1'));
  }
  return texts;
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
