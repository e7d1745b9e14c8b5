// `npm run apiserver -- --etcd-listen=127.0.0.1:0`: prints the endpoint's address, and real etcdctl's
// endpoint and member commands work against it.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findEtcdctl } from './endpoints.ts';

const etcdctl = findEtcdctl();
if (!etcdctl) console.warn('test/etcd-grpc: etcdctl is absent; the --etcd-listen command-line test is SKIPPED');

describe.skipIf(!etcdctl)('npm run apiserver -- --etcd-listen', () => {
  const dir = mkdtempSync(join(tmpdir(), 'podflow-etcd-listen-'));
  let child: ChildProcess;
  let address = '';
  const ctl = async (...args: string[]) => promisify(execFile)(etcdctl!, [`--endpoints=${address}`, ...args]);

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--port', '0', '--nodes', '1', '--fast-forward',
      '--etcd-listen=127.0.0.1:0', '--kubeconfig', join(dir, 'kubeconfig')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    address = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const found = /^Podflow etcd at (127\.0\.0\.1:\d+) \(etcdctl --endpoints=\1 /m.exec(out);
        if (found) resolve(found[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
  }, 60_000);
  afterAll(() => {
    child?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test('endpoint health, endpoint status, member list and the cluster kubectl sees', async () => {
    expect((await ctl('endpoint', 'health')).stderr).toMatch(new RegExp(`^${address} is healthy: successfully committed proposal: took = [0-9.]+[µm]?s\\n$`));
    expect((await ctl('endpoint', 'status')).stdout).toMatch(new RegExp(`^${address}, 8e9e05c52164694d, 3\\.4\\.23, \\d+ kB, true, false, 2, (\\d+), \\1, \\n$`));
    expect((await ctl('member', 'list')).stdout).toBe(`8e9e05c52164694d, started, default, http://localhost:2380, http://${address}, false\n`);
    expect((await ctl('get', '/registry/namespaces/', '--prefix', '--keys-only')).stdout).toContain('/registry/namespaces/kube-system\n');
    const unimplemented = await ctl('snapshot', 'save', join(dir, 'snap.db')).catch((e: { stderr: string }) => e);
    expect(unimplemented.stderr).toContain('code = Unimplemented');
  });
});
