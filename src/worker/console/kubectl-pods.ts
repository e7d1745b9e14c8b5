// `kubectl logs` and `kubectl exec` in the page console: the requests kubectl sends (GET the pod, then
// GET pods/<name>/log, or POST pods/<name>/exec as an upgrade), its choice of container ("Defaulted
// container …"), its output and its error texts. `logs -f` streams until the container stops or Ctrl-C.
// Models k8s.io/kubectl/pkg/cmd/logs/logs.go, k8s.io/kubectl/pkg/cmd/exec/exec.go and
// k8s.io/kubectl/pkg/polymorphichelpers/logsforobject.go (the default container).
//
// Not modelled: interactive sessions (`-i`, `-t`: stdin and terminals), `logs` of other objects than pods
// (`deploy/x` picks a pod in real kubectl), `--all-containers`, `--since`.

import { splitArgs } from '../../sim/go/shell.ts';
import { httpKinds, type HttpStreamData } from '../../sim/wire/http.ts';
import type { Pod } from '../../sim/api/types/core.ts';
import { escapePath } from '../../sim/api/url-path.ts';
import { awaitReply, type Co, type Message } from '../../sim/engine/index.ts';
import { klogLine, send, type CommandIO } from './http.ts';
import { statusErrorText, statusOf } from './kubectl-print.ts';

interface PodCommand {
  readonly verb: 'logs' | 'exec';
  readonly namespace: string;
  readonly pod: string;
  readonly container?: string;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly timestamps: boolean;
  readonly tail?: number;
  readonly command: readonly string[];
  readonly interactive: boolean;
  readonly verbosity: number;
  readonly as?: string;
}

const valueFlags: Readonly<Record<string, string>> = {
  '-n': 'namespace', '--namespace': 'namespace', '-c': 'container', '--container': 'container', '--tail': 'tail', '-v': 'v', '--v': 'v', '--as': 'as',
};
const boolFlags: Readonly<Record<string, string>> = {
  '-f': 'follow', '--follow': 'follow', '-p': 'previous', '--previous': 'previous', '--timestamps': 'timestamps',
  '-i': 'stdin', '--stdin': 'stdin', '-t': 'tty', '--tty': 'tty', '-it': 'stdin', '-ti': 'stdin', '-q': 'quiet', '--quiet': 'quiet',
};

/** Parses `kubectl logs …` / `kubectl exec …`; null when the line is another verb. */
export function parsePodCommand(line: string): { ok: true; command: PodCommand } | { ok: false; stderr: string } | null {
  const words = splitArgs(line);
  if (words[0] === 'kubectl') words.shift();
  const verbAt = words.findIndex((w) => !w.startsWith('-'));
  const verb = words[verbAt];
  if (verb !== 'logs' && verb !== 'exec') return null;
  const values = new Map<string, string>();
  const args: string[] = [];
  let command: string[] = [];
  const rest = [...words.slice(0, verbAt), ...words.slice(verbAt + 1)];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (w === '--') {
      command = rest.slice(i + 1);
      break;
    }
    const eq = w.indexOf('=');
    const name = w.startsWith('-') && eq > 0 ? w.slice(0, eq) : w;
    if (valueFlags[name]) {
      const value = eq > 0 && w.startsWith('-') ? w.slice(eq + 1) : rest[++i];
      if (value === undefined) return { ok: false, stderr: `error: flag needs an argument: ${name}\nSee 'kubectl ${verb} --help' for usage.\n` };
      values.set(valueFlags[name]!, value);
    } else if (boolFlags[name]) {
      values.set(boolFlags[name]!, eq > 0 ? w.slice(eq + 1) : 'true');
      if (name === '-it' || name === '-ti') values.set('tty', 'true');
    } else if (w.startsWith('-')) {
      return { ok: false, stderr: `error: unknown flag: ${name}\nSee 'kubectl ${verb} --help' for usage.\n` };
    } else {
      args.push(w);
    }
  }
  const target = args[0];
  if (target === undefined) {
    return { ok: false, stderr: verb === 'logs'
      ? 'error: expected \'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]\'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee \'kubectl logs -h\' for help and examples\n'
      : 'error: pod, type/name or --filename must be specified\n' };
  }
  if (verb === 'exec' && command.length === 0) return { ok: false, stderr: 'error: you must specify at least one command for the container\n' };
  const slash = target.indexOf('/');
  if (slash >= 0 && !['pod', 'pods', 'po'].includes(target.slice(0, slash))) {
    return { ok: false, stderr: `error: ${verb} of ${target.slice(0, slash)} is not modelled in Podflow's console; name a pod (kubectl get pods)\n` };
  }
  const tail = values.get('tail');
  if (tail !== undefined && !/^-?\d+$/.test(tail)) return { ok: false, stderr: `error: invalid argument "${tail}" for "--tail" flag: strconv.ParseInt: parsing "${tail}": invalid syntax\n` };
  const container = values.get('container') ?? (verb === 'logs' ? args[1] : undefined);
  const as = values.get('as');
  return {
    ok: true,
    command: {
      verb, namespace: values.get('namespace') ?? 'default', pod: slash >= 0 ? target.slice(slash + 1) : target,
      ...(container !== undefined ? { container } : {}),
      follow: values.get('follow') === 'true', previous: values.get('previous') === 'true', timestamps: values.get('timestamps') === 'true',
      ...(tail !== undefined && Number(tail) >= 0 ? { tail: Number(tail) } : {}),
      command, interactive: values.get('stdin') === 'true' || values.get('tty') === 'true',
      verbosity: Number(values.get('v') ?? '0') || 0,
      ...(as !== undefined ? { as } : {}),
    },
  };
}

function query(params: readonly (readonly [string, string])[]): string {
  return params.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%20/g, '+')}`).join('&');
}

/** Runs `kubectl logs` or `kubectl exec`; returns the exit code, or null while a stream stays open (never: it waits). */
export function* runPodCommand(io: CommandIO, cmd: PodCommand): Co<number> {
  if (io.verbosity >= 6) io.err(klogLine(io, 'loader.go:395', 'Config loaded from file:  /root/.kube/config'));
  const podPath = `/api/v1/namespaces/${cmd.namespace}/pods/${escapePath(cmd.pod)}`;
  const { response: got } = yield* send(io, { method: 'GET', path: podPath, accept: 'application/json, */*' });
  if (got.status !== 200) {
    io.err(statusErrorText(statusOf(got), got.status, `pods "${cmd.pod}" not found`));
    return 1;
  }
  const pod = got.body as Pod;
  const names = pod.spec.containers.map((c) => c.name);
  let container = cmd.container;
  if (container === undefined) {
    // logsforobject.go / exec.go: the annotated default container, else the first, said on stderr when there are several.
    const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
    container = annotated && names.includes(annotated) ? annotated : names[0] ?? '';
    if (names.length > 1 && !annotated) io.err(`Defaulted container "${container}" out of: ${names.join(', ')}\n`);
  }
  if (cmd.verb === 'logs') return yield* logs(io, cmd, podPath, container);
  return yield* exec(io, cmd, pod, podPath, container);
}

function* logs(io: CommandIO, cmd: PodCommand, podPath: string, container: string): Co<number> {
  const params: [string, string][] = [['container', container]];
  if (cmd.follow) params.push(['follow', 'true']);
  if (cmd.previous) params.push(['previous', 'true']);
  if (cmd.tail !== undefined) params.push(['tailLines', String(cmd.tail)]);
  if (cmd.timestamps) params.push(['timestamps', 'true']);
  const { response, requestId } = yield* send(io, { method: 'GET', path: `${podPath}/log`, query: query(params), accept: 'application/json, */*' });
  if (response.status !== 200) {
    io.err(statusErrorText(statusOf(response), response.status, 'the server could not find the requested resource'));
    return 1;
  }
  if (!response.stream) {
    io.out(typeof response.body === 'string' ? response.body : '');
    return 0;
  }
  io.watching(requestId);
  for (;;) {
    const reply = (yield* awaitReply<HttpStreamData>(requestId)) as Message<HttpStreamData>;
    if (io.interrupted) return 130;
    if (reply.kind !== httpKinds.streamData) break;
    io.out(reply.payload.data);
  }
  io.watching(null);
  return 0;
}

function* exec(io: CommandIO, cmd: PodCommand, pod: Pod, podPath: string, container: string): Co<number> {
  if (cmd.interactive) {
    io.err('error: interactive sessions (-i, -t) are not modelled in Podflow\'s console: run one command, e.g. kubectl exec POD -- ls\n');
    return 1;
  }
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') {
    io.err(`error: cannot exec into a container in a completed pod; current phase is ${phase}\n`);
    return 1;
  }
  const params: [string, string][] = [...cmd.command.map((c): [string, string] => ['command', c]), ['container', container], ['stderr', 'true'], ['stdout', 'true']];
  const { response, requestId } = yield* send(io, {
    method: 'POST', path: `${podPath}/exec`, query: query(params), accept: '*/*',
    upgrade: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': 'v5.channel.k8s.io' },
  });
  if (!response.stream) {
    const status = statusOf(response);
    io.err(response.status === 404 && !status ? `error: unable to upgrade connection: ${typeof response.body === 'string' ? response.body.trim() : ''}\n` : statusErrorText(status, response.status, 'the server could not find the requested resource'));
    return 1;
  }
  let exitCode = 0;
  for (;;) {
    const reply = (yield* awaitReply<HttpStreamData>(requestId)) as Message<HttpStreamData>;
    if (reply.kind !== httpKinds.streamData) break;
    const chunk = reply.payload;
    if (chunk.channel === 1) io.out(chunk.data);
    else if (chunk.channel === 2) io.err(chunk.data);
    else if (chunk.channel === 3) {
      const status = JSON.parse(chunk.data) as { status: string; details?: { causes?: { message?: string }[] } };
      if (status.status !== 'Success') exitCode = Number(status.details?.causes?.[0]?.message ?? '1') || 1;
    }
  }
  if (exitCode !== 0) io.err(`command terminated with exit code ${exitCode}\n`);
  return exitCode;
}
