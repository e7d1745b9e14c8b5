// Real kubectl against Podflow's apiserver on a real etcd (`--etcd-servers`): create, scale and delete;
// stop the server and start a new one on the same etcd, which finds every object where it was (pods still
// Running, same names); then a second apiserver process on that etcd serves the same objects, and a watch
// on it sees a pod created through the first. Skipped, with a message, without etcd or kubectl.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { findKubectl, startKubectlEnv, type KubectlEnv, type KubectlResult } from '../kubectl/harness.ts';
import { findEtcd, RealEtcd } from '../etcd/real-etcd.ts';
import { until } from '../wait.ts';

/** Each check may run kubectl: poll every 200 ms, for up to a minute. */
const slow = { timeoutMs: 60_000, everyMs: 200 };

const kubectl = findKubectl();
const etcdBinary = findEtcd();
if (!kubectl || !etcdBinary) console.warn('test/live-etcd kubectl: SKIPPED, it needs both kubectl and etcd on PATH');

const manifests = join(import.meta.dirname, '..', 'kubectl', 'manifests');

function ok(r: KubectlResult): string {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

/** `NAME STATUS` of every pod, sorted. */
async function podPhases(env: KubectlEnv): Promise<string[]> {
  const out = ok(await env.run(['get', 'pods', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.status.phase}{"\\n"}{end}']));
  return out.trim().split('\n').filter((l) => l !== '').sort();
}

const allRunning = (phases: string[], n: number) => phases.length === n && phases.every((p) => p.endsWith(' Running'));

describe.skipIf(!kubectl || !etcdBinary)('real kubectl against the apiserver on a real etcd', () => {
  let etcd: RealEtcd | null = null;
  let env: KubectlEnv | null = null;
  let second: ChildProcess | null = null;
  let watch: ChildProcess | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'podflow-live-etcd-'));

  afterAll(async () => {
    watch?.kill();
    second?.kill('SIGTERM');
    await env?.close();
    etcd?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('create, scale, delete; a restart finds everything; a second apiserver serves it and watches the first one\'s writes', async () => {
    etcd = await RealEtcd.start(etcdBinary!);
    const onEtcd = { fastForward: false, etcdServers: [etcd.url] };
    env = await startKubectlEnv(kubectl!, onEtcd);
    await until('three Ready nodes', async () => ((await env!.run(['get', 'nodes'])).stdout.match(/ Ready /g) ?? []).length === 3, slow);

    ok(await env.run(['create', '-f', join(manifests, 'nginx-deployment.yaml')]));
    ok(await env.run(['create', '-f', join(manifests, 'replicaset.yaml')]));
    await until('the Deployment\'s pod and the ReplicaSet\'s two pods Running', async () => allRunning(await podPhases(env!), 3), slow);
    expect(ok(await env.run(['scale', 'deployment/nginx-deployment', '--replicas=3']))).toBe('deployment.apps/nginx-deployment scaled\n');
    await until('five pods Running', async () => allRunning(await podPhases(env!), 5), slow);
    expect(ok(await env.run(['delete', 'replicaset', 'my-replicaset']))).toBe('replicaset.apps "my-replicaset" deleted\n');
    await until('the ReplicaSet\'s pods gone', async () => allRunning(await podPhases(env!), 3), slow);
    const before = await podPhases(env);
    const leadersBefore = ok(await env.run(['get', 'leases', '-n', 'kube-system', 'kube-controller-manager', 'kube-scheduler',
      '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.holderIdentity}/{.spec.leaseTransitions} {end}']));

    // Restart: a new apiserver (its own controllers, scheduler and kubelets) on the same etcd.
    await env.close();
    env = await startKubectlEnv(kubectl!, onEtcd);
    // The same pods, on the same nodes' kubelets, Running. Those kubelets are new (the whole cluster
    // restarted, its container runtime with it): each container that was running is gone, so they count a
    // restart and start it again, and the pod stays Running meanwhile (convertToAPIContainerStatuses).
    expect(await podPhases(env)).toEqual(before);
    const restarts = async () => ok(await env!.run(['get', 'pods', '-o',
      'jsonpath={range .items[*]}{.status.phase} {.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].ready}{"\\n"}{end}']));
    await until('each pod\'s container restarted once and Ready', async () => (await restarts()).trim().split('\n').every((l) => l === 'Running 1 true'), slow);
    expect(await podPhases(env)).toEqual(before);
    // Their events name the pod's kind though the new kubelets listed the pods (a LIST's items carry none).
    const involved = ok(await env.run(['get', 'events', '-o', 'jsonpath={range .items[*]}{.involvedObject.kind}/{.involvedObject.name}{"\\n"}{end}']));
    expect(involved.split('\n').filter((l) => l.startsWith('/'))).toEqual([]);
    expect(ok(await env.run(['get', 'deployments']))).toMatch(/^nginx-deployment\s+3\/3\s+3\s+3\s/m);
    expect(ok(await env.run(['get', 'replicasets']))).not.toMatch(/my-replicaset/);

    // A second apiserver process on the same etcd: its controller manager and scheduler stand by.
    const holders = async () => ok(await env!.run(['get', 'leases', '-n', 'kube-system', 'kube-controller-manager', 'kube-scheduler',
      '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.holderIdentity}/{.spec.leaseTransitions} {end}']));
    await until('the restarted apiserver\'s controller manager and scheduler to lead', async () => {
      const now = (await holders()).trim().split(' ');
      const was = leadersBefore.trim().split(' ');
      return now.length === 2 && now.every((lease) => !was.includes(lease));
    }, slow);
    const leaders = await holders();
    const kubeconfig = join(dir, 'second.kubeconfig');
    second = spawn(process.execPath, [join('node_modules', '.bin', 'tsx'), 'src/server/main.ts', '--port', '0', `--etcd-servers=${etcd.url}`, '--kubeconfig', kubeconfig],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let banner = '';
    second.stdout!.on('data', (chunk: Buffer) => (banner += chunk.toString()));
    await until('the second apiserver\'s start line', async () => /^Podflow apiserver.*export KUBECONFIG=/m.test(banner), { timeoutMs: 90_000, everyMs: 200 });
    expect(banner).toMatch(/on the real etcd at 127\.0\.0\.1:\d+ \(not deterministic\)/);
    const secondEnv = { KUBECONFIG: kubeconfig };
    const runSecond = (args: string[]) => new Promise<KubectlResult>((resolve) => {
      const child = spawn(kubectl!, ['--cache-dir', join(dir, 'cache2'), ...args], { env: { ...process.env, ...secondEnv, HOME: dir } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ stdout, stderr, code: code ?? 1 }));
    });
    // The second process's own kubelets (node-1..3 too) resync the pods as they start, so a pod may read
    // Pending for a moment before its containers run again: wait for the same pods, Running.
    const secondPhases = async () => ok(await runSecond(['get', 'pods', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.status.phase}{"\\n"}{end}']))
      .trim().split('\n').filter((l) => l !== '').sort();
    await until('the second apiserver to list the same pods Running', async () => (await secondPhases()).join('\n') === before.join('\n'), slow);

    // Its pods watch cache must have listed first: kubectl lists from etcd and then watches from that
    // revision, which a cache that lists later is past (410 too old resource version, as a real
    // kube-apiserver answers while its caches start; kubectl then prints the Status and exits).
    await until('the second apiserver\'s pods cache to serve', async () => {
      const cached = await runSecond(['get', '--raw', '/api/v1/namespaces/default/pods?resourceVersion=0']);
      return cached.code === 0 && before.every((p) => cached.stdout.includes(`"name":"${p.split(' ')[0]}"`));
    }, slow);
    watch = spawn(kubectl!, ['--cache-dir', join(dir, 'cache2'), 'get', 'pods', '--watch', '-o', 'name'], { env: { ...process.env, ...secondEnv, HOME: dir } });
    let watched = '';
    watch.stdout!.on('data', (c: Buffer) => (watched += c.toString()));
    watch.stderr!.on('data', (c: Buffer) => (watched += c.toString()));
    await until('the watch on the second apiserver to list the pods', async () => watched.split('\n').length > before.length, slow);
    expect(watched, 'the watch lists the pods and goes on watching').not.toMatch(/^status\//m);
    ok(await env.run(['run', 'through-first', '--image=nginx']));
    await until('the second apiserver\'s watch to see the pod created through the first', async () => watched.includes('pod/through-first'), slow)
      .catch((e: Error) => { throw new Error(`${e.message}; the watch printed:\n${watched}`); });
    await until('the new pod Running', async () => allRunning(await podPhases(env!), before.length + 1), slow);
    expect(await holders()).toBe(leaders);
    expect((await podPhases(env)).filter((p) => !p.startsWith('through-first '))).toEqual(before);
  }, 300_000);
});
