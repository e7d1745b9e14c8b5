// A real etcd on loopback for differential tests and benchmarks: finds the binary, starts it on free
// ports with a temporary data dir, waits for /health, and talks to its v3 JSON gateway over a
// keep-alive agent. `stop()` kills it and removes the data dir; a process exit hook does the same if a
// test run dies first.

import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, appendFileSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The etcd binary: $PODFLOW_ETCD if set (empty: none), else etcd on PATH or in /usr/bin; or null. */
export function findEtcd(): string | null {
  return findBinary('etcd', 'PODFLOW_ETCD');
}

/** The etcdctl binary: $PODFLOW_ETCDCTL if set (empty: none), else etcdctl on PATH or in /usr/bin; or null. */
export function findEtcdctl(): string | null {
  return findBinary('etcdctl', 'PODFLOW_ETCDCTL');
}

function findBinary(name: string, variable: string): string | null {
  const forced = process.env[variable];
  if (forced !== undefined) {
    try {
      accessSync(forced, constants.X_OK);
      return forced;
    } catch {
      return null;
    }
  }
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** A free loopback port, not one of `taken` (which it joins). */
export async function freePort(taken: Set<number> = new Set()): Promise<number> {
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

export interface GatewayReply {
  readonly status: number;
  readonly body: unknown;
}

export class RealEtcd {
  readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private constructor(
    readonly url: string,
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly dataDir: string,
    private readonly onExit: () => void,
  ) {}

  static async start(binary: string, options: { logLevel?: string } = {}): Promise<RealEtcd> {
    const taken = new Set<number>();
    const port = await freePort(taken);
    const peer = await freePort(taken);
    const dataDir = mkdtempSync(join(tmpdir(), 'podflow-etcd-'));
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ETCD_')) env[k] = v;
    const name = `podflow${port}`;
    const child = spawn(binary, [
      '--name', name, '--data-dir', dataDir,
      '--listen-client-urls', `http://127.0.0.1:${port}`, '--advertise-client-urls', `http://127.0.0.1:${port}`,
      '--listen-peer-urls', `http://127.0.0.1:${peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peer}`,
      '--initial-cluster', `${name}=http://127.0.0.1:${peer}`, '--initial-cluster-state', 'new',
      '--initial-cluster-token', `tok${port}`, '--logger', 'zap', '--log-outputs', 'stderr',
      '--log-level', options.logLevel ?? 'error',
    ], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-20_000);
      if (process.env['ETCD_STDERR_FILE']) appendFileSync(process.env['ETCD_STDERR_FILE'], chunk);
    });
    child.once('exit', (code, signal) => {
      if (!stopping.value) console.error(`etcd exited unexpectedly (${code ?? signal}):\n${stderr.slice(-4000)}`);
    });
    const stopping = { value: false };
    const onExit = (): void => {
      stopping.value = true;
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    };
    process.once('exit', onExit);
    const etcd = new RealEtcd(`http://127.0.0.1:${port}`, port, child, dataDir, onExit);
    const deadline = performance.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) {
        etcd.stop();
        throw new Error(`etcd exited with ${child.exitCode}: ${stderr}`);
      }
      try {
        const health = await etcd.get('/health');
        if ((health.body as { health?: string }).health === 'true') return etcd;
      } catch {
        // not listening yet
      }
      if (performance.now() > deadline) {
        etcd.stop();
        throw new Error(`etcd did not become healthy within 30 s: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** The etcd process's id (its CPU time is read from /proc by bench/etcd-per-pod.bench.ts). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  stop(): void {
    this.agent.destroy();
    this.onExit();
    process.removeListener('exit', this.onExit);
  }

  get(path: string): Promise<GatewayReply> {
    return this.call('GET', path, undefined);
  }

  post(path: string, body: unknown): Promise<GatewayReply> {
    return this.call('POST', path, JSON.stringify(body));
  }

  private call(method: string, path: string, body: string | undefined): Promise<GatewayReply> {
    return new Promise((resolve, reject) => {
      const req = request(`${this.url}${path}`, { method, agent: this.agent, headers: { 'content-type': 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            reject(new Error(`${method} ${path}: non-JSON reply ${res.statusCode}: ${text.slice(0, 200)}`));
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /**
   * Opens a streaming call (watch, lease keepalive) with all request messages in one body. The gateway
   * answers only once the body ends (etcd-real.md §3.7), so the body is ended at once.
   */
  stream(path: string, messages: unknown[]): RealStream {
    return new RealStream(this, path, messages);
  }
}

/** A newline-delimited JSON response stream: each message is `{"result": …}` or `{"error": …}`. */
export class RealStream {
  readonly messages: unknown[] = [];
  private readonly req: ClientRequest;
  private buffered = '';
  private res: IncomingMessage | null = null;
  private waiters: Array<() => void> = [];

  constructor(etcd: RealEtcd, path: string, messages: unknown[]) {
    // A dedicated socket: a stream never returns its connection to the pool.
    this.req = request(`${etcd.url}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      this.res = res;
      res.on('data', (chunk: Buffer) => {
        this.buffered += chunk.toString();
        let nl: number;
        while ((nl = this.buffered.indexOf('\n')) >= 0) {
          const line = this.buffered.slice(0, nl).trim();
          this.buffered = this.buffered.slice(nl + 1);
          if (line) this.messages.push(JSON.parse(line));
        }
        const waiters = this.waiters;
        this.waiters = [];
        for (const w of waiters) w();
      });
      res.on('error', () => undefined);
    });
    this.req.on('error', () => undefined);
    this.req.end(messages.map((m) => JSON.stringify(m)).join('\n'));
  }

  /** Waits until `pred()` holds or `timeoutMs` passes; returns whether it held. */
  async until(pred: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!pred()) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  close(): void {
    this.res?.destroy();
    this.req.destroy();
  }
}
