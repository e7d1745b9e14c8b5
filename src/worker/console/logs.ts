// Collects the lines of the logs panel from what the engine delivers: etcd's request-stats lines (each
// etcd reply carries the line etcd 3.4 logs at debug level), kube-apiserver's audit events (read from
// its audit log as JSON lines, as the log backend writes them), and kubectl's request lines (handed in
// by the console). Lines are kept until the next flush, the newest `logPageLimit` of them; an audit line is
// written out (its event as JSON), and an etcd line read for its RPC and key, only when a flush ships it.
//
// "Expensive" is Podflow's flag, not etcd's: a Range answering at least `expensiveCount` keys or
// `expensiveBytes` bytes (the seeds' label-selector list of a namespace's pods is the example). etcd 3.4
// itself warns only about slow requests ("apply request took too long").

import type { LogLine } from '../../protocol/console.ts';
import { logPageLimit, logTailLimit } from '../../protocol/console.ts';
import type { AuditEvent } from '../../sim/apiserver/filters/audit.ts';
import type { RequestStats } from '../../sim/etcd/request-stats.ts';
import type { Message } from '../../sim/engine/index.ts';

export const expensiveCount = 10;
export const expensiveBytes = 64 * 1024;

/** The audit log of kube-apiserver, as the host can see it. */
export interface AuditSource {
  /** How many events were ever recorded. */
  readonly recorded: number;
  /** The retained events recorded after the first `count` (all that are left, if some of those were dropped). */
  since(count: number): readonly AuditEvent[];
}

interface StatsReply {
  readonly stats: RequestStats | null;
  readonly log: string | null;
}

function isStatsReply(payload: unknown): payload is StatsReply {
  return typeof payload === 'object' && payload !== null && 'log' in payload && typeof (payload as StatsReply).log === 'string' && 'stats' in payload;
}

/** The first `key:"…"` of a request-stats content (Go-quoted; escapes left as they are). */
export function firstKey(content: string): string | undefined {
  const match = /key:"((?:[^"\\]|\\.)*)"/.exec(content);
  return match?.[1];
}

/** `/etcdserverpb.KV/Range` → `Range`. */
export function rpcName(responseType: string): string {
  return responseType.slice(responseType.lastIndexOf('/') + 1);
}

export function isExpensive(stats: RequestStats): boolean {
  return stats.responseType.endsWith('/Range') && (stats.responseCount >= expensiveCount || stats.responseSize >= expensiveBytes);
}

/** An audit event as the JSON log backend writes it (audit.k8s.io/v1 Event). */
export function auditLine(e: AuditEvent): string {
  return JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', ...e });
}

/**
 * A line kept until a flush: an audit event is written out as its JSON line, and an etcd reply's line
 * read for its RPC, key and size, only if the flush ships it.
 */
type Pending = LogLine
  | { readonly source: 'audit'; readonly step: number; readonly event: AuditEvent }
  | { readonly source: 'etcd'; readonly step: number; readonly reply: StatsReply & { readonly log: string } };

function written(line: Pending): LogLine {
  if ('event' in line) {
    const { step, event } = line;
    return { source: 'audit', step, text: auditLine(event), rpc: event.verb, key: event.requestURI.split('?')[0]! };
  }
  if ('reply' in line) {
    const { step, reply: { stats, log } } = line;
    const key = stats ? firstKey(stats.requestContent) : undefined;
    return {
      source: 'etcd', step, text: log,
      ...(stats ? { rpc: rpcName(stats.responseType), expensive: isExpensive(stats) } : {}),
      ...(key !== undefined ? { key } : {}),
    };
  }
  return line;
}

export class LogCollector {
  private lines: Pending[] = [];
  private omitted = 0;
  /** How many audit events had been recorded when they were last read. */
  private auditRead: number;

  /** Starts after the audit events already recorded (boot's), so the panel shows what happens from now on. */
  constructor(private readonly audit: AuditSource | null) {
    this.auditRead = audit?.recorded ?? 0;
  }

  /** Looks at one delivery (after it ran): etcd replies give request-stats lines, new audit events give audit lines. */
  observe(step: number, message: Message): void {
    if (message.replyTo !== null && isStatsReply(message.payload) && message.payload.log !== null) {
      this.push({ source: 'etcd', step, reply: { stats: message.payload.stats, log: message.payload.log } });
    }
    if (this.audit) this.readAudit(step);
  }

  kubectl(step: number, text: string, method: string, path: string): void {
    this.push({ source: 'kubectl', step, text: text.trimEnd(), rpc: method, key: path });
  }

  /**
   * The newest `limit` lines since the last flush (and how many older ones were left out), or null when
   * there are none. At most `logPageLimit` are kept between flushes: what the page holds, for a Logs panel
   * shown after a while hidden (the reporter does not flush meanwhile).
   */
  flush(limit = logTailLimit): { lines: LogLine[]; omitted: number } | null {
    if (this.lines.length === 0 && this.omitted === 0) return null;
    const over = Math.max(0, this.lines.length - limit);
    const out = { lines: this.lines.slice(over).map(written), omitted: this.omitted + over };
    this.lines = [];
    this.omitted = 0;
    return out;
  }

  /** The audit events recorded since the last read (asked after every delivery: only the new ones are touched). */
  private readAudit(step: number): void {
    const audit = this.audit!;
    if (audit.recorded === this.auditRead) return;
    for (const event of audit.since(this.auditRead)) this.push({ source: 'audit', step, event });
    this.auditRead = audit.recorded;
  }

  private push(line: Pending): void {
    this.lines.push(line);
    if (this.lines.length >= 2 * logPageLimit) {
      const drop = this.lines.length - logPageLimit;
      this.lines.splice(0, drop);
      this.omitted += drop;
    }
  }
}
