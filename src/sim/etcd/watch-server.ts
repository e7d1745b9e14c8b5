// A member's watch streams: each client's named streams, their progress notifications, and the sync
// loop that catches unsynced watchers up. The response to a create, cancel or progress request is a
// reply to that request (so a coroutine can wait for `created`); event responses are plain messages
// whose cause is the write (or sync timer) that produced them.
// Models etcdserver/api/v3rpc/watch.go (serverWatchStream: recvLoop, sendLoop, progress ticker) and
// mvcc/watchable_store.go's syncWatchersLoop (100 ms).

import type { Message, TimerPayload } from '../engine/index.ts';
import type { ClusterIdentity } from './cluster.ts';
import {
  etcdKinds, memberTimers, watchStreamTransportClosing, type MemberIO, type WatchStreamClose, type WatchStreamRequest,
  type WatchStreamResponse,
} from './messages.ts';
import type { WatchResponse } from './rpc.ts';
import { WatchStream } from './watch-stream.ts';
import type { WatchableStore } from './watchable-store.ts';

interface StreamEntry {
  readonly client: string;
  readonly name: string;
  readonly stream: WatchStream;
  ticker: Message | null;
  readonly interval: number;
}

export class WatchServer {
  private readonly streams = new Map<string, StreamEntry>();
  private syncTimer: Message | null = null;
  /** The request being handled, so a watch stream can answer it. */
  handling: Message | null = null;

  constructor(
    private readonly io: MemberIO,
    private readonly store: WatchableStore,
    private readonly identity: ClusterIdentity,
    private readonly progressInterval: number,
    private readonly syncInterval: number,
  ) {}

  serve(m: Message<WatchStreamRequest>): void {
    const { stream: name, request } = m.payload;
    const key = `${m.from}\u0000${name}`;
    let entry = this.streams.get(key);
    if (entry === undefined) {
      const client = m.from;
      entry = {
        client, name, ticker: null,
        // etcd draws the progress interval's jitter once per stream.
        interval: this.progressInterval + this.io.rng().int(Math.max(1, Math.floor(this.progressInterval / 10))),
        stream: new WatchStream(this.store, this.identity, (response, answers) => this.sendWatchResponse(client, name, response, answers)),
      };
      this.streams.set(key, entry);
    }
    if (request.createRequest !== undefined) entry.stream.create(request.createRequest);
    else if (request.cancelRequest !== undefined) entry.stream.cancel(request.cancelRequest.watchId ?? 0);
    else if (request.progressRequest !== undefined) entry.stream.requestProgress();
    this.scheduleProgress(key);
  }

  close(m: Message<WatchStreamClose>): void {
    const key = `${m.from}\u0000${m.payload.stream}`;
    const entry = this.streams.get(key);
    if (entry === undefined) return;
    entry.stream.close();
    if (entry.ticker !== null) this.io.cancelTimer(entry.ticker);
    this.streams.delete(key);
  }

  /** Every client with an open stream. */
  clients(): Set<string> {
    return new Set([...this.streams.values()].map((e) => e.client));
  }

  /** Breaks every stream of `client` (see EtcdServer.breakWatchStreams); returns how many broke. */
  breakStreams(client: string): number {
    let broken = 0;
    for (const [key, entry] of [...this.streams]) {
      if (entry.client !== client) continue;
      entry.stream.close();
      if (entry.ticker !== null) this.io.cancelTimer(entry.ticker);
      this.streams.delete(key);
      this.io.send(client, etcdKinds.watchStreamError, { stream: entry.name, error: watchStreamTransportClosing });
      broken++;
    }
    return broken;
  }

  private sendWatchResponse(client: string, stream: string, response: WatchResponse, answers: boolean): void {
    const payload: WatchStreamResponse = { stream, response };
    const request = this.handling;
    if (answers && request !== null && request.kind === etcdKinds.watch) this.io.reply(request, etcdKinds.watchResponse, payload);
    else this.io.send(client, etcdKinds.watchResponse, payload);
  }

  scheduleSync(): void {
    if (this.syncTimer === null) this.syncTimer = this.io.setTimer(this.syncInterval, memberTimers.watchSync, null);
  }

  /** Stops the sync loop (the process died). */
  stopSync(): void {
    if (this.syncTimer !== null) this.io.cancelTimer(this.syncTimer);
    this.syncTimer = null;
  }

  private scheduleProgress(key: string): void {
    const entry = this.streams.get(key);
    if (entry === undefined || entry.ticker !== null || entry.stream.progress.size === 0) return;
    entry.ticker = this.io.setTimer(entry.interval, memberTimers.watchProgress, key, { background: true });
  }

  /** Handles a watch timer; false for any other timer. */
  fire(t: TimerPayload): boolean {
    switch (t.name) {
      case memberTimers.watchSync: {
        this.syncTimer = null;
        if (this.store.syncWatchers() > 0) this.scheduleSync();
        return true;
      }
      case memberTimers.watchProgress: {
        const key = t.data as string;
        const entry = this.streams.get(key);
        if (entry === undefined) return true;
        entry.ticker = null;
        entry.stream.progressTick();
        this.scheduleProgress(key);
        return true;
      }
      default:
        return false;
    }
  }
}
