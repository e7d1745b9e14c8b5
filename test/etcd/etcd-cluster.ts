// A real three-member etcd cluster on loopback for failover tests: each member has its own data dir,
// client and peer port; `kill(i)` stops one member as a crash does (SIGKILL). `stop()` ends them all and
// removes their data; a process exit hook does the same if a test run dies first.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function freePort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    if (!taken.has(port)) {
      taken.add(port);
      return port;
    }
  }
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get(`${url}/health`, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body.includes('"health":"true"')));
    });
    req.on('error', () => resolve(false));
    req.setTimeout(1000, () => req.destroy());
  });
}

export class EtcdCluster {
  private constructor(readonly urls: readonly string[], private readonly members: ChildProcess[], private readonly dir: string, private readonly onExit: () => void) {}

  static async start(binary: string, size = 3): Promise<EtcdCluster> {
    const taken = new Set<number>();
    const ports: Array<{ client: number; peer: number; name: string }> = [];
    for (let i = 0; i < size; i++) ports.push({ client: await freePort(taken), peer: await freePort(taken), name: `m${i + 1}` });
    const dir = mkdtempSync(join(tmpdir(), 'podflow-etcd-cluster-'));
    const initial = ports.map((p) => `${p.name}=http://127.0.0.1:${p.peer}`).join(',');
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ETCD_')) env[k] = v;
    const members = ports.map((p) => spawn(binary, [
      '--name', p.name, '--data-dir', join(dir, p.name),
      '--listen-client-urls', `http://127.0.0.1:${p.client}`, '--advertise-client-urls', `http://127.0.0.1:${p.client}`,
      '--listen-peer-urls', `http://127.0.0.1:${p.peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${p.peer}`,
      '--initial-cluster', initial, '--initial-cluster-state', 'new', '--initial-cluster-token', `podflow-${ports[0]!.client}`,
      '--logger', 'zap', '--log-outputs', 'stderr', '--log-level', 'error',
    ], { env, stdio: 'ignore' }));
    const onExit = (): void => {
      for (const m of members) m.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
    process.once('exit', onExit);
    const cluster = new EtcdCluster(ports.map((p) => `http://127.0.0.1:${p.client}`), members, dir, onExit);
    const deadline = performance.now() + 30_000;
    while (!(await Promise.all(cluster.urls.map(healthy))).every(Boolean)) {
      if (performance.now() > deadline) {
        cluster.stop();
        throw new Error('the etcd cluster did not become healthy within 30 s');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return cluster;
  }

  /** Kills the member serving `url` at once (SIGKILL) and waits for it to be gone. */
  async kill(url: string): Promise<void> {
    const member = this.members[this.urls.indexOf(url)];
    if (member === undefined) throw new Error(`no member at ${url}`);
    if (member.exitCode !== null || member.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      member.once('exit', () => resolve());
      member.kill('SIGKILL');
    });
  }

  stop(): void {
    this.onExit();
    process.removeListener('exit', this.onExit);
  }
}
