// A payload's summary: what a label or a row reads of a message, small enough to keep for every step
// of a long run. The trace keeps summaries in place of the payloads of its oldest steps (trace.ts), and
// the sequence view's rows carry them (src/worker/trace-range.ts).

const slimDepth = 5;
const slimString = 96;
/** Stored values: a label shows at most a compare's first characters. */
const slimValue = 32;
const slimItems = 3;
/** Parts of a Kubernetes object no label reads, emptied below the payload's top level. */
const slimFields = new Set(['spec', 'status', 'managedFields', 'annotations', 'labels', 'ownerReferences', 'finalizers', 'data', 'template']);
/** Strings kept whole: a request's path and query (what says a request is a watch, and of what). */
const wholeStrings = new Set(['path', 'query']);
/** Fields left out: request headers, etcd's debug lines and stats, watch events' previous values. */
const slimOmitted = new Set(['headers', 'log', 'stats', 'prevKv']);

/**
 * A payload cut to what a label reads: objects nested `slimDepth` deep are emptied, and so are an
 * object's spec, status and bookkeeping below the top level; headers, debug lines and previous values are
 * left out; strings longer than `slimString` (stored values: `slimValue`; paths and queries: never) are shortened; lists keep their
 * length but only their first `slimItems` items (the rest null).
 */
export function slimPayload(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return slimText(value, slimString);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (depth >= slimDepth) return [];
    // map: the summary list's store is exactly its length (pushing would leave slack in every kept summary).
    return value.map((item, i) => (i < slimItems ? slimPayload(item, depth + 1) : null));
  }
  if (depth >= slimDepth) return {};
  const slim: Record<string, unknown> = {};
  // for…in walks the same keys as Object.entries here (payloads are plain data: no enumerable inherited keys) without building the pairs.
  for (const key in value) {
    if (slimOmitted.has(key)) continue;
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string') slim[key] = wholeStrings.has(key) ? field : slimText(field, key === 'value' ? slimValue : slimString);
    else slim[key] = depth >= 1 && field !== null && typeof field === 'object' && slimFields.has(key) ? {} : slimPayload(field, depth + 1);
  }
  return slim;
}

function slimText(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
