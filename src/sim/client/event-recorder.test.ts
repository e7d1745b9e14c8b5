import { describe, expect, it } from 'vitest';
import type { Event, Pod } from '../api/types/core.ts';
import type { HttpRequest } from '../wire/http.ts';
import { formatTimestamp } from '../api/time.ts';
import { EventBroadcaster, EventCorrelator, eventName, unixNanos } from './event-recorder.ts';
import { getReference, podType, typed, type Typed } from './object-reference.ts';
import { clientTestCluster } from './testing.ts';

const pod: Typed<Pod> = {
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'nginx-7c5ddbdf54-x8f9k', namespace: 'default', uid: 'u-1', resourceVersion: '42' },
  spec: { containers: [] },
};

describe('eventName', () => {
  it('keeps two names of the same instant apart by a nanosecond', () => {
    expect(eventName('p', 1_700_000_000_000, unixNanos(1_700_000_000_000) + 1n)).toBe(`p.${(unixNanos(1_700_000_000_000) + 1n).toString(16)}`);
  });

  it.each([
    [1_692_057_605_123.456, 'p.177b656d4ce1bc00'],
    [0, 'p.0'],
  ])('%s ms → %s', (ms, name) => {
    expect(eventName('p', ms)).toBe(name);
  });

  it('has 16 hex digits for present-day times', () => {
    expect(eventName('x', 1_700_000_000_000)).toMatch(/^x\.[0-9a-f]{16}$/);
  });
});

describe('typed', () => {
  it('gives a listed object (no TypeMeta) the named kind in a copy, and keeps an object that has its own', () => {
    const { kind: _k, apiVersion: _v, ...listed } = pod;
    const t = typed(listed, podType);
    expect(getReference(t)).toEqual({ kind: 'Pod', apiVersion: 'v1', namespace: 'default', name: 'nginx-7c5ddbdf54-x8f9k', uid: 'u-1', resourceVersion: '42' });
    expect(listed).not.toHaveProperty('kind');
    expect(typed(pod, { apiVersion: 'x/v1', kind: 'Other' })).toBe(pod);
  });
});

describe('EventCorrelator', () => {
  const make = (message: string, at: number): Event => ({
    kind: 'Event', apiVersion: 'v1', metadata: { name: eventName('p', at), namespace: 'default' },
    involvedObject: getReference(pod), reason: 'BackOff', message, source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: formatTimestamp(at), lastTimestamp: formatTimestamp(at), count: 1, type: 'Warning',
    reportingComponent: 'kubelet', reportingInstance: 'node-1',
  });

  it('counts exact repeats on the first event\'s name and first timestamp', () => {
    const c = new EventCorrelator();
    const first = c.correlate(make('m', 1000), 1000, 1000);
    expect(first.patch).toBeUndefined();
    c.updateState({ ...first.event, metadata: { ...first.event.metadata, resourceVersion: '7' } });
    const again = c.correlate(make('m', 5000), 5000, 5000);
    expect(again.event.metadata.name).toBe(first.event.metadata.name);
    expect(again.event.count).toBe(2);
    expect(again.event.firstTimestamp).toBe(formatTimestamp(1000));
    expect(again.patch).toEqual({ count: 2, lastTimestamp: formatTimestamp(5000), message: 'm' });
  });

  it('combines the 10th distinct message within 600 s, then counts the combined event up', () => {
    const c = new EventCorrelator();
    const results = Array.from({ length: 12 }, (_, i) => c.correlate(make(`m${i}`, i * 1000), i * 1000, i * 1000));
    expect(results.slice(0, 9).every((r) => !r.event.message!.startsWith('(combined'))).toBe(true);
    expect(results[9]!.event.message).toBe('(combined from similar events): m9');
    expect(results[9]!.event.count).toBe(1);
    expect(results[10]!.event.message).toBe('(combined from similar events): m10');
    expect(results[10]!.event.metadata.name).toBe(results[9]!.event.metadata.name);
    expect(results[10]!.event.count).toBe(2);
    expect(results[11]!.event.count).toBe(3);
  });

  it('starts a new aggregate after 600 s of quiet', () => {
    const c = new EventCorrelator();
    for (let i = 0; i < 9; i++) c.correlate(make(`m${i}`, 0), 0, 0);
    const later = c.correlate(make('late', 601_000), 601_000, 601_000);
    expect(later.event.message).toBe('late');
  });

  it('lets a source write 25 events about one object, then drops them', () => {
    const c = new EventCorrelator();
    const skipped = Array.from({ length: 27 }, () => c.correlate(make('same', 0), 0, 0).skip);
    expect(skipped.filter((s) => !s)).toHaveLength(25);
    expect(c.correlate(make('same', 300_000), 300_000, 300_000).skip).toBe(false);
  });

  it('forgets the least recently used of 4096 objects: a repeat about it is a new event again', () => {
    const c = new EventCorrelator();
    const about = (i: number, at: number): Event => ({ ...make('m', at), involvedObject: { ...getReference(pod), name: `pod-${i}`, uid: `u-${i}` } });
    const record = (i: number, at: number): ReturnType<EventCorrelator['correlate']> => {
      const result = c.correlate(about(i, at), at, at);
      c.updateState({ ...result.event, metadata: { ...result.event.metadata, resourceVersion: String(i) } });
      return result;
    };
    for (let i = 0; i < 4096; i++) record(i, 0);
    expect(record(0, 1000).patch?.count).toBe(2);
    record(4096, 2000);
    expect(record(1, 3000).patch).toBeUndefined();
    expect(record(0, 4000).patch?.count).toBe(3);
  });

  it('keeps an object\'s key strings only while one of its entries is cached', () => {
    const c = new EventCorrelator();
    const strings = (root: unknown): string[] => {
      const out: string[] = [];
      const seen = new Set<unknown>();
      const walk = (v: unknown): void => {
        if (typeof v === 'string') out.push(v);
        if (typeof v !== 'object' || v === null || seen.has(v)) return;
        seen.add(v);
        if (v instanceof Map) for (const [k, x] of v) { walk(k); walk(x); }
        else Object.values(v).forEach(walk);
      };
      walk(root);
      return out;
    };
    const about = (i: number): Event => ({ ...make('m', 0), involvedObject: { ...getReference(pod), name: `pod-${i}`, uid: `uid-${i}.` } });
    c.correlate(about(0), 0, 0);
    expect(strings(c).filter((x) => x.includes('uid-0.'))).not.toEqual([]);
    for (let i = 1; i <= 4096; i++) c.correlate(about(i), 0, 0);
    expect(strings(c).filter((x) => x.includes('uid-0.'))).toEqual([]);
    expect(strings(c).filter((x) => x.includes('uid-4096.'))).not.toEqual([]);
  });
});

describe('EventBroadcaster against kube-apiserver', () => {
  it('POSTs a new event, then PATCHes count and lastTimestamp for a repeat', () => {
    const { cluster, component, client } = clientTestCluster();
    const recorder = new EventBroadcaster(component.host, client).newRecorder({ component: 'replicaset-controller' });
    recorder.event(pod, 'Normal', 'SuccessfulCreate', 'Created pod: nginx-7c5ddbdf54-x8f9k');
    cluster.engine.runUntilIdle();
    cluster.engine.runFor(3000);
    recorder.event(pod, 'Normal', 'SuccessfulCreate', 'Created pod: nginx-7c5ddbdf54-x8f9k');
    cluster.engine.runUntilIdle();

    const writes = cluster.engine.trace.all()
      .filter((m) => m.from === 'kube-controller-manager' && m.kind === 'http.request')
      .map((m) => m.payload as HttpRequest);
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/namespaces/default/events',
      `PATCH /api/v1/namespaces/default/events/${(writes[0]!.body as Event).metadata.name}`,
    ]);
    const created = writes[0]!.body as Event;
    expect(created.metadata.name).toMatch(/^nginx-7c5ddbdf54-x8f9k\.[0-9a-f]{16}$/);
    expect(created).toMatchObject({
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'nginx-7c5ddbdf54-x8f9k', uid: 'u-1', apiVersion: 'v1', resourceVersion: '42' },
      reason: 'SuccessfulCreate', type: 'Normal', count: 1, source: { component: 'replicaset-controller' },
      reportingComponent: 'replicaset-controller', reportingInstance: '',
    });
    expect(created.firstTimestamp).toBe(created.lastTimestamp);
    expect(writes[1]!.headers['content-type']).toBe('application/strategic-merge-patch+json');
    expect(writes[1]!.body).toMatchObject({ count: 2 });

    const responses = cluster.engine.trace.all().filter((m) => m.to === 'kube-controller-manager' && m.kind === 'http.response');
    expect(responses.map((m) => (m.payload as { status: number }).status)).toEqual([201, 200]);
    const patched = (responses[1]!.payload as { body: Event }).body;
    expect(patched.count).toBe(2);
    expect(patched.firstTimestamp).toBe(created.firstTimestamp);
    expect(patched.lastTimestamp).not.toBe(created.firstTimestamp);
  });
});
