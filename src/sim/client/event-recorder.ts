// Records core/v1 Events the way client-go's tools/record does: a recorder per source makes the Event
// (`<object>.<hex UnixNano>` in the object's namespace, count 1, first = last timestamp, source and
// reportingComponent/Instance), and one broadcaster per component writes them in order after
// correlating: a repeat of the same event PATCHes count+1 and lastTimestamp onto the first one; the 10th
// distinct message for the same object and reason within 600 s becomes one
// "(combined from similar events): …" event that later similar events count up; a source may write 25
// events about one object, then one per 5 minutes (dropped, not delayed).
// Models k8s.io/client-go/tools/record/event.go (recorderImpl.generateEvent/makeEvent,
// eventBroadcasterImpl.recordToSink, recordEvent) and events_cache.go (EventCorrelator, EventAggregator,
// eventLogger, EventSourceObjectSpamFilter), and the typed core/v1 EventSink (create and patch).
//
// Each of the correlator's three caches is an LRU of 4096 entries (maxLruCacheEntries; Models
// github.com/golang/groupcache/lru: a Get or Add makes the entry the newest, an Add past the bound evicts
// the oldest), so a long run's events about deleted objects are forgotten as upstream forgets them.
// Not modelled: the broadcaster's 1000-event channel (nothing is dropped for a full channel), retries (a StatusError is never retried
// upstream either; network errors do not exist here), and the events.k8s.io/v1 recorder the scheduler uses.

import type { Event, ObjectReference } from '../api/types/core.ts';
import { formatTimestamp } from '../api/time.ts';
import { isStatusError } from '../api/errors.ts';
import { second, type Co, type Time } from '../engine/index.ts';
import type { ClientHost } from './client-component.ts';
import type { ResourceClient, RestClient } from './rest-client.ts';
import { keySpan, LruTable, StringPool } from './correlator-cache.ts';
import { getReference, type Typed } from './object-reference.ts';

export interface EventSource {
  readonly component: string;
  /** The node name for kubelets; empty for controllers. */
  readonly host?: string;
}

export type EventType = 'Normal' | 'Warning';

/** events_cache.go defaults. */
export const eventCorrelation = {
  maxEvents: 10,
  maxInterval: 600 * second,
  spamBurst: 25,
  spamQps: 1 / 300,
  combinedPrefix: '(combined from similar events): ',
  maxLruCacheEntries: 4096,
} as const;

/** Unix nanoseconds of a wall-clock instant in ms (virtual time has microsecond resolution). */
export function unixNanos(epochMs: number): bigint {
  return BigInt(Math.round(epochMs * 1000)) * 1000n;
}

/**
 * `nginx-7c5ddbdf54-x8f9k.17a2b3c4d5e6f789`: the object's name and the time in Unix nanoseconds, hex.
 * `nanos` overrides the time when a recorder must keep two events of one instant apart.
 */
export function eventName(objectName: string, epochMs: number, nanos: bigint = unixNanos(epochMs)): string {
  // One flat string: a template literal would keep its pieces as a rope for as long as the Event lives.
  return [objectName, nanos.toString(16)].join('.');
}

// Upstream's keys join an event's fields into one string (getEventKey, getEventAggregateKey,
// getSpamKey). Here the same fields make two pooled strings: the source and object's part (the spam key's
// fields) and the rest, so a pod's nine entries in a kubelet's caches share one copy of its part and the
// kubelet's few messages are kept once. Two keys name one entry exactly when upstream's do, short of one
// field's text running into its neighbour's (the object's uid, which every key holds, rules that out).

/** The spam key: the source and the object. */
function objectPart(e: Event): string {
  const o = e.involvedObject;
  return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion].map((s) => s ?? '').join('');
}

/** The event key's fields besides the object's part. */
function eventPart(e: Event): string {
  return [e.involvedObject.fieldPath, e.type, e.reason, e.message].map((s) => s ?? '').join('');
}

/** The aggregate key's fields besides the object's part. */
function aggregatePart(e: Event): string {
  return [e.type, e.reason, e.reportingComponent, e.reportingInstance].map((s) => s ?? '').join('');
}

/** The three caches' columns. An aggregate: its message's id in the messages' pool (or `manyMessages`). */
const aggregateMessage = 0;
const aggregateLast = 1;
/**
 * An event log (the server's copy): count, first timestamp (its id in the messages' pool: the events of
 * one second share it; or `nullTimestamp` / `noTimestamp`), the name's hex suffix after the object's name
 * as two 32-bit halves (or NaN: the name is in `names`), resourceVersion (a plain decimal as a number,
 * as etcd's revisions are; or NaN: it is in `versions`).
 */
const logCount = 0;
const logFirst = 1;
const logNameHigh = 2;
const logNameLow = 3;
const logVersion = 4;
/** A spam filter's token bucket. */
const spamTokens = 0;
const spamLast = 1;

const manyMessages = -1;
const nullTimestamp = -1;
const noTimestamp = -2;

/** `<object name>.<hex>` with the hex as formatted from a 64-bit integer: its halves; undefined for another name. */
function nameHalves(name: string, objectName: string): [number, number] | undefined {
  if (name.length <= objectName.length + 1 || name.length > objectName.length + 17 || !name.startsWith(objectName) || name[objectName.length] !== '.') return undefined;
  const hex = name.slice(objectName.length + 1);
  if (!/^(?:0|[1-9a-f][0-9a-f]*)$/.test(hex)) return undefined;
  return [hex.length > 8 ? parseInt(hex.slice(0, -8), 16) : 0, parseInt(hex.slice(-8), 16)];
}

function nameFromHalves(objectName: string, high: number, low: number): string {
  return [objectName, high > 0 ? high.toString(16) + low.toString(16).padStart(8, '0') : low.toString(16)].join('.');
}

export interface CorrelateResult {
  readonly event: Event;
  /** The strategic merge patch for a repeat; undefined for a new event. */
  readonly patch?: { count: number; lastTimestamp: string | null | undefined; message: string | undefined };
  readonly skip: boolean;
}

/**
 * EventCorrelator: aggregate, then count, then spam-filter. Each cache entry is a row of numbers; what
 * does not fit a number (an aggregate's second message on, a name or resourceVersion of another form)
 * is kept beside it by row until the entry goes.
 */
export class EventCorrelator {
  private readonly keys = new StringPool(keySpan);
  private readonly messages = new StringPool(Infinity);
  private readonly messageLists = new Map<number, number[]>();
  private readonly names = new Map<number, string>();
  private readonly versions = new Map<number, string | undefined>();
  private readonly aggregates = new LruTable(eventCorrelation.maxLruCacheEntries, 2, (key, row) => {
    this.releaseKey(key);
    this.releaseMessages(row);
  });
  private readonly logs = new LruTable(eventCorrelation.maxLruCacheEntries, 5, (key, row) => {
    this.releaseKey(key);
    this.forgetLog(row);
  });
  private readonly spam = new LruTable(eventCorrelation.maxLruCacheEntries, 2, (key) => this.keys.release(key));

  correlate(event: Event, now: Time, epochMs: number): CorrelateResult {
    const object = objectPart(event);
    const [aggregated, rest] = this.aggregate(event, object, now, epochMs);
    const observed = this.observe(aggregated, object, rest);
    return { ...observed, skip: this.filter(object, now) };
  }

  /** UpdateState: remember the server's copy (name, resourceVersion, count) under its own key. */
  updateState(event: Event): void {
    this.log(objectPart(event), eventPart(event), event);
  }

  /** Sets the log of (object, rest) to the event's; a cached log is changed in place (its Get made it the newest, as an Add would). */
  private log(object: string, rest: string, event: Event): void {
    const first = typeof event.firstTimestamp === 'string' ? this.messages.acquire(event.firstTimestamp) : event.firstTimestamp === null ? nullTimestamp : noTimestamp;
    let row = this.logs.get(this.find(object, rest));
    if (row < 0) row = this.store(this.logs, object, rest);
    else this.forgetLog(row);
    this.logs.put(row, logCount, event.count ?? 0);
    this.logs.put(row, logFirst, first);
    const name = event.metadata.name ?? '';
    const halves = nameHalves(name, event.involvedObject.name ?? '');
    if (halves) {
      this.logs.put(row, logNameHigh, halves[0]);
      this.logs.put(row, logNameLow, halves[1]);
    } else {
      this.logs.put(row, logNameHigh, NaN);
      this.names.set(row, name);
    }
    const rv = event.metadata.resourceVersion;
    if (rv !== undefined && /^[1-9]\d{0,8}$/.test(rv)) this.logs.put(row, logVersion, Number(rv));
    else {
      this.logs.put(row, logVersion, NaN);
      this.versions.set(row, rv);
    }
  }

  /** Lets go of what a log's row names outside its numbers. */
  private forgetLog(row: number): void {
    const first = this.logs.at(row, logFirst);
    if (first >= 0) this.messages.release(first);
    this.names.delete(row);
    this.versions.delete(row);
  }

  /** The cache key of an object's part and a rest, if both strings are pooled (else no entry has it). */
  private find(object: string, rest?: string): number | undefined {
    const first = this.keys.id(object);
    if (first === undefined || rest === undefined) return first;
    const second = this.keys.id(rest);
    return second === undefined ? undefined : first * keySpan + second;
  }

  /** Adds an entry for a key no entry has; its strings are pooled while it lives. */
  private store(cache: LruTable, object: string, rest: string | undefined): number {
    const first = this.keys.acquire(object);
    return cache.add(rest === undefined ? first : first * keySpan + this.keys.acquire(rest));
  }

  private releaseKey(key: number): void {
    this.keys.release(Math.floor(key / keySpan));
    this.keys.release(key % keySpan);
  }

  /** An aggregate's messages' ids, in the order first seen. */
  private messagesOf(row: number): number[] {
    const id = this.aggregates.at(row, aggregateMessage);
    return id === manyMessages ? this.messageLists.get(row)! : [id];
  }

  private releaseMessages(row: number): void {
    for (const id of this.messagesOf(row)) this.messages.release(id);
    this.messageLists.delete(row);
  }

  /** Adds a message to an aggregate unless it has it; returns how many it has. */
  private remember(row: number, message: string): number {
    const id = this.messages.id(message);
    const single = this.aggregates.at(row, aggregateMessage);
    if (single !== manyMessages) {
      if (single === id) return 1;
      this.messageLists.set(row, [single, this.messages.acquire(message)]);
      this.aggregates.put(row, aggregateMessage, manyMessages);
      return 2;
    }
    const list = this.messageLists.get(row)!;
    if (id === undefined || !list.includes(id)) list.push(this.messages.acquire(message));
    return list.length;
  }

  private aggregate(event: Event, object: string, now: Time, epochMs: number): [Event, string] {
    const rest = aggregatePart(event);
    const message = event.message ?? '';
    let row = this.aggregates.get(this.find(object, rest));
    let count = 1;
    if (row < 0) {
      row = this.store(this.aggregates, object, rest);
      this.aggregates.put(row, aggregateMessage, this.messages.acquire(message));
    } else if (now - this.aggregates.at(row, aggregateLast) > eventCorrelation.maxInterval) {
      this.releaseMessages(row);
      this.aggregates.put(row, aggregateMessage, this.messages.acquire(message));
    } else count = this.remember(row, message);
    this.aggregates.put(row, aggregateLast, now);
    if (count < eventCorrelation.maxEvents) return [event, eventPart(event)];
    this.messages.release(this.messageLists.get(row)!.shift()!);
    const t = formatTimestamp(epochMs);
    const combined: Event = {
      kind: 'Event', apiVersion: 'v1',
      metadata: { name: eventName(event.involvedObject.name ?? '', epochMs), namespace: event.metadata.namespace },
      involvedObject: event.involvedObject,
      reason: event.reason,
      message: eventCorrelation.combinedPrefix + (event.message ?? ''),
      source: event.source,
      firstTimestamp: t, lastTimestamp: t, count: 1,
      type: event.type,
    };
    return [combined, rest];
  }

  private observe(event: Event, object: string, rest: string): { event: Event; patch?: CorrelateResult['patch'] } {
    const row = this.logs.get(this.find(object, rest));
    let observed = event;
    let patch: CorrelateResult['patch'];
    const count = row < 0 ? 0 : this.logs.at(row, logCount);
    if (count > 0) {
      const high = this.logs.at(row, logNameHigh);
      const name = Number.isNaN(high) ? this.names.get(row)! : nameFromHalves(event.involvedObject.name ?? '', high, this.logs.at(row, logNameLow));
      const metadata = { ...event.metadata, name };
      const version = this.logs.at(row, logVersion);
      const resourceVersion = Number.isNaN(version) ? this.versions.get(row) : String(version);
      if (resourceVersion) metadata.resourceVersion = resourceVersion;
      const first = this.logs.at(row, logFirst);
      const firstTimestamp = first >= 0 ? this.messages.string(first) : first === nullTimestamp ? null : undefined;
      observed = { ...event, metadata, firstTimestamp, count: count + 1 };
      patch = { count: count + 1, lastTimestamp: event.lastTimestamp, message: event.message };
    }
    this.log(object, rest, observed);
    return patch ? { event: observed, patch } : { event: observed };
  }

  /** EventSourceObjectSpamFilter: a token bucket per source and object, full to begin with. */
  private filter(object: string, now: Time): boolean {
    let row = this.spam.get(this.find(object));
    if (row < 0) {
      row = this.store(this.spam, object, undefined);
      this.spam.put(row, spamTokens, eventCorrelation.spamBurst);
      this.spam.put(row, spamLast, now);
    }
    let tokens = Math.min(eventCorrelation.spamBurst, this.spam.at(row, spamTokens) + ((now - this.spam.at(row, spamLast)) / second) * eventCorrelation.spamQps);
    this.spam.put(row, spamLast, now);
    const skip = tokens < 1;
    if (!skip) tokens -= 1;
    this.spam.put(row, spamTokens, tokens);
    return skip;
  }
}

/**
 * One per component: takes events from its recorders and writes them to kube-apiserver one at a time,
 * in order (StartRecordingToSink). Each write is a coroutine of the component: POST for a new event,
 * strategic-merge PATCH for a repeat (falling back to POST if the event is gone).
 */
export class EventBroadcaster {
  private readonly pending: Event[] = [];
  private writing = false;
  readonly correlator = new EventCorrelator();
  private readonly events: ResourceClient<Event>;

  constructor(private readonly host: ClientHost, client: RestClient) {
    this.events = client.resource<Event>('events');
  }

  newRecorder(source: EventSource): EventRecorder {
    return new EventRecorder(this.host, this, source);
  }

  /** Queues an event made by a recorder. */
  action(event: Event): void {
    this.pending.push(event);
    if (!this.writing) {
      this.writing = true;
      this.host.spawn(this.writeAll());
    }
  }

  private *writeAll(): Co<void> {
    for (let event = this.pending.shift(); event; event = this.pending.shift()) yield* this.recordToSink(event);
    this.writing = false;
  }

  private *recordToSink(event: Event): Co<void> {
    const result = this.correlator.correlate(event, this.host.now, this.host.epochMs + this.host.now);
    if (result.skip) return;
    const e = result.event;
    const namespace = e.metadata.namespace;
    let written: Event | undefined;
    try {
      if (result.patch) {
        try {
          written = yield* this.events.patch(namespace, e.metadata.name ?? '', 'application/strategic-merge-patch+json', result.patch);
        } catch (err) {
          if (!isStatusError(err) || err.code !== 404) throw err;
        }
      }
      if (!written) {
        const { resourceVersion: _dropped, ...metadata } = e.metadata;
        written = yield* this.events.create(namespace, { ...e, metadata });
      }
    } catch (err) {
      if (isStatusError(err)) return;
      throw err;
    }
    this.correlator.updateState(written);
  }
}

/** record.EventRecorder for one source (`replicaset-controller`, `kubelet` on `node-1`). */
export class EventRecorder {
  /** The last event name's instant, in Unix nanoseconds. */
  private lastNanos = 0n;

  constructor(private readonly host: ClientHost, private readonly broadcaster: EventBroadcaster, readonly source: EventSource) {}

  /** Records `reason`/`message` about `object` (see `typed` for one that may lack its kind). */
  event(object: Typed, type: EventType, reason: string, message: string): void {
    this.broadcaster.action(this.makeEvent(getReference(object), type, reason, message));
  }

  private makeEvent(ref: ObjectReference, type: EventType, reason: string, message: string): Event {
    const epochMs = this.host.epochMs + this.host.now;
    const t = formatTimestamp(epochMs);
    // Real clocks never give two events the same nanosecond; virtual time can (two events in one step),
    // so a recorder moves a repeated instant on by one nanosecond.
    let nanos = unixNanos(epochMs);
    if (nanos <= this.lastNanos) nanos = this.lastNanos + 1n;
    this.lastNanos = nanos;
    const source = this.source.host ? { component: this.source.component, host: this.source.host } : { component: this.source.component };
    return {
      kind: 'Event', apiVersion: 'v1',
      metadata: { name: eventName(ref.name ?? '', epochMs, nanos), namespace: ref.namespace || 'default' },
      involvedObject: ref,
      reason, message, source,
      firstTimestamp: t, lastTimestamp: t, count: 1, type,
      eventTime: null,
      reportingComponent: this.source.component,
      reportingInstance: this.source.host ?? '',
    };
  }
}
