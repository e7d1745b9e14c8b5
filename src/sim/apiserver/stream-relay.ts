// The streams kube-apiserver relays from a kubelet (a followed log, an exec, an attach, a port-forward):
// each later message of the kubelet's answer is passed on to the client it is for, and a client's cancel
// is passed on to the kubelet. Also how the apiserver reaches a node's kubelet (its :10250 server).
// Models k8s.io/apimachinery/pkg/util/proxy/upgradeaware.go (UpgradeAwareHandler) as the pod
// subresources of pkg/registry/core/pod/rest/subresources.go use it, and pkg/kubelet/client (the
// connection to the node's kubelet).

import type { Co, Message } from '../engine/index.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import type { MessageKind, MessageMap, TypedMessage } from '../messages/index.ts';
import type { KubeletConnection } from './pod-streams.ts';

/** What the relay needs of its component. */
export interface StreamRelayHost {
  /** True when `component` can be reached (linked and running). */
  reachable(component: string): boolean;
  call(component: string, request: HttpRequest): Co<Message<HttpResponse>>;
  reply<K extends MessageKind>(request: Message, kind: K, payload: MessageMap[K]): void;
  send<K extends MessageKind>(to: string, kind: K, payload: MessageMap[K]): void;
}

export class StreamRelays {
  /** Streams relayed from a kubelet: the kubelet request's id → the client's request. */
  private readonly relays = new Map<number, { readonly client: Message<HttpRequest>; readonly kubelet: string }>();
  /** The client request's id → the kubelet request's id, for a client's cancel. */
  private readonly relayOf = new Map<number, number>();

  constructor(private readonly host: StreamRelayHost) {}

  /** How pods/log, exec, attach and portforward reach a node's kubelet. */
  kubeletConnection(): KubeletConnection {
    return { call: (node, request) => this.call(`kubelet/${node}`, request) };
  }

  /**
   * Sends `request` to a component's server and waits for its answer (the first message of a stream):
   * `connect: connection refused` when nothing listens there (the component stopped, or not linked). The
   * kubelets' streams and componentstatuses' /healthz probes go this way.
   */
  *call(component: string, request: HttpRequest): Co<{ readonly response: HttpResponse; readonly requestId: number } | { readonly error: string }> {
    if (!this.host.reachable(component)) return { error: 'connect: connection refused' };
    const reply = yield* this.host.call(component, request);
    return { response: reply.payload, requestId: reply.replyTo ?? 0 };
  }

  /** Relays the later messages of the kubelet's request `kubeletRequestId` (on `node`) to `client`. */
  open(kubeletRequestId: number, client: Message<HttpRequest>, node: string): void {
    this.relays.set(kubeletRequestId, { client, kubelet: `kubelet/${node}` });
    this.relayOf.set(client.id, kubeletRequestId);
  }

  /** Passes a kubelet's stream message on to its client; false when `message` is not one. */
  relay(message: Message): boolean {
    if (message.replyTo === null || !this.relays.has(message.replyTo)) return false;
    if (message.kind !== httpKinds.streamData && message.kind !== httpKinds.watchEnd) return false;
    const relay = this.relays.get(message.replyTo)!;
    const relayed = message as TypedMessage<'http.streamData' | 'http.watchEnd'>;
    this.host.reply(relay.client, relayed.kind, relayed.payload);
    if (message.kind === httpKinds.watchEnd) this.end(message.replyTo, false);
    return true;
  }

  /** A client's cancel of a relayed stream: the kubelet is told to stop it. False when it relays none. */
  cancel(clientRequestId: number): boolean {
    const relayed = this.relayOf.get(clientRequestId);
    if (relayed === undefined) return false;
    this.end(relayed, true);
    return true;
  }

  /** Forgets a relayed stream; when the client went away, the kubelet is told to stop it. */
  private end(kubeletRequestId: number, cancelled: boolean): void {
    const relay = this.relays.get(kubeletRequestId);
    if (!relay) return;
    this.relays.delete(kubeletRequestId);
    this.relayOf.delete(relay.client.id);
    if (cancelled) this.host.send(relay.kubelet, httpKinds.cancel, { requestId: kubeletRequestId });
  }
}
