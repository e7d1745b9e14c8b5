import { describe, expect, it } from 'vitest';
import { imageCatalog } from './image-registry.ts';
import { utf8ToByteString } from '../etcd/bytes.ts';
import { readTar, writeTar } from './tar.ts';
import { containerArgv, execute, runMain } from './programs.ts';
import type { ContainerContext, ProgramStep } from './programs/program.ts';
import { nginxHttp } from './programs/servers.ts';
import { shellWords } from './programs/shell-parse.ts';

const busybox = imageCatalog.find((i) => i.repository === 'docker.io/library/busybox' && i.tag === '1.36')!;
const nginx = imageCatalog.find((i) => i.repository === 'docker.io/library/nginx' && i.tag === '1.14.2')!;

function ctx(image = busybox): ContainerContext {
  return { podName: 'p', podIP: '10.244.0.2', image, env: [['PATH', '/bin'], ['NAME', 'podflow']], files: new Map(Object.entries(image.files)), now: () => 0, cpus: 2 };
}

/** The first `n` steps of a program, and its exit code if it ended within them. */
function steps(argv: string[], n = 50, c = ctx()): { steps: ProgramStep[]; exit?: number } {
  const program = runMain(argv, c);
  const out: ProgramStep[] = [];
  for (let i = 0; i < n; i++) {
    const next = program.next();
    if (next.done) return { steps: out, exit: next.value };
    out.push(next.value);
    if (next.value.kind === 'serve') break;
  }
  return { steps: out };
}

describe('tar and test, as kubectl cp runs them', () => {
  const nginx125 = imageCatalog.find((i) => i.repository === 'docker.io/library/nginx' && i.tag.startsWith('1.25'))!;

  it('tar cf - writes the files (leading / removed, GNU tar\'s note on stderr); a missing path fails with exit 2', () => {
    const c = ctx(nginx125);
    const r = execute(['tar', 'cf', '-', '/etc/nginx/nginx.conf'], c);
    expect([r.exitCode, r.stderr]).toEqual([0, "tar: Removing leading `/' from member names\n"]);
    const entries = readTar(utf8ToByteString(r.stdout));
    expect('error' in entries ? entries : entries.map((e) => [e.name, e.type, e.content.split('\n')[1]])).toEqual([['etc/nginx/nginx.conf', 'file', 'user  nginx;']]);
    const dir = readTar(utf8ToByteString(execute(['tar', 'cf', '-', '/usr/share/nginx/html'], c).stdout));
    expect('error' in dir ? dir : dir.map((e) => e.name)).toEqual(['usr/share/nginx/html/', 'usr/share/nginx/html/index.html']);
    expect(execute(['tar', 'cf', '-', '/nope'], c)).toMatchObject({
      exitCode: 2, stderr: "tar: Removing leading `/' from member names\ntar: /nope: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n",
    });
  });

  it('tar -xmf - -C DIR writes stdin\'s files into the container; test -d/-f answer from the files', () => {
    const c = ctx(nginx125);
    const archive = utf8ToByteString(writeTar([{ name: 'file', type: 'file', mode: 0o644, mtime: 0, content: 'hello ✓\n' }]));
    expect(execute(['test', '-d', '/tmp/file'], c).exitCode).toBe(1);
    expect(execute(['tar', '-xmf', '-', '-C', '/tmp'], { ...c, stdin: archive })).toMatchObject({ exitCode: 0, stderr: '' });
    expect(execute(['cat', '/tmp/file'], c).stdout).toBe('hello ✓\n');
    expect(execute(['test', '-f', '/tmp/file'], c).exitCode).toBe(0);
    expect(execute(['test', '-d', '/tmp'], c).exitCode).toBe(0);
    expect(execute(['tar', 'xf', '-', '-C', '/nope'], { ...c, stdin: archive })).toMatchObject({ exitCode: 2, stderr: 'tar: /nope: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n' });
    expect(execute(['tar', 'xf', '-', '-C', '/tmp'], { ...c, stdin: 'garbage' })).toMatchObject({
      exitCode: 2, stderr: 'tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n',
    });
  });
});

describe('programs', () => {
  it('splits words as sh does', () => {
    expect(shellWords(`echo "a b" 'c d' e\\ f`)).toEqual(['echo', 'a b', 'c d', 'e f']);
  });

  it('takes the command, else the image\'s entrypoint, with args, else (without a command) the image\'s cmd', () => {
    expect(containerArgv(nginx, undefined, undefined)).toEqual(['nginx', '-g', 'daemon off;']);
    expect(containerArgv(busybox, ['sleep'], undefined)).toEqual(['sleep']);
    expect(containerArgv(busybox, undefined, ['sleep', '5'])).toEqual(['sleep', '5']);
    expect(containerArgv(busybox, ['sh', '-c'], ['echo hi'])).toEqual(['sh', '-c', 'echo hi']);
  });

  it('runs sleep for its time, sh lists and loops with their output, exit codes', () => {
    expect(steps(['sleep', '10'])).toEqual({ steps: [{ kind: 'sleep', ms: 10_000 }], exit: 0 });
    expect(steps(['sleep', 'infinity']).steps).toEqual([{ kind: 'serve' }]);
    expect(steps(['sh', '-c', 'echo a; false && echo b || echo c; exit 4'])).toEqual({
      steps: [{ kind: 'print', stream: 'stdout', text: 'a\n' }, { kind: 'print', stream: 'stdout', text: 'c\n' }], exit: 4,
    });
    const loop = steps(['sh', '-c', 'while true; do echo $NAME; sleep 2; done'], 6).steps;
    expect(loop).toEqual([
      { kind: 'print', stream: 'stdout', text: 'podflow\n' }, { kind: 'sleep', ms: 2_000 },
      { kind: 'print', stream: 'stdout', text: 'podflow\n' }, { kind: 'sleep', ms: 2_000 },
      { kind: 'print', stream: 'stdout', text: 'podflow\n' }, { kind: 'sleep', ms: 2_000 },
    ]);
    expect(steps(['sh', '-c', 'for i in 1 2; do echo n$i; done']).steps.map((s) => s.kind === 'print' && s.text)).toEqual(['n1\n', 'n2\n']);
    // busybox's sh with no stdin exits at once (a plain `kubectl run --image=busybox` crash-loops).
    expect(steps(['sh'])).toEqual({ steps: [], exit: 0 });
  });

  it('keeps the files a process writes, so an exec probe sees them', () => {
    const c = ctx();
    expect(execute(['cat', '/tmp/healthy'], c).exitCode).toBe(1);
    execute(['touch', '/tmp/healthy'], c);
    expect(execute(['cat', '/tmp/healthy'], c).exitCode).toBe(0);
    expect(execute(['ls', '/tmp'], c).stdout).toBe('healthy\n');
    execute(['rm', '-f', '/tmp/healthy'], c);
    expect(execute(['cat', '/tmp/healthy'], c)).toMatchObject({ exitCode: 1, stderr: 'cat: can\'t open \'/tmp/healthy\': No such file or directory\n' });
  });

  it('answers what it does not model honestly; a main process it does not model runs idle', () => {
    expect(execute(['python3', '-V'], ctx())).toMatchObject({ exitCode: 126, stderr: expect.stringContaining('"python3 -V" is not modelled in Podflow') });
    const idle = steps(['python3', 'app.py']);
    expect(idle.steps.at(-1)).toEqual({ kind: 'serve' });
    expect(idle.steps[0]).toMatchObject({ kind: 'print', stream: 'stderr', text: expect.stringContaining('the container runs idle') });
  });
});

describe('nginx over a forwarded connection', () => {
  const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n${extra}\r\n`;

  it('serves index.html for / with nginx\'s headers, keeps the connection open, and logs the request from localhost', () => {
    const a = nginxHttp(get('/'), ctx(nginx), '127.0.0.1');
    const [head = '', body] = a.output.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual(['HTTP/1.1 200 OK', 'Server: nginx/1.14.2', 'Date: Thu, 01 Jan 1970 00:00:00 GMT', 'Content-Type: text/html',
      `Content-Length: ${nginx.files['/usr/share/nginx/html/index.html']!.length}`, 'Connection: keep-alive', 'Accept-Ranges: bytes']);
    expect(body).toBe(nginx.files['/usr/share/nginx/html/index.html']);
    expect(a.close).toBe(false);
    expect(a.log).toEqual([{ stream: 'stdout', text: `127.0.0.1 - - [01/Jan/1970:00:00:00 +0000] "GET / HTTP/1.1" 200 ${body!.length} "-" "curl/8.5.0" "-"\n` }]);
  });

  it('answers 404 with its CRLF page and an error-log line, 405 for other methods, HEAD without a body, several requests in order, none for an incomplete one', () => {
    const missing = nginxHttp(get('/nope', 'Connection: close\r\n'), ctx(nginx), '127.0.0.1');
    expect(missing.output).toContain('HTTP/1.1 404 Not Found\r\nServer: nginx/1.14.2\r\n');
    expect(missing.output).toContain('Content-Length: 153\r\nConnection: close\r\n\r\n<html>\r\n<head><title>404 Not Found</title></head>\r\n');
    expect(missing.close).toBe(true);
    expect(missing.log[0]).toEqual({ stream: 'stderr', text: '1970/01/01 00:00:00 [error] 29#29: *1 open() "/usr/share/nginx/html/nope" failed (2: No such file or directory), client: 127.0.0.1, server: localhost, request: "GET /nope HTTP/1.1", host: "127.0.0.1:8080"\n' });
    expect(nginxHttp('POST / HTTP/1.1\r\nHost: x\r\n\r\n', ctx(nginx), '127.0.0.1').output).toMatch(/^HTTP\/1\.1 405 Not Allowed\r\n/);
    const head = nginxHttp('HEAD /index.html HTTP/1.1\r\nHost: x\r\n\r\n', ctx(nginx), '127.0.0.1').output;
    expect(head.endsWith('\r\n\r\n')).toBe(true);
    expect(head).toContain(`Content-Length: ${nginx.files['/usr/share/nginx/html/index.html']!.length}`);
    const two = nginxHttp(get('/') + get('/missing'), ctx(nginx), '127.0.0.1');
    expect(two.output.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404']);
    expect(nginxHttp('GET / HTTP/1.1\r\nHost:', ctx(nginx), '127.0.0.1')).toEqual({ output: '', log: [], close: false });
    expect(nginxHttp('GET / HTTP/1.0\r\n\r\n', ctx(nginx), '127.0.0.1').close).toBe(true);
  });
});
