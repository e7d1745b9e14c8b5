// Light records of kube-apiserver's traffic (issue 20), rebuilt from etcd's MVCC history on inspect:
// - an `http.response` or `http.watchEvent` whose body is one stored object keeps the object as an
//   ObjectRef: the key and revision it was decoded from. An object at resourceVersion R is the value its
//   key holds at R, decoded with resourceVersion R (storage/codec.ts decodeObject), as the etcd3 store and
//   the watch cache serve it; a deleted one (a DELETED event, or the answer to a delete that removed the
//   key) is the key's last value before R, at resourceVersion R. The ref is kept only when the key
//   changed at R and its value there is stored as the object's kind and apiVersion, so answers that are
//   not a stored object as it is (a Table, PartialObjectMetadata, a Scale, a Status) and the answers of
//   `?dryRun` writes (never stored) keep their summaries. A List keeps each item as a ListItemRef (items
//   are served without kind and apiVersion), when every item is a stored object as it is.
// - an `etcd.Txn` request keeps each put's value as a ValueRef: the key and the revision its reply wrote,
//   whose stored value is that very string (a put never stored, in the branch not taken or a failed
//   request, keeps the request's summary).
// - a request body the user sent (kubectl, the page) cannot be recomputed: its `http.request` record stays
//   whole. Other requests keep their headers, shared, and the components' bodies an edit of the stored
//   object their answers carry (trace-payloads-bodies.ts).

import { byteStringToUtf8 } from './etcd/bytes.ts';
import { isProtobufValue, protobufMagic } from './apiserver/storage/codec.ts';
import type { Message, PayloadRebuilder } from './engine/index.ts';
import { isTombstone, type KeyValue } from './etcd/kv.ts';
import type { RequestOp, TxnRequest } from './etcd/rpc.ts';
import { userComponentName } from './user/user.ts';
import { httpKinds, type HttpRequest, type HttpResponse, type HttpWatchEvent } from './wire/http.ts';
import type { EtcdReply } from './etcd/messages.ts';
import { RequestRef, rebuildRequest, requestRef } from './trace-payloads-bodies.ts';
import { ListItemRef, ObjectRef, kvAsOf, putValueRef, resolve, type HistoryMember } from './trace-payloads-refs.ts';

/** Whether `value` is stored as an object of `kind` in `apiVersion` (the protobuf envelope's TypeMeta, or the JSON's). */
function storedAs(value: string, kind: string, apiVersion: string): boolean {
  if (!isProtobufValue(value)) {
    try {
      const stored = JSON.parse(byteStringToUtf8(value)) as { kind?: unknown; apiVersion?: unknown };
      return stored.kind === kind && stored.apiVersion === apiVersion;
    } catch {
      return false;
    }
  }
  const typeMeta = `\n${String.fromCharCode(apiVersion.length)}${apiVersion}\x12${String.fromCharCode(kind.length)}${kind}`;
  return typeMeta.length < 0x80 && value.startsWith(`\n${String.fromCharCode(typeMeta.length)}${typeMeta}`, protobufMagic.length);
}

/**
 * `object` as an ObjectRef, when it is the stored object its resourceVersion names: `deleted` says it is
 * the key's value before that revision (undefined: when the key was deleted at it); `listed`, that it is
 * a List's item of that kind and apiVersion (a ListItemRef).
 */
function objectRef(members: readonly HistoryMember[], object: unknown, deleted?: boolean, listed?: { readonly kind: string; readonly apiVersion: string }): ObjectRef | undefined {
  if (object === null || typeof object !== 'object') return undefined;
  const served = object as { kind?: unknown; apiVersion?: unknown; metadata?: { name?: unknown; namespace?: unknown; resourceVersion?: unknown } };
  const { kind, apiVersion } = listed ?? served;
  const metadata = served.metadata;
  const rv = metadata?.resourceVersion;
  if (typeof kind !== 'string' || typeof apiVersion !== 'string' || typeof metadata?.name !== 'string' || typeof rv !== 'string' || !/^[1-9][0-9]*$/.test(rv)) return undefined;
  const revision = Number(rv);
  const suffix = typeof metadata.namespace === 'string' ? `/${metadata.namespace}/${metadata.name}` : `/${metadata.name}`;
  for (const member of members) {
    let change: KeyValue | undefined;
    member.store?.backend?.rangeRevisions(revision, revision + 1, (kv) => {
      if (change === undefined && kv.key.endsWith(suffix)) change = kv;
    });
    if (!change) continue;
    const content = (deleted ?? isTombstone(change)) ? revision - 1 : revision;
    const kv = kvAsOf(member, change.key, content);
    if (!kv || kv.value === '' || !storedAs(kv.value, kind, apiVersion)) return undefined;
    return listed ? new ListItemRef(change.key, revision, content) : new ObjectRef(change.key, revision, content);
  }
  return undefined;
}

/**
 * A List's body with each item as a ListItemRef; undefined when one is not the stored object its
 * resourceVersion names, or the body is no List of items without kind and apiVersion.
 */
function listRef(members: readonly HistoryMember[], body: unknown): unknown {
  const list = body as { kind?: unknown; apiVersion?: unknown; items?: unknown } | null;
  if (typeof list?.kind !== 'string' || !list.kind.endsWith('List') || typeof list.apiVersion !== 'string' || !Array.isArray(list.items)) return undefined;
  const listed = { kind: list.kind.slice(0, -'List'.length), apiVersion: list.apiVersion };
  const items: ObjectRef[] = [];
  for (const item of list.items as unknown[]) {
    const ref = (item as { kind?: unknown } | null)?.kind === undefined ? objectRef(members, item, false, listed) : undefined;
    if (!ref) return undefined;
    items.push(ref);
  }
  return items.length > 0 ? { ...list, items } : undefined;
}

/** The puts of `ops` with their values as ValueRefs at `revision`; undefined when one is not the value stored there. */
function putsWithValueRefs(member: HistoryMember, ops: readonly RequestOp[] | undefined, revision: number | null): readonly RequestOp[] | undefined {
  if (!ops?.some((op) => op.requestPut?.value)) return ops;
  if (revision === null) return undefined;
  const light = ops.map((op) => putValueRef(member, op, revision));
  return light.every((op, i) => op !== ops[i] || !op.requestPut?.value) ? light : undefined;
}

/**
 * A Txn request with its puts' values as ValueRefs at the revision its reply wrote; undefined when it
 * puts nothing, or puts a value not stored (the branch not taken, a failed request, no reply retained).
 */
function txnRef(member: HistoryMember, txn: TxnRequest, reply: Message | undefined): TxnRequest | undefined {
  const answer = reply?.payload as EtcdReply<unknown> | undefined;
  const write = answer?.ok ? answer.write : null;
  const stored = (branch: 'success' | 'failure') => (write?.changed && write.branch === branch ? write.revision : null);
  const success = putsWithValueRefs(member, txn.success, stored('success'));
  const failure = putsWithValueRefs(member, txn.failure, stored('failure'));
  if (success === txn.success && failure === txn.failure) return undefined;
  if ((txn.success && !success) || (txn.failure && !failure)) return undefined;
  return { ...txn, ...(success ? { success } : {}), ...(failure ? { failure } : {}) };
}

/**
 * Light records of kube-apiserver's Txn requests to `members` and of the stored objects its responses and
 * watch events carry. Contract: `refOf` sees a request before its response (the trace summarizes in step
 * order), so the responses of `?dryRun` requests are known, and an answer's stored object found for its
 * request's record is not looked up again.
 */
export function apiserverBodiesRebuilder(members: readonly HistoryMember[]): PayloadRebuilder {
  const byName = new Map(members.map((m) => [m.name, m]));
  /** Requests with `?dryRun` whose responses are not yet summarized. */
  const dryRuns = new Set<number>();
  /** The stored objects of answers whose requests' light records took them, by answer (not yet summarized). */
  const answerRefs = new Map<number, ObjectRef>();
  /** The distinct request headers each sender sent last, shared by its light records. */
  const headers = new Map<string, Readonly<Record<string, string>>[]>();
  return {
    refOf(message: Message, reply: () => Message | undefined): unknown {
      switch (message.kind) {
        case 'etcd.Txn': {
          const member = byName.get(message.to);
          return member ? txnRef(member, message.payload as TxnRequest, reply()) : undefined;
        }
        case httpKinds.request: {
          const request = message.payload as HttpRequest;
          if (/(^|&)dryRun=/.test(request.query)) dryRuns.add(message.id);
          // A body the user sent cannot be recomputed: the record keeps it, once.
          if (message.from === userComponentName && request.body !== undefined) return request;
          return requestRef(message, reply, (answer) => {
            const ref = objectRef(members, (answer.payload as HttpResponse).body);
            if (ref) answerRefs.set(answer.id, ref);
            return ref;
          }, headers);
        }
        case httpKinds.response: {
          if (message.replyTo !== null && dryRuns.delete(message.replyTo)) return undefined;
          const response = message.payload as HttpResponse;
          const known = answerRefs.get(message.id);
          if (known) answerRefs.delete(message.id);
          const body = known ?? objectRef(members, response.body) ?? listRef(members, response.body);
          return body && { ...response, body };
        }
        case httpKinds.watchEvent: {
          const event = message.payload as HttpWatchEvent;
          if (event.type !== 'ADDED' && event.type !== 'MODIFIED' && event.type !== 'DELETED') return undefined;
          const object = objectRef(members, event.object, event.type === 'DELETED');
          return object && { ...event, object };
        }
        default: return undefined;
      }
    },
    rebuild(message: Message, ref: unknown): unknown {
      if (ref instanceof RequestRef) return rebuildRequest(message, ref, members);
      const own = byName.get(message.to);
      return resolve(ref, own ? [own, ...members.filter((m) => m !== own)] : members);
    },
  };
}
