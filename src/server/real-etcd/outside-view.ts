// What the page shows of a real etcd (`--etcd-servers`), read from outside as any client could: the
// /registry keyspace (keyspace-mirror.ts) and, for etcd's box, its insides, refreshed every `refreshMs`:
// the revision, raft term and indexes, version and database size from Maintenance.Status of the pinned
// endpoint, the number of keys (a count-only Range over every key), the leases (LeaseLeases), the
// compacted revision (once a Range at the revision after the last one known fails, a watch from there is
// cancelled with it), this server's own watchers and its newest write (from the replies
// it delivers); the revision shown is the newest this server knows etcd at (its read, its newest write's
// answer, or the mirror's watch, whichever is newest). What no client can see (the MVCC tree index, other clients' watchers, the request-stats
// lines) is left out; the page says so. Each write is recorded at the step that delivered its answer and
// each read at the step after the engine's (InsidesRecorder.record, only when it changed), so a page at a
// past step shows the box as read by then.

import type { Engine, Message } from '../../sim/engine/index.ts';
import { etcdKinds, type EtcdReply, type LeaseLeasesResponse } from '../../sim/etcd/index.ts';
import type { EtcdInsides, EtcdWriteView, RealEtcdInsides } from '../../protocol/index.ts';
import { writeOf, type InsidesRecorder } from '../../worker/insides.ts';
import {
  leaseLeasesResponseFromWire, rangeRequestToWire, rangeResponseFromWire, statusResponseFromWire, watchRequestToWire, watchResponseFromWire, type Wire,
} from '../etcd-proto/convert.ts';
import type { EtcdGrpcClient } from './grpc-client.ts';
import { RealEtcdKeyspace } from './keyspace-mirror.ts';

/** Wall ms between two reads of etcd's state. */
export const refreshMs = 1000;
/** Wall ms a compaction probe waits for etcd's answer. */
const probeWaitMs = 2000;

const writeKinds: ReadonlySet<string> = new Set([etcdKinds.txn, etcdKinds.put, etcdKinds.deleteRange]);

const hex = (id: string): string => BigInt(id).toString(16);

export class RealEtcdOutside {
  readonly keyspace: RealEtcdKeyspace;
  private timer: NodeJS.Timeout | null = null;
  private refreshing = false;
  private compacted = 0;
  private write: EtcdWriteView | null = null;
  /** Writes delivered to the member whose replies have not been delivered yet, by message id. */
  private readonly writes = new Map<number, Message>();
  private last: Omit<EtcdInsides, 'write' | 'watchers'> | null = null;
  /** Records the box as it is now, at `step`. */
  private record: ((step: number) => void) | null = null;
  /** Records the box after a read (of etcd's status or of the mirror's watch). */
  private read: () => void = () => undefined;

  /** `watchers`: how many watchers the server's member holds on etcd now. */
  constructor(private readonly client: EtcdGrpcClient, private readonly member: string, private readonly watchers: () => number) {
    this.keyspace = new RealEtcdKeyspace(client);
  }

  /**
   * Starts mirroring and reading; the member's box is recorded in `recorder` after each write at the step
   * that delivered its answer, and after each read at the next step: a read completes between two
   * deliveries, and the timeline (and so the keyspace shown) samples the mirror after each delivery.
   */
  start(engine: Engine, recorder: Pick<InsidesRecorder, 'record'>): void {
    this.record = (step) => {
      const insides = this.insides();
      if (insides) recorder.record(this.member, step, insides);
    };
    this.read = () => this.record?.(engine.step + 1);
    engine.onDelivery((m) => this.delivered(engine, m));
    this.keyspace.onChange = () => this.read();
    this.keyspace.start();
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), refreshMs);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.record = null;
    this.read = () => undefined;
    this.keyspace.close();
  }

  /** The box's insides from the last read (null before the first). */
  insides(): EtcdInsides | null {
    if (!this.last) return null;
    const revision = Math.max(this.last.revision, this.write?.revision ?? 0, this.keyspace.store.currentRev);
    return { ...this.last, revision, watchers: this.watchers(), write: this.write };
  }

  /** A write's reply delivered: it is the box's newest write, at this step (as the model's is). */
  private delivered(engine: Engine, m: Message): void {
    if (m.to === this.member && writeKinds.has(m.kind)) {
      this.writes.set(m.id, m);
      return;
    }
    const request = m.from === this.member && m.replyTo !== null ? this.writes.get(m.replyTo) : undefined;
    if (request === undefined) return;
    this.writes.delete(request.id);
    const reply = m.payload as EtcdReply<unknown>;
    if (!reply.ok || reply.write === null) return;
    const after = reply.write.revision;
    this.write = writeOf(request, engine.step, reply.write.changed ? after - 1 : after, after);
    this.record?.(engine.step);
  }

  private async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const [status, count, leases, compacted] = await Promise.all([
        this.client.unary('Maintenance', 'status', {}).then(statusResponseFromWire),
        this.client.unary('KV', 'range', rangeRequestToWire({ key: '\0', rangeEnd: '\0', countOnly: true })).then((w) => rangeResponseFromWire(w).count),
        this.client.unary('Lease', 'leaseLeases', {}).then((w): LeaseLeasesResponse => leaseLeasesResponseFromWire(w)),
        this.probeCompaction(),
      ]);
      this.compacted = compacted;
      this.keyspace.compact(compacted);
      const real: RealEtcdInsides = {
        endpoint: this.client.pinned, version: status.version, memberId: hex(status.header.memberId), leader: hex(status.leader),
        raftTerm: status.raftTerm, raftIndex: status.raftIndex, raftAppliedIndex: status.raftAppliedIndex,
        dbSize: status.dbSize, dbSizeInUse: status.dbSizeInUse, historyFrom: this.keyspace.historyFrom ?? status.header.revision, readAt: Date.now(),
      };
      this.last = { role: 'etcd', revision: status.header.revision, compactRevision: compacted, keys: count, leases: leases.leases.length, member: null, real };
      this.read();
    } catch {
      // etcd is unreachable: the box keeps what it showed; the next read tries again (on the next endpoint).
    } finally {
      this.refreshing = false;
    }
  }

  /**
   * etcd's compacted revision. A Range at the revision after the last one known fails once etcd compacted
   * past it; then a watch from there is created and cancelled with etcd's compacted revision.
   */
  private async probeCompaction(): Promise<number> {
    const known = this.compacted;
    try {
      await this.client.unary('KV', 'range', rangeRequestToWire({ key: '/registry/', revision: known + 1, countOnly: true }));
      return known;
    } catch {
      return this.watchedCompaction(known);
    }
  }

  private watchedCompaction(known: number): Promise<number> {
    const { call } = this.client.stream('Watch', 'watch');
    return new Promise<number>((resolve) => {
      const done = (revision: number): void => {
        clearTimeout(timer);
        call.cancel();
        resolve(revision);
      };
      const timer = setTimeout(() => done(known), probeWaitMs);
      call.on('data', (data: Wire) => {
        const response = watchResponseFromWire(data);
        if (response.canceled) done(Math.max(known, response.compactRevision));
      });
      call.on('error', () => done(known));
      call.write(watchRequestToWire({ createRequest: { key: '/registry/', startRevision: known + 1 } }));
    });
  }
}
