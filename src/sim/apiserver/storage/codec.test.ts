import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types/meta.ts';
import { decodeObject, decodeStored, decodeToFreeze, deepFreeze, encodeObject, storedCopy } from './codec.ts';

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }], serviceAccountName: 'default' },
} as KubeObject);

describe('storage codec: a value just written decodes from a kept copy', () => {
  it('the write\'s object and every later decode equal a fresh decode of the bytes (same JSON), each its own copy', () => {
    const value = encodeObject(pod('written'));
    // decodeStored always decodes the bytes; the resourceVersion goes after uid.
    const { name, namespace, uid, ...rest } = decodeStored(value).metadata;
    const fresh = (rv: string) => JSON.stringify({ ...decodeStored(value), metadata: { name, namespace, uid, resourceVersion: rv, ...rest } });
    const stored = storedCopy(pod('written'), value).at(10);
    const again = decodeObject(value, 11);
    const third = decodeObject(value, 11);
    expect(JSON.stringify(stored)).toBe(fresh('10'));
    expect(JSON.stringify(again)).toBe(fresh('11'));
    expect(again).not.toBe(third);
    // A receiver that changes its object changes no one else's.
    (again.metadata.labels as Record<string, string>).app = 'changed';
    (stored as KubeObject & { spec: { containers: unknown[] } }).spec.containers.length = 0;
    expect(third.metadata.labels).toEqual({ app: 'web' });
    expect(decodeObject(value, 12)).toMatchObject({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } });
  });

  it('the watch cache\'s object, decoded first, is not copied; later readers copy it once frozen, and decode again before', () => {
    const value = encodeObject(pod('watched'));
    const { name, namespace, uid, ...rest } = decodeStored(value).metadata;
    const fresh = (rv: string) => JSON.stringify({ ...decodeStored(value), metadata: { name, namespace, uid, resourceVersion: rv, ...rest } });
    const cached = decodeToFreeze(value, 20);
    expect(JSON.stringify(cached)).toBe(fresh('20'));
    // Not frozen yet, so possibly changing: a reader then gets the bytes' own object, not the changed one.
    (cached.metadata.labels as Record<string, string>).app = 'changing';
    const early = decodeObject(value, 20);
    expect(JSON.stringify(early)).toBe(fresh('20'));
    const value2 = encodeObject(pod('frozen'));
    const frozen = deepFreeze(decodeToFreeze(value2, 21));
    const later = storedCopy(pod('frozen'), value2).at(21);
    expect(later).not.toBe(frozen);
    expect(Object.isFrozen(later)).toBe(false);
    expect(later).toEqual(frozen);
    expect(encodeObject(frozen)).toBe(value2);
    // A second watch-cache read of a value already decoded copies too.
    expect(decodeToFreeze(value2, 22)).not.toBe(frozen);
  });

  it('the object read back from a write (not decoded: computed from what was encoded) is the decode, whoever reads first, and shares nothing with the written object', () => {
    // Shapes the protobuf round trip normalizes: empty maps and lists, a Time with a fraction and an offset, a non-canonical quantity.
    const written = (name: string) => ({
      ...pod(name),
      metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: {}, finalizers: [], creationTimestamp: '2024-05-01T10:00:00.5+02:00' },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1000m' } }, env: [] }], nodeSelector: {} },
    } as KubeObject);
    for (const watcherFirst of [true, false]) {
      const obj = written(`readback-${watcherFirst}`);
      const value = encodeObject(obj);
      const write = storedCopy(obj, value);
      (obj.metadata as Record<string, unknown>).labels = { changed: 'after the write' };
      (obj as KubeObject & { spec: { containers: { image: string }[] } }).spec.containers[0]!.image = 'changed';
      const { name, namespace, uid, ...rest } = decodeStored(value).metadata;
      const expected = (rv: number) => JSON.stringify({ ...decodeStored(value), metadata: { name, namespace, uid, resourceVersion: String(rv), ...rest } });
      const cached = watcherFirst ? deepFreeze(decodeToFreeze(value, 30)) : undefined;
      const response = write.at(30);
      expect(JSON.stringify(response)).toBe(expected(30));
      expect(response).toMatchObject({ metadata: { creationTimestamp: '2024-05-01T08:00:00Z' }, spec: { containers: [{ image: 'nginx', resources: { requests: { cpu: '1' } } }] } });
      expect(response.metadata.labels).toBeUndefined();
      if (cached !== undefined) {
        expect(JSON.stringify(cached)).toBe(expected(30));
        expect(response).not.toBe(cached);
        expect(Object.isFrozen(response)).toBe(false);
      }
      expect(encodeObject(deepFreeze(response))).toBe(value);
    }
  });

  it('an object decoded from a written value encodes as that value: once frozen from the value, while mutable from its contents', () => {
    const value = encodeObject(pod('cached'));
    // The watch cache's case: decoded, frozen, encoded again by GuaranteedUpdate's getStateFromObject.
    const frozen = deepFreeze(decodeObject(value, 20));
    expect(encodeObject(frozen)).toBe(value);
    expect(encodeObject(frozen, 'json')).toBe(encodeObject(JSON.parse(JSON.stringify(frozen)) as KubeObject, 'json'));
    // A decoded object handed out mutable and changed encodes what it now holds.
    const changed = decodeObject(value, 21);
    (changed.metadata.labels as Record<string, string>).app = 'changed';
    const changedValue = encodeObject(changed);
    expect(changedValue).not.toBe(value);
    expect(decodeStored(changedValue).metadata.labels).toEqual({ app: 'changed' });
  });

  it('a quorum read of a value written long ago copies the watch cache\'s object of it, and decodes when that object is of another value or revision', () => {
    const value = encodeObject(pod('old'));
    const cached = deepFreeze(decodeToFreeze(value, 40));
    // More than the 256 values the codec remembers are written since.
    for (let i = 0; i < 300; i++) encodeObject(pod(`filler-${i}`));
    const { name, namespace, uid, ...rest } = decodeStored(value).metadata;
    const expected = (rv: number) => JSON.stringify({ ...decodeStored(value), metadata: { name, namespace, uid, resourceVersion: String(rv), ...rest } });
    const read = decodeObject(value, 40, cached);
    expect(JSON.stringify(read)).toBe(expected(40));
    expect(read).not.toBe(cached);
    expect(Object.isFrozen(read)).toBe(false);
    (read.metadata.labels as Record<string, string>).app = 'changed';
    expect(cached.metadata.labels).toEqual({ app: 'web' });
    // The watch cache's object stands for another revision, or another value: the bytes are decoded.
    expect(JSON.stringify(decodeObject(value, 41, cached))).toBe(expected(41));
    const other = encodeObject({ ...pod('old'), metadata: { ...pod('old').metadata, labels: { app: 'other' } } } as KubeObject);
    expect(decodeObject(other, 40, cached).metadata.labels).toEqual({ app: 'other' });
    // An object that was not decoded from a value (nothing says what it encodes to) is not trusted either.
    const unknown = deepFreeze({ ...pod('old'), metadata: { ...pod('old').metadata, resourceVersion: '40', labels: { app: 'unknown' } } } as KubeObject);
    expect(decodeObject(value, 40, unknown).metadata.labels).toEqual({ app: 'web' });
  });
});
