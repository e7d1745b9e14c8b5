// Test harness for running the real kubectl against an in-process Podflow apiserver: finds kubectl,
// starts the server (fast-forward, free loopback port) with a temporary kubeconfig, cache dir and HOME,
// and runs kubectl asynchronously (the server shares the test's event loop) returning stdout, stderr
// and the exit code.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { expect } from 'vitest';
import { defaultServerOptions, startPodflowServer, type PodflowServer, type ServerOptions } from '../../src/server/server.ts';

/** kubectl on PATH (the Cloud SDK dispatcher on the development machines), or null. */
export function findKubectl(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'kubectl');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return null;
}

export interface KubectlResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

export interface KubectlEnv {
  readonly server: PodflowServer;
  readonly dir: string;
  run(args: readonly string[]): Promise<KubectlResult>;
  /** Starts a long-running kubectl (a watch); the caller kills it. */
  spawn(args: readonly string[]): ChildProcess;
  close(): Promise<void>;
}

export async function startKubectlEnv(kubectl: string, options: Partial<ServerOptions> = {}): Promise<KubectlEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'podflow-kubectl-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0, kubeconfig, ...options });
  const env = { ...process.env, HOME: dir, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };
  const fullArgs = (args: readonly string[]): string[] => ['--cache-dir', join(dir, 'cache'), ...args];
  return {
    server,
    dir,
    run: (args) => new Promise((resolve) => {
      execFile(kubectl, fullArgs(args), { env, cwd: dir, timeout: 60_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ stdout, stderr, code });
      });
    }),
    spawn: (args) => spawn(kubectl, fullArgs(args), { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The stdout of a command that succeeded with nothing on stderr. */
export function ok(r: KubectlResult): string {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

/** Rows of a kubectl table: whitespace-separated cells, header first. */
export function rows(out: string): string[][] {
  return out.trim().split('\n').filter((l) => l.trim() !== '').map((l) => l.trim().split(/\s{2,}|\s(?=\S)/).filter((c) => c !== ''));
}
