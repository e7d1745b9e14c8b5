// A real client in CI: the official Kubernetes Python client (Debian's python3-kubernetes, which .ci/run
// installs) against the Podflow apiserver lists, creates, watches a Pod until it is Running, and gets 410 on
// a stale watch. Reported skipped, with a message, when /usr/bin/python3 has no `kubernetes` module.

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../../src/server/server.ts';
import { until } from '../wait.ts';

const python = '/usr/bin/python3';

function pythonClient(): boolean {
  try {
    execFileSync(python, ['-c', 'import kubernetes'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const available = pythonClient();
if (!available) console.warn('test/clients: /usr/bin/python3 has no kubernetes module (apt-get install python3-kubernetes); the Python client test is skipped');

const dir = mkdtempSync(join(tmpdir(), 'podflow-python-'));
let server: PodflowServer | null = null;

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface PythonReport {
  readonly namespaces: string[];
  readonly nodes: string[];
  readonly configmap: { name: string; uid: boolean; data: Record<string, string> };
  readonly listed: string[];
  readonly pod: string;
  readonly watched: Array<[string, string, boolean]>;
  readonly stale: { status: number; reason: string } | null;
  readonly staleEvents?: string[];
}

describe.skipIf(!available)('the Kubernetes Python client', () => {
  test('lists, creates, watches a Pod until Running, and gets 410 on a stale watch', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    server = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0, seed: 'python', kubeconfig });
    // Make resourceVersion 1 stale the way a real cluster does: etcd compacted, the watch caches relisted.
    const cluster = server.host.cluster;
    cluster.faults.compactNow();
    cluster.faults.breakEtcdWatches();
    await until('the ConfigMap watch cache relisted', () => (cluster.apiserver.watchCacheWindowOf('/registry/configmaps')?.oldestServable ?? 0) > 1);

    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(python, [join(import.meta.dirname, 'python_client.py'), kubeconfig, '1'], { timeout: 120_000 }, (err, out, errOut) => {
        if (err) reject(new Error(`${err.message}\n${errOut}`));
        else resolve(out);
      });
    });
    const report = JSON.parse(stdout) as PythonReport;
    expect(report.namespaces).toEqual(expect.arrayContaining(['default', 'kube-node-lease', 'kube-public', 'kube-system']));
    expect(report.nodes).toEqual(['node-1', 'node-2', 'node-3']);
    expect(report.configmap).toEqual({ name: 'from-python', uid: true, data: { greeting: 'hello' } });
    expect(report.listed).toEqual(['from-python']);
    // Watched from the create's resourceVersion: updates only, bound to a node, ending Running.
    expect(report.watched.length).toBeGreaterThan(0);
    expect(report.watched.every(([type]) => type === 'MODIFIED')).toBe(true);
    expect(report.watched.at(-1)).toEqual(['MODIFIED', 'Running', true]);
    // The client retries a 410 once, then raises it.
    expect(report.stale?.status).toBe(410);
    expect(report.stale?.reason).toMatch(/^Expired: too old resource version: 1 \(\d+\)$/);
  }, 150_000);
});
