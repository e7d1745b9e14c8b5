// The watch half of the seam between kube-apiserver and etcd. kube-apiserver multiplexes its etcd
// watches over a gRPC watch stream, as clientv3 does: each watch is created by an `etcd.Watch` message
// on the stream, etcd's `created` response is the reply to it, and every later WatchResponse is a
// plain `etcd.WatchResponse` message that the stream hands to its watch by watch ID.
//
// `EtcdWatchRouter` is that stream for one component: the component forwards the `etcd.WatchResponse`
// messages it receives to `route`, and the storage layer opens watches through `watch`.
// Models the watch side of go.etcd.io/etcd/clientv3/watch.go (watchGrpcStream: one stream, substreams
// by watch ID).

import type { Co, Message } from '../../engine/index.ts';
import {
  etcdKinds, type WatchCreateRequest, type WatchResponse, type WatchStreamRequest, type WatchStreamResponse,
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

/** How the router talks to etcd: the component's request/reply call and its one-way send. */
export interface EtcdWatchStreamIO {
  call(kind: string, payload: WatchStreamRequest): Co<Message<WatchStreamResponse>>;
  send(kind: string, payload: WatchStreamRequest): void;
}

export class EtcdWatchRouter implements EtcdWatchClient {
  private readonly watches = new Map<number, (response: WatchResponse) => void>();

  constructor(
    /** The stream's name on etcd (one per component, like clientv3's stream per context). */
    readonly stream: string,
    private readonly io: EtcdWatchStreamIO,
  ) {}

  *watch(create: WatchCreateRequest, onResponse: (response: WatchResponse) => void): Co<EtcdWatch> {
    const reply = yield* this.io.call(etcdKinds.watch, { stream: this.stream, request: { createRequest: create } });
    const created = reply.payload.response;
    const id = created.watchId;
    if (!created.canceled) this.watches.set(id, onResponse);
    return {
      created,
      cancel: () => {
        if (!this.watches.delete(id)) return;
        this.io.send(etcdKinds.watch, { stream: this.stream, request: { cancelRequest: { watchId: id } } });
      },
    };
  }

  /**
   * Hands an `etcd.WatchResponse` of this stream to its watch; true when the message was this stream's
   * (including responses nobody waits for any more, such as the answer to a cancel), false otherwise.
   */
  route(message: Message): boolean {
    if (message.kind !== etcdKinds.watchResponse) return false;
    const { stream, response } = message.payload as WatchStreamResponse;
    if (stream !== this.stream) return false;
    const onResponse = this.watches.get(response.watchId);
    if (onResponse === undefined) return true;
    if (response.canceled) this.watches.delete(response.watchId);
    onResponse(response);
    return true;
  }
}
