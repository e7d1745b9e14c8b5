import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KVServer } from '../sim/etcd/kv-server.ts';
import { KVStore } from '../sim/etcd/kv-store.ts';
import { noLease } from '../sim/etcd/kv.ts';
import { ObjectLists, placeOf } from './object-lists.ts';

const prefixes = ['/registry/events/', '/registry/pods/'];
const keyArb = fc.tuple(fc.constantFrom('/registry/events/', '/registry/pods/', '/registry/leases/'), fc.integer({ min: 0, max: 30 })).map(([p, n]) => `${p}k${n}`);
const opArb = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), key: keyArb }),
  fc.record({ kind: fc.constant('delete' as const), key: keyArb }),
  fc.record({ kind: fc.constant('compact' as const), back: fc.nat(20) }),
);

/** The keys under `prefix` at `revision`, read afresh (a full range). */
function fresh(kv: KVServer, prefix: string, revision: number): string[] {
  return kv.range({ key: prefix, rangeEnd: prefix.slice(0, -1) + '0', revision, keysOnly: true }).kvs.map((k) => k.key);
}

describe('the objects tab\'s key lists', () => {
  it('equal a fresh range at every revision they are moved to, forward, back, far and across compactions', () => {
    fc.assert(fc.property(fc.array(opArb, { minLength: 1, maxLength: 120 }), fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), (ops, visits) => {
      const store = new KVStore();
      const kv = new KVServer(store);
      for (const o of ops) {
        if (o.kind === 'compact') {
          const rev = store.rev() - o.back;
          if (rev > store.compactMainRev && rev >= 1) store.compact(rev);
        } else if (o.kind === 'put') {
          const txn = store.write();
          txn.put(o.key, 'v', noLease);
          txn.end();
        } else {
          const txn = store.write();
          txn.deleteRange(o.key, undefined);
          txn.end();
        }
      }
      const lists = new ObjectLists({ store, kv }, prefixes);
      const oldest = Math.max(1, store.compactMainRev);
      for (const visit of visits) {
        const revision = oldest + (visit % (store.currentRev - oldest + 1));
        for (const prefix of prefixes) expect(lists.keys(prefix, revision)).toEqual(fresh(kv, prefix, revision));
      }
    }), { numRuns: 200 });
  });

  it('finds a key\'s place in a sorted list', () => {
    expect(placeOf(['a', 'c', 'e'], 'c')).toBe(1);
    expect(placeOf(['a', 'c', 'e'], 'd')).toBe(2);
    expect(placeOf([], 'x')).toBe(0);
  });
});
