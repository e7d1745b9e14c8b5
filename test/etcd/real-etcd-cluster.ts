// A real etcd cluster of several members on loopback, for tests and benchmarks that compare the model's
// members with etcd's: each member has its own data dir, client and peer port, and a name (`etcd-1` …
// by default, as the model names its members). `kill(i)` stops one member as a crash does (SIGKILL);
// `restart(i)` starts it again on its data dir and ports. `stop()` ends them all and removes their data;
// a process exit hook does the same if a test run dies first.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './real-etcd.ts';

/** GET `<url>/health`: true when the member answers `"health":"true"` (it has a leader and commits). */
export function healthy(url: string): Promise<boolean> {
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

interface MemberPorts {
  readonly name: string;
  readonly client: number;
  readonly peer: number;
}

export class RealEtcdCluster {
  private constructor(
    private readonly binary: string,
    private readonly ports: readonly MemberPorts[],
    private readonly members: Array<ChildProcess | null>,
    private readonly dir: string,
    private readonly token: string,
    private readonly onExit: () => void,
  ) {}

  /** Client URLs (`http://127.0.0.1:<port>`), in member order. */
  get urls(): string[] {
    return this.ports.map((p) => `http://127.0.0.1:${p.client}`);
  }

  /** Client endpoints as etcdctl's `--endpoints` takes them (`127.0.0.1:<port>`), in member order. */
  get endpoints(): string[] {
    return this.ports.map((p) => `127.0.0.1:${p.client}`);
  }

  get names(): string[] {
    return this.ports.map((p) => p.name);
  }

  static async start(binary: string, size = 3, options: { names?: readonly string[] } = {}): Promise<RealEtcdCluster> {
    const taken = new Set<number>();
    const ports: MemberPorts[] = [];
    for (let i = 0; i < size; i++) {
      ports.push({ name: options.names?.[i] ?? `etcd-${i + 1}`, client: await freePort(taken), peer: await freePort(taken) });
    }
    const dir = mkdtempSync(join(tmpdir(), 'podflow-etcd-cluster-'));
    const members: Array<ChildProcess | null> = ports.map(() => null);
    const onExit = (): void => {
      for (const m of members) m?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
    process.once('exit', onExit);
    const cluster = new RealEtcdCluster(binary, ports, members, dir, `podflow-${ports[0]!.client}`, onExit);
    for (let i = 0; i < size; i++) cluster.spawn(i);
    if (!(await cluster.waitHealthy(cluster.urls, 30_000))) {
      cluster.stop();
      throw new Error('the etcd cluster did not become healthy within 30 s');
    }
    return cluster;
  }

  private spawn(i: number): void {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ETCD_')) env[k] = v;
    const p = this.ports[i]!;
    const initial = this.ports.map((q) => `${q.name}=http://127.0.0.1:${q.peer}`).join(',');
    this.members[i] = spawn(this.binary, [
      '--name', p.name, '--data-dir', join(this.dir, p.name),
      '--listen-client-urls', `http://127.0.0.1:${p.client}`, '--advertise-client-urls', `http://127.0.0.1:${p.client}`,
      '--listen-peer-urls', `http://127.0.0.1:${p.peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${p.peer}`,
      '--initial-cluster', initial, '--initial-cluster-state', 'new', '--initial-cluster-token', this.token,
      '--logger', 'zap', '--log-outputs', 'stderr', '--log-level', 'error',
    ], { env, stdio: 'ignore' });
  }

  /** Waits until every URL answers healthy; false after `timeoutMs`. */
  async waitHealthy(urls: readonly string[], timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!(await Promise.all(urls.map(healthy))).every(Boolean)) {
      if (performance.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  }

  /** Kills member `i` (or the member serving URL `i`) at once (SIGKILL) and waits for it to be gone. */
  async kill(member: number | string): Promise<void> {
    const i = typeof member === 'number' ? member : this.urls.indexOf(member);
    const child = this.members[i];
    if (child === undefined) throw new Error(`no member ${member}`);
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    this.members[i] = null;
  }

  /** Starts member `i` again on its data dir (its WAL and snapshot) and ports. */
  restart(i: number): void {
    if (this.members[i] !== null) throw new Error(`member ${i} is running`);
    this.spawn(i);
  }

  stop(): void {
    this.onExit();
    process.removeListener('exit', this.onExit);
  }
}
