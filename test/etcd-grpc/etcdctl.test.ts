// Real etcdctl 3.4 against the model's gRPC endpoint and against a real etcd 3.4.23: the same script of
// commands, outputs (stdout, stderr, exit code) identical after normalising only what legitimately differs —
// the endpoint address, cluster and member IDs, raft term, lease IDs, each side's base revision (the
// model's etcd already holds a Kubernetes cluster), durations, and clientv3's per-process log fields.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findEtcdctl, startEndpoints, type Endpoints } from './endpoints.ts';

const etcdctl = findEtcdctl();
if (!etcdctl) console.warn('test/etcd-grpc: etcd or etcdctl is absent; the etcdctl comparison is SKIPPED');

interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

/**
 * etcdctl prints a watch event in several writes (its type, then the key and value lines, the previous ones
 * first with --prev-kv), and an interrupt between two of them cuts the event. So once a watch's output
 * satisfies `until`, it is interrupted only after its output has stopped growing for this long (a busy
 * machine once cut the real etcdctl's last DELETE before its empty value line).
 */
const watchSettleMs = 300;

/** Runs etcdctl; a watch (`until` given) runs until its stdout satisfies `until` and settles, then is interrupted. */
function run(endpoint: string, args: readonly string[], options: { stdin?: string; until?: (stdout: string, stderr: string) => boolean } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(etcdctl!, [`--endpoints=${endpoint}`, '--command-timeout=10s', ...args], { env: { ...process.env, ETCDCTL_API: '3' } });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let settling: ReturnType<typeof setTimeout> | undefined;
    const check = (): void => {
      clearTimeout(settling);
      if (options.until?.(stdout, stderr)) settling = setTimeout(() => child.kill('SIGINT'), watchSettleMs);
    };
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      check();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      check();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(settling);
      resolve({ stdout, stderr, code: options.until ? null : code });
    });
    child.stdin.on('error', () => undefined);
    // An interactive watch reads its requests until EOF: its stdin stays open until it is interrupted.
    if (options.until) child.stdin.write(options.stdin ?? '');
    else child.stdin.end(options.stdin ?? '');
  });
}

/** A step of the script: `$B+k` in an argument is the side's base revision plus k, `$L` the lease granted. */
interface Step {
  readonly args: string;
  readonly stdin?: string;
  /** For watches: how many events (PUT/DELETE lines or JSON responses' events) to wait for, 'canceled' or 'progress'. */
  readonly watch?: number | 'canceled' | 'progress';
  /** Keep the lease ID this step prints as `$L`. */
  readonly grantsLease?: boolean;
}

const script: Step[] = [
  { args: 'put key1 v1' },
  { args: 'put key2 v2' },
  { args: 'put key3 v3 -w json' },
  { args: 'put key1 v1b --prev-kv' },
  { args: 'put key1 v1c --prev-kv -w json' },
  { args: 'get key --prefix' },
  { args: 'get key --prefix -w json' },
  { args: 'get key --prefix --keys-only' },
  { args: 'get key2 --from-key' },
  { args: 'get key --prefix --limit 2 -w json' },
  { args: 'get key --prefix --sort-by=MODIFY --order=DESCEND' },
  { args: 'get key --prefix --keys-only -w json' },
  { args: 'get key --prefix --print-value-only' },
  { args: 'get key1 --rev $B+1 -w json' },
  { args: 'get key1 key3' },
  { args: 'get key1 --rev $B+1000' },
  { args: 'get nothing -w json' },
  { args: 'del key3 --prev-kv' },
  { args: 'del nothing' },
  { args: 'txn -i', stdin: 'value("key1") = "v1c"\nmod("key2") > "0"\n\nput key4 v4\nget key1\n\nget key2\n\n' },
  { args: 'txn -w json', stdin: 'version("key1") = "5"\n\nput key5 v5\n\nput key6 v6\ndel key2\n\n' },
  { args: 'get key --prefix' },
  { args: 'put key4 --ignore-value' },
  { args: 'put nothing --ignore-value' },
  { args: 'get key4 --consistency=s -w json' },
  { args: 'lease grant 100', grantsLease: true },
  { args: 'put leased1 l1 --lease=$L' },
  { args: 'put leased2 l2 --lease=$L -w json' },
  { args: 'get leased --prefix -w json' },
  { args: 'lease timetolive $L --keys' },
  { args: 'lease keep-alive --once $L' },
  { args: 'lease revoke $L' },
  { args: 'get leased --prefix' },
  { args: 'lease timetolive $L' },
  { args: 'lease revoke $L' },
  { args: 'put leased3 l3 --lease=$L' },
  { args: 'watch --rev $B+1 --prev-kv key --prefix', watch: 10 },
  { args: 'watch -w json --rev $B+3 --prev-kv key3', watch: 2 },
  { args: 'watch -w json --rev $B+2 key1', watch: 2 },
  { args: 'watch --rev $B+1 leased --prefix', watch: 4 },
  { args: 'compaction $B+5' },
  { args: 'get key1 --rev $B+2' },
  { args: 'get key1 --rev $B+5' },
  { args: 'compaction $B+3' },
  { args: 'compaction --physical $B+6' },
  { args: 'watch --rev $B+2 key1', watch: 'canceled' },
  { args: 'del key --from-key --prev-kv -w json' },
  { args: 'watch --rev $B+5 key1 --prev-kv', watch: 1 },
  { args: 'watch -i', stdin: 'watch key1\nprogress\n', watch: 'progress' },
  { args: 'put "" x' },
  { args: 'endpoint health' },
  { args: 'alarm list' },
  { args: 'user list' },
  { args: 'role list' },
  { args: 'user get root' },
  { args: 'role get root' },
  { args: 'auth enable' },
  { args: 'auth disable' },
];

/** Splits a step's arguments like a shell does for the quoted `""`. */
function argv(args: string, base: number, lease: string): string[] {
  return args.replace(/\$B\+(\d+)/g, (_, k: string) => String(base + Number(k))).replace(/\$L/g, lease)
    .split(' ').map((a) => (a === '""' ? '' : a));
}

function eventCount(stdout: string): number {
  let n = 0;
  for (const line of stdout.split('\n')) {
    if (line === 'PUT' || line === 'DELETE') n++;
    else if (line.startsWith('{')) n += ((JSON.parse(line) as { Events?: unknown[] }).Events ?? []).length;
  }
  return n;
}

const revisionFields = new Set(['revision', 'create_revision', 'mod_revision', 'compact_revision', 'CompactRevision']);

function normaliseJson(value: unknown, base: number): unknown {
  if (Array.isArray(value)) return value.map((v) => normaliseJson(v, base));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'cluster_id' || k === 'member_id' || k === 'raft_term') out[k] = '<id>';
    else if ((k === 'ID' || k === 'lease') && v !== 0) out[k] = '<lease>';
    else if (revisionFields.has(k) && typeof v === 'number' && v > 0) out[k] = `$B+${v - base}`;
    else out[k] = normaliseJson(v, base);
  }
  return out;
}

function normalise(text: string, endpoint: string, base: number, lease: string): string {
  return text.split('\n').map((line) => {
    if (line.startsWith('{"level"')) {
      // clientv3's retry log: time, client UUID and the endpoint differ per process.
      return line.replace(/"ts":"[^"]*"/, '"ts":"<ts>"').replace(/client-[0-9a-f-]+/, 'client-<uuid>');
    }
    if (line.startsWith('{')) return JSON.stringify(normaliseJson(JSON.parse(line), base));
    return line;
  }).join('\n')
    .replaceAll(endpoint, '<endpoint>')
    .replace(/took = [0-9.]+[µnm]?s/g, 'took = <duration>')
    .replace(/remaining\(\d+s\)/g, 'remaining(<s>)')
    // etcd 3.4 lists a lease's keys by ranging over a Go map (lease/lessor.go Lease.Keys), so their order
    // differs from run to run; the model lists them in byte order. Compare them as a set.
    .replace(/attached keys\(\[([^\]]*)\]\)/g, (_, keys: string) => `attached keys([${keys.split(' ').sort().join(' ')}])`)
    .replace(/(compacted revision|progress notify:) (\d+)/g, (_, what: string, r: string) => `${what} $B+${Number(r) - base}`)
    .replace(/(?<![0-9a-f])[0-9a-f]{16}(?![0-9a-f])/g, (hex) => (lease !== '' && hex === lease ? '<lease>' : hex));
}

interface Transcript {
  readonly steps: Array<{ readonly args: string; readonly stdout: string; readonly stderr: string; readonly code: number | null }>;
}

async function transcript(endpoint: string): Promise<Transcript> {
  const first = await run(endpoint, ['put', 'base', 'x', '-w', 'json']);
  const base = (JSON.parse(first.stdout) as { header: { revision: number } }).header.revision;
  let lease = '';
  const steps: Transcript['steps'][number][] = [];
  for (const step of script) {
    const args = argv(step.args, base, lease);
    const watch = step.watch;
    const result = await run(endpoint, args, {
      ...(step.stdin !== undefined ? { stdin: step.stdin } : {}),
      // A watch the server cancels ends by itself: etcdctl prints why, then exits (watch_command.go's
      // "watch is canceled by the server"). Interrupting it once "canceled" shows would race that last line.
      ...(watch === undefined || watch === 'canceled' ? {} : {
        until: watch === 'progress' ? (out: string) => out.includes('progress notify')
          : (out: string) => eventCount(out) >= watch,
      }),
    });
    if (step.grantsLease) lease = /lease ([0-9a-f]+) granted/.exec(result.stdout)?.[1] ?? '';
    steps.push({
      args: step.args,
      stdout: normalise(result.stdout, endpoint, base, lease),
      stderr: normalise(result.stderr, endpoint, base, lease),
      code: result.code,
    });
  }
  return { steps };
}

describe.skipIf(!etcdctl)('real etcdctl 3.4: the model etcd over gRPC answers as etcd 3.4.23 does', () => {
  let endpoints: Endpoints;
  beforeAll(async () => {
    endpoints = await startEndpoints();
  }, 60_000);
  afterAll(async () => {
    await endpoints?.stop();
  });

  test('the same script prints the same output against both', async () => {
    const real = await transcript(endpoints.real);
    const model = await transcript(endpoints.model);
    // The oracle did what the script expects (the comparison below is not vacuous).
    const byArgs = (t: Transcript, args: string) => t.steps.find((s) => s.args === args)!;
    expect(byArgs(real, 'get key --prefix').stdout).toBe('key1\nv1c\nkey2\nv2\nkey3\nv3\n');
    expect(byArgs(real, 'get key1 --rev $B+2').stderr).toContain('etcdserver: mvcc: required revision has been compacted');
    expect(byArgs(real, 'watch --rev $B+1 --prev-kv key --prefix').stdout.split('\n').filter((l) => l === 'PUT' || l === 'DELETE')).toHaveLength(10);
    const canceled = byArgs(real, 'watch --rev $B+2 key1');
    expect(canceled.stderr).toBe('watch was canceled (etcdserver: mvcc: required revision has been compacted)\nError: watch is canceled by the server\n');
    expect(canceled.code).toBe(5); // ExitInterrupted (etcdctl/ctlv3/command/error.go)
    expect(byArgs(real, 'watch -i').stdout).toBe('progress notify: $B+13\n');
    for (const [i, step] of real.steps.entries()) expect({ args: step.args, ...model.steps[i] }).toEqual({ ...step });
  }, 120_000);

  test('each call is a message of the caller connection, and etcd logs the caller address as remote', async () => {
    const { server } = endpoints;
    const seen: string[] = [];
    const stop = server.host.onDelivery((m) => {
      if (m.to === 'etcd' && m.from.startsWith('etcd-client/')) seen.push(`${m.from} ${m.kind}`);
    });
    const logs: string[] = [];
    const stopLogs = server.host.onDelivery((m) => {
      const payload = m.payload as { log?: string | null };
      if (m.from === 'etcd' && m.to.startsWith('etcd-client/') && typeof payload.log === 'string') logs.push(payload.log);
    });
    const result = await run(endpoints.model, ['put', 'traced', 'yes']);
    stop();
    stopLogs();
    expect(result.stdout).toBe('OK\n');
    expect(seen).toHaveLength(1);
    const [client, kind] = seen[0]!.split(' ');
    expect(kind).toBe('etcd.Put');
    expect(client).toMatch(/^etcd-client\/127\.0\.0\.1:\d+$/);
    expect(logs.join('\n')).toContain(`"remote":"${client!.slice('etcd-client/'.length)}"`);
  });
});
