// The fields a flight carries while playing label it as its whole payload does: every message two catalog
// scenarios deliver (a rollout with its watch traffic, and a compaction breaking a watch: errors, ERROR
// events, compacted watches), labelled from both, with the slim payload a small part of the whole.

import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../protocol/index.ts';
import { createCluster } from '../sim/cluster.ts';
import { scenarioById } from '../sim/scenarios/catalog.ts';
import { ScenarioRunner } from '../sim/scenarios/runner.ts';
import { tokenLabel } from '../ui/graph/token-label.ts';
import { labelPayload } from './token-payload.ts';

function delivered(id: string): TraceRecord[] {
  const cluster = createCluster({ seed: `token-payload-${id}` });
  const records: TraceRecord[] = [];
  cluster.engine.onDelivery((m) => records.push({ ...m, step: cluster.engine.step }));
  cluster.boot();
  new ScenarioRunner(cluster, scenarioById(id)!).runAll();
  return records;
}

describe('a flight\'s label fields', () => {
  it.each(['rolling-update', 'compaction-broken-watch'])('%s: every message labelled and coloured the same from them, at a fraction of the size', (id) => {
    const records = delivered(id);
    let whole = 0;
    let slim = 0;
    const failed = new Set<string>();
    for (const record of records) {
      const payload = labelPayload(record);
      expect({ id: record.id, ...tokenLabel({ kind: record.kind, payload }) }).toEqual({ id: record.id, ...tokenLabel(record) });
      if (tokenLabel(record).failed) failed.add(record.kind);
      whole += JSON.stringify(record.payload ?? null).length;
      slim += JSON.stringify(payload).length;
    }
    expect(records.length).toBeGreaterThan(1_000);
    if (id === 'compaction-broken-watch') expect(failed.size).toBeGreaterThan(0);
    expect(slim).toBeLessThan(whole / 4);
  }, 300_000);
});
