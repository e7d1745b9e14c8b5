// Probes and lifecycle-hook handlers against what a modelled container serves: an HTTP GET to a port
// where nginx or httpd listens answers 200 for the paths they serve and 404 for the rest (and nginx
// writes its access-log line, "kube-probe/1.28" as the user agent); a port nobody listens on refuses the
// connection; an exec runs the command in the container (programs.ts) and fails on a non-zero exit code;
// gRPC health checks find no gRPC server in the catalog's images. Outputs are the kubelet's texts.
// Models pkg/probe/http/http.go (DoHTTPProbe), pkg/probe/tcp/tcp.go, pkg/probe/exec/exec.go,
// pkg/probe/grpc/grpc.go, pkg/kubelet/prober/prober.go (runProbe) and
// pkg/kubelet/lifecycle/handlers.go (HandlerRunner.Run).
//
// Not modelled: HTTPS, custom headers, hosts other than the pod IP, probe timeouts (nothing modelled
// is slow), redirects.

import type { ContainerPort, Probe } from '../api/types/core.ts';
import type { ImageServer } from './image-registry.ts';
import { execute } from './programs.ts';
import { nginxAccessTime, nginxTime } from './programs/clock.ts';
import type { ContainerContext } from './programs/program.ts';

export interface ProbeTarget {
  readonly podIP: string;
  readonly containerName: string;
  readonly ports: readonly ContainerPort[];
  /** What the container's main process listens on, null when it serves nothing. */
  readonly server: ImageServer | null;
  readonly ctx: ContainerContext;
  /** The address probes come from (the node's bridge, `10.244.<n>.1`). */
  readonly sourceIP: string;
  /** Appends to the container's log (the server's access log). */
  log(stream: 'stdout' | 'stderr', text: string): void;
}

export interface ProbeResult {
  readonly ok: boolean;
  /** The output the kubelet reports (`HTTP probe failed with statuscode: 404`); '' on success. */
  readonly output: string;
}

export interface LifecycleHandler {
  exec?: { command?: string[] };
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string };
  tcpSocket?: { port: number | string };
  sleep?: { seconds: number };
}

/** A port number, or a named port resolved against the container's ports (FindPortByName). */
export function resolvePort(port: number | string, ports: readonly ContainerPort[]): number | string {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  const found = ports.find((p) => p.name === port);
  return found ? found.containerPort : `couldn't find port: ${port} in ${JSON.stringify(ports)}`;
}

const refused = (ip: string, port: number) => `dial tcp ${ip}:${port}: connect: connection refused`;

/** GET http://podIP:port/path as the kubelet's HTTP prober does. */
export function httpGet(target: ProbeTarget, port: number, path: string, userAgent: string): { status: number } | { error: string } {
  const url = `http://${target.podIP}:${port}${path}`;
  const server = target.server;
  if (!server || server.port !== port) return { error: `Get "${url}": ${refused(target.podIP, port)}` };
  if (server.kind === 'tcp') return { error: `Get "${url}": net/http: HTTP/1.x transport connection broken: malformed HTTP response "-ERR wrong number of arguments for 'get' command"` };
  const status = server.paths.includes(path.split('?')[0]!) ? 200 : 404;
  if (server.product === 'nginx') {
    const now = target.ctx.now();
    if (status === 404) {
      target.log('stderr', `${nginxTime(now)} [error] 29#29: *1 open() "/usr/share/nginx/html${path}" failed (2: No such file or directory), client: ${target.sourceIP}, server: localhost, request: "GET ${path} HTTP/1.1", host: "${target.podIP}:${port}"\n`);
    }
    target.log('stdout', `${target.sourceIP} - - [${nginxAccessTime(now)}] "GET ${path} HTTP/1.1" ${status} ${status === 200 ? 612 : 169} "-" "${userAgent}" "-"\n`);
  }
  return { status };
}

function tcpOpen(target: ProbeTarget, port: number): boolean {
  return target.server !== null && target.server.port === port;
}

/** One probe of `probe` against the container. */
// Models pkg/kubelet/prober/prober.go runProbe.
export function runProbe(probe: Probe, target: ProbeTarget): ProbeResult {
  if (probe.exec) {
    const r = execute(probe.exec.command ?? [], target.ctx);
    const output = r.stdout + r.stderr;
    return r.exitCode === 0 ? { ok: true, output: '' } : { ok: false, output };
  }
  if (probe.httpGet) {
    const port = resolvePort(probe.httpGet.port, target.ports);
    if (typeof port === 'string') return { ok: false, output: port };
    const r = httpGet(target, port, probe.httpGet.path || '/', 'kube-probe/1.28');
    if ('error' in r) return { ok: false, output: r.error };
    if (r.status >= 200 && r.status < 400) return { ok: true, output: '' };
    return { ok: false, output: `HTTP probe failed with statuscode: ${r.status}` };
  }
  if (probe.tcpSocket) {
    const port = resolvePort(probe.tcpSocket.port, target.ports);
    if (typeof port === 'string') return { ok: false, output: port };
    return tcpOpen(target, port) ? { ok: true, output: '' } : { ok: false, output: refused(target.podIP, port) };
  }
  if (probe.grpc) {
    const addr = `${target.podIP}:${probe.grpc.port}`;
    return { ok: false, output: `timeout: failed to connect service "${addr}" within ${probe.timeoutSeconds ?? 1}s: context deadline exceeded` };
  }
  return { ok: false, output: 'missing probe handler' };
}

/** A lifecycle hook's outcome: its error message (null on success) and how long it ran. */
export interface HookResult {
  readonly error: string | null;
  readonly ms: number;
}

/** Runs a postStart or preStop handler; `podDesc` is format.Pod (`name_namespace(uid)`). */
// Models pkg/kubelet/lifecycle/handlers.go HandlerRunner.Run (1.28: an HTTP hook fails only on a transport error).
export function runHook(handler: LifecycleHandler, target: ProbeTarget, podDesc: string): HookResult {
  if (handler.exec) {
    const command = handler.exec.command ?? [];
    const r = execute(command, target.ctx);
    if (r.exitCode === 0) return { error: null, ms: r.ms };
    const err = `command '${command.join(' ')}' exited with ${r.exitCode}: ${r.stderr}`;
    return { error: `Exec lifecycle hook ([${command.join(' ')}]) for Container "${target.containerName}" in Pod "${podDesc}" failed - error: ${err}, message: ${JSON.stringify(r.stdout + r.stderr)}`, ms: r.ms };
  }
  if (handler.httpGet) {
    const port = resolvePort(handler.httpGet.port, target.ports);
    const path = handler.httpGet.path ?? '';
    const fail = (why: string): HookResult => ({ error: `HTTP lifecycle hook (${path}) for Container "${target.containerName}" in Pod "${podDesc}" failed - error: ${why}`, ms: 0 });
    if (typeof port === 'string') return fail(port);
    const r = httpGet(target, port, path === '' ? '/' : path, 'kube-lifecycle/1.28');
    return 'error' in r ? fail(r.error) : { error: null, ms: 0 };
  }
  if (handler.sleep) return { error: null, ms: handler.sleep.seconds * 1000 };
  return { error: `Cannot run handler: invalid handler: ${JSON.stringify(handler)}`, ms: 0 };
}
