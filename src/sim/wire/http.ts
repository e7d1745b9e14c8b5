// The HTTP contract between kube-apiserver and its clients inside the simulation, imported by both sides
// (as k8s.io/apimachinery is by client-go and the apiserver); neither side's code depends on the other.
// A request is one `http.request` message; its answer is one `http.response` message (replyTo = the request). A watch is a
// long-running request: after its `http.response` (status 200, `stream: true`) every watch event is one
// `http.watchEvent` message carrying the same replyTo, until `http.watchEnd`; the client ends a watch early
// with `http.cancel`. The Node server (src/server) maps real HTTP onto exactly these messages.
//
// Bodies: a request body is either what a client put on the wire — text (JSON or YAML from kubectl or the
// YAML editor) or, with `Content-Type: application/vnd.kubernetes.protobuf`, bytes (a byte string, one
// char per byte, as the Node server hands them over, or a Uint8Array); the apiserver decodes by
// Content-Type (negotiation.ts) and may reject it — or an already-decoded plain object (what an
// in-simulation client would have encoded; it skips the round trip but gets the same validation).
// A response body is always a decoded plain object (an object, a List, a Table or a Status) or, for the
// rare plain-text answers (429 from max-in-flight), a string; its Content-Type says which serializer
// the Node server writes it with (wire-encoding.ts: JSON, YAML or protobuf).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const httpKinds = {
  request: 'http.request',
  response: 'http.response',
  watchEvent: 'http.watchEvent',
  watchEnd: 'http.watchEnd',
  cancel: 'http.cancel',
  /** A chunk of a streamed body (a followed log, an exec's output), after an `http.response` with `stream: true`. */
  streamData: 'http.streamData',
} as const;

export interface HttpRequest {
  readonly method: HttpMethod;
  /** Path without the query string, e.g. `/api/v1/namespaces/default/pods`. */
  readonly path: string;
  /** The query string as sent, without `?`, e.g. `labelSelector=app%3Dnginx&limit=500`. */
  readonly query: string;
  /** Header names in lower case: `accept`, `content-type`, `user-agent`, `authorization`, `impersonate-user`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | object | Uint8Array;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** True on the first message of a watch: events follow as `http.watchEvent`. */
  readonly stream?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface HttpWatchEvent {
  readonly type: WatchEventType;
  readonly object: unknown;
}

export interface HttpWatchEnd {
  readonly reason: 'timeout' | 'cancelled' | 'error';
}

/** A chunk of a streamed body; `channel` is the Kubernetes stream channel (1 stdout, 2 stderr, 3 error Status). */
export interface HttpStreamData {
  readonly channel: number;
  readonly data: string;
}

export interface HttpCancel {
  /** The id of the watch request to end. */
  readonly requestId: number;
}
