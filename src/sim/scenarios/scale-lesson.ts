// What a scenario at scale teaches, measured by the model on the cluster it ran on rather than asserted:
// the cost of listing every Pod from etcd against listing them from kube-apiserver's watch cache
// (`resourceVersion=0`), the Pods' watch-cache window, how many Events the Pods brought, and kube-scheduler's
// throughput. The two lists are real requests sent as the user (they appear in the trace like kubectl's);
// everything else is read from the components' state.

import type { KubeApiserver } from '../apiserver/server.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import { prefixEnd, utf8Length } from '../etcd/bytes.ts';
import { etcdKinds, replyKind, type EtcdReply } from '../etcd/messages.ts';
import type { RangeRequest, RangeResponse } from '../etcd/rpc.ts';
import type { Engine, Message } from '../engine/index.ts';
import type { User } from '../user/user.ts';

/** One list of every Pod, as the model answered it. */
export interface ListCost {
  /** Where kube-apiserver served it from. */
  readonly source: 'etcd' | 'watch cache';
  /** The request's query (`''` reads etcd; `resourceVersion=0` may be served from the watch cache). */
  readonly query: string;
  readonly status: number;
  /** Pods in the answer. */
  readonly items: number;
  /** Bytes of the answer's body. */
  readonly responseBytes: number;
  /** Bytes of keys and values etcd returned to kube-apiserver for it (0 when served from the cache). */
  readonly etcdBytes: number;
  /** Virtual milliseconds from the request leaving the user to the answer arriving. */
  readonly ms: number;
  /** The engine steps that delivered the request to kube-apiserver and its answer to the user. */
  readonly requestStep: number;
  readonly answerStep: number;
}

export interface ScaleLesson {
  readonly lists: readonly ListCost[];
  /** The Pods' watch cache: events in its window, the window's capacity, objects in its current state. */
  readonly podWatchCache: { readonly events: number; readonly capacity: number; readonly objects: number } | null;
  /** Pods and Events stored in etcd. */
  readonly pods: number;
  readonly events: number;
  /** kube-scheduler's attempts made (dropped records included) and their rate over the span the kept ones cover (attempts per virtual second). */
  readonly scheduler: { readonly attempts: number; readonly perSecond: number };
}

/** What the lesson reads of a cluster (`Cluster` is one). */
export interface LessonCluster {
  readonly engine: Engine;
  readonly user: User;
  readonly apiserver: Pick<KubeApiserver, 'name' | 'watchCacheWindowOf'>;
  readonly scheduler?: { readonly attemptLog: { readonly records: readonly { readonly time: number }[]; readonly total: number } } | null;
  readonly etcd: { readonly kv: { range(request: RangeRequest): RangeResponse } };
}

/**
 * Sends `request` to kube-apiserver as the user and returns the message sent. By default the user sends
 * it; a host that logs the user's actions sends it as one (src/worker/scale-lesson.ts).
 */
export type LessonSend = (request: HttpRequest) => Pick<Message, 'id' | 'sentAt'>;

const podsPath = '/api/v1/pods';

/**
 * Sends both lists one after the other (etcd's first), runs the engine until each is answered, and reads
 * the rest from the components.
 */
export function measureScaleLesson(cluster: LessonCluster, send?: LessonSend): ScaleLesson {
  const sendAsUser: LessonSend = send ?? ((request) => cluster.user.request(cluster.apiserver.name, httpKinds.request, request));
  const lists = [listCost(cluster, sendAsUser, 'etcd', ''), listCost(cluster, sendAsUser, 'watch cache', 'resourceVersion=0')];
  const window = cluster.apiserver.watchCacheWindowOf('/registry/pods');
  const attempts = cluster.scheduler?.attemptLog.records ?? [];
  const span = attempts.length > 1 ? (attempts.at(-1)!.time - attempts[0]!.time) / 1000 : 0;
  return {
    lists,
    podWatchCache: window ? { events: window.bufferedEvents, capacity: window.capacity, objects: window.objects } : null,
    pods: countKeys(cluster, '/registry/pods/'),
    events: countKeys(cluster, '/registry/events/'),
    scheduler: { attempts: cluster.scheduler?.attemptLog.total ?? 0, perSecond: span > 0 ? attempts.length / span : 0 },
  };
}

function listCost(cluster: LessonCluster, send: LessonSend, source: ListCost['source'], query: string): ListCost {
  const { engine, user, apiserver } = cluster;
  let answer: Message | null = null;
  let requestStep = 0;
  let answerStep = 0;
  let etcdBytes = 0;
  const sent = send({
    method: 'GET', path: podsPath, query, headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json' }, body: '',
  });
  const stop = engine.onDelivery((message) => {
    if (message.id === sent.id) requestStep = engine.step;
    else if (message.replyTo === sent.id && message.to === user.name) {
      answer = message;
      answerStep = engine.step;
    }
    // Ranges over the Pods' prefix that etcd answered while the list was open: the list's own reads.
    else if (message.kind === replyKind(etcdKinds.range) && message.to === apiserver.name) {
      const reply = message.payload as EtcdReply<RangeResponse>;
      if (reply.ok) for (const kv of reply.response.kvs) if (kv.key.startsWith('/registry/pods/')) etcdBytes += kv.key.length + kv.value.length;
    }
  });
  try {
    while (answer === null && engine.stepOnce() !== null) { /* deliver until answered */ }
  } finally {
    stop();
  }
  if (answer === null) throw new Error(`GET ${podsPath}?${query} was never answered`);
  const response = (answer as Message).payload as HttpResponse;
  const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  const items = (JSON.parse(body) as { items?: unknown[] }).items?.length ?? 0;
  return {
    source, query, status: response.status, items, responseBytes: utf8Length(body), etcdBytes, ms: (answer as Message).deliverAt - sent.sentAt, requestStep, answerStep,
  };
}

function countKeys(cluster: LessonCluster, prefix: string): number {
  return cluster.etcd.kv.range({ key: prefix, rangeEnd: prefixEnd(prefix), countOnly: true }).count;
}
