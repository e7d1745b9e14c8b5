import { describe, expect, it } from 'vitest';
import { KVServer } from '../sim/etcd/kv-server.ts';
import { KVStore } from '../sim/etcd/kv-store.ts';
import { KeyspaceTracker } from './keyspace.ts';

describe('KeyspaceTracker.move', () => {
  it('jumps back across more created keys than a call takes arguments (a seek back across 60,000 Pods)', () => {
    const store = new KVStore();
    const kv = new KVServer(store);
    kv.put({ key: '/registry/namespaces/default', value: 'ns' });
    const tracker = new KeyspaceTracker({ store, kv });
    const from = store.currentRev;
    // 650,000 keys created after `from`: a spread of them into push() throws "Maximum call stack size exceeded"
    // (in a browser's worker from about 125,000; vitest's threads take more).
    for (let i = 0; i < 650_000; i++) kv.put({ key: `/registry/events/default/e-${String(i).padStart(6, '0')}`, value: 'x' });
    tracker.observe(1);
    tracker.flush();
    const move = tracker.move(store.currentRev, from, 0, () => 0);
    expect(move?.type).toBe('keyspaceMove');
    if (move?.type !== 'keyspaceMove') return;
    expect(move.removed).toHaveLength(650_000);
    expect(move.removed[0]).toBe('/registry/events/default/e-000000');
    expect(move.removed.at(-1)).toBe('/registry/events/default/e-649999');
  }, 60_000);
});
