// Admission: how real clients' work enters the server's cluster. A request (kubectl), an etcd call (a gRPC
// client of `--etcd-listen`), a cancel (a closed watch) or an attached page's command waits here until the
// pacing reaches a clean instant (every message due by then delivered); then each enters as a message of
// the user component (requests, cancels, page commands) or of the client's own component
// (`etcd-client/<ip:port>`, added on first use), and is logged with its step and instant (server-log.ts),
// so a replay that enters it at the same step sees the same state. Replies are routed back: an HTTP
// response, watch events and stream data to the submitter's ReplySink, an etcd reply to its callback.

import type { LoggableCommand, WorkerEvent } from '../protocol/index.ts';
import type { Cluster, ClusterTopology, ComponentInfo, LinkInfo } from '../sim/cluster.ts';
import type { Component, Message } from '../sim/engine/index.ts';
import type { UserReply } from '../sim/user/user.ts';
import { httpKinds, type HttpRequest, type HttpResponse, type HttpStreamData, type HttpWatchEnd, type HttpWatchEvent } from '../sim/wire/http.ts';
import { logEntry } from '../worker/replay.ts';
import { etcdClient } from './etcd-grpc/etcd-client.ts';
import type { EtcdCall, ServerCommand, ServerLogEntry } from './server-log.ts';

/** What a submitted request's replies are handed to. */
export interface ReplySink {
  response(response: HttpResponse): void;
  watchEvent(event: HttpWatchEvent): void;
  watchEnd(end: HttpWatchEnd): void;
  /** A chunk of a streamed body (a followed log, an exec's output); the stream ends with watchEnd. */
  streamData?(data: HttpStreamData): void;
}

/** A submitted request: its id once it has entered the simulation; cancel() ends its watch. */
export interface Submission {
  readonly id: number | null;
  cancel(): void;
}

interface Pending {
  id: number | null;
  readonly request: HttpRequest;
  readonly sink: ReplySink;
  cancelled: boolean;
}

/** What admission calls back into the server's host. */
export interface AdmissionHost {
  /** Something waits: the pacing should reach a clean instant soon. */
  wake(): void;
  /** Logs an entry that entered the cluster. */
  log(entry: ServerLogEntry): void;
  /** Applies a page's command replayed from the log (through the page's host when there is one). */
  replayCommand(command: LoggableCommand): void;
  /** The topology changed (an etcd client joined): for the attached pages. */
  announce(event: WorkerEvent): void;
}

export class Admission {
  private readonly waiting: Pending[] = [];
  private readonly waitingEtcd: Array<{ readonly call: EtcdCall; readonly onReply: ((reply: Message) => void) | null }> = [];
  private readonly cancels: number[] = [];
  /** Pages' commands; `apply` applies one (and logs it on the page's timeline), false when it failed. */
  private readonly acts: Array<{ readonly command: LoggableCommand; readonly apply: () => boolean }> = [];
  private readonly sinks = new Map<number, ReplySink>();
  private readonly etcdReplies = new Map<number, (reply: Message) => void>();
  private readonly clients: ComponentInfo[] = [];
  private readonly clientLinks: LinkInfo[] = [];

  constructor(private readonly cluster: Cluster<Component>, private readonly host: AdmissionHost) {}

  /** True while something waits for a clean instant. */
  get waitingWork(): boolean {
    return this.waiting.length > 0 || this.waitingEtcd.length > 0 || this.cancels.length > 0 || this.acts.length > 0;
  }

  /**
   * Queues a request; it enters the simulation as the user's at the next clean instant (every message
   * due up to the clock delivered), so a replay that injects it at the same instant sees the same state.
   */
  submit(request: HttpRequest, sink: ReplySink): Submission {
    const pending: Pending = { id: null, request, sink, cancelled: false };
    this.waiting.push(pending);
    this.host.wake();
    return {
      get id() {
        return pending.id;
      },
      cancel: () => {
        if (pending.cancelled) return;
        pending.cancelled = true;
        if (pending.id !== null && this.sinks.delete(pending.id)) {
          this.cancels.push(pending.id);
          this.host.wake();
        }
      },
    };
  }

  /**
   * Queues an etcd call; it enters the simulation at the next clean instant, as `submit`'s requests do.
   * `onReply` gets the reply (`<kind>Response`; for `etcd.Watch`, the first WatchResponse it answers).
   */
  submitEtcd(call: EtcdCall, onReply: ((reply: Message) => void) | null): void {
    this.waitingEtcd.push({ call, onReply });
    this.host.wake();
  }

  /** Runs a page's command at the next clean instant, as a request enters; logged once applied. */
  act(command: LoggableCommand, apply: () => boolean): void {
    this.acts.push({ command, apply });
    this.host.wake();
  }

  /** At a clean instant: lets in the waiting cancels, requests, etcd calls and pages' commands, in that order. */
  admit(): void {
    for (const requestId of this.cancels.splice(0)) this.enter({ type: 'httpCancel', requestId });
    for (const pending of this.waiting.splice(0)) {
      if (pending.cancelled) continue;
      pending.id = this.enter({ type: 'httpRequest', request: pending.request });
      this.sinks.set(pending.id, pending.sink);
    }
    for (const { call, onReply } of this.waitingEtcd.splice(0)) {
      const id = this.enter({ type: 'etcdCall', call });
      if (onReply) this.etcdReplies.set(id, onReply);
    }
    const { engine } = this.cluster;
    for (const { command, apply } of this.acts.splice(0)) {
      if (apply()) this.host.log(logEntry(engine, command));
    }
  }

  /** Enters a logged command (now, or replayed from the log); returns the message id of a request, call or cancel. */
  enter(command: ServerCommand): number {
    const { user, engine } = this.cluster;
    let id = 0;
    switch (command.type) {
      case 'httpRequest':
        id = user.request('kube-apiserver', httpKinds.request, command.request).id;
        break;
      case 'etcdCall':
        id = this.etcdClient(command.call.client).request(command.call.kind, command.call.payload).id;
        break;
      case 'httpCancel':
        id = user.request('kube-apiserver', httpKinds.cancel, { requestId: command.requestId }).id;
        break;
      default:
        this.host.replayCommand(command);
        return id;
    }
    this.host.log(logEntry(engine, command));
    return id;
  }

  /** Hands a delivered reply to whoever submitted its request. */
  route(message: Message): void {
    if (message.replyTo === null) return;
    const onReply = this.etcdReplies.get(message.replyTo);
    if (onReply) {
      this.etcdReplies.delete(message.replyTo);
      onReply(message);
    }
    if (message.to !== this.cluster.user.name) return;
    // The user component keeps every reply for the browser's command output; here the replies are
    // handed on as they arrive, so its list is emptied to keep a long-running server's memory flat.
    (this.cluster.user.received() as UserReply[]).length = 0;
    const sink = this.sinks.get(message.replyTo);
    if (!sink) return;
    if (message.kind === httpKinds.response) {
      const response = message.payload as HttpResponse;
      if (!response.stream) this.sinks.delete(message.replyTo);
      sink.response(response);
    } else if (message.kind === httpKinds.watchEvent) {
      sink.watchEvent(message.payload as HttpWatchEvent);
    } else if (message.kind === httpKinds.watchEnd) {
      this.sinks.delete(message.replyTo);
      sink.watchEnd(message.payload as HttpWatchEnd);
    } else if (message.kind === httpKinds.streamData) {
      sink.streamData?.(message.payload as HttpStreamData);
    }
  }

  /** The cluster's topology and the etcd endpoint's clients so far (`etcd-client/<ip:port>`, beside etcd). */
  get topology(): ClusterTopology {
    const { components, links } = this.cluster.topology;
    return { components: [...components, ...this.clients], links: [...links, ...this.clientLinks] };
  }

  /**
   * A client connection's component, linked to etcd as the user's etcdctl is. A new one joins the topology
   * the pages draw (announced to the attached pages at once).
   */
  private etcdClient(name: string): ReturnType<typeof etcdClient> {
    const { engine, etcd, user } = this.cluster;
    const known = engine.component(name) !== undefined;
    const link = this.cluster.topology.links.find((l) => l.a === user.name && l.b === etcd.name);
    const timing = { latency: link?.latency ?? 0, jitter: link?.jitter ?? 0 };
    const client = etcdClient(engine, name, timing);
    if (!known) {
      this.clients.push({ name, role: 'etcd-client', modelled: true });
      this.clientLinks.push({ a: name, b: etcd.name, ...timing });
      this.host.announce({ type: 'topology', topology: this.topology });
    }
    return client;
  }
}
