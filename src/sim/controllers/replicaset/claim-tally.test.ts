import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesLabels, selectorFromSet } from '../../api/labels.ts';
import type { Pod } from '../../api/types/core.ts';
import { Indexer } from '../../client/index.ts';
import { addPodControllerUIDIndexer, isPodActive, isPodReady, podControllerUIDIndex } from '../controller-utils.ts';
import { ClaimTally } from './claim-tally.ts';

interface PodSpec {
  readonly name: number;
  readonly namespace: 'default' | 'other';
  readonly controller: 'rs-1' | 'rs-2' | null;
  readonly app: 'web' | 'db';
  readonly tier: boolean;
  readonly ready: boolean;
  readonly phase: 'Pending' | 'Running' | 'Succeeded';
  readonly deleting: boolean;
}

const makePod = (s: PodSpec): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    namespace: s.namespace, name: `p${s.name}`, labels: { app: s.app, ...(s.tier ? { tier: 'front' } : {}) },
    ...(s.deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    ...(s.controller ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: s.controller, controller: true }] } : {}),
  },
  spec: { containers: [] },
  status: { phase: s.phase, conditions: [{ type: 'Ready', status: s.ready ? 'True' : 'False' }] },
});

const podSpec = fc.record({
  name: fc.integer({ min: 0, max: 12 }),
  namespace: fc.constantFrom('default' as const, 'other' as const),
  controller: fc.constantFrom('rs-1' as const, 'rs-2' as const, null),
  app: fc.constantFrom('web' as const, 'db' as const),
  tier: fc.boolean(), ready: fc.boolean(),
  phase: fc.constantFrom('Pending' as const, 'Running' as const, 'Succeeded' as const),
  deleting: fc.boolean(),
});
const op = fc.oneof(fc.record({ put: podSpec }), fc.record({ del: fc.integer({ min: 0, max: 12 }), namespace: fc.constantFrom('default', 'other') }));

describe('ClaimTally', () => {
  it('after any sequence of pod writes, counts what a walk over the ReplicaSet\'s pods counts', () => {
    const selector = selectorFromSet({ app: 'web' });
    const templateLabels = selectorFromSet({ app: 'web', tier: 'front' });
    fc.assert(fc.property(fc.array(fc.array(op, { maxLength: 8 }), { maxLength: 6 }), (batches) => {
      const indexer = new Indexer<Pod>();
      addPodControllerUIDIndexer(indexer);
      const tally = new ClaimTally('rs-1', 'default', 'sig', selector, templateLabels);
      indexer.onIndexChange(podControllerUIDIndex, (uid, key) => {
        if (uid === 'rs-1') tally.markDirty(key);
      });
      for (const batch of batches) {
        for (const o of batch) {
          if ('put' in o) indexer.update(makePod(o.put));
          else indexer.deleteKey(`${o.namespace}/p${o.del}`);
        }
        const counts = tally.refresh((k) => indexer.getByKey(k));
        const mine = indexer.list().filter((p) => p.metadata.namespace === 'default' && p.metadata.ownerReferences?.[0]?.uid === 'rs-1' && isPodActive(p));
        const claimed = mine.filter((p) => matchesLabels(selector, p.metadata.labels));
        expect(counts).toEqual({
          claimed: claimed.length,
          notMatching: mine.length - claimed.length,
          fullyLabeled: claimed.filter((p) => matchesLabels(templateLabels, p.metadata.labels)).length,
          ready: claimed.filter(isPodReady).length,
        });
      }
    }), { seed: 5, numRuns: 300 });
  });
});
