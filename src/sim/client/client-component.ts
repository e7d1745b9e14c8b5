// The seam between the client library and the component that hosts it. client-go runs informers,
// reflectors and workqueues on goroutines of the controller process; here they run inside one engine
// component: requests are coroutines of that component, watch events arrive in its `receive`, and
// timers are engine timers it owns. `ClientHost` is everything the library needs from its component;
// `ClientComponent` is the base class that provides it and routes the library's messages.
//
// Not modelled: goroutine interleaving. A handler, a reflector step or a worker runs to its next wait
// within the delivery that woke it; every request it makes is a message of its own in the trace.

import { Component, timerKind, type Co, type Duration, type Message, type Rng, type SleepReason, type Time } from '../engine/index.ts';
import type { MessageKind, MessageMap, ReplyOf, RequestKind } from '../messages/index.ts';
import { httpKinds, type HttpRequest, type HttpWatchEnd, type HttpWatchEvent } from '../wire/http.ts';
import { apiserverName } from './rest-client.ts';

/** Receives the messages of one open watch (the request's `http.watchEvent`s and its `http.watchEnd`). */
export interface WatchSink {
  event(event: HttpWatchEvent): void;
  end(end: HttpWatchEnd): void;
}

/** A timer set through the host; `cancel` is a no-op once it fired. */
export interface TimerHandle {
  cancel(): void;
}

export interface ClientHost {
  /** The component's name: the user-agent command and the event source. */
  readonly name: string;
  readonly now: Time;
  /** Wall-clock epoch of virtual time 0, for timestamps (`epochMs + now`). */
  readonly epochMs: number;
  readonly rng: Rng;
  call<K extends RequestKind>(to: string, kind: K, payload: MessageMap[K]): Co<Message<ReplyOf<K>>>;
  send<K extends MessageKind>(to: string, kind: K, payload: MessageMap[K]): Message<MessageMap[K]>;
  spawn(co: Co<unknown>): void;
  /** Sleeps; `reason` labels the wake-up in the trace (see SleepReason). */
  sleep(duration: Duration, reason?: SleepReason): Co<void>;
  /** Runs `fire` after `delay` as a delivery of its own (a `timer` message named `name`). */
  after(delay: Duration, name: string, fire: () => void, options?: { readonly background?: boolean }): TimerHandle;
  /** Routes the stream of watch request `requestId` to `sink` until it ends or is closed. */
  openWatch(requestId: number, sink: WatchSink): void;
  /** Stops routing watch `requestId`; its late messages are dropped. */
  closeWatch(requestId: number): void;
}

/**
 * A component that uses the client library. Subclasses handle their own messages in `handle`;
 * watch streams and library timers never reach it.
 */
export abstract class ClientComponent extends Component {
  private readonly watches = new Map<number, WatchSink>();
  private readonly timers = new Map<number, () => void>();
  readonly host: ClientHost;

  constructor(name: string) {
    super(name);
    const now = () => this.now;
    const epochMs = () => this.engine.epochMs;
    const rng = () => this.rng;
    this.host = {
      name,
      get now() { return now(); },
      get epochMs() { return epochMs(); },
      get rng() { return rng(); },
      call: (to, kind, payload) => this.call(to, kind, payload),
      send: (to, kind, payload) => this.send(to, kind, payload),
      spawn: (co) => this.spawn(co),
      sleep: (duration, reason) => this.sleep(duration, reason ?? null),
      after: (delay, timerName, fire, options) => {
        const timer = this.setTimer(delay, timerName, null, options);
        this.timers.set(timer.id, fire);
        return {
          cancel: () => {
            if (this.timers.delete(timer.id)) this.cancelTimer(timer);
          },
        };
      },
      openWatch: (requestId, sink) => { this.watches.set(requestId, sink); },
      closeWatch: (requestId) => { this.watches.delete(requestId); },
    };
  }

  /** A dying process's connections close: kube-apiserver ends its watches (`http.cancel` for each). */
  override onStop(): void {
    for (const requestId of this.watches.keys()) this.send(apiserverName, httpKinds.cancel, { requestId });
    this.watches.clear();
    this.timers.clear();
  }

  receive(message: Message): void {
    if (message.kind === httpKinds.watchEvent || message.kind === httpKinds.watchEnd) {
      const sink = message.replyTo === null ? undefined : this.watches.get(message.replyTo);
      if (!sink) return;
      if (message.kind === httpKinds.watchEvent) {
        sink.event(message.payload as HttpWatchEvent);
      } else {
        this.watches.delete(message.replyTo!);
        sink.end(message.payload as HttpWatchEnd);
      }
      return;
    }
    if (message.kind === timerKind) {
      const fire = this.timers.get(message.id);
      if (fire) {
        this.timers.delete(message.id);
        fire();
        return;
      }
    }
    this.handle(message);
  }

  /**
   * Answers a GET of /healthz on the component's secure port (what kube-apiserver's componentstatuses probe):
   * 200 `ok` while the process runs. False for any other message. Models k8s.io/apiserver/pkg/server/healthz
   * (InstallHandler with its ping check only).
   */
  protected answerHealthz(message: Message): boolean {
    if (message.kind !== httpKinds.request) return false;
    const request = message.payload as HttpRequest;
    if (request.method !== 'GET' || request.path !== '/healthz') return false;
    this.reply(message, httpKinds.response, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, body: 'ok' });
    return true;
  }

  /** Every message that is not the client library's own. */
  protected abstract handle(message: Message): void;
}
