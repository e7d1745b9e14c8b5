import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KeyMeta } from '../../protocol/index.ts';
import { KeyTable, type HeldVersion, type KeyRecord } from './key-table.ts';

/** The mirror as it was before the table: one record object per key, the values of the last `held` writes. */
class ObjectMirror {
  readonly records = new Map<string, KeyRecord>();
  private readonly order = new Map<string, true>();
  constructor(private readonly held: number) {}

  write(meta: KeyMeta, value: string, step: number): void {
    const old = this.records.get(meta.key);
    const previous: HeldVersion | null = old && old.createRevision === meta.createRevision ? strip(old) : null;
    this.records.set(meta.key, { ...meta, value, step, previous });
    this.order.delete(meta.key);
    this.order.set(meta.key, true);
    if (this.order.size > this.held) {
      const oldest = this.order.keys().next().value!;
      this.order.delete(oldest);
      const record = this.records.get(oldest)!;
      const { value: _value, previous: before, ...rest } = record;
      this.records.set(oldest, { ...rest, previous: before && strip({ ...before, value: undefined }) });
    }
  }

  set(meta: KeyMeta, step: number | null): void {
    this.records.set(meta.key, { ...meta, step, previous: null });
    this.order.delete(meta.key);
  }

  delete(key: string): boolean {
    this.order.delete(key);
    return this.records.delete(key);
  }
}

function strip(record: HeldVersion): HeldVersion {
  const { key, createRevision, modRevision, version, lease, size, value } = record;
  return value === undefined ? { key, createRevision, modRevision, version, lease, size } : { key, createRevision, modRevision, version, lease, size, value };
}

const keyArb = fc.constantFrom('/registry/pods/default/a', '/registry/pods/default/b', '/registry/events/default/e', '/registry/leases/n1', '/registry/namespaces/default');
const metaArb = fc.record({
  key: keyArb,
  createRevision: fc.integer({ min: 1, max: 3 }),
  modRevision: fc.integer({ min: 1, max: 1_000_000 }),
  version: fc.integer({ min: 1, max: 50 }),
  lease: fc.constantFrom('0', '7587862153545718293'),
  size: fc.integer({ min: 0, max: 5_000 }),
});
const opArb = fc.oneof(
  fc.record({ op: fc.constant('write' as const), meta: metaArb, value: fc.string({ maxLength: 6 }), step: fc.nat(10_000) }),
  fc.record({ op: fc.constant('set' as const), meta: metaArb, step: fc.option(fc.nat(10_000)) }),
  fc.record({ op: fc.constant('delete' as const), key: keyArb }),
);

describe('the keyspace mirror in columns', () => {
  it('gives for each key the record a mirror of one object per key holds, after any writes, moves and deletes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.array(opArb, { maxLength: 60 }), (held, ops) => {
      const table = new KeyTable(held);
      const mirror = new ObjectMirror(held);
      for (const op of ops) {
        if (op.op === 'write') {
          const isNew = !mirror.records.has(op.meta.key);
          expect(table.write(op.meta, op.value, op.step)).toBe(isNew);
          mirror.write(op.meta, op.value, op.step);
        } else if (op.op === 'set') {
          const isNew = !mirror.records.has(op.meta.key);
          expect(table.set(op.meta, op.step)).toBe(isNew);
          mirror.set(op.meta, op.step);
        } else {
          expect(table.delete(op.key)).toBe(mirror.delete(op.key));
        }
        // Read between operations too, so a record built before a change must not outlive it.
        for (const key of mirror.records.keys()) expect(table.get(key)).toEqual(mirror.records.get(key));
      }
      expect(table.size).toBe(mirror.records.size);
      // The values held: those of the last `held` keys written, each with its previous version's.
      const records = [...mirror.records.values()];
      expect(table.heldValues()).toEqual({
        keys: records.filter((r) => r.value !== undefined).length,
        chars: records.reduce((sum, r) => sum + (r.value?.length ?? 0) + (r.previous?.value?.length ?? 0), 0),
      });
      for (const key of ['/registry/pods/default/a', '/registry/leases/n1']) {
        expect(table.has(key)).toBe(mirror.records.has(key));
        expect(table.get(key)).toEqual(mirror.records.get(key));
      }
    }));
  });

  it('gives the same object for a key until that key changes', () => {
    const table = new KeyTable();
    const meta = (key: string, modRevision: number): KeyMeta => ({ key, createRevision: 2, modRevision, version: modRevision - 1, lease: '0', size: 2 });
    table.write(meta('/registry/pods/default/a', 3), '{}', 30);
    table.write(meta('/registry/pods/default/b', 4), '{}', 40);
    const a = table.get('/registry/pods/default/a');
    table.write(meta('/registry/pods/default/b', 5), '{}', 50);
    expect(table.get('/registry/pods/default/a')).toBe(a);
    table.write(meta('/registry/pods/default/a', 6), '{"x":1}', 60);
    const changed = table.get('/registry/pods/default/a');
    expect(changed).not.toBe(a);
    expect(changed).toMatchObject({ modRevision: 6, value: '{"x":1}', step: 60, previous: { modRevision: 3, value: '{}' } });
  });

  it('holds keys in columns that grow as keys come, reusing the slots of keys gone', () => {
    const table = new KeyTable();
    const key = (i: number) => `/registry/pods/default/web-${i}`;
    for (let i = 0; i < 20_000; i++) table.set({ key: key(i), createRevision: i + 1, modRevision: i + 1, version: 1, lease: '0', size: 3_000 }, null);
    for (let i = 0; i < 20_000; i += 2) table.delete(key(i));
    for (let i = 0; i < 10_000; i++) table.write({ key: `/registry/events/default/e${i}`, createRevision: 1, modRevision: 1, version: 1, lease: '9', size: 1 }, 'x', i);
    expect(table.size).toBe(20_000);
    expect(table.get(key(19_999))).toEqual({ key: key(19_999), createRevision: 20_000, modRevision: 20_000, version: 1, lease: '0', size: 3_000, step: null, previous: null });
    expect(table.get(key(0))).toBeUndefined();
    expect(table.get('/registry/events/default/e9999')).toMatchObject({ lease: '9', value: 'x', step: 9_999 });
  });
});
