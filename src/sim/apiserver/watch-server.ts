// The client watches kube-apiserver holds open: each is a 200 with `stream: true`, then one
// `http.watchEvent` per event, then an `http.watchEnd` when it times out or its storage watch ends. A
// client's cancel stops it without an answer; a dropped connection (`drop`) ends it as an error would.
// Models k8s.io/apiserver/pkg/endpoints/handlers/watch.go (serveWatch, WatchServer.ServeHTTP) and the
// watch timeout of handlers/get.go (ListResource: timeout = minRequestTimeout × [1, 2)).

import type { Message } from '../engine/index.ts';
import { httpKinds, type HttpRequest, type HttpWatchEnd } from '../wire/http.ts';
import type { MessageKind, MessageMap } from '../messages/index.ts';
import type { WatchResponder } from './handlers/watch.ts';
import type { StorageWatch } from './storage/interface.ts';

/** The name of the timer that ends a watch; its data is the watch request's id. */
export const watchTimeoutTimer = 'watch-timeout';

/** What the watch server needs of its component. */
export interface WatchServerHost {
  now(): number;
  reply<K extends MessageKind>(request: Message, kind: K, payload: MessageMap[K]): void;
  setTimer<D>(delay: number, name: string, data: D, options: { readonly background: boolean }): Message;
  cancelTimer(timer: Message): void;
}

interface OpenWatch {
  readonly request: Message<HttpRequest>;
  watch: StorageWatch | null;
  readonly timeout: Message;
  ended: boolean;
}

export class WatchServer {
  /** Open client watches by the id of their request. */
  private readonly openWatches = new Map<number, OpenWatch>();

  constructor(private readonly host: WatchServerHost) {}

  /** The watch responder for one request: the 200 with `stream: true`, then events, then the end. */
  responder(request: Message<HttpRequest>, auditID: string): WatchResponder {
    return {
      open: (timeoutMs, headers) => {
        // The timeout is housekeeping: it must not keep "run until idle" waiting for half an hour.
        const timeout = this.host.setTimer(timeoutMs, watchTimeoutTimer, request.id, { background: true });
        this.openWatches.set(request.id, { request, watch: null, timeout, ended: false });
        this.host.reply(request, httpKinds.response, { status: 200, headers: { ...headers, 'audit-id': auditID }, body: null, stream: true });
      },
      established: (watch) => {
        const open = this.openWatches.get(request.id);
        if (!open || open.ended) watch.stop();
        else open.watch = watch;
      },
      event: (event) => {
        const open = this.openWatches.get(request.id);
        if (open && !open.ended) this.host.reply(request, httpKinds.watchEvent, event);
      },
      end: () => this.close(request.id, 'error'),
      now: () => this.host.now(),
    };
  }

  /**
   * Ends every open client watch (only those of component `client`, if given) as a broken connection
   * would: each client gets the end of its stream and watches again. Returns how many were ended.
   */
  drop(client?: string): number {
    let dropped = 0;
    for (const [requestId, open] of [...this.openWatches]) {
      if (client !== undefined && open.request.from !== client) continue;
      this.close(requestId, 'error');
      dropped++;
    }
    return dropped;
  }

  /** Ends a client watch: on timeout or storage end, tells the client; on client cancel, just stops. */
  close(requestId: number, reason: HttpWatchEnd['reason'] | null): void {
    const open = this.openWatches.get(requestId);
    if (!open || open.ended) return;
    open.ended = true;
    this.openWatches.delete(requestId);
    this.host.cancelTimer(open.timeout);
    open.watch?.stop();
    if (reason !== null) this.host.reply(open.request, httpKinds.watchEnd, { reason });
  }
}
