// A test bench for raft alone: members on a simulated network in virtual milliseconds, each ticking
// every 100 ms (with its own phase), applying committed entries to a key-value map, with faults
// (stop, restart from disk, isolate, heal, slow disk) and clients whose operations are recorded for the
// linearizability checker. Safety is checked after every step: at most one leader per term; logs
// match up to the commit index on every pair; a committed entry never changes; every member applies
// the committed entries in order.
//
// Deterministic: one seeded RNG drives latency, elections and the schedule.

import { Rng } from '../../engine/rng.ts';
import type { KvOperation } from '../../testing/linearizability.ts';
import type { RaftLog } from './log.ts';
import { etcdRaftDefaults, Raft } from './raft.ts';
import { message, type Entry, type HardState, type RaftMessage } from './types.ts';

interface Command {
  readonly op: number;
  readonly member: number;
  readonly key: string;
  readonly value: string;
}

interface Member {
  readonly id: number;
  raft: Raft;
  up: boolean;
  /** Extra time before messages leave a step that appended entries (fsync), ms. */
  fsync: number;
  /** The applied state, kept across restarts (etcd's backend is on disk). */
  kv: Map<string, string>;
  /** Persisted across restarts: the WAL and the snapshot. */
  disk: { log: RaftLog; hard: HardState };
  readonly phase: number;
}

interface Pending {
  readonly op: number;
  readonly member: number;
  readonly kind: 'put' | 'get';
  readonly key: string;
  readonly value: string;
  readonly called: number;
  /** Linearizable get: the read index once confirmed. */
  readIndex: number | null;
}

export interface NetworkOptions {
  readonly members: number;
  readonly seed: number;
  /** Snapshot once this many entries are applied since the last one (etcd: --snapshot-count 100000). */
  readonly snapshotCount?: number;
  /** Entries kept before a snapshot for slow followers (etcd: 5000). */
  readonly catchUpEntries?: number;
  /** `--pre-vote` (default: etcd 3.4's, off). */
  readonly preVote?: boolean;
}

const requestTimeout = 7000; // etcd's ReqTimeout: 5 s + 2 × election timeout

export class RaftNetwork {
  time = 0;
  /** MsgSnaps delivered so far. */
  snapshotsSent = 0;
  readonly rng: Rng;
  readonly members: Member[] = [];
  readonly history: KvOperation[] = [];
  /** Messages in flight, in delivery order (a stable sort keeps equal times in send order). */
  private queue: Array<{ at: number; m: RaftMessage }> = [];
  private readonly isolated = new Set<number>();
  private pending: Pending[] = [];
  private nextOp = 1;
  private readonly safety = new SafetyChecker();
  private readonly options: Required<Omit<NetworkOptions, 'members' | 'seed'>>;
  private readonly snapshotAt = new Map<number, number>();

  constructor(options: NetworkOptions) {
    this.rng = new Rng(options.seed);
    this.options = {
      snapshotCount: options.snapshotCount ?? 100000,
      catchUpEntries: options.catchUpEntries ?? 5000,
      preVote: options.preVote ?? etcdRaftDefaults.preVote,
    };
    const ids = Array.from({ length: options.members }, (_, i) => i + 1);
    for (const id of ids) {
      const raft = this.newRaft(id, ids);
      this.members.push({ id, raft, up: true, fsync: 0, kv: new Map(), disk: { log: raft.log, hard: raft.hardState }, phase: this.rng.int(100) });
    }
  }

  private newRaft(id: number, ids: readonly number[], log?: RaftLog, hard?: HardState): Raft {
    return new Raft({ ...etcdRaftDefaults, preVote: this.options.preVote, id, peers: ids, random: (n) => this.rng.int(n) }, log, hard);
  }

  member(id: number): Member {
    return this.members[id - 1]!;
  }

  leader(): Member | undefined {
    return this.members.find((m) => m.up && m.raft.state === 'StateLeader');
  }

  // --- faults ---

  stop(id: number): void {
    const m = this.member(id);
    if (!m.up) return;
    m.up = false;
    m.disk = { log: m.raft.log, hard: m.raft.hardState };
    for (const p of this.pending.filter((q) => q.member === id)) this.giveUp(p);
  }

  start(id: number): void {
    const m = this.member(id);
    if (m.up) return;
    m.up = true;
    m.raft = this.newRaft(id, this.members.map((x) => x.id), m.disk.log, m.disk.hard);
  }

  isolate(id: number): void {
    this.isolated.add(id);
  }

  heal(): void {
    this.isolated.clear();
  }

  slowDisk(id: number, ms: number): void {
    this.member(id).fsync = ms;
  }

  // --- clients ---

  put(id: number, key: string, value: string): void {
    const m = this.member(id);
    const op = this.nextOp++;
    const p: Pending = { op, member: id, kind: 'put', key, value, called: this.time, readIndex: null };
    const command: Command = { op, member: id, key, value };
    // A dropped proposal (no leader known) never happened: the client sees the error.
    if (m.raft.propose(command, key.length + value.length + 16) !== null) return;
    this.pending.push(p);
    this.flush(m, true);
  }

  /** A linearizable read (ReadIndex) or a serializable one (the member's own state). */
  get(id: number, key: string, linearizable: boolean): KvOperation | null {
    const m = this.member(id);
    if (!linearizable) {
      const op: KvOperation = { key, kind: 'get', value: m.kv.get(key) ?? '', called: this.time, returned: this.time };
      return op;
    }
    const op = this.nextOp++;
    this.pending.push({ op, member: id, kind: 'get', key, value: '', called: this.time, readIndex: null });
    m.raft.readIndex(`read-${op}`);
    this.flush(m, false);
    return null;
  }

  private giveUp(p: Pending): void {
    this.pending = this.pending.filter((q) => q !== p);
    if (p.kind === 'put') this.history.push({ key: p.key, kind: 'put', value: p.value, called: p.called, returned: Infinity });
  }

  // --- running ---

  /** Runs until `until` (virtual ms): ticks and deliveries in time order, checking safety after each. */
  runUntil(until: number): void {
    for (;;) {
      const nextTick = this.nextTickTime();
      const next = this.queue.length > 0 ? this.queue[0]! : null;
      const at = Math.min(nextTick, next?.at ?? Infinity);
      if (at > until) break;
      this.time = at;
      if (next !== null && next.at === at) {
        this.queue.shift();
        this.deliver(next.m);
      } else {
        for (const m of this.members) if (m.up && (this.time - m.phase) % etcdRaftDefaults.tickMs === 0) {
          m.raft.tick();
          this.flush(m, false);
        }
      }
      this.expire();
      this.safety.check(this.members);
    }
    this.time = until;
  }

  private nextTickTime(): number {
    let best = Infinity;
    for (const m of this.members) {
      const k = Math.floor((this.time - m.phase) / etcdRaftDefaults.tickMs) + 1;
      best = Math.min(best, m.phase + k * etcdRaftDefaults.tickMs);
    }
    return best;
  }

  private deliver(msg: RaftMessage): void {
    const to = this.member(msg.to);
    const from = this.member(msg.from);
    const lost = !to.up || this.isolated.has(msg.to) || this.isolated.has(msg.from);
    if (msg.type === 'MsgSnap' && from.up) {
      // etcdserver reports how the snapshot's send went (ReportSnapshot).
      from.raft.step(message({ type: 'MsgSnapStatus', from: msg.to, reject: lost }));
    }
    if (lost) return;
    if (msg.type === 'MsgSnap') this.snapshotsSent++;
    const before = to.raft.log.lastIndex;
    to.raft.step(msg);
    this.flush(to, to.raft.log.lastIndex !== before || msg.type === 'MsgApp');
  }

  /** Applies what is committed, answers reads, sends the messages (after the fsync when entries were written). */
  private flush(m: Member, wrote: boolean): void {
    const snapshot = m.raft.takeSnapshot();
    if (snapshot !== null) {
      m.kv = new Map(snapshot.data as Array<[string, string]>);
      for (const p of this.pending.filter((q) => q.member === m.id && q.kind === 'put')) this.giveUp(p);
    }
    for (const e of m.raft.committedEntries()) {
      this.safety.checkApply(m, e);
      const c = e.data as Command | null;
      if (c !== null) {
        m.kv.set(c.key, c.value);
        const p = this.pending.find((q) => q.op === c.op && q.member === m.id);
        if (p !== undefined) {
          this.pending = this.pending.filter((q) => q !== p);
          this.history.push({ key: p.key, kind: 'put', value: p.value, called: p.called, returned: this.time });
        }
      }
      m.raft.appliedTo(e.index);
    }
    for (const rs of m.raft.takeReadStates()) {
      const p = this.pending.find((q) => `read-${q.op}` === rs.requestCtx);
      if (p !== undefined) p.readIndex = rs.index;
    }
    for (const p of this.pending.filter((q) => q.member === m.id && q.kind === 'get' && q.readIndex !== null && q.readIndex <= m.raft.log.applied)) {
      this.pending = this.pending.filter((q) => q !== p);
      this.history.push({ key: p.key, kind: 'get', value: m.kv.get(p.key) ?? '', called: p.called, returned: this.time });
    }
    const last = this.snapshotAt.get(m.id) ?? 0;
    if (m.raft.log.applied - last >= this.options.snapshotCount) {
      const index = m.raft.log.applied;
      m.raft.log.createSnapshot(index, [...m.kv], index - this.options.catchUpEntries);
      this.snapshotAt.set(m.id, index);
    }
    const delay = wrote ? m.fsync : 0;
    for (const msg of m.raft.takeMessages()) {
      const at = this.time + delay + 1 + this.rng.int(3);
      this.queue.push({ at, m: msg });
    }
    this.queue.sort((a, b) => a.at - b.at);
  }

  private expire(): void {
    for (const p of this.pending.filter((q) => this.time - q.called >= requestTimeout)) this.giveUp(p);
  }

  /** Every pending operation gives up (its client times out): for the end of a run. */
  abandonPending(): void {
    for (const p of [...this.pending]) this.giveUp(p);
  }

  /** Restarts every member, heals the network, and runs until all have applied the same index. */
  quiesce(): void {
    this.heal();
    for (const m of this.members) {
      this.start(m.id);
      m.fsync = 0;
    }
    for (let round = 0; round < 200; round++) {
      this.runUntil(this.time + 500);
      const leader = this.leader();
      if (leader === undefined) continue;
      const commit = leader.raft.log.committed;
      if (this.members.every((m) => m.raft.log.applied === commit && m.raft.log.committed === commit)) return;
    }
    throw new Error('the cluster did not converge');
  }
}

/** Raft's safety properties, checked as the members step: one leader per term, committed entries never change. */
class SafetyChecker {
  private readonly leaders = new Map<number, number>();
  private readonly committed = new Map<number, Entry>();

  /** `m` is about to apply `e`: it must be the next index, and the entry committed there. */
  checkApply(m: Member, e: Entry): void {
    if (e.index !== m.raft.log.applied + 1) throw new Error(`member ${m.id} applies ${e.index} after ${m.raft.log.applied}`);
    const c = this.committed.get(e.index);
    if (c !== undefined && (c.term !== e.term || c.data !== e.data)) throw new Error(`member ${m.id} applies a different entry at ${e.index}`);
  }

  /** After a step: at most one leader per term, and every member's committed entries are the ones first seen committed. */
  check(members: readonly Member[]): void {
    for (const m of members) {
      if (m.up && m.raft.state === 'StateLeader') {
        const known = this.leaders.get(m.raft.term);
        if (known !== undefined && known !== m.id) throw new Error(`two leaders in term ${m.raft.term}: ${known} and ${m.id}`);
        this.leaders.set(m.raft.term, m.id);
      }
      const log = m.raft.log;
      for (let i = Math.max(log.firstIndex, 1); i <= log.committed; i++) {
        const e = log.slice(i, i + 1)[0]!;
        const c = this.committed.get(i);
        if (c === undefined) this.committed.set(i, e);
        else if (c.term !== e.term || c.data !== e.data) throw new Error(`committed entry ${i} differs on member ${m.id} (term ${e.term} vs ${c.term})`);
      }
    }
  }
}
