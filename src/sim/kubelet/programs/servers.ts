// The servers of the catalog's images as their containers' main processes: nginx (its entrypoint's and
// error log's start-up lines, and its answers on port 80), redis and httpd (their start-up lines); each
// then serves until stopped.

import { civil, httpDate, months, nginxAccessTime, nginxTime, pad, weekdays } from './clock.ts';
import { stderr, stdout, type ContainerContext, type Program } from './program.ts';

/** nginx's start-up: the entrypoint's lines (images from 1.19 on) and its notices, then it serves. */
export function* nginxServer(ctx: ContainerContext): Program {
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

export function* redisServer(ctx: ContainerContext): Program {
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

export function* httpdServer(ctx: ContainerContext): Program {
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
