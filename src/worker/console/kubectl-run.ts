// `kubectl run NAME --image=IMAGE` in the page console: the Pod kubectl generates (label run=NAME, one
// container named NAME, dnsPolicy ClusterFirst, restartPolicy Always), POSTed with fieldManager
// kubectl-run, and what kubectl prints (`pod/NAME created`, or the object with -o). `--dry-run=client`
// sends nothing; `--dry-run=server` asks kube-apiserver to run admission and validation without storing.
// Models k8s.io/kubectl/pkg/cmd/run/run.go (flags, Validate, createGeneratedObject) and
// k8s.io/kubectl/pkg/generate/versioned/run.go (BasicPod, updatePodContainers, updatePodPorts).
//
// Not modelled: attaching (`-i`, `-t`, `--attach`, `--rm`), `--expose`, `--overrides`, `--privileged`.

import { splitArgs } from '../../sim/go/shell.ts';
import type { Co } from '../../sim/engine/index.ts';
import { lookupResource } from '../../sim/api/resources.ts';
import { collectionPath } from '../../sim/scenarios/kubectl.ts';
import { send, type CommandIO } from './http.ts';
import { statusErrorText, statusOf, toJson, toYaml } from './kubectl-print.ts';

export interface RunCommand {
  readonly name: string;
  readonly image: string;
  readonly namespace?: string;
  readonly labels?: string;
  readonly port?: number;
  readonly env: readonly string[];
  readonly restart: 'Always' | 'OnFailure' | 'Never';
  readonly imagePullPolicy?: string;
  readonly dryRun: 'none' | 'client' | 'server';
  readonly output?: 'yaml' | 'json' | 'name';
  /** Words after the name: the container's args, or its command with `--command`. */
  readonly args: readonly string[];
  readonly command: boolean;
  readonly verbosity: number;
  readonly as?: string;
}

const valueFlags: Readonly<Record<string, string>> = {
  '--image': 'image', '-n': 'namespace', '--namespace': 'namespace', '-l': 'labels', '--labels': 'labels', '--port': 'port',
  '--env': 'env', '--restart': 'restart', '--dry-run': 'dry-run', '-o': 'output', '--output': 'output',
  '--image-pull-policy': 'image-pull-policy', '-v': 'v', '--v': 'v', '--as': 'as',
};
const notModelled = new Set(['-i', '--stdin', '-t', '--tty', '-it', '-ti', '--attach', '--rm', '--expose', '--overrides', '--privileged']);

const usage = (message: string) => ({ ok: false as const, stderr: `error: ${message}\nSee 'kubectl run --help' for usage.\n` });

/** Parses `kubectl run …`; null when the line is another verb. */
export function parseRunCommand(line: string): { ok: true; command: RunCommand } | { ok: false; stderr: string } | null {
  const words = splitArgs(line);
  if (words[0] === 'kubectl') words.shift();
  const verbAt = words.findIndex((w) => !w.startsWith('-'));
  if (words[verbAt] !== 'run') return null;
  const rest = [...words.slice(0, verbAt), ...words.slice(verbAt + 1)];
  const values = new Map<string, string>();
  const env: string[] = [];
  const positional: string[] = [];
  let command = false;
  let dash = -1;
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (w === '--') {
      dash = positional.length;
      positional.push(...rest.slice(i + 1));
      break;
    }
    if (!w.startsWith('-') || w === '-') {
      positional.push(w);
      continue;
    }
    if (w === '--command') { command = true; continue; }
    const eq = w.indexOf('=');
    const flag = eq > 0 ? w.slice(0, eq) : w;
    if (notModelled.has(flag)) return { ok: false, stderr: `error: ${flag} is not modelled in Podflow's console: it runs "kubectl run" without attaching\n` };
    const name = valueFlags[flag];
    if (name === undefined) return usage(flag.startsWith('--') ? `unknown flag: ${flag}` : `unknown shorthand flag: '${flag[1]}' in ${w}`);
    let value: string;
    if (eq > 0) value = w.slice(eq + 1);
    else if (i + 1 < rest.length) value = rest[++i]!;
    else return usage(`flag needs an argument: ${flag}`);
    if (name === 'env') env.push(value);
    else values.set(name, value);
  }
  // As run.go's Validate: the name is the first word before any `--`.
  if (positional.length === 0 || dash === 0) return { ok: false, stderr: 'error: NAME is required for run\n' };
  const image = values.get('image') ?? '';
  if (image === '') return { ok: false, stderr: 'error: --image is required\n' };
  const restart = values.get('restart') ?? 'Always';
  if (restart !== 'Always' && restart !== 'OnFailure' && restart !== 'Never') return { ok: false, stderr: `error: invalid restart policy: ${restart}\n` };
  const pullPolicy = values.get('image-pull-policy');
  if (pullPolicy !== undefined && pullPolicy !== '' && !['Always', 'IfNotPresent', 'Never'].includes(pullPolicy)) {
    return { ok: false, stderr: `error: invalid image pull policy: ${pullPolicy}\n` };
  }
  const dryRun = values.get('dry-run') ?? 'none';
  if (dryRun !== 'none' && dryRun !== 'client' && dryRun !== 'server') {
    return { ok: false, stderr: `error: Invalid dry-run value (${dryRun}). Must be "none", "server", or "client".\n` };
  }
  const output = values.get('output');
  if (output !== undefined && output !== 'yaml' && output !== 'json' && output !== 'name') {
    return { ok: false, stderr: `error: unable to match a printer suitable for the output format "${output}", allowed formats are: json,name,yaml\n` };
  }
  const port = values.get('port');
  if (port !== undefined && !/^\d+$/.test(port)) return { ok: false, stderr: `error: strconv.Atoi: parsing "${port}": invalid syntax\n` };
  const v = values.get('v');
  return {
    ok: true,
    command: {
      name: positional[0]!, image, env, restart, dryRun, command, args: positional.slice(1), verbosity: v !== undefined && /^\d+$/.test(v) ? Number(v) : 0,
      ...(values.has('namespace') ? { namespace: values.get('namespace')! } : {}),
      ...(values.has('labels') ? { labels: values.get('labels')! } : {}),
      ...(port !== undefined ? { port: Number(port) } : {}),
      ...(pullPolicy ? { imagePullPolicy: pullPolicy } : {}),
      ...(output !== undefined ? { output } : {}),
      ...(values.has('as') ? { as: values.get('as')! } : {}),
    },
  };
}

/** `key=value,key=value` as run.go's labels param; an error text for a malformed one. */
function parseLabels(spec: string): Record<string, string> | string {
  const labels: Record<string, string> = {};
  for (const pair of spec.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return `invalid label spec: ${pair}`;
    labels[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return labels;
}

/** The Pod run.go's BasicPod generates, its fields in the Go structs' order (the order of the request body). */
export function generatedPod(cmd: RunCommand): Record<string, unknown> | string {
  const labels = cmd.labels === undefined || cmd.labels === '' ? { run: cmd.name } : parseLabels(cmd.labels);
  if (typeof labels === 'string') return labels;
  const env = [];
  for (const e of cmd.env) {
    const eq = e.indexOf('=');
    if (eq <= 0) return `invalid env: ${e}`;
    env.push({ name: e.slice(0, eq), value: e.slice(eq + 1) });
  }
  const container: Record<string, unknown> = { name: cmd.name, image: cmd.image };
  if (cmd.args.length > 0) container[cmd.command ? 'command' : 'args'] = [...cmd.args];
  if (cmd.port !== undefined) container['ports'] = [{ containerPort: cmd.port }];
  if (env.length > 0) container['env'] = env;
  container['resources'] = {};
  if (cmd.imagePullPolicy !== undefined) container['imagePullPolicy'] = cmd.imagePullPolicy;
  const metadata: Record<string, unknown> = { name: cmd.name };
  if (cmd.dryRun === 'client' && cmd.namespace !== undefined) metadata['namespace'] = cmd.namespace;
  metadata['creationTimestamp'] = null;
  metadata['labels'] = labels;
  return {
    kind: 'Pod', apiVersion: 'v1', metadata,
    spec: { containers: [container], restartPolicy: cmd.restart, dnsPolicy: 'ClusterFirst' },
    status: {},
  };
}

function print(io: CommandIO, cmd: RunCommand, object: unknown, name: string, suffix: string): void {
  if (cmd.output === 'yaml') io.out(toYaml(object));
  else if (cmd.output === 'json') io.out(toJson(object));
  else if (cmd.output === 'name') io.out(`pod/${name}\n`);
  else io.out(`pod/${name} created${suffix}\n`);
}

export function* runRun(io: CommandIO, cmd: RunCommand): Co<number> {
  const pod = generatedPod(cmd);
  if (typeof pod === 'string') {
    io.err(`error: ${pod}\n`);
    return 1;
  }
  if (cmd.dryRun === 'client') {
    print(io, cmd, pod, cmd.name, ' (dry run)');
    return 0;
  }
  const namespace = cmd.namespace ?? 'default';
  const { response } = yield* send(io, {
    method: 'POST', path: collectionPath(lookupResource('', 'pods')!, namespace),
    query: `${cmd.dryRun === 'server' ? 'dryRun=All&' : ''}fieldManager=kubectl-run`,
    accept: 'application/json', contentType: 'application/json', body: `${JSON.stringify(pod)}\n`,
  });
  if (response.status < 200 || response.status >= 300) {
    io.err(statusErrorText(statusOf(response), response.status, ''));
    return 1;
  }
  const created = response.body as { metadata?: { name?: string } };
  print(io, cmd, created, created.metadata?.name ?? cmd.name, cmd.dryRun === 'server' ? ' (server dry run)' : '');
  return 0;
}
