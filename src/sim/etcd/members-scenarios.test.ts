// The seeds' flows with etcd as 3 and 5 members end as they end with one member: the same convergence
// problems (none, or the ones the scenario sets out to show), the same stored keys, and every member
// holding the same store; raft's election and replication change the timing only. The cluster
// invariants are checked after every engine step. Generated names are compared without their random
// suffix: one drawn later in a flow depends on when the RNG is drawn, which timing may move.

import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { scenarios } from '../scenarios/catalog.ts';
import { ScenarioRunner } from '../scenarios/runner.ts';
import { addClusterInvariants, convergenceProblems } from '../testing/invariants.ts';

function outcome(id: string, etcdMembers: 1 | 3 | 5): { problems: string[]; keys: string[] } {
  const cluster = createCluster({ seed: `members-${id}`, etcdMembers });
  cluster.boot();
  addClusterInvariants(cluster);
  new ScenarioRunner(cluster, scenarios.find((s) => s.id === id)!).runAll();
  const dumps = cluster.etcdMembers.map((m) => JSON.stringify(m.kv.range({ key: '\0', rangeEnd: '\0' }).kvs));
  expect(new Set(dumps).size, `${id}: members' stores differ`).toBe(1);
  const keys = cluster.etcd.kv.range({ key: '/registry/', rangeEnd: '/registry0', keysOnly: true }).kvs.map((kv) => kv.key)
    .filter((k) => !k.startsWith('/registry/events/') && !k.startsWith('/registry/leases/'))
    // A name generated later in a flow depends on when the RNG is drawn, which timing may move.
    .map((k) => k.replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}$/, '-*')).sort();
  return { problems: convergenceProblems(cluster), keys };
}

describe('the seeds\' flows with etcd as a cluster', () => {
  // Three flows: the whole catalog × three member counts outlasts a unit test's budget on a shared machine.
  for (const scenario of scenarios.filter((s) => ['nginx-deployment', 'scale', 'self-healing'].includes(s.id))) {
    it(`${scenario.id}: 3 and 5 members end as 1 member does`, { timeout: 600_000 }, () => {
      const one = outcome(scenario.id, 1);
      for (const members of [3, 5] as const) expect(outcome(scenario.id, members), `${members} members`).toEqual(one);
    });
  }
});
