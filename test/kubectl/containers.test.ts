// The real kubectl talking to containers through Podflow's apiserver and the simulated kubelets: logs
// (with --tail, --timestamps, -c, --previous, -f), exec over WebSocket (v5.channel.k8s.io), port-forward over
// SPDY/3.1 (after kubectl's WebSocket attempt is refused), a command that
// runs to completion, probes and their events, an invalid image. Pods start in fast-forward; what the
// containers do over time (a sleep, a probe period) follows the wall clock, so the steps wait on
// conditions (polling kubectl), never on fixed sleeps. Skipped, with a message, without kubectl.

import { readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findKubectl, ok, startKubectlEnv, type KubectlEnv, type KubectlResult } from './harness.ts';

const kubectl = findKubectl();
if (!kubectl) console.warn('test/kubectl/containers: kubectl is not on PATH; SKIPPED');

let env: KubectlEnv;

function k(...args: string[]): Promise<KubectlResult> {
  return env.run(args);
}

/** One HTTP/1.1 GET on a fresh connection (`Connection: close`). */
function httpGet(port: number, path: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { 'user-agent': 'podflow-test', connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function apply(name: string, yaml: string): Promise<KubectlResult> {
  const file = join(env.dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  return k('apply', '-f', file);
}

/** Polls `kubectl get pod <name> -o jsonpath=<path>` until `accept` holds (at most `tries` × 250 ms). */
async function until(name: string, path: string, accept: (value: string) => boolean, tries = 120): Promise<string> {
  let value = '';
  for (let i = 0; i < tries; i++) {
    value = (await k('get', 'pod', name, '-o', `jsonpath=${path}`)).stdout;
    if (accept(value)) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`pod ${name}: ${path} is still ${JSON.stringify(value)}`);
}

const pod = (name: string, container: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
${container}`;

describe.skipIf(!kubectl)('real kubectl: logs, exec, run to completion, probes', () => {
  beforeAll(async () => {
    env = await startKubectlEnv(kubectl!);
  });
  afterAll(async () => {
    await env?.close();
  });

  test('logs prints nginx\'s start-up lines; --tail and --timestamps as kubectl has them', async () => {
    ok(await apply('web', pod('web', '  - name: nginx\n    image: nginx:1.25.3\n')));
    await until('web', '{.status.phase}', (v) => v === 'Running');
    const out = ok(await k('logs', 'web'));
    expect(out.split('\n')[0]).toBe('/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration');
    expect(out).toContain('/docker-entrypoint.sh: Configuration complete; ready for start up\n');
    expect(out).toMatch(/\[notice\] 1#1: nginx\/1\.25\.3\n/);
    const tail = ok(await k('logs', 'web', '--tail=1', '--timestamps'));
    expect(tail).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z \d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[notice\] 1#1: start worker process \d+\n$/);
    const previous = await k('logs', 'web', '--previous');
    expect(previous.code).toBe(1);
    expect(previous.stderr).toBe('Error from server (BadRequest): previous terminated container "nginx" in pod "web" not found\n');
  });

  test('exec runs the modelled commands over a WebSocket and reports a non-zero exit code', async () => {
    expect(ok(await k('exec', 'web', '--', 'hostname'))).toBe('web\n');
    expect(ok(await k('exec', 'web', '--', 'sh', '-c', 'echo hello from $HOSTNAME'))).toBe('hello from web\n');
    const failed = await k('exec', 'web', '--', 'cat', '/nope');
    expect(failed.stderr).toBe('cat: /nope: No such file or directory\ncommand terminated with exit code 1\n');
    expect(failed.code).toBe(1);
    const version = await k('exec', 'web', '-c', 'nginx', '--', 'nginx', '-v');
    expect(version.stderr).toBe('nginx version: nginx/1.25.3\n');
    expect(version.code).toBe(0);
  });

  test('run … -- sleep: the container runs its command for its time, then Completed 0/1 with exit code 0', async () => {
    expect(ok(await k('run', 'sleeper', '--image=busybox', '--restart=Never', '--', 'sleep', '2'))).toBe('pod/sleeper created\n');
    await until('sleeper', '{.status.phase}', (v) => v === 'Running');
    await until('sleeper', '{.status.phase}', (v) => v === 'Succeeded');
    const table = ok(await k('get', 'pod', 'sleeper')).trim().split('\n').map((l) => l.split(/\s+/));
    expect(table[1]!.slice(0, 4)).toEqual(['sleeper', '0/1', 'Completed', '0']);
    expect(ok(await k('get', 'pod', 'sleeper', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode} {.status.containerStatuses[0].state.terminated.reason}'))).toBe('0 Completed');
  });

  test('run --image=busybox with no command: sh exits at once with no stdin, so it restarts into CrashLoopBackOff', async () => {
    ok(await k('run', 'bb', '--image=busybox'));
    await until('bb', '{.status.containerStatuses[0].state.waiting.reason}', (v) => v === 'CrashLoopBackOff');
    const table = ok(await k('get', 'pod', 'bb')).trim().split('\n').map((l) => l.split(/\s+/));
    expect(table[1]!.slice(0, 3)).toEqual(['bb', '0/1', 'CrashLoopBackOff']);
  });

  test('logs -f streams a container\'s output as it is written', async () => {
    ok(await apply('ticker', pod('ticker', '  - name: c\n    image: busybox:1.36\n    command: ["sh", "-c", "while true; do echo tick; sleep 1; done"]\n')));
    await until('ticker', '{.status.phase}', (v) => v === 'Running');
    const child = env.spawn(['logs', '-f', 'ticker']);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    for (let i = 0; i < 80 && out.split('tick\n').length < 4; i++) await new Promise((r) => setTimeout(r, 100));
    child.kill();
    expect(out.split('\n').filter((l) => l !== '').slice(0, 3)).toEqual(['tick', 'tick', 'tick']);
  });

  test('attach streams the container\'s new output over a WebSocket', async () => {
    const child = env.spawn(['attach', 'ticker']);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    for (let i = 0; i < 80 && out.split('tick\n').length < 3; i++) await new Promise((r) => setTimeout(r, 100));
    child.kill();
    expect(out.split('\n').filter((l) => l !== '').slice(0, 2)).toEqual(['tick', 'tick']);
  });

  test('port-forward: kubectl falls back to SPDY/3.1; nginx answers its page and a 404 through the forwarded port; a port nothing listens on fails as on a real cluster', async () => {
    const pf = env.spawn(['port-forward', 'pod/web', ':80', ':8080']);
    let out = '';
    let err = '';
    pf.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    pf.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => pf.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 120 && out.split('\n').filter((l) => l.startsWith('Forwarding from 127.0.0.1:')).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    const local = (remote: number) => Number(new RegExp(`Forwarding from 127\\.0\\.0\\.1:(\\d+) -> ${remote}\\n`).exec(out)?.[1]);
    expect(local(80), out + err).toBeGreaterThan(0);
    expect(out).toMatch(/Forwarding from \[::1\]:\d+ -> 80\n/);

    const page = await httpGet(local(80), '/');
    expect(page.status).toBe(200);
    expect(page.headers.server).toBe('nginx/1.25.3');
    expect(page.headers['content-type']).toBe('text/html');
    expect(page.body).toContain('<title>Welcome to nginx!</title>');
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(page.body));
    const missing = await httpGet(local(80), '/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n');
    expect(out).toContain('Handling connection for');
    // nginx logged both requests, from localhost inside the pod.
    const log = ok(await k('logs', 'web', '--tail', '3'));
    expect(log).toMatch(new RegExp(`^127\\.0\\.0\\.1 - - \\[[^\\]]+\\] "GET / HTTP/1\\.1" 200 ${page.body.length} "-" "podflow-test" "-"$`, 'm'));
    expect(log).toMatch(/^127\.0\.0\.1 - - \[[^\]]+\] "GET \/nope HTTP\/1\.1" 404 153 "-" "podflow-test" "-"$/m);
    expect(log).toMatch(/\[error\] 29#29: \*1 open\(\) "\/usr\/share\/nginx\/html\/nope" failed \(2: No such file or directory\)/);

    // Nothing listens on 8080: the kubelet's error on the port's error stream; kubectl prints it and gives up.
    await expect(httpGet(local(8080), '/')).rejects.toThrow();
    expect(await exited).toBe(1);
    expect(err).toMatch(/an error occurred forwarding \d+ -> 8080: error forwarding port 8080 to pod [0-9a-f]{64}, uid : failed to connect to localhost:8080 inside namespace \\"[0-9a-f]{64}\\", IPv4: dial tcp4 127\.0\.0\.1:8080: connect: connection refused IPv6 dial tcp6 \[::1\]:8080: connect: connection refused /);
    expect(err).toContain('error: lost connection to pod');
  });

  test('port-forward ends cleanly when kubectl is stopped', async () => {
    const pf = env.spawn(['port-forward', 'pod/web', ':80']);
    let out = '';
    pf.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => pf.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 120 && !out.includes('Forwarding from 127.0.0.1:'); i++) await new Promise((r) => setTimeout(r, 100));
    const port = Number(/Forwarding from 127\.0\.0\.1:(\d+) -> 80/.exec(out)?.[1]);
    expect((await httpGet(port, '/index.html')).status).toBe(200);
    pf.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  test('a failing liveness probe: Unhealthy events with the kubelet\'s text, then the restart', async () => {
    ok(await apply('live', pod('live', `  - name: nginx
    image: nginx:1.14.2
    livenessProbe:
      httpGet:
        path: /healthz
        port: 80
      periodSeconds: 1
      failureThreshold: 2
`)));
    await until('live', '{.status.containerStatuses[0].restartCount}', (v) => Number(v) >= 1, 200);
    const events = ok(await k('get', 'events', '--field-selector', 'involvedObject.name=live', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}'));
    expect(events).toContain('Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 404\n');
    expect(events).toContain('Killing: Container nginx failed liveness probe, will be restarted\n');
  });

  test('an upper-case image is InvalidImageName, as the kubelet reports it', async () => {
    ok(await apply('upper', pod('upper', '  - name: c\n    image: Nginx\n')));
    const reason = await until('upper', '{.status.containerStatuses[0].state.waiting.reason}', (v) => v !== '' && v !== 'ContainerCreating');
    expect(reason).toBe('InvalidImageName');
    const table = ok(await k('get', 'pod', 'upper')).trim().split('\n').map((l) => l.split(/\s+/));
    expect(table[1]!.slice(0, 3)).toEqual(['upper', '0/1', 'InvalidImageName']);
  });

  test('cp copies a file out of a container (tar cf - through exec) and into one (tar xf - with stdin over channel 0)', async () => {
    const out = await k('cp', 'web:/etc/nginx/nginx.conf', 'nginx.conf');
    expect(out.code).toBe(0);
    // GNU tar's note goes to the exec's stderr; kubectl may exit before it has copied it.
    expect(`${out.stdout}${out.stderr}`).toMatch(/^(tar: Removing leading `\/' from member names\n)?$/);
    const conf = readFileSync(join(env.dir, 'nginx.conf'), 'utf8');
    expect(conf.split('\n').slice(0, 6)).toEqual(['', 'user  nginx;', 'worker_processes  auto;', '', 'error_log  /var/log/nginx/error.log notice;', 'pid        /var/run/nginx.pid;']);
    expect(conf).toContain('    include /etc/nginx/conf.d/*.conf;\n}\n');
    writeFileSync(join(env.dir, 'greeting.txt'), 'hello from the host\nsecond line ✓\n');
    expect(await k('cp', 'greeting.txt', 'web:/tmp/greeting.txt')).toMatchObject({ code: 0, stderr: '' });
    expect(ok(await k('exec', 'web', '--', 'cat', '/tmp/greeting.txt'))).toBe('hello from the host\nsecond line ✓\n');
    expect(ok(await k('exec', 'web', '--', 'ls', '/tmp'))).toBe('greeting.txt\n');
  });

  test('exec into a container that is not running, or a Pod with no node: the kubelet\'s and the apiserver\'s answers', async () => {
    // kubectl 1.32 tries the WebSocket first; the refused upgrade (the kubelet's 404, passed through by the
    // apiserver's upgrade-aware proxy) makes it fall back to SPDY, whose refusal it prints.
    const notRunning = await k('exec', 'upper', '--', 'ls');
    expect([notRunning.code, notRunning.stdout, notRunning.stderr]).toEqual([1, '', 'error: unable to upgrade connection: container not found ("c")\n']);
    ok(await apply('nowhere', `${pod('nowhere', '  - name: c\n    image: nginx\n')}  nodeSelector:\n    podflow.example/none: "true"\n`));
    const noNode = await k('exec', 'nowhere', '--', 'ls');
    expect([noNode.code, noNode.stderr]).toEqual([1, 'Error from server (BadRequest): pod nowhere does not have a host assigned\n']);
  });
});
