// `etcdctl endpoint health` and `etcdctl endpoint status` as etcdctl 3.4.23 prints them (simple and
// `-w table`, `-w json` for status). health is what etcdctl does: a linearizable Get of the key "health"
// (any answer, even an empty one, means the member committed a proposal), timed; status reads the
// member's identity, revision and raft term from the header of a serializable Get.
// Deviations: the model has no Maintenance.Status RPC, raft log or bbolt file. The raft index and raft
// applied index print the store's revision (each modelled write is one raft entry), and the DB size is an
// estimate of bbolt's file: its fixed 20 kB (meta, freelist and bucket pages of a fresh etcd) plus the
// stored revisions (17-byte revision key, the KeyValue's key and value, ~24 bytes of fields) in 4 KiB pages.
// Models go.etcd.io/etcd/etcdctl/ctlv3/command/ep_command.go (epHealth, epStatus) and printer_simple.go /
// printer_table.go (olekukonko/tablewriter: centred upper-case headers, numbers right-aligned).

import { etcdKinds, type EtcdReply } from '../../sim/etcd/server.ts';
import type { RangeResponse } from '../../sim/etcd/rpc.ts';
import { awaitReply, type Co, type Message } from '../../sim/engine/index.ts';
import type { CommandIO } from './http.ts';

export const etcdEndpoint = '127.0.0.1:2379';
export const etcdVersion = '3.4.23';

/** What the console can read of the etcd member beyond its replies (the bbolt size estimate). */
export interface EtcdMemberView {
  /** Bytes of the stored revisions: their keys and values. */
  storedBytes(): { revisions: number; bytes: number };
}

/** go-humanize's Bytes: SI units, one decimal below 10. */
export function humanizeBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  const e = Math.floor(Math.log(n) / Math.log(1000));
  const val = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  // fmt's %.0f rounds an exact half to even (20.5 → 20).
  const whole = val - Math.floor(val) === 0.5 && Math.floor(val) % 2 === 0 ? Math.floor(val) : Math.round(val);
  return `${val < 10 ? val.toFixed(1) : String(whole)} ${units[e]}`;
}

/** Go's time.Duration String for a whole number of microseconds or more. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1) return `${Number((ms * 1000).toFixed(3))}µs`;
  if (ms < 1000) return `${Number(ms.toFixed(6))}ms`;
  return `${Number((ms / 1000).toFixed(9))}s`;
}

const numeric = /^-?(?:\d{1,3}(?:,\d{3})*|\d+)(?:\.\d+)?$/;

/** olekukonko/tablewriter as etcdctl configures it: borders, centred headers, numbers right-aligned. */
export function tablewriter(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const heads = header.map((h) => h.toUpperCase());
  const widths = heads.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  const center = (s: string, w: number): string => {
    const gap = w - s.length;
    const left = Math.floor(gap / 2);
    return ' '.repeat(left) + s + ' '.repeat(gap - left);
  };
  const row = (cells: readonly string[], head: boolean): string =>
    `|${cells.map((c, i) => ` ${head ? center(c, widths[i]!) : numeric.test(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)} `).join('|')}|\n`;
  return line + row(heads, true) + line + rows.map((r) => row(r, false)).join('') + line;
}

function* get(io: CommandIO, serializable: boolean): Co<{ reply: EtcdReply<RangeResponse>; ms: number }> {
  const sentAt = io.engine.now;
  const message = io.user.request('etcd', etcdKinds.range, { key: 'health', ...(serializable ? { serializable: true } : {}) });
  const reply = (yield* awaitReply<EtcdReply<RangeResponse>>(message.id)) as Message<EtcdReply<RangeResponse>>;
  return { reply: reply.payload, ms: io.engine.now - sentAt };
}

/** Runs `etcdctl endpoint health|status …` (argv after `endpoint`); returns the exit code. */
export function* runEndpoint(io: CommandIO, argv: readonly string[], member: EtcdMemberView | null): Co<number> {
  const words: string[] = [];
  let format = 'simple';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-w' || a === '--write-out') format = argv[++i] ?? 'simple';
    else if (a.startsWith('--write-out=')) format = a.slice('--write-out='.length);
    else if (a.startsWith('-w=')) format = a.slice(3);
    else if (a === '--endpoints' || a === '--command-timeout') i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  if (!['simple', 'table', 'json'].includes(format)) {
    io.err(`Error: unsupported output format ${format} in the simulation\n`);
    return 4;
  }
  const sub = words[0];
  if (sub === 'health') {
    const { reply, ms } = yield* get(io, false);
    const error = reply.ok ? '' : String((reply.error as { message?: string }).message ?? 'error');
    const took = goDuration(ms);
    if (format === 'table') {
      io.out(tablewriter(['endpoint', 'health', 'took', 'error'], [[etcdEndpoint, String(error === ''), took, error]]));
    } else if (format === 'json') {
      io.out(`[${JSON.stringify({ endpoint: etcdEndpoint, health: error === '', took, ...(error ? { error } : {}) })}]\n`);
    } else if (error === '') {
      io.err(`${etcdEndpoint} is healthy: successfully committed proposal: took = ${took}\n`);
    } else {
      io.err(`${etcdEndpoint} is unhealthy: failed to commit proposal: ${error}\n`);
    }
    if (error !== '') {
      io.err('Error: unhealthy cluster\n');
      return 1;
    }
    return 0;
  }
  if (sub === 'status') {
    const { reply } = yield* get(io, true);
    const header = reply.ok ? reply.response.header : null;
    if (!header) {
      io.err(`Failed to get the status of endpoint ${etcdEndpoint}\n`);
      return 1;
    }
    const id = BigInt(header.memberId).toString(16);
    const stored = member?.storedBytes() ?? { revisions: 0, bytes: 0 };
    const dbSize = 20480 + Math.ceil((stored.bytes + stored.revisions * (17 + 24)) / 4096) * 4096;
    const row = [etcdEndpoint, id, etcdVersion, humanizeBytes(dbSize), 'true', 'false', String(header.raftTerm), String(header.revision), String(header.revision), ''];
    if (format === 'table') {
      io.out(tablewriter(['endpoint', 'ID', 'version', 'db size', 'is leader', 'is learner', 'raft term', 'raft index', 'raft applied index', 'errors'], [row]));
    } else if (format === 'json') {
      const h = { cluster_id: Number(BigInt(header.clusterId)), member_id: Number(BigInt(header.memberId)), revision: header.revision, raft_term: header.raftTerm };
      io.out(`[${JSON.stringify({ Endpoint: etcdEndpoint, Status: { header: h, version: etcdVersion, dbSize, leader: h.member_id, raftIndex: header.revision, raftTerm: header.raftTerm, raftAppliedIndex: header.revision, dbSizeInUse: dbSize } })}]\n`);
    } else {
      io.out(`${row.join(', ')}\n`);
    }
    return 0;
  }
  io.err(sub === undefined
    ? 'Error: endpoint needs a subcommand: health, status or hashkv\n'
    : `Error: unknown command "${sub}" for "etcdctl endpoint"\n`);
  return 1;
}
