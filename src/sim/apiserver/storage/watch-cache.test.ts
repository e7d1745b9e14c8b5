import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../../api/types/meta.ts';
import { caught } from './contract-fixtures.ts';
import { decodeObject, decodeStored, decodeToFreeze, deepFreeze, encodeObject } from './codec.ts';
import { defaultLowerBoundCapacity, defaultUpperBoundCapacity, encodingLag, eventFreshDuration, WatchCache } from './watch-cache.ts';

const keyOf = (obj: KubeObject) => `/registry/pods/default/${obj.metadata.name ?? ''}`;

function obj(name: string, rv: number): KubeObject {
  return { metadata: { name, namespace: 'default', resourceVersion: String(rv) } };
}

/** A cache listed (empty) at RV 1 that then records `n` changes of one object, RVs 2.., at `timeOf(i)`. */
function recorded(n: number, timeOf: (i: number) => number, lower?: number, upper?: number): WatchCache {
  const cache = new WatchCache(keyOf, lower, upper);
  cache.replace([], 1);
  for (let i = 0; i < n; i++) {
    if (i === 0) cache.add(obj('a', 2), timeOf(0));
    else cache.update(obj('a', 2 + i), timeOf(i));
  }
  return cache;
}

function tooOld(cache: WatchCache, rv: number): string | undefined {
  return ((caught(() => cache.getAllEventsSince(rv)) as { status: Status }).status).message;
}

describe('WatchCache: the window of recent changes', () => {
  it('starts at 100 events and doubles, without dropping anything, while a full window is younger than 75 s', () => {
    expect(defaultLowerBoundCapacity).toBe(100);
    expect(defaultUpperBoundCapacity).toBe(102_400);
    expect(eventFreshDuration).toBe(75_000);
    const cache = recorded(801, (i) => i * 10);
    expect(cache.capacity).toBe(1600);
    expect(cache.bufferedEvents).toBe(801);
    expect(cache.getAllEventsSince(1)).toHaveLength(801);
  });

  it('does not grow past its upper bound: a full window then drops its oldest event', () => {
    const cache = recorded(40, () => 0, 4, 16);
    expect(cache.capacity).toBe(16);
    expect(cache.bufferedEvents).toBe(16);
    // Oldest buffered RV 26 (RVs 26..41): a watch can start at 25 or later.
    expect(cache.getAllEventsSince(25).map((e) => e.resourceVersion)[0]).toBe(26);
    expect(tooOld(cache, 24)).toBe('too old resource version: 24 (25)');
  });

  it('doubles only while its oldest event is less than 75 s old; at 75 s it drops instead', () => {
    const young = recorded(5, (i) => (i < 4 ? 0 : eventFreshDuration - 1), 4, 16);
    expect(young.capacity).toBe(8);
    const old = recorded(5, (i) => (i < 4 ? 0 : eventFreshDuration), 4, 16);
    expect(old.capacity).toBe(4);
    expect(old.bufferedEvents).toBe(4);
  });

  it('halves when the oldest event of its newest quarter is more than 75 s old', () => {
    // Eight quick changes grow it to 8; one more, 100 s later, finds the newest quarter stale.
    const cache = recorded(9, (i) => (i < 8 ? 0 : 100_000), 4, 16);
    expect(cache.capacity).toBe(4);
    expect(cache.getAllEventsSince(6).map((e) => e.resourceVersion)).toEqual([7, 8, 9, 10]);
    expect(tooOld(cache, 5)).toBe('too old resource version: 5 (6)');
  });

  it('keeps its size when a full window is neither young nor stale: it drops the oldest event', () => {
    // Full at 60 s; at 80 s the oldest event is 80 s old (no doubling), the newest 20 s (no halving).
    const cache = recorded(5, (i) => i * 20_000, 4, 16);
    expect(cache.capacity).toBe(4);
    expect(cache.getAllEventsSince(2).map((e) => e.resourceVersion)).toEqual([3, 4, 5, 6]);
    expect(tooOld(cache, 1)).toBe('too old resource version: 1 (2)');
  });
});

describe('WatchCache: which resourceVersions a watch can start from', () => {
  it('right after a list, from the list RV on (nothing after it was dropped), with the events after it', () => {
    const cache = new WatchCache(keyOf);
    cache.replace([obj('a', 3), obj('b', 5)], 7);
    expect(tooOld(cache, 6)).toBe('too old resource version: 6 (7)');
    expect(cache.getAllEventsSince(7)).toEqual([]);
    cache.update(obj('a', 8), 0);
    cache.delete(obj('b', 9), 0);
    expect(cache.getAllEventsSince(7).map((e) => `${e.type} ${e.key} ${e.resourceVersion} prev=${e.prevObject?.metadata.resourceVersion}`)).toEqual([
      'MODIFIED /registry/pods/default/a 8 prev=3',
      'DELETED /registry/pods/default/b 9 prev=5',
    ]);
    expect(cache.getAllEventsSince(8).map((e) => e.resourceVersion)).toEqual([9]);
    expect(cache.getAllEventsSince(100)).toEqual([]);
  });

  it('RV 0: the current state as ADDED events at the cache\'s RV, in key order', () => {
    const cache = new WatchCache(keyOf);
    cache.replace([obj('b', 5), obj('a', 3)], 7);
    cache.add(obj('c', 8), 0);
    expect(cache.getAllEventsSince(0).map((e) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion} at ${e.resourceVersion}`))
      .toEqual(['ADDED a@3 at 8', 'ADDED b@5 at 8', 'ADDED c@8 at 8']);
  });

  it('a relist empties the window: the new list RV is the new floor', () => {
    const cache = recorded(3, () => 0);
    expect(cache.getAllEventsSince(1)).toHaveLength(3);
    cache.replace([obj('a', 4)], 10);
    expect(tooOld(cache, 4)).toBe('too old resource version: 4 (10)');
    expect(cache.bufferedEvents).toBe(0);
    expect(cache.resourceVersion).toBe(10);
  });

  it('a progress notification moves the RV, not the window', () => {
    const cache = recorded(1, () => 0);
    cache.updateResourceVersion(20);
    expect(cache.resourceVersion).toBe(20);
    expect(cache.getAllEventsSince(2)).toEqual([]);
    expect(cache.getAllEventsSince(1)).toHaveLength(1);
  });
});

describe('WatchCache: revisions of an object share their unchanged parts', () => {
  const pod = (rv: number, phase: string, extra: Record<string, unknown> = {}): KubeObject => ({
    metadata: { name: 'p', namespace: 'default', resourceVersion: String(rv), labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra },
    status: { phase, conditions: [{ type: 'PodScheduled', status: 'True' }] },
  } as KubeObject);

  it('a new revision reuses each subtree equal to the previous one, frozen, and serializes as decoded', () => {
    const cache = new WatchCache(keyOf);
    cache.replace([], 1);
    const first = cache.add(pod(2, 'Pending'), 0).object as KubeObject & { spec: object; status: { conditions: object[] } };
    const decoded = pod(3, 'Running');
    const json = JSON.stringify(decoded);
    const event = cache.update(decoded, 1);
    const second = event.object as typeof first;
    expect(JSON.stringify(second)).toBe(json);
    expect(event.prevObject).toBe(first);
    expect(second.spec).toBe(first.spec);
    expect(second.metadata.labels).toBe(first.metadata.labels);
    expect(second.status.conditions).toBe(first.status.conditions);
    expect(second.status).not.toBe(first.status);
    expect(Object.isFrozen(second) && Object.isFrozen(second.status)).toBe(true);
    expect(() => { (second.spec as { containers: unknown[] }).containers.push({}); }).toThrow(TypeError);
  });

  it('equal content in another key order is not shared (it would serialize differently)', () => {
    const cache = new WatchCache(keyOf);
    cache.replace([], 1);
    const first = cache.add(pod(2, 'Pending', { nodeName: 'n1', restartPolicy: 'Always' }), 0).object as KubeObject & { spec: object };
    const reordered = pod(3, 'Pending');
    (reordered as KubeObject & { spec: object }).spec = { restartPolicy: 'Always', containers: [{ name: 'c', image: 'nginx' }], nodeName: 'n1' };
    const json = JSON.stringify(reordered);
    const second = cache.update(reordered, 1).object as typeof first;
    expect(JSON.stringify(second)).toBe(json);
    expect(second.spec).not.toBe(first.spec);
    expect((second.spec as { containers: unknown }).containers).toBe((first.spec as { containers: unknown }).containers);
  });

  it('a new key\'s object shares with the newest object recorded, and field sets with the same manager\'s newest', () => {
    const cache = new WatchCache(keyOf);
    cache.replace([], 1);
    const managed = (ip: string) => [
      { manager: 'kube-controller-manager', operation: 'Update', time: `t${ip}`, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:containers': {} } } },
      { manager: 'kubelet', operation: 'Update', subresource: 'status', fieldsV1: { 'f:status': { 'f:phase': {}, 'f:podIPs': { [`k:{"ip":"${ip}"}`]: {} } } } },
    ];
    const named = (name: string, rv: number, ip: string): KubeObject => ({ ...pod(rv, 'Pending'), metadata: { name, namespace: 'default', resourceVersion: String(rv), managedFields: managed(ip) } } as KubeObject);
    const a = cache.add(named('a', 2, '10.0.0.1'), 0).object as KubeObject & { spec: object };
    // Another key: no previous revision, so its parts are shared with `a`; then a third object whose
    // parts differ from `b` but whose field sets equal `a`'s (the newest of each manager).
    const decoded = named('b', 3, '10.0.0.2');
    const json = JSON.stringify(decoded);
    const b = cache.add(decoded, 1).object as typeof a;
    expect(JSON.stringify(b)).toBe(json);
    expect(b.spec).toBe(a.spec);
    const [aController, aKubelet] = a.metadata.managedFields!;
    const [bController, bKubelet] = b.metadata.managedFields!;
    expect(bController!.fieldsV1).toBe(aController!.fieldsV1);
    expect(bKubelet!.fieldsV1).not.toBe(aKubelet!.fieldsV1);
    expect((bKubelet!.fieldsV1 as { 'f:status': { 'f:phase': object } })['f:status']['f:phase']).toBe((aKubelet!.fieldsV1 as { 'f:status': { 'f:phase': object } })['f:status']['f:phase']);
    const other = { metadata: { name: 'c', namespace: 'default', resourceVersion: '4', managedFields: managed('10.0.0.2') } } as KubeObject;
    const c = cache.add(other, 2).object;
    expect(c.metadata.managedFields![0]!.fieldsV1).toBe(aController!.fieldsV1);
    expect(c.metadata.managedFields![1]!.fieldsV1).toBe(bKubelet!.fieldsV1);
    expect(Object.isFrozen(c.metadata.managedFields![1]!.fieldsV1)).toBe(true);
  });
});

describe('WatchCache: an idle object lets go of its encoded value', () => {
  const pod = (name: string, label: string): KubeObject => ({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: label } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  } as KubeObject);

  it('still encodes to the bytes it was decoded from, and decodeObject with it as the cached object still gives them decoded', () => {
    const cache = new WatchCache(keyOf);
    cache.replace([], 1);
    const value = encodeObject(pod('idle', 'web'));
    const idle = decodeToFreeze(value, 2);
    cache.add(idle, 0);
    expect(encodeObject(idle)).toBe(value);
    // encodingLag changes of other keys: `idle` has not changed in them, so its encoding is forgotten.
    for (let i = 0; i < encodingLag; i++) cache.add(decodeToFreeze(encodeObject(pod(`p${i}`, 'web')), 3 + i), 0);
    expect(cache.getByKey(keyOf(idle))).toBe(idle);
    expect(encodeObject(idle)).toBe(value);
    expect(decodeObject(value, 2, idle)).toEqual({ ...decodeStored(value), metadata: { ...decodeStored(value).metadata, resourceVersion: '2' } });
  });

  it('keeps no key of a deleted object among the recently changed', () => {
    const cache = new WatchCache(keyOf);
    cache.replace([], 1);
    const gone = decodeToFreeze(encodeObject(pod('gone', 'web')), 2);
    cache.add(gone, 0);
    cache.delete(deepFreeze({ ...gone, metadata: { ...gone.metadata, resourceVersion: '3' } }), 0);
    expect((cache as unknown as { store: { recentlyChanged: Map<string, number> } }).store.recentlyChanged.has(keyOf(gone))).toBe(false);
  });
});
