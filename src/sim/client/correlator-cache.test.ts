import { describe, expect, it } from 'vitest';
import type { Event } from '../api/types/core.ts';
import { formatTimestamp } from '../api/time.ts';
import { second } from '../engine/index.ts';
import { LruTable } from './correlator-cache.ts';
import { eventCorrelation, EventCorrelator, eventName, type CorrelateResult } from './event-recorder.ts';

describe('LruTable', () => {
  it('evicts the least recently used entry: a get or an add makes an entry the newest', () => {
    const dropped: number[] = [];
    const lru = new LruTable(3, 1, (key) => dropped.push(key));
    for (const key of [1, 2, 3]) lru.put(lru.add(key), 0, key * 10);
    expect(lru.get(1)).toBeGreaterThanOrEqual(0);
    lru.add(4);
    expect(dropped).toEqual([2]);
    lru.get(3);
    lru.add(5);
    lru.add(6);
    expect(dropped).toEqual([2, 1, 4]);
    expect([1, 2, 4].map((k) => lru.get(k))).toEqual([-1, -1, -1]);
    expect([3, 5, 6].map((k) => lru.get(k) >= 0)).toEqual([true, true, true]);
    expect(lru.at(lru.get(3), 0)).toBe(30);
  });

  it('holds as many entries as its size past the rows it starts with, and gives an evicted row zeroed to the next', () => {
    const dropped: [number, number][] = [];
    const lru = new LruTable(100, 2, (key, row) => dropped.push([key, row]));
    for (let key = 0; key < 100; key++) lru.put(lru.add(key), 1, key + 1);
    expect(dropped).toEqual([]);
    expect(lru.at(lru.get(99), 1)).toBe(100);
    const row = lru.get(0);
    expect(lru.at(row, 1)).toBe(1);
    const next = lru.add(100);
    expect(dropped).toEqual([[1, next]]);
    expect(lru.at(next, 1)).toBe(0);
    expect(lru.get(1)).toBe(-1);
  });

  it('keeps the entries, order and values of a Map kept as groupcache keeps its list, over many gets and adds', () => {
    for (const size of [1, 7, 100, 4096]) {
      let seed = size;
      const random = (n: number): number => {
        seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
        return (seed >>> 0) % n;
      };
      const reference = new Map<number, number>();
      const dropped: number[] = [];
      const expectedDrops: number[] = [];
      const lru = new LruTable(size, 1, (key) => dropped.push(key));
      let wrong = 0;
      for (let i = 0; i < 20_000; i++) {
        const key = random(size * 3) * 32_768 + random(3);
        const row = lru.get(key);
        const value = reference.get(key);
        if ((row >= 0 ? lru.at(row, 0) : undefined) !== value) wrong++;
        if (value !== undefined) {
          reference.delete(key);
          reference.set(key, value);
          continue;
        }
        lru.put(lru.add(key), 0, i);
        reference.set(key, i);
        if (reference.size > size) {
          const oldest = reference.keys().next().value!;
          reference.delete(oldest);
          expectedDrops.push(oldest);
        }
      }
      expect(wrong).toBe(0);
      expect(dropped.length).toBe(expectedDrops.length);
      expect(dropped.every((key, i) => key === expectedDrops[i])).toBe(true);
      expect([...reference].every(([key, value]) => lru.at(lru.get(key), 0) === value)).toBe(true);
    }
  }, 120_000);
});

/**
 * client-go's events_cache.go as directly as it reads: string keys joined from the event's fields, three
 * LRUs of entries as objects. The correlator must give the same results event for event.
 */
class ReferenceCorrelator {
  private readonly lru = <V>() => {
    const map = new Map<string, V>();
    return {
      get: (key: string): V | undefined => {
        const v = map.get(key);
        if (v !== undefined) {
          map.delete(key);
          map.set(key, v);
        }
        return v;
      },
      add: (key: string, v: V): void => {
        map.delete(key);
        map.set(key, v);
        if (map.size > eventCorrelation.maxLruCacheEntries) map.delete(map.keys().next().value!);
      },
    };
  };
  private readonly aggregates = this.lru<{ messages: string[]; last: number }>();
  private readonly logs = this.lru<{ count: number; first: string | null | undefined; name: string; rv: string | undefined }>();
  private readonly spam = this.lru<{ tokens: number; last: number }>();

  private static object(e: Event): string {
    const o = e.involvedObject;
    return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion].join('\0');
  }

  private static eventKey(e: Event): string {
    return [ReferenceCorrelator.object(e), e.involvedObject.fieldPath, e.type, e.reason, e.message].join('\0');
  }

  correlate(event: Event, now: number, epochMs: number): CorrelateResult {
    const object = ReferenceCorrelator.object(event);
    const aggregateKey = [object, event.type, event.reason, event.reportingComponent, event.reportingInstance].join('\0');
    let record = this.aggregates.get(aggregateKey);
    if (!record || now - record.last > eventCorrelation.maxInterval) record = { messages: [], last: now };
    if (!record.messages.includes(event.message ?? '')) record.messages.push(event.message ?? '');
    record.last = now;
    this.aggregates.add(aggregateKey, record);
    let e = event;
    let key = ReferenceCorrelator.eventKey(event);
    if (record.messages.length >= eventCorrelation.maxEvents) {
      record.messages.shift();
      const t = formatTimestamp(epochMs);
      e = {
        kind: 'Event', apiVersion: 'v1', metadata: { name: eventName(event.involvedObject.name ?? '', epochMs), namespace: event.metadata.namespace },
        involvedObject: event.involvedObject, reason: event.reason, message: eventCorrelation.combinedPrefix + (event.message ?? ''),
        source: event.source, firstTimestamp: t, lastTimestamp: t, count: 1, type: event.type,
      };
      key = aggregateKey;
    }
    const last = this.logs.get(key);
    let patch: CorrelateResult['patch'];
    if (last && last.count > 0) {
      e = { ...e, metadata: { ...e.metadata, name: last.name, ...(last.rv ? { resourceVersion: last.rv } : {}) }, firstTimestamp: last.first, count: last.count + 1 };
      patch = { count: last.count + 1, lastTimestamp: e.lastTimestamp, message: e.message };
    }
    this.log(key, e);
    let bucket = this.spam.get(object);
    if (!bucket) {
      bucket = { tokens: eventCorrelation.spamBurst, last: now };
      this.spam.add(object, bucket);
    }
    bucket.tokens = Math.min(eventCorrelation.spamBurst, bucket.tokens + ((now - bucket.last) / second) * eventCorrelation.spamQps);
    bucket.last = now;
    const skip = bucket.tokens < 1;
    if (!skip) bucket.tokens -= 1;
    return patch ? { event: e, patch, skip } : { event: e, skip };
  }

  updateState(event: Event): void {
    this.log(ReferenceCorrelator.eventKey(event), event);
  }

  private log(key: string, e: Event): void {
    this.logs.add(key, { count: e.count ?? 0, first: e.firstTimestamp, name: e.metadata.name ?? '', rv: e.metadata.resourceVersion });
  }
}

describe('EventCorrelator against client-go\'s caches as they read', () => {
  const t0 = 1_700_000_000_000;

  it('gives the same event, patch and spam decision for every event, over thousands of objects', () => {
    // Steps over more objects than an LRU holds, so entries are evicted, hit again and made anew, and
    // many about a few objects, so their events repeat, combine and run out of spam tokens.
    let seed = 20;
    const random = (n: number): number => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
      return (seed >>> 0) % n;
    };
    const pick = <T>(xs: readonly T[]): T => xs[random(xs.length)]!;
    for (let run = 0; run < 3; run++) {
      const model = new EventCorrelator();
      const reference = new ReferenceCorrelator();
      let now = 0;
      let rv = 1;
      const seen = { patched: 0, combined: 0, skipped: 0 };
      for (let i = 0; i < 9000; i++) {
        const s = {
          object: random(2) ? random(5) : random(4301),
          reason: pick(['Pulled', 'Created', 'BackOff']),
          message: random(12),
          advance: random(60) ? pick([0, 1, 250, 2000]) : 700_000,
          written: pick(['same', 'same', 'same', 'renamed', 'odd version', 'none', 'null timestamp', 'no timestamp']),
        };
        now += s.advance;
        const epochMs = t0 + now;
        const name = `web-${s.object % 97}-${s.object}`;
        const at = formatTimestamp(epochMs);
        const event: Event = {
          kind: 'Event', apiVersion: 'v1', metadata: { name: eventName(name, epochMs), namespace: 'default' },
          involvedObject: { kind: 'Pod', namespace: 'default', name, uid: `uid-${s.object}`, apiVersion: 'v1', fieldPath: 'spec.containers{web}' },
          reason: s.reason, message: `message ${s.message}`, source: { component: 'kubelet', host: 'node-1' },
          firstTimestamp: at, lastTimestamp: at, count: 1, type: s.reason === 'BackOff' ? 'Warning' : 'Normal',
          reportingComponent: 'kubelet', reportingInstance: 'node-1',
        };
        const got = model.correlate(event, now, epochMs);
        const want = reference.correlate(event, now, epochMs);
        if (JSON.stringify(got) !== JSON.stringify(want)) expect(got).toEqual(want);
        if (got.patch) seen.patched++;
        if (got.event.message?.startsWith(eventCorrelation.combinedPrefix)) seen.combined++;
        if (got.skip) seen.skipped++;
        if (got.skip || s.written === 'none') continue;
        const metadata = { ...got.event.metadata, resourceVersion: s.written === 'odd version' ? `0${rv++}` : String(rv++) };
        if (s.written === 'renamed') metadata.name = `${name}.0${s.object}`;
        const written: Event = { ...got.event, metadata, ...(s.written === 'null timestamp' ? { firstTimestamp: null } : s.written === 'no timestamp' ? { firstTimestamp: undefined } : {}) };
        model.updateState(written);
        reference.updateState(written);
      }
      expect(Math.min(seen.patched, seen.combined, seen.skipped)).toBeGreaterThan(0);
    }
  }, 120_000);
});
