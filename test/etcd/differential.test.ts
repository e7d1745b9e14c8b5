// Differential test: seeded random sequences of Put/Range/DeleteRange/Txn/Compact/Lease/Watch run
// against a real etcd 3.4 (its v3 JSON gateway) and against the simulated EtcdServer, comparing every
// response field by field and every watch stream event by event.
//
// One etcd process serves every sequence. Sequences are isolated by key prefix (`d<seed>/<n>/…`,
// increasing, so "every key ≥ k" ranges see nothing of earlier sequences) and by revision baseline: the
// simulation starts fresh for each sequence, its revision 1 standing for the real revision R0 at which
// the sequence starts, so every revision is compared as `real − (R0 − 1)`. Compaction is global in the
// real etcd; the simulation starts each sequence with the real compaction revision mapped the same way.
// Lease IDs the servers pick differ (they are time-based) and are mapped from the grant responses.
// Not compared: cluster/member IDs and raft term (they differ per data dir), the remaining TTL of a
// lease within ±1 s (wall clock vs virtual clock), the order of a lease's keys (Go map order) and of
// `leases` (equal expiries), and watch message boundaries of catch-up responses (timing of the sync
// loop); watch events themselves are compared one by one.
//
// Env: PODFLOW_ETCD (the etcd binary; empty: none), ETCD_DIFF_SEED (default fixed), ETCD_DIFF_RUNS (default 200), ETCD_DIFF_OPS (default 100),
// ETCD_DIFF_PATH (replay one failing sequence: the `path` fast-check prints).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Component, Engine, type Message } from '../../src/sim/engine/index.ts';
import { prefixEnd, utf8ToByteString } from '../../src/sim/etcd/bytes.ts';
import * as gw from '../../src/sim/etcd/gateway.ts';
import type {
  Compare, CompareResult, CompareTarget, LeaseGrantResponse, RequestOp, SortOrder, SortTarget, TxnRequest, WatchRequest,
  WatchResponse,
} from '../../src/sim/etcd/rpc.ts';
import { EtcdServer, type EtcdReply, type WatchStreamResponse } from '../../src/sim/etcd/server.ts';
import { findEtcd, RealEtcd, type RealStream } from './real-etcd.ts';
import type { EtcdRequestKind, MessageMap } from '../../src/sim/messages/index.ts';

const binary = findEtcd();
if (binary === null) console.warn('differential etcd test SKIPPED: no etcd binary on PATH (install Debian etcd-server)');

const seed = Number(process.env['ETCD_DIFF_SEED'] ?? 20_260_522);
const runs = Number(process.env['ETCD_DIFF_RUNS'] ?? 200);
const opsPerRun = Number(process.env['ETCD_DIFF_OPS'] ?? 100);

// ---------------------------------------------------------------------------------------------------
// Plans: abstract operations, resolved against the simulation's state when they run.

// Keys and values are byte strings (one char per byte): text goes in as its UTF-8 bytes. 'p😀' and
// 'p\uFF5E' sort in UTF-8 byte order (the emoji's F0 after EF), the reverse of their UTF-16 order.
const names = ['a', 'a/b', 'a/c', 'b', 'b/x', 'c', 'ca', 'd', 'é', 'p😀', 'p\uFF5E', 'z'].map(utf8ToByteString);
/** A revision pick: 0..1 maps onto [1, current + 1] (the last is a future revision). */
type RevPick = number;
type LeasePick = number; // 0..1 over the known leases, or unknown when ≥ 0.9
type EndPick = 'none' | 'prefix' | 'gte' | number;

interface PutPlan { t: 'put'; k: number; v: string; lease: LeasePick | null; prevKv: boolean; ignoreValue: boolean; ignoreLease: boolean }
interface RangePlan {
  t: 'range'; k: number; end: EndPick; limit: number; rev: RevPick | null | -1; sortOrder: SortOrder | null;
  sortTarget: SortTarget | null; keysOnly: boolean; countOnly: boolean; serializable: boolean;
  minMod: RevPick | null; maxMod: RevPick | null; minCreate: RevPick | null; maxCreate: RevPick | null;
}
interface DelPlan { t: 'del'; k: number; end: EndPick; prevKv: boolean }
interface ComparePlan { k: number; end: EndPick; target: CompareTarget; result: CompareResult; rev: RevPick; version: number; v: string; lease: LeasePick }
interface TxnPlan { t: 'txn'; compares: ComparePlan[]; success: OpPlan[]; failure: OpPlan[] }
type OpPlan = PutPlan | RangePlan | DelPlan | TxnPlan;
interface CompactPlan { t: 'compact'; rev: RevPick }
interface GrantPlan { t: 'grant'; ttl: number; id: 'new' | 'auto' | 'existing' }
interface LeasePlan { t: 'revoke' | 'keepalive'; lease: LeasePick }
interface TtlPlan { t: 'ttl'; lease: LeasePick; keys: boolean }
interface LeasesPlan { t: 'leases' }
interface WatchPlan { t: 'watch'; k: number; end: EndPick; start: RevPick | null; prevKv: boolean; filter: 'NOPUT' | 'NODELETE' | null; extra: 'none' | 'cancel' | 'progress' | 'dup' | 'id' }
type Plan = OpPlan | CompactPlan | GrantPlan | LeasePlan | TtlPlan | LeasesPlan | WatchPlan;

const unit = fc.double({ min: 0, max: 0.999, noNaN: true });
const keyArb = fc.integer({ min: 0, max: names.length - 1 });
const endArb: fc.Arbitrary<EndPick> = fc.oneof(
  { arbitrary: fc.constant('none' as const), weight: 5 },
  { arbitrary: fc.constant('prefix' as const), weight: 3 },
  { arbitrary: fc.constant('gte' as const), weight: 1 },
  { arbitrary: keyArb, weight: 2 },
);
const valueArb = fc.constantFrom('', 'v1', 'v2', 'value-3', utf8ToByteString('ü'), 'k8s\0\n\x15\xff\x80', 'x'.repeat(40));
const optRev = (arb: fc.Arbitrary<number>) => fc.option(arb, { freq: 4 });

const rarely = fc.integer({ min: 0, max: 9 }).map((n) => n === 0);
const putArb: fc.Arbitrary<PutPlan> = fc.record({
  t: fc.constant('put' as const), k: keyArb, v: valueArb, lease: fc.option(unit, { freq: 2 }),
  prevKv: fc.boolean(), ignoreValue: rarely, ignoreLease: rarely,
});
const rangeArb: fc.Arbitrary<RangePlan> = fc.record({
  t: fc.constant('range' as const), k: keyArb, end: endArb, limit: fc.constantFrom(0, 0, 0, 1, 2, 5, -1),
  rev: fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: unit, weight: 2 }, { arbitrary: fc.constant(-1 as const), weight: 1 }),
  sortOrder: fc.option(fc.constantFrom<SortOrder>('NONE', 'ASCEND', 'DESCEND'), { freq: 3 }),
  sortTarget: fc.option(fc.constantFrom<SortTarget>('KEY', 'VERSION', 'CREATE', 'MOD', 'VALUE'), { freq: 3 }),
  keysOnly: fc.boolean(), countOnly: fc.oneof({ arbitrary: fc.constant(false), weight: 5 }, { arbitrary: fc.constant(true), weight: 1 }),
  serializable: fc.boolean(),
  minMod: optRev(unit), maxMod: optRev(unit), minCreate: optRev(unit), maxCreate: optRev(unit),
});
const delArb: fc.Arbitrary<DelPlan> = fc.record({ t: fc.constant('del' as const), k: keyArb, end: endArb, prevKv: fc.boolean() });
const compareArb: fc.Arbitrary<ComparePlan> = fc.record({
  k: keyArb, end: fc.oneof({ arbitrary: fc.constant('none' as const), weight: 6 }, { arbitrary: fc.constant('prefix' as const), weight: 1 }),
  target: fc.constantFrom<CompareTarget>('VERSION', 'CREATE', 'MOD', 'MOD', 'VALUE', 'LEASE'),
  result: fc.constantFrom<CompareResult>('EQUAL', 'EQUAL', 'GREATER', 'LESS', 'NOT_EQUAL'),
  rev: fc.oneof(unit, fc.constant(-5)), version: fc.integer({ min: 0, max: 3 }), v: valueArb, lease: unit,
});
const simpleOpArb: fc.Arbitrary<OpPlan> = fc.oneof(putArb, rangeArb, delArb);
const txnArb = (depth: number): fc.Arbitrary<TxnPlan> => {
  const op: fc.Arbitrary<OpPlan> = depth > 0
    ? fc.oneof({ arbitrary: simpleOpArb, weight: 6 }, { arbitrary: fc.constant(null).chain(() => txnArb(depth - 1)), weight: 1 })
    : simpleOpArb;
  return fc.record({
    t: fc.constant('txn' as const), compares: fc.array(compareArb, { maxLength: 3 }),
    success: fc.array(op, { maxLength: 4 }), failure: fc.array(op, { maxLength: 3 }),
  });
};
const planArb: fc.Arbitrary<Plan> = fc.oneof(
  { arbitrary: putArb, weight: 20 },
  { arbitrary: rangeArb, weight: 14 },
  { arbitrary: delArb, weight: 6 },
  { arbitrary: txnArb(1), weight: 16 },
  { arbitrary: fc.record({ t: fc.constant('compact' as const), rev: unit }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('grant' as const), ttl: fc.constantFrom(30, 60, 300, 9_000_000_001), id: fc.constantFrom('new' as const, 'auto' as const, 'existing' as const) }), weight: 4 },
  { arbitrary: fc.record({ t: fc.constantFrom('revoke' as const, 'keepalive' as const), lease: unit }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('ttl' as const), lease: unit, keys: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('leases' as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      t: fc.constant('watch' as const), k: keyArb, end: endArb, start: fc.option(unit, { freq: 2 }), prevKv: fc.boolean(),
      filter: fc.option(fc.constantFrom('NOPUT' as const, 'NODELETE' as const), { freq: 4 }),
      extra: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'cancel' as const, 'progress' as const, 'dup' as const, 'id' as const),
    }), weight: 3,
  },
);

const sequenceArb = fc.array(planArb, { minLength: opsPerRun, maxLength: opsPerRun })
  // The divergence message shows the operations that matter; keep fast-check's report short.
  .map((plans) => Object.assign(plans, { [fc.toStringMethod]: () => `<${plans.length} operations>` }));

// ---------------------------------------------------------------------------------------------------
// The simulated side: an engine with the EtcdServer and a driver that collects replies and streams.

class Driver extends Component {
  readonly replies = new Map<number, Message>();
  readonly streams = new Map<string, WatchResponse[]>();
  receive(message: Message): void {
    if (message.kind === 'etcd.WatchResponse') {
      const { stream, response } = message.payload as WatchStreamResponse;
      let list = this.streams.get(stream);
      if (list === undefined) this.streams.set(stream, (list = []));
      list.push(response);
    } else if (message.replyTo !== null) this.replies.set(message.replyTo, message);
  }
}

class Sim {
  readonly engine = new Engine({ seed: 'differential' });
  readonly etcd = this.engine.add(new EtcdServer('etcd'));
  readonly driver = this.engine.add(new Driver('driver'));
  constructor() {
    this.engine.link('etcd', 'driver', { latency: 0 });
  }
  /** Moves virtual time to whole ms `ms` (whole ms keep the engine's microsecond rounding exact). */
  advanceTo(ms: number): void {
    const target = Math.floor(ms);
    if (target > this.engine.now) this.engine.run({ until: target });
  }
  call<K extends EtcdRequestKind>(kind: K, payload: MessageMap[K]): EtcdReply<unknown> {
    const m = this.engine.send('driver', 'etcd', kind, payload);
    this.engine.run({ until: this.engine.now });
    const reply = this.driver.replies.get(m.id);
    if (reply === undefined) throw new Error(`no reply to ${kind}`);
    return reply.payload as EtcdReply<unknown>;
  }
  watch(stream: string, request: WatchRequest): void {
    this.engine.send('driver', 'etcd', 'etcd.Watch', { stream, request });
    this.engine.run({ until: this.engine.now });
  }
}

// ---------------------------------------------------------------------------------------------------
// Translation between the two revision and lease-ID spaces, on gateway JSON.

type J = gw.Json;
const revisionFields = new Set(['revision', 'create_revision', 'mod_revision', 'compact_revision', 'start_revision',
  'min_mod_revision', 'max_mod_revision', 'min_create_revision', 'max_create_revision']);
const leaseFields = new Set(['lease', 'ID']);

function mapJson(j: J, f: (field: string, v: J) => J): J {
  if (Array.isArray(j)) return j.map((x) => mapJson(x, f));
  if (j === null || typeof j !== 'object') return j;
  const out: { [k: string]: J } = {};
  for (const [k, v] of Object.entries(j)) out[k] = f(k, mapJson(v, f));
  return out;
}

class Spaces {
  readonly simToReal = new Map<string, string>();
  readonly realToSim = new Map<string, string>();
  constructor(readonly offset: number) {}
  toReal(j: J): J {
    return mapJson(j, (k, v) => {
      if (revisionFields.has(k) && typeof v === 'string' && Number(v) > 0) return String(Number(v) + this.offset);
      if (leaseFields.has(k) && typeof v === 'string') return this.simToReal.get(v) ?? v;
      return v;
    });
  }
  fromReal(j: J): J {
    return mapJson(j, (k, v) => {
      if (revisionFields.has(k) && typeof v === 'string' && Number(v) > 0) return String(Number(v) - this.offset);
      if (leaseFields.has(k) && typeof v === 'string') return this.realToSim.get(v) ?? v;
      return v;
    });
  }
}

/** Drops what differs per data dir: cluster and member IDs and the raft term. */
function dropIds(j: J): J {
  return mapJson(j, (k, v) => {
    if (k === 'header' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const { cluster_id: _c, member_id: _m, raft_term: _r, ...rest } = v;
      return rest;
    }
    return v;
  });
}

const httpStatus: Record<number, number> = { 3: 400, 11: 400, 5: 404, 9: 412, 8: 429, 2: 500 };

// ---------------------------------------------------------------------------------------------------

interface SequenceState {
  readonly prefix: string;
  readonly sim: Sim;
  readonly spaces: Spaces;
  readonly started: number;
  leases: string[]; // sim IDs known to this sequence
  nextLease: number;
  readonly watches: Array<{ name: string; real: RealStream }>;
  readonly log: string[];
}

describe.skipIf(binary === null)('differential: simulated etcd vs real etcd 3.4', () => {
  let real: RealEtcd;
  let realCompact = -1;
  let sequence = 0;
  let totalOps = 0;

  beforeAll(async () => {
    real = await RealEtcd.start(binary!);
  }, 60_000);

  afterAll(() => {
    real?.stop();
  });

  async function currentRealRevision(prefix: string): Promise<number> {
    const r = await real.post('/v3/kv/range', { key: gw.rangeRequestJson({ key: prefix }).key, count_only: true });
    return Number(((r.body as { header: { revision: string } }).header).revision);
  }

  const key = (s: SequenceState, i: number): string => s.prefix + names[i]!;
  function end(s: SequenceState, k: number, e: EndPick): string | undefined {
    if (e === 'none') return undefined;
    if (e === 'prefix') return prefixEnd(key(s, k));
    if (e === 'gte') return '\0';
    return key(s, e);
  }
  const rev = (s: SequenceState, p: RevPick): number => (p < 0 ? p : 1 + Math.floor(p * (s.sim.etcd.store.currentRev + 1)));
  function lease(s: SequenceState, p: LeasePick): string {
    if (p >= 0.9 || s.leases.length === 0) return String(900_000_000 + sequence);
    return s.leases[Math.floor((p / 0.9) * s.leases.length)]!;
  }

  function resolveOp(s: SequenceState, p: OpPlan): RequestOp {
    switch (p.t) {
      case 'put': return {
        requestPut: {
          key: key(s, p.k), ...(p.ignoreValue ? {} : { value: p.v }), ...(p.lease !== null && !p.ignoreLease ? { lease: lease(s, p.lease) } : {}),
          prevKv: p.prevKv, ignoreValue: p.ignoreValue, ignoreLease: p.ignoreLease,
        },
      };
      case 'range': {
        const r = (x: RevPick | null) => (x === null ? undefined : rev(s, x));
        return {
          requestRange: {
            key: key(s, p.k), rangeEnd: end(s, p.k, p.end), limit: p.limit, revision: p.rev === null ? undefined : p.rev === -1 ? -1 : rev(s, p.rev),
            ...(p.sortOrder ? { sortOrder: p.sortOrder } : {}), ...(p.sortTarget ? { sortTarget: p.sortTarget } : {}),
            keysOnly: p.keysOnly, countOnly: p.countOnly, serializable: p.serializable,
            minModRevision: r(p.minMod), maxModRevision: r(p.maxMod), minCreateRevision: r(p.minCreate), maxCreateRevision: r(p.maxCreate),
          },
        };
      }
      case 'del': return { requestDeleteRange: { key: key(s, p.k), rangeEnd: end(s, p.k, p.end), prevKv: p.prevKv } };
      case 'txn': return { requestTxn: resolveTxn(s, p) };
    }
  }

  function resolveCompare(s: SequenceState, c: ComparePlan): Compare {
    const base = { key: key(s, c.k), target: c.target, result: c.result, ...(c.end === 'prefix' ? { rangeEnd: prefixEnd(key(s, c.k)) } : {}) };
    switch (c.target) {
      case 'VERSION': return { ...base, version: c.version };
      case 'CREATE': return { ...base, createRevision: c.rev < 0 ? 0 : rev(s, c.rev) };
      case 'MOD': return { ...base, modRevision: c.rev < 0 ? 0 : rev(s, c.rev) };
      case 'VALUE': return { ...base, value: c.v };
      case 'LEASE': return { ...base, lease: c.lease < 0.3 ? '0' : lease(s, c.lease) };
    }
  }

  function resolveTxn(s: SequenceState, p: TxnPlan): TxnRequest {
    // Ranges inside a txn never use a negative revision: its check compares against the absolute
    // compaction revision, which the per-sequence baseline cannot map.
    // Nor a put with ignore_* on a key that exists before the txn: an earlier op of the txn may delete
    // it, and etcd 3.4 then panics applying the txn (see txn.ts checkIgnoredKeysExist).
    const live = (k: string) => s.sim.etcd.store.index.get(k, s.sim.etcd.store.currentRev) !== undefined;
    const fix = (op: RequestOp): RequestOp => {
      if (op.requestRange?.revision === -1) return { requestRange: { ...op.requestRange, revision: 0 } };
      const put = op.requestPut;
      if (put && (put.ignoreValue || put.ignoreLease) && live(put.key)) return { requestPut: { ...put, ignoreValue: false, ignoreLease: false } };
      if (op.requestTxn) return { requestTxn: { ...op.requestTxn, success: op.requestTxn.success?.map(fix), failure: op.requestTxn.failure?.map(fix) } };
      return op;
    };
    return {
      compare: p.compares.map((c) => resolveCompare(s, c)),
      success: p.success.map((o) => fix(resolveOp(s, o))),
      failure: p.failure.map((o) => fix(resolveOp(s, o))),
    };
  }

  /** Runs one unary call on both sides and compares; returns both normalized replies. */
  async function unary(s: SequenceState, kind: EtcdRequestKind, path: string, request: MessageMap[EtcdRequestKind], requestJson: J,
    responseJson: (r: never) => J, tweak?: (sim: J, real: J) => J): Promise<{ sim: EtcdReply<unknown>; real: J }> {
    s.sim.advanceTo(performance.now() - s.started);
    const simReply = s.sim.call(kind, request);
    const realReply = await real.post(path, s.spaces.toReal(requestJson));
    let simJson: J;
    if (simReply.ok) simJson = dropIds(responseJson(simReply.response as never));
    else simJson = { error: simReply.error.message, message: simReply.error.message, code: simReply.error.code };
    let realJson = dropIds(s.spaces.fromReal(realReply.body as J));
    if (tweak) realJson = tweak(simJson, realJson);
    const expectedStatus = simReply.ok ? 200 : httpStatus[simReply.error.code] ?? 500;
    s.log.push(`${kind} ${JSON.stringify(requestJson)}\n  sim  ${JSON.stringify(simJson)}\n  real ${realReply.status} ${JSON.stringify(realJson)}`);
    if (JSON.stringify(simJson) !== JSON.stringify(realJson) || realReply.status !== expectedStatus) {
      throw new Error(`divergence on ${kind}\n${s.log.slice(-12).join('\n')}`);
    }
    return { sim: simReply, real: realJson };
  }

  async function runPlan(s: SequenceState, p: Plan): Promise<void> {
    totalOps++;
    switch (p.t) {
      case 'put': case 'range': case 'del': case 'txn': {
        const op = resolveOp(s, p);
        if (op.requestPut) await unary(s, 'etcd.Put', '/v3/kv/put', op.requestPut, gw.putRequestJson(op.requestPut), gw.putResponseJson);
        else if (op.requestRange) await unary(s, 'etcd.Range', '/v3/kv/range', op.requestRange, gw.rangeRequestJson(op.requestRange), gw.rangeResponseJson);
        else if (op.requestDeleteRange) await unary(s, 'etcd.DeleteRange', '/v3/kv/deleterange', op.requestDeleteRange, gw.deleteRangeRequestJson(op.requestDeleteRange), gw.deleteRangeResponseJson);
        else if (op.requestTxn) await unary(s, 'etcd.Txn', '/v3/kv/txn', op.requestTxn, gw.txnRequestJson(op.requestTxn), gw.txnResponseJson);
        return;
      }
      case 'compact': {
        const r = { revision: rev(s, p.rev) };
        const { sim } = await unary(s, 'etcd.Compact', '/v3/kv/compaction', r, gw.compactionRequestJson(r), gw.compactionResponseJson);
        if (sim.ok) realCompact = r.revision + s.spaces.offset;
        return;
      }
      case 'grant': {
        let id = '0';
        if (p.id === 'new') id = String(sequence * 1000 + s.nextLease++);
        if (p.id === 'existing') id = lease(s, 0.5);
        const r = { TTL: p.ttl, ID: id };
        const { sim, real: realJson } = await unary(s, 'etcd.LeaseGrant', '/v3/lease/grant', r, gw.leaseGrantRequestJson(r), gw.leaseGrantResponseJson,
          (simJson, realJson) => {
            // A server-picked ID: learn the mapping, then compare as equal.
            const simId = (simJson as { ID?: string }).ID;
            const realId = (realJson as { ID?: string }).ID;
            if (id === '0' && simId && realId && simId !== realId) {
              s.spaces.simToReal.set(simId, realId);
              s.spaces.realToSim.set(realId, simId);
              return { ...(realJson as object), ID: simId } as J;
            }
            return realJson;
          });
        void realJson;
        if (sim.ok) s.leases.push((sim.response as LeaseGrantResponse).ID);
        return;
      }
      case 'revoke': {
        const r = { ID: lease(s, p.lease) };
        const { sim } = await unary(s, 'etcd.LeaseRevoke', '/v3/lease/revoke', r, { ID: s.spaces.simToReal.get(r.ID) ?? r.ID }, (x: { header: never }) => ({ header: gw.headerJson(x.header) }));
        if (sim.ok) s.leases = s.leases.filter((l) => l !== r.ID);
        return;
      }
      case 'ttl': {
        const r = { ID: lease(s, p.lease), keys: p.keys };
        await unary(s, 'etcd.LeaseTimeToLive', '/v3/lease/timetolive', r, gw.leaseTimeToLiveRequestJson(r), gw.leaseTimeToLiveResponseJson,
          (simJson, realJson) => {
            const sj = simJson as { TTL?: string; keys?: string[] };
            const rj = { ...(realJson as { TTL?: string; keys?: string[] }) };
            if (sj.TTL !== undefined && rj.TTL !== undefined && Math.abs(Number(sj.TTL) - Number(rj.TTL)) <= 1) rj.TTL = sj.TTL;
            // etcd lists a lease's keys in Go map order; compare them as sets.
            if (rj.keys && sj.keys && JSON.stringify([...rj.keys].sort()) === JSON.stringify([...sj.keys].sort())) rj.keys = sj.keys;
            return rj as J;
          });
        return;
      }
      case 'leases': {
        const norm = (j: J): J => {
          const o = j as { leases?: Array<{ ID: string }> };
          const mine = (o.leases ?? []).filter((l) => s.leases.includes(l.ID)).map((l) => l.ID).sort();
          const { leases: _l, ...rest } = o as Record<string, J>;
          return mine.length ? { ...rest, leases: mine } : rest;
        };
        await unary(s, 'etcd.LeaseLeases', '/v3/lease/leases', {}, {}, (x: never) => norm(gw.leaseLeasesResponseJson(x)), (_sim, realJson) => norm(realJson));
        return;
      }
      case 'keepalive': {
        const r = { ID: lease(s, p.lease) };
        s.sim.advanceTo(performance.now() - s.started);
        const simReply = s.sim.call('etcd.LeaseKeepAlive', r);
        const stream = real.stream('/v3/lease/keepalive', [{ ID: s.spaces.simToReal.get(r.ID) ?? r.ID }]);
        await stream.until(() => stream.messages.length > 0, 5000);
        stream.close();
        const simJson = dropIds(gw.leaseKeepAliveResponseJson(simReply.ok ? (simReply.response as never) : (null as never)));
        const realJson = dropIds(s.spaces.fromReal(((stream.messages[0] ?? {}) as { result?: J }).result ?? null));
        s.log.push(`keepalive ${r.ID}\n  sim  ${JSON.stringify(simJson)}\n  real ${JSON.stringify(realJson)}`);
        if (JSON.stringify(simJson) !== JSON.stringify(realJson)) throw new Error(`divergence on keepalive\n${s.log.slice(-12).join('\n')}`);
        return;
      }
      case 'watch': {
        const name = `w${s.watches.length}`;
        // A watch from the past that is cancelled in the same stream races in the real etcd: its 100 ms sync
        // loop may send the history between the create and the cancel, or not (CI saw a DELETE once in ~20
        // runs). The simulation answers the cancel first, always; such a watch starts at the current revision.
        const start = p.start === null || p.extra === 'cancel' ? 0 : rev(s, p.start);
        const create = {
          key: key(s, p.k), rangeEnd: end(s, p.k, p.end), startRevision: start, prevKv: p.prevKv,
          ...(p.filter ? { filters: [p.filter] } : {}), ...(p.extra === 'id' || p.extra === 'dup' ? { watchId: 5 } : {}),
        };
        const requests: WatchRequest[] = [{ createRequest: create }];
        if (p.extra === 'cancel') requests.push({ cancelRequest: { watchId: 0 } });
        if (p.extra === 'progress') requests.push({ progressRequest: {} });
        if (p.extra === 'dup') requests.push({ createRequest: create });
        s.sim.advanceTo(performance.now() - s.started);
        for (const r of requests) s.sim.watch(name, r);
        const realStream = real.stream('/v3/watch', requests.map((r) => s.spaces.toReal(gw.watchRequestJson(r))));
        s.watches.push({ name, real: realStream });
        // The real stream answers the requests only once its body is closed; wait for those answers, so
        // that later writes reach the real etcd after the watch exists, as they do in the simulation.
        const answers = s.sim.driver.streams.get(name)?.length ?? 0;
        await realStream.until(() => realStream.messages.length >= answers, 5000);
        s.log.push(`watch ${name} ${JSON.stringify(requests.map(gw.watchRequestJson))}`);
        // A watch from the past is caught up by both sync loops (every 100 ms) before the sequence goes on:
        // the simulation follows the wall clock until its watcher is synced, then the real stream is
        // waited for until it carries as many messages as the simulated one.
        if (start !== 0 && start <= s.sim.etcd.store.currentRev) {
          const synced = async (): Promise<boolean> => {
            s.sim.advanceTo(performance.now() - s.started);
            return s.sim.etcd.store.unsynced.size === 0;
          };
          for (let i = 0; i < 500 && !(await synced()); i++) await new Promise((r) => setTimeout(r, 5));
          expect(s.sim.etcd.store.unsynced.size).toBe(0);
          const simCount = s.sim.driver.streams.get(name)?.length ?? 0;
          expect(await realStream.until(() => realStream.messages.length >= simCount, 5000), `the real etcd caught ${name} up`).toBe(true);
        }
        return;
      }
    }
  }

  function splitWatch(list: J[]): { control: string[]; events: string[] } {
    const control: string[] = [];
    const events: string[] = [];
    for (const m of list) {
      const o = m as { events?: J[] };
      if (o.events && o.events.length > 0) for (const e of o.events) events.push(JSON.stringify(e));
      else control.push(JSON.stringify(m));
    }
    return { control, events };
  }

  async function compareWatches(s: SequenceState): Promise<void> {
    s.sim.advanceTo(performance.now() - s.started + 250);
    for (const w of s.watches) {
      const simList = (s.sim.driver.streams.get(w.name) ?? []).map((r) => dropIds(gw.watchResponseJson(r)));
      const want = splitWatch(simList);
      const count = () => splitWatch(w.real.messages.map((m) => dropIds(s.spaces.fromReal(((m as { result?: J }).result ?? m) as J)))).events.length
        + splitWatch(w.real.messages.map((m) => ((m as { result?: J }).result ?? m) as J)).control.length;
      await w.real.until(() => count() >= want.events.length + want.control.length, 3000);
      const got = splitWatch(w.real.messages.map((m) => dropIds(s.spaces.fromReal(((m as { result?: J }).result ?? m) as J))));
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        throw new Error(`watch divergence on ${w.name}\n  sim  ${JSON.stringify(want)}\n  real ${JSON.stringify(got)}\n${s.log.slice(-30).join('\n')}`);
      }
    }
  }

  async function runSequence(plans: Plan[]): Promise<void> {
    sequence++;
    const prefix = `d${seed}/${String(sequence).padStart(5, '0')}/`;
    const r0 = await currentRealRevision(prefix);
    const sim = new Sim();
    const spaces = new Spaces(r0 - 1);
    sim.etcd.store.compactMainRev = realCompact === -1 ? -1 : realCompact - spaces.offset;
    const s: SequenceState = { prefix, sim, spaces, started: performance.now(), leases: [], nextLease: 1, watches: [], log: [] };
    try {
      for (const p of plans) await runPlan(s, p);
      await compareWatches(s);
      const broken = sim.etcd.store.verify();
      if (broken !== undefined) throw new Error(`simulated store inconsistent: ${broken}`);
    } catch (e) {
      if (e instanceof Error && !e.message.includes('divergence')) e.message += `\n${s.log.slice(-8).join('\n')}`;
      throw e;
    } finally {
      for (const w of s.watches) w.real.close();
      for (const id of s.leases) await real.post('/v3/lease/revoke', { ID: spaces.simToReal.get(id) ?? id });
    }
  }

  it('orders ties of every sort target as etcd does (Go pdqsort beyond 12 keys)', async () => {
    sequence++;
    // Sorts before every sequence prefix `d…`, so their "every key ≥ k" ranges never see these keys.
    const prefix = `a-sort/${sequence}/`;
    const r0 = await currentRealRevision(prefix);
    const sim = new Sim();
    const spaces = new Spaces(r0 - 1);
    sim.etcd.store.compactMainRev = realCompact === -1 ? -1 : realCompact - spaces.offset;
    const s: SequenceState = { prefix, sim, spaces, started: performance.now(), leases: [], nextLease: 1, watches: [], log: [] };
    // 60 keys created 6 per txn (equal create revisions), rewritten 0–2 times (equal versions and mod
    // revisions), with 3 distinct values (equal values).
    for (let t = 0; t < 10; t++) {
      const success = Array.from({ length: 6 }, (_, i) => ({ requestPut: { key: `${prefix}k${String(t * 6 + i).padStart(2, '0')}`, value: `v${(t + i) % 3}` } }));
      await unary(s, 'etcd.Txn', '/v3/kv/txn', { success }, gw.txnRequestJson({ success }), gw.txnResponseJson);
    }
    for (let round = 0; round < 2; round++) {
      const success = Array.from({ length: 60 }, (_, i) => i).filter((i) => (i * 7 + round) % 3 === 0)
        .map((i) => ({ requestPut: { key: `${prefix}k${String(i).padStart(2, '0')}`, value: `v${(i + round) % 3}` } }));
      await unary(s, 'etcd.Txn', '/v3/kv/txn', { success }, gw.txnRequestJson({ success }), gw.txnResponseJson);
    }
    for (const sortTarget of ['VERSION', 'CREATE', 'MOD', 'VALUE', 'KEY'] as const) {
      for (const sortOrder of ['ASCEND', 'DESCEND', 'NONE'] as const) {
        for (const limit of [0, 20]) {
          const r = { key: prefix, rangeEnd: prefixEnd(prefix), sortTarget, sortOrder, keysOnly: true, limit };
          await unary(s, 'etcd.Range', '/v3/kv/range', r, gw.rangeRequestJson(r), gw.rangeResponseJson);
        }
      }
    }
  });

  // Sequences that once diverged, replayed first (fast-check seed and path). Each was a harness bug or a
  // real-etcd hazard the generator now avoids; the fix is in the comment.
  const pinned = [
    // A txn put with ignore_value after a '\0'-range delete of its key in the same txn: real etcd 3.4
    // panics applying it (the sim rejects it, kv-server.test.ts); the generator no longer sends it.
    { seed: 20_260_522, path: '41' },
    // The real watch stream answers only after its body is closed: writes raced the watch creation.
    { seed: 20_260_522, path: '3' },
    // LeaseTimeToLive keys come in Go map order: compared as sets.
    { seed: 1, path: '4' },
  ];
  it.each(pinned)('replays pinned sequence seed $seed path $path', async ({ seed: s, path }) => {
    await fc.assert(fc.asyncProperty(sequenceArb, runSequence), { seed: s, path, numRuns: 1, endOnFailure: true });
  }, 120_000);

  it(`agrees on ${runs} seeded sequences of ${opsPerRun} operations (seed ${seed})`, async () => {
    const started = performance.now();
    const opsBefore = totalOps;
    console.log(`etcd differential: seed ${seed}, ${runs} sequences × ${opsPerRun} ops (ETCD_DIFF_SEED to change)`);
    await fc.assert(
      fc.asyncProperty(sequenceArb, runSequence),
      { seed, numRuns: runs, endOnFailure: true, ...(process.env['ETCD_DIFF_PATH'] ? { path: process.env['ETCD_DIFF_PATH'] } : {}) },
    );
    const ops = totalOps - opsBefore;
    console.log(`etcd differential: ${runs} sequences, ${ops} operations, 0 divergences, ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(ops).toBe(runs * opsPerRun);
  }, 600_000);
});
