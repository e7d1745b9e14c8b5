// The watch half of the seam between kube-apiserver and etcd. kube-apiserver multiplexes its etcd
// watches over a gRPC watch stream, as clientv3 does: each watch is created by an `etcd.Watch` message
// on the stream, etcd's `created` response is the reply to it, and every later WatchResponse is a
// plain `etcd.WatchResponse` message that the stream hands to its watch by watch ID.
//
// `EtcdWatchRouter` is that stream for one component: the component forwards the `etcd.WatchResponse`
// and `etcd.WatchStreamError` messages it receives to `route`, and the storage layer opens watches
// through `watch`.
//
// Resuming: clientv3 remembers, per watch, the revision it would need next (`nextRev`: after an event
// response, the last event's mod_revision + 1; after any other non-created response, the header
// revision). When the stream breaks, it opens a new one and creates every watch again, one at a time,
// from that revision, under a new watch ID; the watch's owner sees nothing of it unless etcd refuses:
// a start revision that has been compacted meanwhile gets the compaction notice (compact_revision set,
// canceled), which kube-apiserver turns into 410 Expired. That is how `etcdctl compact` followed by a
// broken stream makes the watch cache relist, and its clients after it.
// Models the watch side of go.etcd.io/etcd/clientv3/watch.go in etcd 3.4 (watchGrpcStream: one stream,
// substreams by watch ID; serveSubstream's nextRev; newWatchClient and nextResume on a Recv error).
// 3.4's serveSubstream takes the header revision itself after a progress notification (newer clients
// take header + 1); the model keeps 3.4's.

import type { Co, Message } from '../../engine/index.ts';
import {
  etcdKinds, type WatchCreateRequest, type WatchResponse, type WatchStreamError, type WatchStreamRequest,
  type WatchStreamResponse,
} from '../../etcd/index.ts';

/** An open etcd watch. */
export interface EtcdWatch {
  /** etcd's answer to the create request (its watch ID and header revision; canceled if refused). */
  readonly created: WatchResponse;
  /** Cancels the watch on etcd; no response is delivered for it afterwards. */
  cancel(): void;
}

export interface EtcdWatchClient {
  /**
   * Creates a watch and waits for etcd's `created` response. Every later response of the watch
   * (events, progress notifications, the compaction notice) is handed to `onResponse` within the step
   * that delivers it, until the watch is canceled by either side. A refused watch (created and
   * canceled at once) gets no responses.
   */
  watch(create: WatchCreateRequest, onResponse: (response: WatchResponse) => void): Co<EtcdWatch>;
}

/** How the router talks to etcd: the component's request/reply call, its one-way send and its spawn. */
export interface EtcdWatchStreamIO {
  call(kind: typeof etcdKinds.watch, payload: WatchStreamRequest): Co<Message<WatchStreamResponse>>;
  send(kind: typeof etcdKinds.watch, payload: WatchStreamRequest): void;
  /** Runs a coroutine of the component (the resume after a broken stream). */
  spawn(co: Co<void>): void;
}

/** One watch on the stream (clientv3's watcherStream). */
interface Substream {
  /** etcd's watch ID; -1 while the watch is being created again on a new stream. */
  id: number;
  /** The create request as first sent. */
  readonly request: WatchCreateRequest;
  /** serveSubstream's nextRev: where the watch starts again if created anew (0: from etcd's next revision). */
  nextRev: number;
  readonly onResponse: (response: WatchResponse) => void;
  /** Canceled by its owner (while resuming: cancel it once etcd has created it). */
  closing: boolean;
}

export class EtcdWatchRouter implements EtcdWatchClient {
  /** Open watches by their current watch ID. */
  private readonly substreams = new Map<number, Substream>();
  /** Watches waiting to be created again on the new stream, in order. */
  private resuming: Substream[] = [];

  constructor(
    /** The stream's name on etcd (one per component, like clientv3's stream per context). */
    readonly stream: string,
    private readonly io: EtcdWatchStreamIO,
  ) {}

  *watch(create: WatchCreateRequest, onResponse: (response: WatchResponse) => void): Co<EtcdWatch> {
    const reply = yield* this.io.call(etcdKinds.watch, { stream: this.stream, request: { createRequest: create } });
    const created = reply.payload.response;
    const sub: Substream = { id: created.watchId, request: create, nextRev: create.startRevision ?? 0, onResponse, closing: false };
    if (!created.canceled) {
      this.substreams.set(sub.id, sub);
      this.advance(sub, created);
    }
    return { created, cancel: () => this.cancel(sub) };
  }

  /** Watches open on the stream, including those being created again after a break. */
  get size(): number {
    return this.substreams.size + this.resuming.length;
  }

  /**
   * Handles an `etcd.WatchResponse` or `etcd.WatchStreamError` of this stream; true when the message
   * was this stream's (including responses nobody waits for any more, such as the answer to a
   * cancel), false otherwise.
   */
  route(message: Message): boolean {
    if (message.kind === etcdKinds.watchStreamError) {
      if ((message.payload as WatchStreamError).stream !== this.stream) return false;
      this.resume();
      return true;
    }
    if (message.kind !== etcdKinds.watchResponse) return false;
    const { stream, response } = message.payload as WatchStreamResponse;
    if (stream !== this.stream) return false;
    const sub = this.substreams.get(response.watchId);
    if (sub === undefined) return true;
    if (response.canceled) this.substreams.delete(response.watchId);
    this.advance(sub, response);
    sub.onResponse(response);
    return true;
  }

  private cancel(sub: Substream): void {
    if (sub.closing) return;
    sub.closing = true;
    if (sub.id === -1) return;
    if (this.substreams.get(sub.id) !== sub) return;
    this.substreams.delete(sub.id);
    this.io.send(etcdKinds.watch, { stream: this.stream, request: { cancelRequest: { watchId: sub.id } } });
  }

  /** serveSubstream's bookkeeping: the revision the watch must start from if created again. */
  private advance(sub: Substream, response: WatchResponse): void {
    if (response.created) {
      if (sub.nextRev === 0) sub.nextRev = response.header.revision;
    } else {
      sub.nextRev = response.header.revision;
    }
    const last = response.events.at(-1);
    if (last !== undefined) sub.nextRev = last.kv.modRevision + 1;
  }

  /** The stream broke: every open watch is created again, one after the other, on a new stream. */
  private resume(): void {
    const wasIdle = this.resuming.length === 0;
    for (const sub of [...this.substreams.values()].sort((a, b) => a.id - b.id)) {
      sub.id = -1;
      this.resuming.push(sub);
    }
    this.substreams.clear();
    if (wasIdle && this.resuming.length > 0) this.io.spawn(this.createResuming());
  }

  private *createResuming(): Co<void> {
    while (this.resuming.length > 0) {
      const sub = this.resuming[0]!;
      if (sub.closing) {
        this.resuming.shift();
        continue;
      }
      const createRequest = { ...sub.request, startRevision: sub.nextRev };
      const reply = yield* this.io.call(etcdKinds.watch, { stream: this.stream, request: { createRequest } });
      this.resuming.shift();
      const created = reply.payload.response;
      if (created.canceled) {
        sub.onResponse(created);
        continue;
      }
      sub.id = created.watchId;
      this.substreams.set(sub.id, sub);
      if (sub.closing) {
        sub.closing = false;
        this.cancel(sub);
      }
    }
  }
}
