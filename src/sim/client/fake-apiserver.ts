// Test support: a scripted stand-in for kube-apiserver that speaks the `http.*` contract, so that the
// Reflector's protocol (queries, re-watches, relists, backoffs) can be tested message by message.
// Lists are answered by `onList`; watches open a stream the test drives with `emit` and `end`.

import { Component, type Message } from '../engine/index.ts';
import { httpKinds, type HttpCancel, type HttpRequest, type HttpResponse, type HttpWatchEvent } from '../wire/http.ts';
import { parseQuery } from '../go/url.ts';
import { apiserverName } from './rest-client.ts';

export interface OpenWatch {
  readonly request: Message<HttpRequest>;
  readonly query: Map<string, string>;
  cancelled: boolean;
  ended: boolean;
}

export class FakeApiserver extends Component {
  readonly requests: Message<HttpRequest>[] = [];
  readonly watches: OpenWatch[] = [];
  /** Answers a LIST (any non-watch request); a non-2xx status makes a Status error. */
  onList: (query: Map<string, string>, request: HttpRequest) => HttpResponse = () => ({
    status: 200, headers: {}, body: { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] },
  });
  /** Answers a WATCH before its stream opens; null opens the stream. */
  onWatch: (query: Map<string, string>) => HttpResponse | null = () => null;

  constructor() {
    super(apiserverName);
  }

  receive(message: Message): void {
    if (message.kind === httpKinds.cancel) {
      const watch = this.watches.find((w) => w.request.id === (message.payload as HttpCancel).requestId);
      if (watch) watch.cancelled = true;
      return;
    }
    if (message.kind !== httpKinds.request) return;
    const request = message as Message<HttpRequest>;
    this.requests.push(request);
    const query = parseQuery(request.payload.query);
    if (query.get('watch') === 'true') {
      const refused = this.onWatch(query);
      if (refused) {
        this.reply(request, httpKinds.response, refused);
        return;
      }
      this.watches.push({ request, query, cancelled: false, ended: false });
      this.reply(request, httpKinds.response, { status: 200, headers: {}, body: null, stream: true });
      return;
    }
    this.reply(request, httpKinds.response, this.onList(query, request.payload));
  }

  /** Sends one event on the most recent open watch. */
  emit(event: HttpWatchEvent): void {
    this.reply(this.current().request, httpKinds.watchEvent, event);
  }

  /** Ends the most recent open watch as the server's timeout would. */
  end(): void {
    const watch = this.current();
    watch.ended = true;
    this.reply(watch.request, httpKinds.watchEnd, { reason: 'timeout' });
  }

  private current(): OpenWatch {
    const watch = this.watches.at(-1);
    if (!watch || watch.cancelled || watch.ended) throw new Error('no open watch');
    return watch;
  }

  /** Requests as `GET path?query`, in arrival order. */
  log(): string[] {
    return this.requests.map((m) => `${m.payload.method} ${m.payload.path}?${m.payload.query}`);
  }
}
