import { describe, expect, it } from 'vitest';
import type { Container, Event, Pod } from '../api/types/core.ts';
import { parseTimestamp } from '../api/time.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpRequest, type HttpResponse, type HttpStreamData } from '../wire/http.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import type { Message } from '../engine/index.ts';
import { adminCall } from '../testing/http.ts';
import { runTwiceWithPerturbedHost } from '../testing/determinism.ts';
import { Kubelet } from './kubelet.ts';

const call = adminCall;

function setup(seed = 'containers', images: string[] = []) {
  const cluster = createCluster({ seed, components: { controllerManager: false, scheduler: false, kubelets: false } });
  cluster.engine.runUntilIdle();
  const kubelets = ['node-1', 'node-2'].map((node) => {
    const k = cluster.engine.add(new Kubelet({ node, images }));
    cluster.engine.link(k.name, 'kube-apiserver', { latency: 2 });
    k.start();
    return k;
  });
  cluster.engine.runUntilIdle();
  return { cluster, kubelets };
}

function podOf(name: string, containers: Container[], extra: Partial<Pod['spec']> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: 'node-1', containers, ...extra } };
}

function create(cluster: Cluster, pod: Pod): void {
  expect(call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
}

function get(cluster: Cluster, name: string): Pod {
  return call(cluster, 'GET', `/api/v1/namespaces/default/pods/${name}`).body as Pod;
}

function events(cluster: Cluster, pod: string): Event[] {
  return ((call(cluster, 'GET', '/api/v1/namespaces/default/events').body as { items: Event[] }).items)
    .filter((e) => e.involvedObject.name === pod);
}

/** Sends a request as the admin and returns its id (the answers come as the user's replies). */
function send(cluster: Cluster, method: HttpMethod, path: string, query = '', headers: Record<string, string> = {}): number {
  return cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query, headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: '*/*', ...headers },
  }).id;
}

function replies(cluster: Cluster, id: number): Message[] {
  return cluster.user.received().filter((r) => r.requestId === id).map((r) => r.message);
}

function answer(cluster: Cluster, method: HttpMethod, path: string, query = '', headers: Record<string, string> = {}): HttpResponse {
  const id = send(cluster, method, path, query, headers);
  cluster.engine.runUntilIdle();
  return replies(cluster, id)[0]!.payload as HttpResponse;
}

const upgrade = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': 'v5.channel.k8s.io' };

/** Runs an exec and returns its stdout, stderr and final Status (channel 3). */
function exec(cluster: Cluster, pod: string, command: string[], container?: string) {
  const query = [...command.map((c) => `command=${encodeURIComponent(c)}`), ...(container ? [`container=${container}`] : []), 'stdout=true', 'stderr=true'].join('&');
  const id = send(cluster, 'POST', `/api/v1/namespaces/default/pods/${pod}/exec`, query, upgrade);
  cluster.engine.runFor(5_000);
  const messages = replies(cluster, id);
  const data = messages.filter((m) => m.kind === httpKinds.streamData).map((m) => m.payload as HttpStreamData);
  return {
    response: messages[0]!.payload as HttpResponse,
    stdout: data.filter((d) => d.channel === 1).map((d) => d.data).join(''),
    stderr: data.filter((d) => d.channel === 2).map((d) => d.data).join(''),
    status: JSON.parse(data.find((d) => d.channel === 3)?.data ?? 'null') as { status: string; reason?: string; details?: { causes: { message: string }[] } } | null,
    ended: messages.some((m) => m.kind === httpKinds.watchEnd),
  };
}

function logs(cluster: Cluster, pod: string, query = ''): HttpResponse {
  return answer(cluster, 'GET', `/api/v1/namespaces/default/pods/${pod}/log`, query);
}

describe('containers', () => {
  it('serves pods/log through the pod\'s kubelet: nginx\'s start-up lines, in order, with timestamps and a tail', () => {
    const { cluster } = setup();
    create(cluster, podOf('web', [{ name: 'nginx', image: 'nginx:1.25.3' }]));
    cluster.engine.runFor(10_000);
    const before = cluster.engine.trace.all().length;
    const full = logs(cluster, 'web');
    expect(full.status).toBe(200);
    const lines = (full.body as string).split('\n').filter((l) => l !== '');
    expect(lines[0]).toBe('/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration');
    expect(lines[8]).toBe('/docker-entrypoint.sh: Configuration complete; ready for start up');
    expect(lines[9]).toMatch(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[notice\] 1#1: using the "epoll" event method$/);
    expect(lines).toContain(lines[9]!.replace('using the "epoll" event method', 'nginx/1.25.3'));
    // The request went kube-apiserver → kubelet/node-1 and back.
    const toKubelet = cluster.engine.trace.all().slice(before).filter((m) => m.to === 'kubelet/node-1' && m.kind === httpKinds.request);
    expect(toKubelet.map((m) => (m.payload as HttpRequest).path)).toEqual(['/containerLogs/default/web/nginx']);
    expect(toKubelet[0]!.from).toBe('kube-apiserver');

    const tail = logs(cluster, 'web', 'tailLines=2&timestamps=true').body as string;
    const tailLines = tail.split('\n').filter((l) => l !== '');
    expect(tailLines).toHaveLength(2);
    expect(tailLines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z \d{4}\/.* start worker process \d+$/);
    expect(lines.slice(-2).map((l) => tailLines.some((t) => t.endsWith(l)))).toEqual([true, true]);
  });

  it('nginx 1.14.2 prints nothing at start (its error log is at warn); a kubelet probe shows in its access log', () => {
    const { cluster } = setup();
    create(cluster, podOf('web', [{ name: 'nginx', image: 'nginx:1.14.2', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 10 } }]));
    cluster.engine.runFor(6_000);
    const text = logs(cluster, 'web').body as string;
    expect(text).toMatch(/^10\.244\.0\.1 - - \[\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "GET \/ HTTP\/1\.1" 200 612 "-" "kube-probe\/1\.28" "-"\n$/);
  });

  it('answers the kubelet\'s and the registry\'s log errors as a real cluster does', () => {
    const { cluster } = setup();
    // Created without running until idle, so its containers are still being created when the log is asked for.
    cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'POST', path: '/api/v1/namespaces/default/pods', query: '',
      headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(podOf('two', [{ name: 'a', image: 'nginx:1.14.2' }, { name: 'b', image: 'busybox:1.36', command: ['sleep', '3600'] }])),
    });
    cluster.engine.runFor(200);
    const id = send(cluster, 'GET', '/api/v1/namespaces/default/pods/two/log', 'container=a');
    cluster.engine.runFor(100);
    const waiting = replies(cluster, id)[0]!.payload as HttpResponse;
    expect(waiting.status).toBe(400);
    expect((waiting.body as { message: string }).message).toBe('container "a" in pod "two" is waiting to start: ContainerCreating');
    cluster.engine.runFor(10_000);
    const noContainer = logs(cluster, 'two');
    expect(noContainer.status).toBe(400);
    expect((noContainer.body as { message: string; reason: string })).toMatchObject({ reason: 'BadRequest', message: 'a container name must be specified for pod two, choose one of: [a b]' });
    expect((logs(cluster, 'two', 'container=c').body as { message: string }).message).toBe('container c is not valid for pod two');
    expect((logs(cluster, 'two', 'container=a&previous=true').body as { message: string }).message).toBe('previous terminated container "a" in pod "two" not found');
    expect(logs(cluster, 'two', 'container=b').body).toBe('');
    expect(logs(cluster, 'nope').status).toBe(404);
  });

  it('runs `sleep 10` for ten seconds under restartPolicy Never: Completed, 0/1 ready, exit code 0', () => {
    const { cluster } = setup();
    create(cluster, podOf('x', [{ name: 'x', image: 'busybox', command: ['sleep', '10'] }], { restartPolicy: 'Never' }));
    cluster.engine.runFor(6_000);
    const running = get(cluster, 'x');
    expect(running.status?.phase).toBe('Running');
    const startedAt = running.status?.containerStatuses?.[0]?.state?.running?.startedAt;
    expect(startedAt).toBeTruthy();
    cluster.engine.runFor(12_000);
    const done = get(cluster, 'x');
    expect(done.status?.phase).toBe('Succeeded');
    const cs = done.status!.containerStatuses![0]!;
    expect(cs).toMatchObject({ ready: false, started: false, restartCount: 0 });
    expect(cs.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed', startedAt });
    const ran = parseTimestamp(cs.state!.terminated!.finishedAt!)! - parseTimestamp(startedAt!)!;
    expect(ran).toBeGreaterThanOrEqual(9_000);
    expect(ran).toBeLessThanOrEqual(11_000);
    expect(done.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    // A completed pod is deleted at once when asked (nothing runs).
    call(cluster, 'DELETE', '/api/v1/namespaces/default/pods/x');
    cluster.engine.runUntilIdle();
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/pods/x').status).toBe(404);
  });

  it('keeps what a command prints, restarts by restartPolicy, and serves the previous instance\'s log', () => {
    const { cluster } = setup();
    create(cluster, podOf('loop', [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'for i in 1 2 3; do echo line $i; sleep 1; done; exit 3'] }], { restartPolicy: 'OnFailure' }));
    cluster.engine.runFor(12_000);
    const pod = get(cluster, 'loop');
    const cs = pod.status!.containerStatuses![0]!;
    expect(cs.restartCount).toBeGreaterThanOrEqual(1);
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(logs(cluster, 'loop', 'previous=true').body).toBe('line 1\nline 2\nline 3\n');
    // Exit 0 under OnFailure completes.
    create(cluster, podOf('once', [{ name: 'c', image: 'busybox:1.36', command: ['echo', 'hello', 'world'] }], { restartPolicy: 'OnFailure' }));
    cluster.engine.runFor(8_000);
    expect(get(cluster, 'once').status?.phase).toBe('Succeeded');
    expect(logs(cluster, 'once').body).toBe('hello world\n');
  });

  it('follows a log as a stream until the client cancels it', () => {
    const { cluster } = setup();
    create(cluster, podOf('ticker', [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'while true; do echo tick; sleep 2; done'] }]));
    cluster.engine.runFor(6_000);
    const id = send(cluster, 'GET', '/api/v1/namespaces/default/pods/ticker/log', 'follow=true');
    cluster.engine.runFor(4_100);
    const messages = replies(cluster, id);
    expect((messages[0]!.payload as HttpResponse)).toMatchObject({ status: 200, stream: true });
    const chunks = messages.filter((m) => m.kind === httpKinds.streamData).map((m) => (m.payload as HttpStreamData).data);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks.slice(1)).toEqual(chunks.slice(1).map(() => 'tick\n'));
    cluster.user.request('kube-apiserver', httpKinds.cancel, { requestId: id });
    cluster.engine.runFor(6_000);
    expect(replies(cluster, id).length).toBe(messages.length);
    // The kubelet was told to stop the stream.
    expect(cluster.engine.trace.all().some((m) => m.kind === httpKinds.cancel && m.to === 'kubelet/node-1')).toBe(true);
  });

  it('port-forward goes kube-apiserver → kubelet: the SPDY upgrade is accepted, each chunk reaches nginx on its port, a port nothing listens on gets the runtime\'s refusal, a WebSocket without ports the kubelet\'s 400', () => {
    const { cluster } = setup();
    create(cluster, podOf('web', [{ name: 'nginx', image: 'nginx:1.25.3' }]));
    cluster.engine.runFor(8_000);
    const spdy = { connection: 'Upgrade', upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'portforward.k8s.io' };
    const path = '/api/v1/namespaces/default/pods/web/portforward';
    expect(answer(cluster, 'POST', path, '', spdy)).toMatchObject({ status: 200, body: '' });
    const before = cluster.engine.trace.all().length;
    const id = cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'POST', path, query: 'ports=80', headers: { authorization: `Bearer ${builtinTokens.admin}`, ...spdy },
      body: 'GET / HTTP/1.1\r\nHost: localhost:80\r\nConnection: close\r\n\r\n',
    }).id;
    cluster.engine.runFor(1_000);
    const data = replies(cluster, id).filter((m) => m.kind === httpKinds.streamData).map((m) => m.payload as HttpStreamData);
    expect(data[0]!.channel).toBe(0);
    expect(data[0]!.data).toMatch(/^HTTP\/1\.1 200 OK\r\nServer: nginx\/1\.25\.3\r\n/);
    expect(data[0]!.data).toContain('<h1>Welcome to nginx!</h1>');
    expect(data[1]).toEqual({ channel: 255, data: '' });
    expect(replies(cluster, id).at(-1)!.kind).toBe(httpKinds.watchEnd);
    const toKubelet = cluster.engine.trace.all().slice(before).filter((m) => m.to === 'kubelet/node-1' && m.kind === httpKinds.request);
    expect(toKubelet.map((m) => `${(m.payload as HttpRequest).path}?${(m.payload as HttpRequest).query}`)).toEqual(['/portForward/default/web?port=80']);
    expect((logs(cluster, 'web').body as string).trim().split('\n').at(-1)).toMatch(/^127\.0\.0\.1 - - \[.*\] "GET \/ HTTP\/1\.1" 200 \d+ "-" "-" "-"$/);

    const refused = send(cluster, 'POST', path, 'ports=8080', spdy);
    cluster.engine.runFor(1_000);
    const error = replies(cluster, refused).map((m) => m.payload as HttpStreamData).find((d) => d.channel === 1);
    expect(error?.data).toMatch(/^error forwarding port 8080 to pod [0-9a-f]{64}, uid : failed to connect to localhost:8080 inside namespace "[0-9a-f]{64}", IPv4: dial tcp4 127\.0\.0\.1:8080: connect: connection refused IPv6 dial tcp6 \[::1\]:8080: connect: connection refused $/);

    expect(answer(cluster, 'POST', path, '', { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': 'SPDY/3.1+portforward.k8s.io' })).toMatchObject({ status: 400, body: 'query parameter "port" is required' });
  });

  it('answers exec for the modelled commands, with the exit code in the final Status, and honestly for the rest', () => {
    const { cluster } = setup();
    create(cluster, podOf('web', [{ name: 'nginx', image: 'nginx:1.14.2', env: [{ name: 'GREETING', value: 'hi' }] }]));
    cluster.engine.runFor(8_000);
    expect(exec(cluster, 'web', ['hostname'])).toMatchObject({ stdout: 'web\n', status: { status: 'Success' }, ended: true });
    expect(exec(cluster, 'web', ['nginx', '-v']).stderr).toBe('nginx version: nginx/1.14.2\n');
    expect(exec(cluster, 'web', ['ls', '/usr/share/nginx/html']).stdout).toBe('50x.html\nindex.html\n');
    expect(exec(cluster, 'web', ['cat', '/usr/share/nginx/html/index.html']).stdout).toContain('<title>Welcome to nginx!</title>');
    expect(exec(cluster, 'web', ['env']).stdout).toContain('GREETING=hi\n');
    expect(exec(cluster, 'web', ['env']).stdout).toContain('NGINX_VERSION=1.14.2-1~stretch\n');
    expect(exec(cluster, 'web', ['sh', '-c', 'echo one && echo two']).stdout).toBe('one\ntwo\n');
    const missing = exec(cluster, 'web', ['cat', '/nope']);
    expect(missing.stderr).toBe('cat: /nope: No such file or directory\n');
    expect(missing.status).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ message: '1' }] } });
    const unknown = exec(cluster, 'web', ['curl', 'localhost']);
    expect(unknown.stderr).toContain('"curl localhost" is not modelled in Podflow');
    // Without an upgrade the apiserver refuses, as UpgradeAwareHandler does.
    const plain = answer(cluster, 'POST', '/api/v1/namespaces/default/pods/web/exec', 'command=ls');
    expect(plain.status).toBe(400);
    expect((plain.body as { message: string }).message).toBe('Upgrade request required');
    const none = answer(cluster, 'POST', '/api/v1/namespaces/default/pods/web/exec', '', upgrade);
    expect((none.body as { message: string }).message).toBe('you must specify at least 1 command');
  });

  it('refuses exec to a container that is not running', () => {
    const { cluster } = setup();
    create(cluster, podOf('done', [{ name: 'c', image: 'busybox:1.36', command: ['true'] }], { restartPolicy: 'Never' }));
    cluster.engine.runFor(8_000);
    const r = exec(cluster, 'done', ['ls']);
    expect(r.response.status).toBe(404);
  });
});

describe('images', () => {
  it('refuses an upper-case reference: InvalidImageName with the kubelet\'s message', () => {
    const { cluster } = setup();
    create(cluster, podOf('bad', [{ name: 'c', image: 'Nginx' }]));
    cluster.engine.runFor(3_000);
    const cs = get(cluster, 'bad').status!.containerStatuses![0]!;
    const message = 'Failed to apply default image tag "Nginx": couldn\'t parse image reference "Nginx": invalid reference format: repository name must be lowercase';
    expect(cs.state?.waiting).toEqual({ reason: 'InvalidImageName', message });
    expect(events(cluster, 'bad').map((e) => `${e.type} ${e.reason}: ${e.message ?? ''}`)).toEqual([
      `Warning InspectFailed: ${message}`,
      'Warning Failed: Error: InvalidImageName',
    ]);
  });

  it('pulls from the modelled registry: an unknown repository is denied, an unknown tag is not found', () => {
    const { cluster } = setup();
    create(cluster, podOf('norepo', [{ name: 'c', image: 'nosuchimage' }]));
    create(cluster, podOf('notag', [{ name: 'c', image: 'nginx:9.9.9' }]));
    cluster.engine.runFor(8_000);
    const norepo = get(cluster, 'norepo').status!.containerStatuses![0]!;
    expect(norepo.state?.waiting?.reason).toBe('ImagePullBackOff');
    expect(events(cluster, 'norepo').map((e) => e.message)).toContain('Failed to pull image "nosuchimage": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/nosuchimage:latest": failed to resolve reference "docker.io/library/nosuchimage:latest": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed');
    expect(events(cluster, 'notag').map((e) => e.message)).toContain('Failed to pull image "nginx:9.9.9": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:9.9.9": failed to resolve reference "docker.io/library/nginx:9.9.9": docker.io/library/nginx:9.9.9: not found');
    expect(logs(cluster, 'norepo').body).toMatchObject({ message: 'container "c" in pod "norepo" is waiting to start: trying and failing to pull image' });
  });

  it('records Killing when a pod is deleted with grace 0', () => {
    const { cluster } = setup();
    create(cluster, podOf('web', [{ name: 'nginx', image: 'nginx:1.14.2' }]));
    cluster.engine.runFor(8_000);
    const r = answer(cluster, 'DELETE', '/api/v1/namespaces/default/pods/web', 'gracePeriodSeconds=0');
    expect(r.status).toBe(200);
    cluster.engine.runFor(1_000);
    expect(events(cluster, 'web').map((e) => `${e.reason}: ${e.message ?? ''}`).at(-1)).toBe('Killing: Stopping container nginx');
  });
});

describe('containers over time', () => {
  it('is deterministic: programs, probes and restarts replay identically', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => {
      const { cluster } = setup('containers-det');
      create(cluster, podOf('ticker', [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'while true; do date; sleep 2; done'] }]));
      create(cluster, podOf('live', [{ name: 'nginx', image: 'nginx:1.25.3', livenessProbe: { httpGet: { path: '/nope', port: 80 }, periodSeconds: 3 } }]));
      cluster.engine.runFor(40_000);
      return cluster.engine;
    });
    expect(a).toEqual(b);
  });

  it('keeps a container\'s process going across a kubelet restart (its sleep is armed again)', () => {
    const { cluster } = setup();
    create(cluster, podOf('ticker', [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'while true; do echo tick; sleep 2; done'] }]));
    cluster.engine.runFor(8_000);
    const ticks = () => (logs(cluster, 'ticker').body as string).split('\n').filter((l) => l === 'tick').length;
    const before = ticks();
    expect(before).toBeGreaterThanOrEqual(1);
    cluster.engine.stopComponent('kubelet/node-1');
    cluster.engine.runFor(1_000);
    cluster.engine.startComponent('kubelet/node-1');
    cluster.engine.runFor(7_000);
    expect(ticks()).toBeGreaterThanOrEqual(before + 3);
  });
});
