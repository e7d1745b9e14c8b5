// Light records of etcd's replies (issue 20): when the trace summarizes an etcd member's reply that
// carries key-values (Range, Put/DeleteRange with prevKv, Txn, watch events), the record keeps the reply
// with each stored key-value replaced by its key and mod revision; inspecting the step reads the key-value
// back from that member's MVCC backend at that revision, the same object the reply carried. A reply whose
// key-values etcd has compacted since gives undefined: the trace shows its summary. The reply's
// request-stats line is kept as its time spent and remote (zapLine renders it again from the stats), when
// rendering it so gives the same line.

import type { Message, PayloadRebuilder } from './engine/index.ts';
import type { KeyValue } from './etcd/kv.ts';
import type { WriteRecord } from './etcd/messages.ts';
import type { RequestOp } from './etcd/rpc.ts';
import { loggedContext, zapLine, type RequestStats, type RequestStatsContext } from './etcd/request-stats.ts';
import { apiserverBodiesRebuilder } from './trace-payloads-http.ts';
import { KvRef, putValueRef, resolve, type HistoryMember } from './trace-payloads-refs.ts';

export type { HistoryMember } from './trace-payloads-refs.ts';

/** A request-stats line of a light record: rendered again by zapLine from the reply's stats. */
class LogRef {
  constructor(readonly ctx: RequestStatsContext) {}
}

const kvFieldCount = 6;

/** Go's time.Duration.String() read back into ms (goDuration's inverse): `2.663ms`, `500.308µs`, `1.2s`, `0s`. */
function durationMs(text: string): number | undefined {
  const match = /^([0-9.]+)(ns|µs|ms|s)$/.exec(text);
  if (!match) return undefined;
  const scale = { ns: 1e-6, µs: 1e-3, ms: 1, s: 1000 }[match[2] as 'ns' | 'µs' | 'ms' | 's'];
  return Number(match[1]) * scale;
}

/**
 * The context `log` was rendered with, when rendering `stats` with it gives `log` again: the one etcd's
 * server rendered it with (loggedContext), else the start is the reply's send time and the time spent
 * and remote are read from the line.
 */
function logContext(log: string, stats: RequestStats, startMs: number, remotes: Map<string, string>): RequestStatsContext | undefined {
  const known = loggedContext(stats, log);
  if (known !== undefined) return known;
  const line = JSON.parse(log) as Record<string, unknown>;
  const spentMs = typeof line['time spent'] === 'string' ? durationMs(line['time spent']) : undefined;
  const remote = line.remote;
  if (spentMs === undefined || typeof remote !== 'string') return undefined;
  if (!remotes.has(remote)) remotes.set(remote, remote);
  const ctx = { startMs, spentMs, remote: remotes.get(remote)! };
  return zapLine(stats, ctx) === log ? ctx : undefined;
}

/** A stored key-value with a value (tombstones and keys-only results are small and stay in place). */
function isStoredKv(value: object): value is KeyValue {
  const kv = value as Partial<KeyValue>;
  return typeof kv.key === 'string' && typeof kv.modRevision === 'number' && typeof kv.value === 'string' && kv.value !== ''
    && typeof kv.createRevision === 'number' && typeof kv.version === 'number' && kv.lease !== undefined && Object.keys(value).length === kvFieldCount;
}

/** `value` with its stored key-values replaced by refs; the same object when it holds none. */
function withRefs(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof KvRef) return value;
  // Walked without building entry pairs or a mapped list: most of what a reply carries has no key-value,
  // and is given back as it is.
  if (Array.isArray(value)) {
    let items: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const light = withRefs(item);
      if (light !== item) items ??= value.slice();
      if (items) items[i] = light;
    }
    return items ?? value;
  }
  if (isStoredKv(value)) return new KvRef(value.key, value.modRevision);
  let copy: Record<string, unknown> | null = null;
  const fields = value as Record<string, unknown>;
  for (const field in fields) {
    if (!Object.hasOwn(fields, field)) continue;
    const item = fields[field];
    const light = withRefs(item);
    if (light !== item) copy ??= { ...value };
    if (copy) copy[field] = light;
  }
  return copy ?? value;
}

/** The reply `ref` rebuilds to: its log line rendered again from its stats. */
function withLog(reply: unknown): unknown {
  const r = reply as { log?: unknown; stats?: RequestStats };
  return r.log instanceof LogRef ? { ...r, log: zapLine(r.stats!, r.log.ctx) } : reply;
}

/** `reply` (a light one) with the values its write record's puts stored as ValueRefs. */
function withWriteValueRefs(member: HistoryMember, reply: unknown): unknown {
  const write = (reply as { write?: WriteRecord | null } | null)?.write;
  if (!write?.changed) return reply;
  let ops: RequestOp[] | null = null;
  for (const [i, op] of write.ops.entries()) {
    const light = putValueRef(member, op, write.revision);
    if (light !== op) (ops ??= [...write.ops])[i] = light;
  }
  return ops ? { ...(reply as object), write: { ...write, ops } } : reply;
}

/**
 * Light records of what etcd's history can give back (`members`; `epochMs`: the engine's, for log lines'
 * times). The replies of `members`: their stored key-values and the values their writes stored as refs,
 * their request-stats line as its context; replies with none of these stay summaries. kube-apiserver's
 * Txn requests and the objects of its answers: trace-payloads-http.ts.
 */
export function etcdHistoryRebuilder(members: readonly HistoryMember[], epochMs: number): PayloadRebuilder {
  const byName = new Map(members.filter((m) => m.store?.backend).map((m) => [m.name, m]));
  const remotes = new Map<string, string>();
  const apiserver = apiserverBodiesRebuilder([...byName.values()]);
  const isReply = (message: Message) => byName.has(message.from) && message.kind.startsWith('etcd.');
  return {
    refOf(message: Message, reply: () => Message | undefined): unknown {
      if (!isReply(message)) return apiserver.refOf(message, reply);
      let ref = withWriteValueRefs(byName.get(message.from)!, withRefs(message.payload));
      const light = ref as { log?: unknown; stats?: RequestStats | null } | null;
      const ctx = typeof light?.log === 'string' && light.stats ? logContext(light.log, light.stats, epochMs + message.sentAt, remotes) : undefined;
      if (ctx) ref = { ...light, log: new LogRef(ctx) };
      return ref === message.payload ? undefined : ref;
    },
    rebuild(message: Message, ref: unknown): unknown {
      if (!isReply(message)) return apiserver.rebuild(message, ref);
      const whole = resolve(ref, [byName.get(message.from)!]);
      return whole === undefined ? undefined : withLog(whole);
    },
  };
}
