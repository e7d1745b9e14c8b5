// Light records of the components' requests to kube-apiserver (issue 20): the controllers', the
// scheduler's and the kubelets' `http.request`s, and the user's without a body (the user's bodies are
// kept whole: trace-payloads-http.ts).
// A record keeps its headers (one shared object per distinct set: a component sends the same ones) and
// its body as an edit (trace-payloads-delta.ts) of the stored object the request's answer carries: a
// create's answer is the object stored from the body; an update's, the object after it (the body is
// the client's copy of the object before it, with its change); a status patch's, the object the patch
// made. On inspect the answer's object is read back from etcd's history (an ObjectRef, as its own
// record's) and the edit applied. An edit that is structure only (the same for every Pod of a
// template, every Event of a kind) is kept once and shared. A request whose answer carries no stored
// object (a Binding's Status, an error, a dry run) keeps its body whole when it is small, its summary
// otherwise.

import type { Message } from './engine/index.ts';
import { resolve, type HistoryMember, type ObjectRef } from './trace-payloads-refs.ts';
import { applyDelta, delta, type Delta } from './trace-payloads-delta.ts';
import type { HttpRequest, HttpResponse } from './wire/http.ts';
import { remembered } from './api/remembered.ts';

type Headers = Readonly<Record<string, string>>;

/** The longest body (JSON text) a request without a stored object in its answer keeps whole. */
export const wholeBodyLimit = 512;

/**
 * A component's request, light: `headers` (shared), and, for a request with a body, `object` (the
 * stored object its answer carried) and `body` (the body as an edit of that object; undefined: equal).
 */
export class RequestRef {
  constructor(readonly headers: Headers, readonly object: ObjectRef | null, readonly body: Delta | undefined) {}
}

/** The order of a request's fields as RestClient sends them, which the rebuild writes again. */
const fieldOrder = ['method,path,query,headers', 'method,path,query,headers,body'];

/** One shared copy per distinct JSON text (edits): pure, bounded. */
const shared = remembered((json: string): unknown => JSON.parse(json), 1024);

/** Whether two headers objects have the same JSON text (the same names, in the same order, and values). */
function sameHeaders(a: Headers, b: Headers): boolean {
  const keys = Object.keys(a);
  const other = Object.keys(b);
  return keys.length === other.length && keys.every((key, i) => key === other[i] && a[key] === b[key]);
}

/** How many distinct headers of one sender are shared (a kubelet sends two: with a body's content-type, and without). */
const headersPerSender = 4;

/** `headers`, or the same headers `from` sent before (one shared object). */
function sharedHeaders(sent: Map<string, Headers[]>, from: string, headers: Headers): Headers {
  const known = sent.get(from) ?? [];
  const same = known.find((h) => sameHeaders(h, headers));
  if (same) return same;
  if (known.length >= headersPerSender) known.shift();
  known.push(headers);
  sent.set(from, known);
  return headers;
}

/** Body-less requests' refs, one per distinct headers. */
const headersOnly = remembered((headers: Headers) => new RequestRef(headers, null, undefined), 1024);

/**
 * What a light record of `request` (a component's `http.request`) keeps: a RequestRef; the payload itself
 * (kept whole: no stored object in its answer, and a small body); undefined (its summary).
 * `reply`: its `http.response`, when retained; `objectRef`: the stored object an answer's body is;
 * `sent`: the distinct headers each sender sent last (what its requests share).
 */
export function requestRef(message: Message, reply: () => Message | undefined, objectRef: (answer: Message) => ObjectRef | undefined, sent: Map<string, Headers[]>): unknown {
  const request = message.payload as HttpRequest;
  if (!fieldOrder.includes(Object.keys(request).join()) || request.method.length > 64) return undefined;
  const headers = sharedHeaders(sent, message.from, request.headers);
  if (request.body === undefined) return headersOnly(headers);
  const answer = reply();
  const response = answer?.payload as HttpResponse | undefined;
  const object = response && response.status < 300 && !/(^|&)dryRun=/.test(request.query) ? objectRef(answer!) : undefined;
  if (!object) return JSON.stringify(request.body).length <= wholeBodyLimit ? request : undefined;
  const body = delta(request.body, response!.body);
  return new RequestRef(headers, object, body === undefined ? undefined : shared(JSON.stringify(body)) as Delta);
}

/** The request `ref` stands for, over its summary (`message`); undefined when etcd no longer has the object. */
export function rebuildRequest(message: Message, ref: RequestRef, members: readonly HistoryMember[]): HttpRequest | undefined {
  const { method, path, query } = message.payload as HttpRequest;
  const headers = { ...ref.headers };
  if (!ref.object) return { method, path, query, headers };
  const object = resolve(ref.object, members);
  return object === undefined ? undefined : { method, path, query, headers, body: applyDelta(ref.body, object) as object };
}
