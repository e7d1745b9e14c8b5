// The etcd member of a cluster whose store is a real etcd: an engine component with the message
// interface of the model's EtcdServer (src/sim/etcd/server.ts: `etcd.Range`, `etcd.Txn`, `etcd.Watch`…
// and their replies) that forwards every request to the real etcd over gRPC (grpc-client.ts) and
// delivers the answer, converted to the model's types (convert.ts), into the engine when it arrives.
//
// Order: a request's reply, and the watch responses its write will cause on the streams this member
// serves, are reserved in the engine when the request is delivered (Engine.reserve), as the model etcd
// sends them within that step: first one watch response per watcher whose range the write may touch,
// then the reply. The engine delivers nothing ordered after an open reservation, so the real answers take
// the places modelled ones would have had. When the reply comes, the reserved watch responses of watchers
// the write did not touch are released; the others are filled by the watch responses that carry the
// write's revision. Watch responses nobody reserved (another client's write, a lease expiry, a compaction
// notice, a progress notification, the answers to cancel and progress requests) are sent when they arrive.
//
// `serialize` sends one request at a time, in delivery order, and waits for its answer: etcd then applies
// writes in the order the model etcd would, so a run from one seed with the same commands reaches the
// same keyspace on either etcd (test/live-etcd). Without it (a live server) requests are sent as they are
// delivered, as kube-apiserver does.
//
// What a real etcd does not tell: its request-stats lines (replies carry `stats` and `log` null) and, for
// a Txn, what each compare saw (`actual` empty; `result` true for all when it succeeded, null when it
// failed) and the events it produced (`events` empty: they arrive on the watch streams).

import type { ClientDuplexStream } from '@grpc/grpc-js';
import { Component, minute, type Message, type Reservation } from '../../sim/engine/index.ts';
import {
  etcdKinds, replyKind, type EtcdReply, type TxnRequest, type WatchCreateRequest, type WatchResponse, type WatchStreamClose,
  type WatchStreamRequest,
} from '../../sim/etcd/index.ts';
import { isTxnReadonly } from '../../sim/etcd/txn.ts';
import {
  compactionRequestToWire, deleteRangeRequestToWire, deleteRangeResponseFromWire, headerOnlyFromWire, leaseGrantResponseFromWire,
  leaseLeasesResponseFromWire, leaseRequestToWire, leaseTimeToLiveResponseFromWire, putRequestToWire, putResponseFromWire,
  rangeRequestToWire, rangeResponseFromWire, txnRequestToWire, txnResponseFromWire, watchRequestToWire, watchResponseFromWire, type Wire,
} from '../etcd-proto/convert.ts';
import { EtcdGrpcClient, isUnavailable, rpcError, streamErrorText, type GrpcFailure } from './grpc-client.ts';
import { KeepAliveStream } from './keep-alive.ts';
import { RealEtcdOutside } from './outside-view.ts';
import { RequestQueue } from './request-queue.ts';
import { mayTouch, touchedBy, watcherOf, watcherTouched, writeRecord, type Touched, type Watcher } from './write-effects.ts';
import type { EtcdReplyPayload, EtcdRequestKind } from '../../sim/messages/index.ts';

export interface RealEtcdMemberOptions {
  /** clientv3's endpoint list, e.g. `['http://127.0.0.1:2379']`. */
  readonly endpoints: readonly string[];
  /** Send one request at a time in delivery order (comparable runs); false for a live server. */
  readonly serialize?: boolean;
  /**
   * The model etcd's progress-notify interval, ms (default 10 min). The model draws each watch stream's
   * progress jitter from the seeded RNG when the stream opens; this member draws it too, so a seed gives
   * the same names and uids with either etcd.
   */
  readonly progressNotifyInterval?: number;
  /** How long a reserved watch response may wait for its event after the reply, wall ms (default 2000). */
  readonly watchEventWaitMs?: number;
}

interface Unary {
  readonly service: 'KV' | 'Lease';
  readonly method: string;
  readonly toWire: (request: never) => Wire;
  readonly fromWire: (response: Wire) => unknown;
}

const unaryCalls: Readonly<Record<string, Unary>> = {
  [etcdKinds.range]: { service: 'KV', method: 'range', toWire: rangeRequestToWire, fromWire: rangeResponseFromWire },
  [etcdKinds.put]: { service: 'KV', method: 'put', toWire: putRequestToWire, fromWire: putResponseFromWire },
  [etcdKinds.deleteRange]: { service: 'KV', method: 'deleteRange', toWire: deleteRangeRequestToWire, fromWire: deleteRangeResponseFromWire },
  [etcdKinds.txn]: { service: 'KV', method: 'txn', toWire: txnRequestToWire, fromWire: txnResponseFromWire },
  [etcdKinds.compact]: { service: 'KV', method: 'compact', toWire: compactionRequestToWire, fromWire: headerOnlyFromWire },
  [etcdKinds.leaseGrant]: { service: 'Lease', method: 'leaseGrant', toWire: leaseRequestToWire, fromWire: leaseGrantResponseFromWire },
  [etcdKinds.leaseRevoke]: { service: 'Lease', method: 'leaseRevoke', toWire: leaseRequestToWire, fromWire: headerOnlyFromWire },
  [etcdKinds.leaseTimeToLive]: { service: 'Lease', method: 'leaseTimeToLive', toWire: leaseRequestToWire, fromWire: leaseTimeToLiveResponseFromWire },
  [etcdKinds.leaseLeases]: { service: 'Lease', method: 'leaseLeases', toWire: () => ({}), fromWire: leaseLeasesResponseFromWire },
};

interface WatchSlot {
  readonly stream: StreamEntry;
  readonly watchId: number;
  readonly watcher: Watcher;
  readonly reservation: Reservation;
}

/** A write whose reply or watch responses are still due. */
interface PendingWrite {
  readonly slots: WatchSlot[];
  timer: NodeJS.Timeout | null;
}

interface PendingCreate {
  readonly request: WatchCreateRequest;
  readonly reservation: Reservation;
}

interface StreamEntry {
  readonly key: string;
  readonly client: string;
  readonly name: string;
  call: ClientDuplexStream<Wire, Wire> | null;
  address: string;
  readonly watchers: Map<number, Watcher>;
  /** Creates sent and not yet answered, in order (etcd answers them in order). */
  readonly creates: PendingCreate[];
}

export class RealEtcdMember extends Component {
  readonly client: EtcdGrpcClient;
  /** The page's view of the real etcd (its keyspace and insides); started by a server with attached pages. */
  readonly outside: RealEtcdOutside;
  /** Called whenever an answer from the real etcd has entered the engine (the host runs it then). */
  onActivity: (() => void) | null = null;
  private readonly requests: RequestQueue;
  private readonly progressInterval: number;
  private readonly watchEventWaitMs: number;
  private readonly streams = new Map<string, StreamEntry>();
  /** Writes answered whose watch responses are still due, by revision. */
  private readonly writes = new Map<number, PendingWrite>();
  /** Requests sent and not answered. */
  private inFlight = 0;
  /** Event responses that came before the reply of the write they belong to. */
  private early: Array<{ entry: StreamEntry; response: WatchResponse }> = [];
  /** Resolvers of queued creates, by their reservation id: a create is done when etcd answers it. */
  private readonly createdWaiters = new Map<number, () => void>();
  private readonly keepAlives: KeepAliveStream;
  private closed = false;

  constructor(name: string, options: RealEtcdMemberOptions) {
    super(name);
    this.client = new EtcdGrpcClient(options.endpoints);
    this.requests = new RequestQueue(options.serialize ?? false);
    this.outside = new RealEtcdOutside(this.client, name, () => [...this.streams.values()].reduce((n, stream) => n + stream.watchers.size, 0));
    this.keepAlives = new KeepAliveStream(this.client, (m, reservation, reply) => {
      if (this.closed) return;
      this.engine.fill(reservation, replyKind(m.kind as EtcdRequestKind), reply);
      this.activity();
    });
    this.progressInterval = Math.max(options.progressNotifyInterval ?? 10 * minute, 100);
    this.watchEventWaitMs = options.watchEventWaitMs ?? 2000;
  }

  receive(message: Message): void {
    const unary = unaryCalls[message.kind];
    if (unary !== undefined) return this.forward(message, unary);
    switch (message.kind) {
      case etcdKinds.leaseKeepAlive: return this.keepAlives.send(message, this.engine.reserve(this.name, message.from, { replyTo: message.id, cause: message.id }));
      case etcdKinds.watch: return this.serveWatch(message as Message<WatchStreamRequest>);
      case etcdKinds.watchClose: return this.closeStream(message as Message<WatchStreamClose>);
      default:
        throw new Error(`${this.name}: unexpected message ${message.kind} from ${message.from}`);
    }
  }

  /** Ends every stream and connection; answers still due are given up. */
  close(): void {
    this.closed = true;
    for (const entry of this.streams.values()) entry.call?.cancel();
    this.keepAlives.close();
    this.outside.close();
    for (const write of this.writes.values()) if (write.timer !== null) clearTimeout(write.timer);
    this.client.close();
  }

  private activity(): void {
    if (!this.closed) this.onActivity?.();
  }

  private forward(m: Message, unary: Unary): void {
    const writes = m.kind === etcdKinds.txn ? !isTxnReadonly(m.payload as TxnRequest) : m.kind === etcdKinds.put || m.kind === etcdKinds.deleteRange;
    const slots = writes ? this.reserveWatchSlots(mayTouch(m.kind, m.payload)) : [];
    const reservation = this.engine.reserve(this.name, m.from, { replyTo: m.id, cause: m.id });
    this.inFlight++;
    this.requests.run(async () => {
      let payload: EtcdReply<unknown>;
      let touched: Touched | null = null;
      try {
        const response = unary.fromWire(await this.client.unary(unary.service, unary.method, unary.toWire(m.payload as never)));
        touched = writes ? touchedBy(m.kind, m.payload, response) : null;
        payload = { ok: true, response, stats: null, log: null, write: touched ? writeRecord(m.kind, m.payload, response, touched) : null };
      } catch (e) {
        payload = { ok: false, error: rpcError(e as GrpcFailure), stats: null, log: null, write: null };
      }
      this.inFlight--;
      if (this.closed) return;
      this.engine.fill(reservation, replyKind(m.kind as EtcdRequestKind), payload as EtcdReplyPayload);
      const revision = payload.ok ? (payload.response as { header: { revision: number } }).header.revision : 0;
      this.settleSlots(slots, touched, revision);
      this.activity();
    });
  }

  /** One reserved watch response per watcher, on every stream, that the write may touch. */
  private reserveWatchSlots(touched: Touched): WatchSlot[] {
    const slots: WatchSlot[] = [];
    for (const stream of this.streams.values()) {
      for (const [watchId, watcher] of stream.watchers) {
        if (!watcherTouched(watcher, touched)) continue;
        slots.push({ stream, watchId, watcher, reservation: this.engine.reserve(this.name, stream.client) });
      }
    }
    return slots;
  }

  /** The reply is in: slots of watchers the write did not touch are released; the rest wait for their event. */
  private settleSlots(slots: WatchSlot[], touched: Touched | null, revision: number): void {
    const waiting: WatchSlot[] = [];
    for (const slot of slots) {
      if (touched !== null && watcherTouched(slot.watcher, touched) && slot.stream.watchers.has(slot.watchId)) waiting.push(slot);
      else this.engine.release(slot.reservation);
    }
    if (waiting.length > 0) {
      const write: PendingWrite = { slots: waiting, timer: null };
      this.writes.set(revision, write);
      // A watcher that was touched gets its event; this only guards against a stream that never delivers it.
      write.timer = setTimeout(() => this.giveUp(revision), this.watchEventWaitMs);
    }
    const early = this.early;
    this.early = [];
    for (const { entry, response } of early) this.routeEvents(entry, response);
  }

  private giveUp(revision: number): void {
    const write = this.writes.get(revision);
    if (write === undefined) return;
    this.writes.delete(revision);
    for (const slot of write.slots) this.engine.release(slot.reservation);
    this.activity();
  }

  private streamOf(m: Message<WatchStreamRequest>): StreamEntry {
    const key = `${m.from}\u0000${m.payload.stream}`;
    let entry = this.streams.get(key);
    if (entry === undefined) {
      // The model etcd draws the stream's progress-notify jitter here; so does this member (see the options).
      this.rng.int(Math.max(1, Math.floor(this.progressInterval / 10)));
      entry = { key, client: m.from, name: m.payload.stream, call: null, address: '', watchers: new Map(), creates: [] };
      this.streams.set(key, entry);
    }
    return entry;
  }

  private open(entry: StreamEntry): ClientDuplexStream<Wire, Wire> {
    if (entry.call !== null) return entry.call;
    const { address, call } = this.client.stream('Watch', 'watch');
    entry.call = call;
    entry.address = address;
    call.on('data', (data: Wire) => {
      if (entry.call === call) this.onWatchResponse(entry, watchResponseFromWire(data));
    });
    call.on('error', (error: GrpcFailure) => {
      if (entry.call === call) this.onStreamBroken(entry, error);
    });
    return call;
  }

  private serveWatch(m: Message<WatchStreamRequest>): void {
    const entry = this.streamOf(m);
    const { request } = m.payload;
    if (request.createRequest !== undefined) {
      const create = request.createRequest;
      const reservation = this.engine.reserve(this.name, m.from, { replyTo: m.id, cause: m.id });
      this.inFlight++;
      this.requests.run(() => new Promise<void>((resolve) => {
        entry.creates.push({ request: create, reservation });
        this.open(entry).write(watchRequestToWire(request));
        this.createdWaiters.set(reservation.id, resolve);
      }));
      return;
    }
    if (request.cancelRequest !== undefined) entry.watchers.delete(request.cancelRequest.watchId);
    if (request.cancelRequest !== undefined || request.progressRequest !== undefined) {
      this.requests.run(async () => {
        if (!this.closed) this.open(entry).write(watchRequestToWire(request));
      });
    }
  }

  private onWatchResponse(entry: StreamEntry, response: WatchResponse): void {
    if (this.closed) return;
    if (response.created) {
      const create = entry.creates.shift();
      if (create !== undefined) {
        this.inFlight--;
        if (!response.canceled) entry.watchers.set(response.watchId, watcherOf(create.request));
        this.engine.fill(create.reservation, etcdKinds.watchResponse, { stream: entry.name, response });
        this.createdWaiters.get(create.reservation.id)?.();
        this.createdWaiters.delete(create.reservation.id);
        this.activity();
        return;
      }
    }
    if (response.canceled) entry.watchers.delete(response.watchId);
    if (response.events.length > 0) this.routeEvents(entry, response);
    else this.sendNow(entry, response);
  }

  /** An event response fills the slot its write reserved, waits for that write's reply, or is sent now. */
  private routeEvents(entry: StreamEntry, response: WatchResponse): void {
    const revision = response.events.at(-1)!.kv.modRevision;
    const write = this.writes.get(revision);
    const slot = write?.slots.find((s) => s.stream === entry && s.watchId === response.watchId);
    if (write !== undefined && slot !== undefined) {
      write.slots.splice(write.slots.indexOf(slot), 1);
      this.engine.fill(slot.reservation, etcdKinds.watchResponse, { stream: entry.name, response });
      if (write.slots.length === 0) {
        if (write.timer !== null) clearTimeout(write.timer);
        this.writes.delete(revision);
      }
      this.activity();
      return;
    }
    if (this.inFlight > 0 && write === undefined) {
      this.early.push({ entry, response });
      return;
    }
    this.sendNow(entry, response);
  }

  private sendNow(entry: StreamEntry, response: WatchResponse): void {
    this.send(entry.client, etcdKinds.watchResponse, { stream: entry.name, response }, { cause: null });
    this.activity();
  }

  /**
   * The stream broke (its member went away): watch responses it still owed are given up, the pin moves
   * on, and its client hears `etcd.WatchStreamError`, as clientv3's Recv fails; the client then creates
   * its watches again, on a new stream. Creates not yet answered are sent again on that new stream.
   */
  private onStreamBroken(entry: StreamEntry, error: GrpcFailure): void {
    entry.call = null;
    entry.watchers.clear();
    for (const write of this.writes.values()) {
      for (const slot of write.slots.filter((s) => s.stream === entry)) {
        write.slots.splice(write.slots.indexOf(slot), 1);
        this.engine.release(slot.reservation);
      }
    }
    if (this.closed) return;
    if (isUnavailable(error)) this.client.failover(entry.address);
    this.send(entry.client, etcdKinds.watchStreamError, { stream: entry.name, error: streamErrorText(error) }, { cause: null });
    if (entry.creates.length > 0) {
      const call = this.open(entry);
      for (const create of entry.creates) call.write(watchRequestToWire({ createRequest: create.request }));
    }
    this.activity();
  }

  private closeStream(m: Message<WatchStreamClose>): void {
    const key = `${m.from}\u0000${m.payload.stream}`;
    const entry = this.streams.get(key);
    if (entry === undefined) return;
    this.streams.delete(key);
    const call = entry.call;
    entry.call = null;
    call?.end();
  }
}
