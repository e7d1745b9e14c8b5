// Runs a cluster whose etcd is a real one in-process, as fast as the real etcd answers: the engine runs
// until it is held by a reserved reply (Engine.reserve), then waits for the real etcd's answer, and so on.
// Virtual time is not paced: it moves only as the model's messages are delivered, as in fast-forward.

import { type Cluster } from '../../src/sim/cluster.ts';
import type { RunResult } from '../../src/sim/engine/index.ts';
import { ScenarioRunner } from '../../src/sim/scenarios/index.ts';
import type { Scenario } from '../../src/sim/scenarios/index.ts';
import type { RealEtcdMember } from '../../src/server/real-etcd/real-etcd-member.ts';

/** Resolves when the member next hands an answer to the engine, or after `timeoutMs` (then throws). */
export function nextActivity(member: RealEtcdMember, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from the real etcd within ${timeoutMs} ms`)), timeoutMs);
    member.onActivity = () => {
      clearTimeout(timer);
      member.onActivity = null;
      resolve();
    };
  });
}

/** runUntilIdle, waiting for the real etcd whenever a reserved answer holds the engine. */
export async function settle(cluster: Cluster<RealEtcdMember>): Promise<RunResult> {
  for (;;) {
    const result = cluster.engine.runUntilIdle();
    if (result.reason !== 'reserved') return result;
    await nextActivity(cluster.etcd);
  }
}

/** Boot, in its two phases, on the real etcd. */
export async function boot(cluster: Cluster<RealEtcdMember>): Promise<void> {
  await settle(cluster);
  cluster.startWorkloads();
  await settle(cluster);
}

/** Runs every step of `scenario` as ScenarioRunner.runAll does, waiting for the real etcd as needed. */
export async function runScenarioOn(cluster: Cluster<RealEtcdMember>, scenario: Scenario): Promise<ScenarioRunner> {
  const runner = new ScenarioRunner(cluster, scenario);
  const { engine } = cluster;
  while (!runner.done) {
    const record = runner.begin();
    if (record.step.do === 'runUntilIdle') await settle(cluster);
    else if (record.step.do === 'advance') {
      const until = engine.now + record.step.ms;
      while (engine.run({ until }).reason === 'reserved') await nextActivity(cluster.etcd);
    }
    while (runner.busy) {
      if (engine.stepOnce() !== null) continue;
      if (engine.reservations === 0) throw new Error(`step ${record.index} of ${scenario.id} waits for an answer that nothing will send`);
      await nextActivity(cluster.etcd);
    }
  }
  runner.dispose();
  return runner;
}
