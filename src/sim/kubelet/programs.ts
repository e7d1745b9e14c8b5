// What a modelled container's processes do. A program is a generator of steps (print a line, sleep,
// serve forever) that returns its exit code; the kubelet's runtime drives it in virtual time, so
// `sleep 10` takes ten virtual seconds and `while true; do echo hi; sleep 5; done` prints every five.
// The same programs answer `kubectl exec` (run to their end at once, their sleeps added up) and exec
// probes and hooks.
//
// Modelled: the servers of the catalog's images (nginx, httpd, redis… with their real start-up lines),
// a small shell (`sh -c` with `;`, `&&`, `||`, `while true; do …; done`, `for x in …; do …; done`) and
// the commands `echo`, `sleep`, `exit`, `true`, `false`, `date`, `hostname`, `env`, `printenv`, `ls`,
// `cat`, `touch`, `rm`, `mkdir`, `nginx -v`, `test -d|-f|-e`, and `tar cf -` / `tar xf -` (what `kubectl cp`
// runs; tar.ts). Anything else is answered honestly as not modelled.
// The program families: program.ts (what a program is), coreutils and the shell here, servers.ts,
// tar-command.ts, shell-parse.ts; their files and clocks are files.ts and clock.ts.

import type { ImageConfig } from './image-registry.ts';
import { dateText } from './programs/clock.ts';
import { addEntry, isDirectory, removeEntry, resolvePath } from './programs/files.ts';
import { busyboxLike, notModelled, stderr, stdout, type ContainerContext, type Program, type ProgramStep } from './programs/program.ts';
import { httpdServer, nginxServer, redisServer } from './programs/servers.ts';
import { parseList, tokenize, type ShellNode } from './programs/shell-parse.ts';
import { tar } from './programs/tar-command.ts';

/** Go's time.ParseDuration-like seconds for `sleep` (busybox accepts 10, 1.5, 2m, 1h, infinity). */
function sleepMs(arg: string): number | null {
  if (arg === 'infinity' || arg === 'inf') return Infinity;
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg);
  if (!m) return null;
  const unit = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]!]!;
  return Math.round(Number(m[1]) * unit);
}

/** One simple command (argv) in the container. */
function* command(argv: readonly string[], ctx: ContainerContext): Program {
  const [name, ...args] = argv;
  const base = name?.slice(name.lastIndexOf('/') + 1) ?? '';
  switch (base) {
    case '':
    case 'true':
    case ':': return 0;
    case 'false': return 1;
    case 'echo': {
      const noNewline = args[0] === '-n';
      const words = noNewline ? args.slice(1) : args;
      yield stdout(`${words.join(' ')}${noNewline ? '' : '\n'}`);
      return 0;
    }
    case 'sleep': {
      const ms = sleepMs(args[0] ?? '');
      if (ms === null) {
        yield stderr(args[0] === undefined ? 'sleep: missing operand\n' : `sleep: invalid number '${args[0]}'\n`);
        return 1;
      }
      if (ms === Infinity) {
        yield { kind: 'serve' };
        return 0;
      }
      if (ms > 0) yield { kind: 'sleep', ms };
      return 0;
    }
    case 'exit': return Number(args[0] ?? '0') & 255;
    case 'date': yield stdout(`${dateText(ctx.now())}\n`); return 0;
    case 'hostname': yield stdout(`${ctx.podName}\n`); return 0;
    case 'env':
    case 'printenv': {
      if (base === 'printenv' && args.length > 0) {
        const found = args.map((a) => ctx.env.find(([k]) => k === a));
        for (const f of found) if (f) yield stdout(`${f[1]}\n`);
        return found.every((f) => f) ? 0 : 1;
      }
      for (const [k, v] of ctx.env) yield stdout(`${k}=${v}\n`);
      return 0;
    }
    case 'ls': {
      const targets = args.filter((a) => !a.startsWith('-'));
      let code = 0;
      for (const t of targets.length > 0 ? targets : ['/']) {
        const p = resolvePath(t);
        const listing = ctx.files.get(p);
        if (listing !== undefined && isDirectory(ctx.files, p)) yield stdout(listing);
        else if (listing !== undefined) yield stdout(`${t}\n`);
        else {
          yield stderr(`ls: cannot access '${t}': No such file or directory\n`);
          code = 2;
        }
      }
      return code;
    }
    case 'cat': {
      let code = 0;
      for (const t of args) {
        const p = resolvePath(t);
        const content = p === '/etc/hostname' ? `${ctx.podName}\n` : ctx.files.get(p);
        if (content === undefined) {
          yield stderr(busyboxLike(ctx) ? `cat: can't open '${t}': No such file or directory\n` : `cat: ${t}: No such file or directory\n`);
          code = 1;
        } else if (isDirectory(ctx.files, p)) {
          yield stderr(`cat: ${t}: Is a directory\n`);
          code = 1;
        } else yield stdout(content);
      }
      return code;
    }
    case 'touch':
    case 'mkdir': {
      for (const t of args.filter((a) => !a.startsWith('-'))) {
        const p = resolvePath(t);
        if (!ctx.files.has(p)) ctx.files.set(p, '');
        addEntry(ctx.files, p);
      }
      return 0;
    }
    case 'rm': {
      const force = args.some((a) => a.startsWith('-') && a.includes('f'));
      let code = 0;
      for (const t of args.filter((a) => !a.startsWith('-'))) {
        const p = resolvePath(t);
        if (ctx.files.delete(p)) removeEntry(ctx.files, p);
        else if (!force) {
          yield stderr(`rm: can't remove '${t}': No such file or directory\n`);
          code = 1;
        }
      }
      return code;
    }
    case 'test': {
      const [flag, target] = args;
      if (target === undefined || !['-d', '-e', '-f'].includes(flag ?? '')) {
        yield stderr(notModelled(argv));
        return 126;
      }
      const p = resolvePath(target);
      const exists = ctx.files.has(p) || isDirectory(ctx.files, p);
      const dir = isDirectory(ctx.files, p);
      return (flag === '-d' ? dir : flag === '-f' ? exists && !dir : exists) ? 0 : 1;
    }
    case 'tar': return yield* tar(args, ctx);
    case 'nginx': {
      if (!ctx.image.repository.endsWith('/nginx')) break;
      if (args[0] === '-v') {
        yield stderr(`nginx version: nginx/${ctx.image.version}\n`);
        return 0;
      }
      return yield* nginxServer(ctx);
    }
    case 'sh':
    case 'bash':
    case 'ash': {
      if (base === 'bash' && !ctx.image.repository.endsWith('/nginx') && !ctx.image.repository.endsWith('/redis') && !ctx.image.repository.endsWith('/httpd')) {
        break;
      }
      if (args[0] === '-c' && args[1] !== undefined) return yield* shell(args[1], ctx);
      // An interactive shell with no stdin reads end-of-file and exits at once.
      return 0;
    }
    case 'docker-entrypoint.sh':
      return yield* command(args, ctx);
    case 'redis-server': return yield* redisServer(ctx);
    case 'httpd-foreground': return yield* httpdServer(ctx);
    case 'pause':
    case 'mysqld':
    case 'user-service':
      yield { kind: 'serve' };
      return 0;
  }
  yield stderr(notModelled(argv));
  return 126;
}

/** Iterations of a loop that neither sleeps nor ends before the model stops it (a busy loop). */
const busyLoopLimit = 1000;

function* runList(nodes: readonly ShellNode[], ctx: ContainerContext, vars: Map<string, string>): Generator<ProgramStep, number | { exit: number }, void> {
  let status = 0;
  let skip = false;
  for (const node of nodes) {
    if (node.kind === 'op') {
      skip = node.op === '&&' ? status !== 0 : status === 0;
      continue;
    }
    if (skip) { skip = false; continue; }
    if (node.kind === 'simple') {
      const words = node.words.map((w) => w.replace(/\$\{?(\w+)\}?/g, (_, v: string) => vars.get(v) ?? ctx.env.find(([k]) => k === v)?.[1] ?? ''));
      if (words[0] === 'exit') return { exit: Number(words[1] ?? status) & 255 };
      if (words[0] === '!') { status = 1; continue; }
      status = yield* command(words, ctx);
    } else if (node.kind === 'while') {
      let idle = 0;
      for (;;) {
        const before = { slept: false };
        const cond = yield* track(runList(node.cond, ctx, vars), before);
        if (typeof cond === 'object') return cond;
        if (cond !== 0) break;
        const body = yield* track(runList(node.body, ctx, vars), before);
        if (typeof body === 'object') return body;
        status = body;
        idle = before.slept ? 0 : idle + 1;
        if (idle >= busyLoopLimit) {
          yield stderr('podflow: a loop that never sleeps is not modelled in Podflow; it is stopped here\n');
          yield { kind: 'serve' };
          return 0;
        }
      }
    } else {
      for (const item of node.items) {
        vars.set(node.name, item);
        const body = yield* runList(node.body, ctx, vars);
        if (typeof body === 'object') return body;
        status = body;
      }
    }
  }
  return status;
}

/** Passes the steps of `gen` on, noting whether any of them slept. */
function* track<T>(gen: Generator<ProgramStep, T, void>, seen: { slept: boolean }): Generator<ProgramStep, T, void> {
  for (;;) {
    const next = gen.next();
    if (next.done) return next.value;
    if (next.value.kind === 'sleep') seen.slept = true;
    yield next.value;
  }
}

/** `sh -c script`. */
export function* shell(script: string, ctx: ContainerContext): Program {
  const { nodes } = parseList(tokenize(script), 0, []);
  const result = yield* runList(nodes, ctx, new Map());
  return typeof result === 'object' ? result.exit : result;
}

/** The process a container starts: `command` (else the image's entrypoint) with `args` (else, without a command, the image's cmd). */
export function containerArgv(image: ImageConfig, command: readonly string[] | undefined, args: readonly string[] | undefined): string[] {
  const entry = command && command.length > 0 ? command : image.entrypoint;
  const rest = args && args.length > 0 ? args : command && command.length > 0 ? [] : image.cmd;
  return [...entry, ...rest];
}

/** Runs argv as an exec (an unknown command is answered as not modelled, exit code 126). */
export function run(argv: readonly string[], ctx: ContainerContext): Program {
  return command(argv, ctx);
}

const modelledCommands = new Set([
  '', 'true', ':', 'false', 'echo', 'sleep', 'exit', 'date', 'hostname', 'env', 'printenv', 'ls', 'cat', 'touch', 'mkdir', 'rm',
  'nginx', 'sh', 'bash', 'ash', 'docker-entrypoint.sh', 'redis-server', 'httpd-foreground', 'pause', 'mysqld', 'user-service',
]);

/** The basename of the program argv starts (through `docker-entrypoint.sh`). */
export function mainProgram(argv: readonly string[]): string {
  const base = (w: string | undefined) => w?.slice(w.lastIndexOf('/') + 1) ?? '';
  return base(argv[0]) === 'docker-entrypoint.sh' ? base(argv[1]) : base(argv[0]);
}

/**
 * Runs argv as a container's main process. A program Podflow does not model keeps the container
 * running idle, with a line in its log saying so, rather than pretending it crashed.
 */
export function* runMain(argv: readonly string[], ctx: ContainerContext): Program {
  if (!modelledCommands.has(mainProgram(argv))) {
    yield stderr(notModelled(argv).replace('\n', '; the container runs idle\n'));
    yield { kind: 'serve' };
    return 0;
  }
  return yield* command(argv, ctx);
}

/** An exec's outcome, run to its end at once (its sleeps add up to `ms`); a server started by exec is not modelled. */
export interface ExecResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  readonly ms: number;
}

export function execute(argv: readonly string[], ctx: ContainerContext): ExecResult {
  let out = '';
  let err = '';
  let ms = 0;
  const program = run(argv, ctx);
  for (;;) {
    const next = program.next();
    if (next.done) return { stdout: out, stderr: err, exitCode: next.value, ms };
    const step = next.value;
    if (step.kind === 'print') {
      if (step.stream === 'stdout') out += step.text;
      else err += step.text;
    } else if (step.kind === 'sleep') ms += step.ms;
    else return { stdout: out, stderr: err + notModelled(argv), exitCode: 126, ms };
  }
}
