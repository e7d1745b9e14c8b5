// The kubelet's server (:10250) as kube-apiserver reaches it for a pod's log, exec, attach and
// port-forward: `GET /containerLogs/{namespace}/{pod}/{container}`, `POST /exec/…/{container}?command=…`,
// `POST /attach/…/{container}`, `POST /portForward/{namespace}/{pod}?port=…`. Requests and answers are
// the simulation's HTTP messages; a stream (log `follow`, exec, attach) is an `http.response` with
// `stream: true`, then `http.streamData` chunks (on the channels of the Kubernetes stream protocol: 1
// stdout, 2 stderr, 3 the exec's Status), then `http.watchEnd`; `http.cancel` ends a stream early.
// Models pkg/kubelet/server/server.go (getContainerLogs, getExec, getAttach, getPortForward) and
// pkg/kubelet/kubelet_pods.go (GetKubeletContainerLogs, validateContainerLogStatus).
//
// Not modelled: the CRI streaming server the real kubelet hands exec/attach/port-forward to (its
// redirect or proxy), TTYs, interactive stdin (an exec's stdin arrives whole, with the request, and the
// command runs to its end on it). A port-forward's bytes arrive as one request per chunk the client sent
// (`POST /portForward/…?port=80` with the chunk as its body); nginx answers HTTP, other servers accept and
// answer nothing; WebSocket port-forward (with ports in the query) is not modelled.

import type { ContainerPort, ContainerStatus, Pod } from '../api/types/core.ts';
import { httpKinds, type HttpCancel, type HttpRequest, type HttpResponse, type HttpWatchEnd } from '../wire/http.ts';
import { parseQuery } from '../go/url.ts';
import type { Message } from '../engine/index.ts';
import type { MessageKind, MessageMap } from '../messages/index.ts';
import type { TimerHandle } from '../client/client-component.ts';
import { formatLine, type ContainerLog, type LogOptions } from './container-log.ts';
import type { ImageServer } from './image-registry.ts';
import { execute } from './programs.ts';
import type { ContainerContext } from './programs/program.ts';
import { nginxHttp } from './programs/servers.ts';

/** A container as the server sees it. */
export interface ServedContainer {
  readonly status: ContainerStatus | null;
  readonly log: ContainerLog;
  readonly previousLog?: ContainerLog;
  readonly running: boolean;
  context(): ContainerContext;
  readonly ports: readonly ContainerPort[];
  readonly server: ImageServer | null;
  readonly podIP: string;
}

export interface KubeletServerHost {
  container(namespace: string, pod: string, container: string): ServedContainer | null;
  pod(namespace: string, pod: string): Pod | null;
  reply<K extends MessageKind>(request: Message, kind: K, payload: MessageMap[K]): void;
  send<K extends MessageKind>(to: string, kind: K, payload: MessageMap[K]): void;
  /** Wall-clock ms now. */
  now(): number;
  after(delay: number, name: string, fire: () => void): TimerHandle;
}

/** Stream protocol channels (k8s.io/apimachinery/pkg/util/remotecommand: v4/v5.channel.k8s.io). */
export const streamChannel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

const textHeaders = { 'content-type': 'text/plain; charset=utf-8' };

function text(status: number, body: string): HttpResponse {
  return { status, headers: textHeaders, body };
}

/** A kubelet answer's error body: `err.Error()`, as go-restful's WriteError writes it. */
function badRequest(message: string): HttpResponse {
  return text(400, message);
}

export class KubeletServer {
  /** Open streams by the id of their request: how to end them. */
  private readonly streams = new Map<number, () => void>();

  constructor(private readonly host: KubeletServerHost) {}

  /** Handles a request to the server (or the cancel of a stream); other messages are not the server's. */
  receive(message: Message): boolean {
    if (message.kind === httpKinds.cancel) {
      const end = this.streams.get((message.payload as HttpCancel).requestId);
      end?.();
      return end !== undefined;
    }
    if (message.kind !== httpKinds.request) return false;
    const request = message as Message<HttpRequest>;
    const http = request.payload;
    const parts = http.path.split('/').filter((p) => p !== '').map(decodeURIComponent);
    const query = parseQuery(http.query);
    const [route, namespace = '', pod = '', container = ''] = parts;
    if (route === 'containerLogs' && parts.length === 4 && http.method === 'GET') this.containerLogs(request, namespace, pod, container, query);
    else if (route === 'exec' && parts.length === 4) this.exec(request, namespace, pod, container);
    else if (route === 'attach' && parts.length === 4) this.attach(request, namespace, pod, container);
    else if (route === 'portForward' && parts.length === 3) this.portForward(request, namespace, pod, query);
    else this.host.reply(request, httpKinds.response, text(404, '404 page not found\n'));
    return true;
  }

  // Models pkg/kubelet/kubelet_pods.go validateContainerLogStatus.
  private logOf(namespace: string, pod: string, container: string, previous: boolean): ContainerLog | string {
    const c = this.host.container(namespace, pod, container);
    const status = c?.status ?? null;
    if (!c || !status) {
      return this.host.pod(namespace, pod) ? `container "${container}" in pod "${pod}" is not available` : `pod "${pod}" not found`;
    }
    const { waiting, running, terminated } = status.state ?? {};
    const last = status.lastState?.terminated;
    if (previous) return last?.containerID && c.previousLog ? c.previousLog : `previous terminated container "${container}" in pod "${pod}" not found`;
    if (running || terminated) return c.log;
    if (last) return c.previousLog ?? c.log;
    if (waiting) {
      if (waiting.reason === 'ErrImagePull') return `container "${container}" in pod "${pod}" is waiting to start: image can't be pulled`;
      if (waiting.reason === 'ImagePullBackOff') return `container "${container}" in pod "${pod}" is waiting to start: trying and failing to pull image`;
      return `container "${container}" in pod "${pod}" is waiting to start: ${waiting.reason ?? ''}`;
    }
    return `container "${container}" in pod "${pod}" is waiting to start - no logs yet`;
  }

  private containerLogs(request: Message<HttpRequest>, namespace: string, pod: string, container: string, query: Map<string, string>): void {
    const int = (name: string) => (query.has(name) ? Number(query.get(name)) : undefined);
    const flag = (name: string) => query.get(name) === 'true' || query.get(name) === '1';
    const options: LogOptions = {
      ...(int('tailLines') !== undefined ? { tailLines: int('tailLines')! } : {}),
      ...(int('sinceSeconds') !== undefined ? { sinceSeconds: int('sinceSeconds')! } : {}),
      ...(int('limitBytes') !== undefined ? { limitBytes: int('limitBytes')! } : {}),
      timestamps: flag('timestamps'),
    };
    const log = this.logOf(namespace, pod, container, flag('previous'));
    if (typeof log === 'string') {
      this.host.reply(request, httpKinds.response, badRequest(log));
      return;
    }
    const body = log.read(options, this.host.now());
    const c = this.host.container(namespace, pod, container);
    if (!flag('follow') || flag('previous') || !c?.running) {
      this.host.reply(request, httpKinds.response, text(200, body));
      return;
    }
    // follow: what is there, then every line as it is written, until the container stops or the client goes.
    this.host.reply(request, httpKinds.response, { status: 200, headers: textHeaders, body: null, stream: true });
    if (body !== '') this.host.reply(request, httpKinds.streamData, { channel: streamChannel.stdout, data: body });
    this.openStream(request, log, options.timestamps ?? false, namespace, pod, container, streamChannel.stdout);
  }

  /** Streams `log`'s new lines to the requester until the container stops running or the stream is cancelled. */
  private openStream(request: Message<HttpRequest>, log: ContainerLog, timestamps: boolean, namespace: string, pod: string, container: string, channel: number): void {
    let timer: TimerHandle | null = null;
    const end = (reason: HttpWatchEnd['reason'] | null) => {
      if (!this.streams.delete(request.id)) return;
      unfollow();
      timer?.cancel();
      if (reason !== null) this.host.reply(request, httpKinds.watchEnd, { reason });
    };
    const unfollow = log.follow((line) => {
      this.host.reply(request, httpKinds.streamData, { channel, data: formatLine(line, timestamps) });
    });
    this.streams.set(request.id, () => end(null));
    // The container's end closes the stream: checked once a second (a background timer).
    const check = () => {
      const c = this.host.container(namespace, pod, container);
      if (!c || !c.running || c.log !== log) {
        end('timeout');
        return;
      }
      timer = this.host.after(1000, 'log-stream', check);
    };
    timer = this.host.after(1000, 'log-stream', check);
  }

  private exec(request: Message<HttpRequest>, namespace: string, pod: string, container: string): void {
    const c = this.host.container(namespace, pod, container);
    if (!c || !c.running) {
      this.host.reply(request, httpKinds.response, text(404, `container not found ("${container}")\n`));
      return;
    }
    const command = parseQueryAll(request.payload.query, 'command');
    const body = request.payload.body;
    const result = execute(command, typeof body === 'string' ? { ...c.context(), stdin: body } : c.context());
    const respond = () => {
      this.host.reply(request, httpKinds.response, { status: 200, headers: {}, body: null, stream: true });
      if (result.stdout !== '') this.host.reply(request, httpKinds.streamData, { channel: streamChannel.stdout, data: result.stdout });
      if (result.stderr !== '') this.host.reply(request, httpKinds.streamData, { channel: streamChannel.stderr, data: result.stderr });
      this.host.reply(request, httpKinds.streamData, { channel: streamChannel.error, data: JSON.stringify(execStatus(command, result.exitCode)) });
      this.host.reply(request, httpKinds.watchEnd, { reason: 'timeout' });
    };
    // A command that sleeps answers when it ends.
    if (result.ms > 0) this.host.after(result.ms, 'exec', respond);
    else respond();
  }

  private attach(request: Message<HttpRequest>, namespace: string, pod: string, container: string): void {
    const c = this.host.container(namespace, pod, container);
    if (!c || !c.running) {
      this.host.reply(request, httpKinds.response, text(404, `container not found ("${container}")\n`));
      return;
    }
    this.host.reply(request, httpKinds.response, { status: 200, headers: {}, body: null, stream: true });
    this.openStream(request, c.log, false, namespace, pod, container, streamChannel.stdout);
  }

  // Models pkg/kubelet/server/server.go getPortForward and pkg/kubelet/cri/streaming/portforward
  // (NewV4Options; httpstream.go's portForward, which writes an error to the port's error stream) with
  // containerd's sandbox_portforward_linux.go (the dial inside the pod's network namespace).
  private portForward(request: Message<HttpRequest>, namespace: string, pod: string, query: Map<string, string>): void {
    const http = request.payload;
    // V4Options: a WebSocket client names its ports in the query; over SPDY each stream names its port.
    if ((http.headers.upgrade ?? '').toLowerCase() === 'websocket' && !query.has('port')) {
      this.host.reply(request, httpKinds.response, badRequest('query parameter "port" is required'));
      return;
    }
    const p = this.host.pod(namespace, pod);
    if (!p) {
      this.host.reply(request, httpKinds.response, text(404, 'pod does not exist'));
      return;
    }
    // The SPDY upgrade itself: the connection is accepted; its streams come later, each as a request with its port.
    if (!query.has('port')) {
      this.host.reply(request, httpKinds.response, { status: 200, headers: {}, body: '' });
      return;
    }
    const portText = query.get('port') ?? '';
    const port = Number(portText);
    if (!/^[0-9]+$/.test(portText) || port > 65535) {
      this.host.reply(request, httpKinds.response, badRequest(`unable to parse "${portText}" as a port: strconv.ParseUint: parsing ${JSON.stringify(portText)}: ${/^[0-9]+$/.test(portText) ? 'value out of range' : 'invalid syntax'}`));
      return;
    }
    if (port < 1) {
      this.host.reply(request, httpKinds.response, badRequest(`port "${portText}" must be > 0`));
      return;
    }
    this.host.reply(request, httpKinds.response, { status: 200, headers: {}, body: null, stream: true });
    const listener = p.spec.containers.map((c) => this.host.container(namespace, pod, c.name)).find((c) => c?.running && c.server?.port === port);
    if (!listener) {
      const sandbox = sandboxID(p.metadata.uid ?? '');
      const refused = (family: string, host: string) => `dial ${family} ${host}:${port}: connect: connection refused`;
      this.host.reply(request, httpKinds.streamData, {
        channel: portForwardChannel.error,
        data: `error forwarding port ${port} to pod ${sandbox}, uid : failed to connect to localhost:${port} inside namespace "${sandbox}", IPv4: ${refused('tcp4', '127.0.0.1')} IPv6 ${refused('tcp6', '[::1]')} `,
      });
      this.host.reply(request, httpKinds.watchEnd, { reason: 'timeout' });
      return;
    }
    const ctx = listener.context();
    const answer = listener.server?.product === 'nginx' && typeof http.body === 'string' ? nginxHttp(http.body, ctx, '127.0.0.1') : null;
    for (const line of answer?.log ?? []) listener.log.write(ctx.now(), line.stream, line.text);
    if (answer && answer.output !== '') this.host.reply(request, httpKinds.streamData, { channel: portForwardChannel.data, data: answer.output });
    // The server closed its end of the connection: the port's data stream ends.
    if (answer?.close) this.host.reply(request, httpKinds.streamData, { channel: portForwardChannel.close, data: '' });
    this.host.reply(request, httpKinds.watchEnd, { reason: 'timeout' });
  }
}

/**
 * The channels of a port-forward answer: the bytes the server sent, the error the kubelet writes to the
 * port's error stream, and the server closing its end (an empty message).
 */
export const portForwardChannel = { data: 0, error: 1, close: 255 } as const;

/** The pod sandbox's id as containerd shows it (64 hex digits), derived from the pod's uid: a modelled id. */
function sandboxID(uid: string): string {
  let out = '';
  for (let round = 0; out.length < 64; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < uid.length; i++) h = Math.imul(h ^ uid.charCodeAt(i), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}

/** Every value of a repeated query parameter (`command=ls&command=-l`). */
export function parseQueryAll(query: string, name: string): string[] {
  const values: string[] = [];
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (decode(key) !== name) continue;
    values.push(decode(eq < 0 ? '' : part.slice(eq + 1)));
  }
  return values;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The Status an exec ends with on the error channel (remotecommand's v4 protocol). */
// Models k8s.io/kubelet/pkg/cri/streaming/remotecommand/exec.go (ServeExec) with containerd's exit error.
export interface ExecStatus {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Success' | 'Failure';
  readonly message?: string;
  readonly reason?: 'NonZeroExitCode';
  readonly details?: { readonly causes: readonly { readonly reason: 'ExitCode'; readonly message: string }[] };
}

export function execStatus(command: readonly string[], exitCode: number): ExecStatus {
  if (exitCode === 0) return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}
