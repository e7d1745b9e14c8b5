// The HTTP client the load benchmarks of the Node front share (http.bench.ts, server.bench.ts): one
// request with its whole body, a watch read as JSON lines, and a percentile of sorted latencies.

import { request, type Agent } from 'node:http';
import type { PodflowServer } from '../src/server/server.ts';

/** One request (JSON body when given) and its status and body. */
export function call(server: PodflowServer, agent: Agent, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.front.port, path, method, agent, headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

export interface WatchEventLine {
  readonly type: string;
  readonly object: { readonly metadata: { readonly name: string; readonly resourceVersion: string } };
}

/** Opens a watch (`path` with its query) and hands every event to `onEvent`; resolves once the response has begun, with a way to end it. */
export function watchLines(server: PodflowServer, agent: Agent, path: string, onEvent: (event: WatchEventLine) => void): Promise<{ close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.front.port, path, agent, headers: { accept: 'application/json' } }, (res) => {
      let buffer = '';
      res.on('data', (b: Buffer) => {
        buffer += b.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) onEvent(JSON.parse(line) as WatchEventLine);
      });
      res.on('error', () => undefined);
      resolve({ close: () => req.destroy() });
    });
    req.on('error', (err) => {
      if (!req.destroyed) reject(err);
    });
    req.end();
  });
}

/** The p-th percentile of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
