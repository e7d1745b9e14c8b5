// What a flight shipped while playing carries in place of its payload: the few fields the page's token
// label reads (src/ui/graph/token-label.ts: a request's method and path, a response's status and Status
// reason, a watch event's type, object name and resourceVersion, an etcd request's key and compares, a
// reply's branch, count, revision or error), in the payload's own shape, so the label and its colour
// are the same as from the whole payload. What is dropped is what makes payloads large: objects, stored
// values, listed kvs. The whole payload follows when playback pauses.

import { typedRecord, type RequestOp, type TraceRecord } from '../protocol/index.ts';

/** The key of an op, without its value. */
function opKey(op: RequestOp): RequestOp {
  if (op.requestPut) return { requestPut: { key: op.requestPut.key, value: '' } };
  if (op.requestRange) return { requestRange: { key: op.requestRange.key } };
  if (op.requestDeleteRange) return { requestDeleteRange: { key: op.requestDeleteRange.key } };
  return {};
}

/** Only `metadata.name` and `metadata.resourceVersion` of an object, or a Status's code and reason. */
function objectFacts(object: unknown): unknown {
  if (typeof object !== 'object' || object === null) return object;
  const { code, reason, metadata } = object as { code?: unknown; reason?: unknown; metadata?: { name?: unknown; resourceVersion?: unknown } };
  return { code, reason, metadata: metadata && { name: metadata.name, resourceVersion: metadata.resourceVersion } };
}

/** The fields of `record`'s payload a token label reads (null when its kind alone names it). */
export function labelPayload(record: Pick<TraceRecord, 'kind' | 'payload'>): unknown {
  const typed = typedRecord(record);
  switch (typed.kind) {
    case 'http.request': return { method: typed.payload.method, path: typed.payload.path };
    case 'http.response': {
      const { status, body } = typed.payload;
      return { status, body: typeof body === 'object' && body !== null ? { reason: (body as { reason?: unknown }).reason } : null };
    }
    case 'http.watchEvent': return { type: typed.payload.type, object: objectFacts(typed.payload.object) };
    case 'http.watchEnd': return { reason: typed.payload.reason };
    case 'etcd.Txn': {
      const { compare, success, failure } = typed.payload;
      return compare?.length ? { compare } : { success: success?.map(opKey), failure: failure?.map(opKey) };
    }
    case 'etcd.Range': return { key: typed.payload.key, rangeEnd: typed.payload.rangeEnd, limit: typed.payload.limit };
    case 'etcd.Watch': {
      const { createRequest, cancelRequest } = typed.payload.request;
      return { request: { createRequest: createRequest && { key: createRequest.key, rangeEnd: createRequest.rangeEnd, startRevision: createRequest.startRevision }, cancelRequest } };
    }
    case 'etcd.WatchResponse': {
      const { header, compactRevision, created, canceled, watchId, events } = typed.payload.response;
      const first = events[0];
      // The first event's key and revision, and how many follow (as placeholders: the label counts them).
      const slim = first ? [{ type: first.type, kv: { key: first.kv.key, modRevision: first.kv.modRevision } }, ...events.slice(1).map(() => null)] : [];
      return { response: { header: { revision: header.revision }, compactRevision, created, canceled, watchId, events: slim } };
    }
    case 'user.fault': return { type: typed.payload.type };
    case 'timer': return { name: typed.payload.name };
    case 'etcd.TxnResponse': {
      const reply = typed.payload;
      if (!reply.ok) return { ok: false, error: { message: reply.error.message } };
      return { ok: true, write: reply.write && { branch: reply.write.branch, revision: reply.write.revision }, response: { header: { revision: reply.response.header.revision } } };
    }
    case 'etcd.RangeResponse': {
      const reply = typed.payload;
      if (!reply.ok) return { ok: false, error: { message: reply.error.message } };
      return { ok: true, response: { count: reply.response.count, header: { revision: reply.response.header.revision } } };
    }
    case 'etcd.PutResponse': case 'etcd.DeleteRangeResponse': case 'etcd.CompactResponse': case 'etcd.LeaseGrantResponse':
    case 'etcd.LeaseRevokeResponse': case 'etcd.LeaseKeepAliveResponse': case 'etcd.LeaseTimeToLiveResponse': case 'etcd.LeaseLeasesResponse':
      return typed.payload.ok ? { ok: true } : { ok: false, error: { message: typed.payload.error.message } };
    default: return null;
  }
}

/** The newest records of a replacing `traceBatch` that keep their whole payload (the inspector lists 30). */
export const wholeTailRecords = 32;

/**
 * A replacing `traceBatch`'s records (a seek or a Step back) as shipped: the newest `wholeTailRecords`, and
 * the requests and causes they name, whole (the step's caption, the story panel and the inspector's list
 * read those at once); every older one light, its payload cut to what its label reads (`labelPayload`) and
 * marked `payloadOmitted`. The page asks for a light record's whole payload (a `traceRange` of its step)
 * when it shows it (src/ui/store/payloads.ts), so what the user sees or opens is the same; a seek ships a
 * fraction of the bytes (issue 20, part 2: light records, payloads on demand).
 */
export function lightTail(records: readonly TraceRecord[], whole = wholeTailRecords): TraceRecord[] {
  if (records.length <= whole) return [...records];
  const named = new Set<number>();
  for (let i = records.length - whole; i < records.length; i++) {
    const { cause, replyTo } = records[i]!;
    if (cause !== null) named.add(cause);
    if (replyTo !== null) named.add(replyTo);
  }
  return records.map((record, i) => (i >= records.length - whole || named.has(record.id) ? record : { ...record, payload: labelPayload(record), payloadOmitted: true }));
}
