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

import { civilFromDays } from '../engine/time.ts';
import type { ImageConfig } from './image-registry.ts';
import { readTar, writeTar, type TarEntry } from './tar.ts';

export type ProgramStep =
  | { readonly kind: 'print'; readonly stream: 'stdout' | 'stderr'; readonly text: string }
  | { readonly kind: 'sleep'; readonly ms: number }
  /** Runs until stopped, serving what the image serves. */
  | { readonly kind: 'serve' };

export type Program = Generator<ProgramStep, number, void>;

/** What a process sees of its container. */
export interface ContainerContext {
  readonly podName: string;
  readonly podIP: string;
  readonly image: ImageConfig;
  /** The container's environment, image env first, then the pod spec's (later wins). */
  readonly env: readonly (readonly [string, string])[];
  /** The container's files: the image's, plus what its processes wrote (touch, mkdir), minus what they removed. */
  readonly files: Map<string, string>;
  /** Wall-clock ms now (the engine's epoch + virtual time). */
  now(): number;
  /** CPUs of the node (nginx starts one worker each). */
  readonly cpus: number;
  /** What an exec's client sent on stdin (a byte string), all of it; absent when stdin is not attached. */
  readonly stdin?: string;
}

/** A command not modelled: the honest answer. */
export function notModelled(argv: readonly string[]): string {
  return `podflow: "${argv.join(' ')}" is not modelled in Podflow (modelled: ls, cat, env, hostname, echo, sleep, date, touch, rm, nginx -v, sh -c '…')\n`;
}

/** Splits a shell word list as sh does for simple quoting ('…', "…", \x). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      cur += text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        cur += text[j];
        j++;
      }
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/** Go's time.ParseDuration-like seconds for `sleep` (busybox accepts 10, 1.5, 2m, 1h, infinity). */
function sleepMs(arg: string): number | null {
  if (arg === 'infinity' || arg === 'inf') return Infinity;
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg);
  if (!m) return null;
  const unit = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]!]!;
  return Math.round(Number(m[1]) * unit);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The UTC calendar fields of an epoch instant (no Date in the model). */
export interface Civil { year: number; month: number; day: number; weekday: number; hour: number; minute: number; second: number; ms: number }

export function civil(epochMs: number): Civil {
  const whole = Math.floor(epochMs);
  const days = Math.floor(whole / 86_400_000);
  const rest = whole - days * 86_400_000;
  const [year, month, day] = civilFromDays(days);
  return {
    year, month, day, weekday: (((days + 4) % 7) + 7) % 7,
    hour: Math.floor(rest / 3_600_000), minute: Math.floor(rest / 60_000) % 60, second: Math.floor(rest / 1000) % 60, ms: rest % 1000,
  };
}

/** `date`'s default output in UTC: `Wed Nov 25 02:30:00 UTC 2026`. */
export function dateText(ms: number): string {
  const d = civil(ms);
  return `${weekdays[d.weekday]!} ${months[d.month - 1]!} ${pad(d.day)} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)} UTC ${d.year}`;
}

/** nginx's error-log time: `2026/11/25 02:30:00`. */
export function nginxTime(ms: number): string {
  const d = civil(ms);
  return `${d.year}/${pad(d.month)}/${pad(d.day)} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}`;
}

/** nginx's access-log time: `25/Nov/2026:02:30:00 +0000`. */
export function nginxAccessTime(ms: number): string {
  const d = civil(ms);
  return `${pad(d.day)}/${months[d.month - 1]!}/${d.year}:${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)} +0000`;
}

function stdout(text: string): ProgramStep {
  return { kind: 'print', stream: 'stdout', text };
}

function stderr(text: string): ProgramStep {
  return { kind: 'print', stream: 'stderr', text };
}

function resolvePath(p: string): string {
  if (p === '' || p === '/') return '/';
  return p.replace(/\/+$/, '');
}

function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/** Adds `name` to the listing of its directory (files are listed in their directory's entry). */
function addEntry(files: Map<string, string>, p: string): void {
  const parent = parentOf(p);
  const name = p.slice(p.lastIndexOf('/') + 1);
  const entries = (files.get(parent) ?? '').split('\n').filter((e) => e !== '');
  if (!entries.includes(name)) files.set(parent, `${[...entries, name].sort().join('\n')}\n`);
}

function removeEntry(files: Map<string, string>, p: string): void {
  const parent = parentOf(p);
  const name = p.slice(p.lastIndexOf('/') + 1);
  const entries = (files.get(parent) ?? '').split('\n').filter((e) => e !== '' && e !== name);
  if (files.has(parent)) files.set(parent, entries.length > 0 ? `${entries.join('\n')}\n` : '');
}

/** Whether `p` is a directory the model knows (an entry listing or a parent of a known file). */
function isDirectory(files: Map<string, string>, p: string): boolean {
  return p === '/' || p === '/tmp' || [...files.keys()].some((k) => k.startsWith(`${p}/`)) || (files.has(p) && ['/', '/usr/share/nginx/html', '/etc/nginx'].includes(p));
}

/** busybox and alpine word their errors as busybox does. */
function busyboxLike(ctx: ContainerContext): boolean {
  return ctx.image.repository.endsWith('/busybox') || ctx.image.repository.endsWith('/alpine');
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

/** nginx's start-up: the entrypoint's lines (images from 1.19 on) and its notices, then it serves. */
/** The entries under `p` (itself first), as `tar c` walks them; names lose their leading '/'. */
function tarEntries(ctx: ContainerContext, p: string, mtime: number): TarEntry[] {
  const name = p.replace(/^\/+/, '');
  if (!isDirectory(ctx.files, p)) return [{ name, type: 'file', mode: 0o644, mtime, content: ctx.files.get(p) ?? '' }];
  const children = new Set((ctx.files.get(p) ?? '').split('\n').filter((e) => e !== ''));
  const prefix = p === '/' ? '/' : `${p}/`;
  for (const k of ctx.files.keys()) if (k.startsWith(prefix) && k !== p) children.add(k.slice(prefix.length).split('/')[0]!);
  const known = [...children].sort().map((c) => `${prefix}${c}`).filter((c) => ctx.files.has(c) || isDirectory(ctx.files, c));
  return [{ name: name === '' ? './' : `${name}/`, type: 'dir', mode: 0o755, mtime, content: '' }, ...known.flatMap((c) => tarEntries(ctx, c, mtime))];
}

/**
 * `tar cf - PATH…` (the archive on stdout) and `tar xf - [-C DIR]` (the archive from stdin), as kubectl cp
 * runs them; GNU tar's messages (busybox's in busybox images). Other modes are not modelled.
 */
function* tar(args: readonly string[], ctx: ContainerContext): Program {
  const gnu = !busyboxLike(ctx);
  let mode = '';
  let file: string | undefined;
  let dir = '';
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C') dir = args[++i] ?? '';
    else if (i === 0 || (a.startsWith('-') && a.length > 1)) {
      for (const f of a.replace(/^-/, '')) {
        if (f === 'c' || f === 'x') mode = f;
        else if (f === 'f') file = args[++i];
      }
    } else paths.push(a);
  }
  if (file !== '-' || mode === '') {
    yield stderr(notModelled(['tar', ...args]));
    return 126;
  }
  if (mode === 'c') {
    const entries: TarEntry[] = [];
    let failed = false;
    const mtime = Math.floor(ctx.now() / 1000);
    if (paths.some((p) => p.startsWith('/'))) yield stderr(gnu ? "tar: Removing leading `/' from member names\n" : "tar: removing leading '/' from member names\n");
    for (const t of paths) {
      const p = resolvePath(t);
      if (!ctx.files.has(p) && !isDirectory(ctx.files, p)) {
        yield stderr(gnu ? `tar: ${t}: Cannot stat: No such file or directory\n` : `tar: can't stat '${t}': No such file or directory\n`);
        failed = true;
        continue;
      }
      entries.push(...tarEntries(ctx, p, mtime));
    }
    yield stdout(writeTar(entries));
    if (failed && gnu) yield stderr('tar: Exiting with failure status due to previous errors\n');
    return failed ? (gnu ? 2 : 1) : 0;
  }
  const target = resolvePath(dir === '' ? '/' : dir);
  if (!isDirectory(ctx.files, target) && !ctx.files.has(target)) {
    yield stderr(gnu ? `tar: ${dir}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n` : `tar: can't change directory to '${dir}': No such file or directory\n`);
    return gnu ? 2 : 1;
  }
  const archive = readTar(ctx.stdin ?? '');
  if ('error' in archive) {
    yield stderr(gnu ? `tar: ${archive.error}\ntar: Exiting with failure status due to previous errors\n` : 'tar: invalid tar magic\n');
    return gnu ? 2 : 1;
  }
  for (const e of archive) {
    const p = resolvePath(`${target === '/' ? '' : target}/${e.name.replace(/^\/+/, '')}`);
    if (p === target) continue;
    if (!ctx.files.has(p)) ctx.files.set(p, '');
    if (e.type === 'file') ctx.files.set(p, e.content);
    addEntry(ctx.files, p);
  }
  return 0;
}

function* nginxServer(ctx: ContainerContext): Program {
  const scripts = ctx.image.entrypoint.includes('/docker-entrypoint.sh');
  if (scripts) {
    for (const line of [
      '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
      '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
      '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
      '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
      '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
      '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh',
      '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
      '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
      '/docker-entrypoint.sh: Configuration complete; ready for start up',
    ]) yield stdout(`${line}\n`);
    // nginx's error log (stderr) at notice level: only the images with the entrypoint scripts log notices;
    // 1.14–1.18 configure `error_log … warn` and print nothing at start-up.
    const t = nginxTime(ctx.now());
    const notice = (text: string) => stderr(`${t} [notice] 1#1: ${text}\n`);
    yield notice('using the "epoll" event method');
    yield notice(`nginx/${ctx.image.version}`);
    yield notice('built by gcc 12.2.0 (Debian 12.2.0-14) ');
    yield notice('OS: Linux 6.5.0');
    yield notice('getrlimit(RLIMIT_NOFILE): 1048576:1048576');
    yield notice('start worker processes');
    for (let i = 0; i < ctx.cpus; i++) yield notice(`start worker process ${29 + i}`);
  }
  yield { kind: 'serve' };
  return 0;
}

/** What a server answers on a forwarded connection: bytes back, its log lines, and whether it closes the connection. */
export interface ServedAnswer {
  /** A byte string. */
  readonly output: string;
  readonly log: readonly { readonly stream: 'stdout' | 'stderr'; readonly text: string }[];
  readonly close: boolean;
}

/** nginx's error page: its lines end in CRLF, the tail names the version. */
// Models nginx's src/http/ngx_http_special_response.c (ngx_http_error_404_page, ngx_http_error_tail).
function nginxErrorPage(status: string, version: string): string {
  return `<html>\r\n<head><title>${status}</title></head>\r\n<body>\r\n<center><h1>${status}</h1></center>\r\n<hr><center>nginx/${version}</center>\r\n</body>\r\n</html>\r\n`;
}

/** `Sat, 28 Nov 2026 08:11:11 GMT`: the Date header. */
function httpDate(ms: number): string {
  const d = civil(ms);
  return `${weekdays[d.weekday]!}, ${pad(d.day)} ${months[d.month - 1]!} ${d.year} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)} GMT`;
}

/**
 * nginx's answer to the bytes a client sent to port 80 (a byte string): each complete HTTP/1.x request in
 * it is answered in order, GET and HEAD from the files under /usr/share/nginx/html (`/` is index.html, as
 * the image's default.conf has it), other paths with nginx's 404 page, other methods with 405; an
 * incomplete request gets no answer. `client` is the peer's address as nginx logs it. The connection stays
 * open (keep-alive) unless the request asks to close it or is HTTP/1.0.
 * Not modelled: request bodies, Last-Modified and ETag (the image's files have no modelled mtimes).
 */
// Models nginx's ngx_http_static_module (default.conf's `location /`) and its access and error logs.
export function nginxHttp(input: string, ctx: ContainerContext, client: string): ServedAnswer {
  let output = '';
  const log: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  let rest = input;
  let close = false;
  for (let end = rest.indexOf('\r\n\r\n'); end >= 0 && !close; end = rest.indexOf('\r\n\r\n')) {
    const [requestLine = '', ...headerLines] = rest.slice(0, end).split('\r\n');
    rest = rest.slice(end + 4);
    const headers = new Map(headerLines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const [method = '', target = '', protocol = ''] = requestLine.split(' ');
    const connection = (headers.get('connection') ?? '').toLowerCase();
    close = connection === 'close' || (protocol === 'HTTP/1.0' && connection !== 'keep-alive');
    const path = target.split('?')[0]!;
    const file = `/usr/share/nginx/html${path.endsWith('/') ? `${path}index.html` : path}`;
    const content = ctx.files.get(file);
    const now = ctx.now();
    let status: string;
    let body: string;
    if (method !== 'GET' && method !== 'HEAD') {
      status = '405 Not Allowed';
      body = nginxErrorPage(status, ctx.image.version);
    } else if (content === undefined) {
      status = '404 Not Found';
      body = nginxErrorPage(status, ctx.image.version);
      log.push({ stream: 'stderr', text: `${nginxTime(now)} [error] 29#29: *1 open() "${file}" failed (2: No such file or directory), client: ${client}, server: localhost, request: "${requestLine}", host: "${headers.get('host') ?? ''}"\n` });
    } else {
      status = '200 OK';
      body = content;
    }
    const head = [`HTTP/1.1 ${status}`, `Server: nginx/${ctx.image.version}`, `Date: ${httpDate(now)}`, 'Content-Type: text/html', `Content-Length: ${body.length}`,
      `Connection: ${close ? 'close' : 'keep-alive'}`, ...(status === '200 OK' ? ['Accept-Ranges: bytes'] : [])];
    const sent = method === 'HEAD' ? '' : body;
    output += `${head.join('\r\n')}\r\n\r\n${sent}`;
    log.push({ stream: 'stdout', text: `${client} - - [${nginxAccessTime(now)}] "${requestLine}" ${status.slice(0, 3)} ${sent.length} "${headers.get('referer') ?? '-'}" "${headers.get('user-agent') ?? '-'}" "-"\n` });
  }
  return { output, log, close };
}

function* redisServer(ctx: ContainerContext): Program {
  const d = civil(ctx.now());
  const t = `${pad(d.day)} ${months[d.month - 1]!} ${d.year} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}.${pad(d.ms, 3)}`;
  for (const line of [
    `1:C ${t} # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo`,
    `1:C ${t} # Redis version=${ctx.image.version}, bits=64, commit=00000000, modified=0, pid=1, just started`,
    `1:C ${t} # Warning: no config file specified, using the default config. In order to specify a config file use redis-server /path/to/redis.conf`,
    `1:M ${t} * Running mode=standalone, port=6379.`,
    `1:M ${t} * Server initialized`,
    `1:M ${t} * Ready to accept connections tcp`,
  ]) yield stdout(`${line}\n`);
  yield { kind: 'serve' };
  return 0;
}

function* httpdServer(ctx: ContainerContext): Program {
  const d = civil(ctx.now());
  const t = `${weekdays[d.weekday]!} ${months[d.month - 1]!} ${pad(d.day)} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}.${pad(d.ms * 1000, 6)} ${d.year}`;
  const fqdn = `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${ctx.podIP}. Set the 'ServerName' directive globally to suppress this message\n`;
  yield stderr(fqdn);
  yield stderr(fqdn);
  yield stderr(`[${t}] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/${ctx.image.version} (Unix) configured -- resuming normal operations\n`);
  yield stderr(`[${t}] [core:notice] [pid 1:tid 1] AH00094: Command line: 'httpd -D FOREGROUND'\n`);
  yield { kind: 'serve' };
  return 0;
}

/** A parsed shell list: commands joined by `;`, `&&`, `||`, and loops. */
type ShellNode =
  | { readonly kind: 'simple'; readonly words: string[] }
  | { readonly kind: 'while'; readonly cond: ShellNode[]; readonly body: ShellNode[] }
  | { readonly kind: 'for'; readonly name: string; readonly items: string[]; readonly body: ShellNode[] }
  | { readonly kind: 'op'; readonly op: '&&' | '||' };

/** Splits a script into tokens: words (with quotes kept) and the operators `;`, `&&`, `||`, newline. */
function tokenize(script: string): string[] {
  const tokens: string[] = [];
  let cur = '';
  const flush = () => {
    if (cur.trim() !== '') tokens.push(cur.trim());
    cur = '';
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (c === "'" || c === '"') {
      const end = script.indexOf(c, i + 1);
      const stop = end < 0 ? script.length : end;
      cur += script.slice(i, stop + 1);
      i = stop;
    } else if (c === ';' || c === '\n') {
      flush();
      tokens.push(';');
    } else if ((c === '&' || c === '|') && script[i + 1] === c) {
      flush();
      tokens.push(c + c);
      i++;
    } else cur += c;
  }
  flush();
  return tokens;
}

/** Parses tokens until one of `stops` (a keyword starting a command); returns the nodes and where it stopped. */
function parseList(tokens: string[], at: number, stops: readonly string[]): { nodes: ShellNode[]; at: number; stop: string | null } {
  const nodes: ShellNode[] = [];
  let i = at;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t === ';') { i++; continue; }
    if (t === '&&' || t === '||') { nodes.push({ kind: 'op', op: t }); i++; continue; }
    const words = shellWords(t);
    const first = words[0] ?? '';
    if (stops.includes(first)) {
      // `do cmd`, `done` may share a token with the command after them.
      const rest = words.slice(1);
      tokens[i] = rest.map((w) => (/\s/.test(w) ? `'${w}'` : w)).join(' ');
      if (rest.length === 0) i++;
      return { nodes, at: i, stop: first };
    }
    if (first === 'while' || first === 'until') {
      tokens[i] = words.slice(1).map((w) => (/\s/.test(w) ? `'${w}'` : w)).join(' ');
      const cond = parseList(tokens, words.length > 1 ? i : i + 1, ['do']);
      const body = parseList(tokens, cond.at, ['done']);
      nodes.push({ kind: 'while', cond: first === 'until' ? [{ kind: 'simple', words: ['!'] }, ...cond.nodes] : cond.nodes, body: body.nodes });
      i = body.at;
      continue;
    }
    if (first === 'for' && words[2] === 'in') {
      const items = words.slice(3);
      const body = parseList(tokens, i + 1, ['done']);
      const doAt = body.nodes;
      // `do` begins the body: drop it from the first command.
      const bodyNodes = doAt.map((n, k) => (k === 0 && n.kind === 'simple' && n.words[0] === 'do' ? { kind: 'simple' as const, words: n.words.slice(1) } : n));
      nodes.push({ kind: 'for', name: words[1]!, items, body: bodyNodes });
      i = body.at;
      continue;
    }
    nodes.push({ kind: 'simple', words });
    i++;
  }
  return { nodes, at: i, stop: null };
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
