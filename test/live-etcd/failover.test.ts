// Failover: Podflow's apiserver on a real three-member etcd, given all three client URLs. The member the
// apiserver is pinned to is killed; the next requests fail over to another member and succeed, and the
// watch streams, opened again on that member from the next revision, keep the controllers, scheduler and
// kubelets going (a scale-up's new pods reach Running). Skipped, with a message, without etcd or kubectl.

import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { findKubectl, startKubectlEnv, type KubectlEnv } from '../kubectl/harness.ts';
import { findEtcd } from '../etcd/real-etcd.ts';
import { RealEtcdCluster as EtcdCluster } from '../etcd/real-etcd-cluster.ts';
import { until } from '../wait.ts';

/** Each check may run kubectl: poll every 200 ms, for up to a minute. */
const slow = { timeoutMs: 60_000, everyMs: 200 };

const kubectl = findKubectl();
const etcdBinary = findEtcd();
if (!kubectl || !etcdBinary) console.warn('test/live-etcd failover: SKIPPED, it needs both kubectl and etcd on PATH');

const manifests = join(import.meta.dirname, '..', 'kubectl', 'manifests');

async function runningPods(env: KubectlEnv): Promise<number> {
  const out = (await env.run(['get', 'pods', '-o', 'jsonpath={range .items[*]}{.status.phase}{"\\n"}{end}'])).stdout;
  return out.split('\n').filter((l) => l === 'Running').length;
}

describe.skipIf(!kubectl || !etcdBinary)('the apiserver on a real three-member etcd', () => {
  let etcd: EtcdCluster | null = null;
  let env: KubectlEnv | null = null;
  afterAll(async () => {
    await env?.close();
    etcd?.stop();
  });

  test('the pinned member dies: requests fail over to another member and succeed, and watches resume there', async () => {
    etcd = await EtcdCluster.start(etcdBinary!);
    env = await startKubectlEnv(kubectl!, { fastForward: false, etcdServers: etcd.urls });
    const member = env.server.host.realEtcd!;
    const failovers: string[] = [];
    member.client.onFailover = (from, to) => failovers.push(`${from} -> ${to}`);
    await until('three Ready nodes', async () => ((await env!.run(['get', 'nodes'])).stdout.match(/ Ready /g) ?? []).length === 3, slow);
    const create = await env.run(['create', '-f', join(manifests, 'nginx-deployment.yaml')]);
    expect(create.stdout).toBe('deployment.apps/nginx-deployment created\n');
    await until('the pod Running', async () => (await runningPods(env!)) === 1, slow);

    const pinned = `http://${member.client.pinned}`;
    await etcd.kill(pinned);
    const scaled = await env.run(['scale', 'deployment/nginx-deployment', '--replicas=3']);
    expect(scaled.stderr).toBe('');
    expect(scaled.stdout).toBe('deployment.apps/nginx-deployment scaled\n');
    // The first move is off the dead member; a survivor may answer Unavailable too while it elects a new
    // leader ("etcdserver: leader changed"), and the pin moves on again.
    expect(`http://${member.client.pinned}`).not.toBe(pinned);
    expect(failovers[0]).toMatch(new RegExp(`^${pinned.slice('http://'.length)} -> `));
    await until('three pods Running after the failover', async () => (await runningPods(env!)) === 3, slow);
    const get = await env.run(['get', 'deployment', 'nginx-deployment']);
    expect(get.stdout).toMatch(/^nginx-deployment\s+3\/3\s+3\s+3\s/m);
  }, 180_000);
});
