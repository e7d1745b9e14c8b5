// Rebuilds a cluster from its seed and command log: build, boot, then deliver step by step, applying each
// logged command after exactly the step (and at exactly the virtual time) it was applied at originally.
// The simulation is deterministic, so the result equals the original at every step; this is how a fork,
// a reload and a crash restart get a live simulation back (components are coroutines and cannot be
// serialised). Replay is a generator that yields after every chunk, so the host can report progress and
// stay responsive.

import type { LoggedCommand } from '../protocol/index.ts';
import type { Engine } from '../sim/engine/index.ts';
import { applyUserCommand, type CommandTarget } from './user-commands.ts';

export interface ReplayableCluster extends CommandTarget {
  boot?(): number;
}

export interface ReplayProgress {
  readonly done: number;
  readonly total: number;
}

export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

/** Brings a freshly built cluster up (as the host does before `ready`); returns the boot steps. */
export function bootCluster(cluster: ReplayableCluster): number {
  if (cluster.boot) return cluster.boot();
  cluster.engine.runUntilIdle();
  return cluster.engine.step;
}

/**
 * Replays `log` on `cluster` (freshly built and booted) up to step `target`. Yields after each chunk of
 * at most `chunkSteps` deliveries.
 */
export function* replay(cluster: ReplayableCluster, log: readonly LoggedCommand[], target: number, chunkSteps: number): Generator<ReplayProgress, void> {
  const { engine } = cluster;
  const bootSteps = engine.step;
  if (target < bootSteps) throw new ReplayError(`cannot replay to step ${target}: the cluster takes ${bootSteps} steps to boot`);
  for (const entry of log) {
    if (entry.step > target) break;
    if (entry.step < engine.step) throw new ReplayError(`command log out of order or inside boot: a command at step ${entry.step}, replay is at ${engine.step}`);
    yield* advance(engine, entry.step, target, chunkSteps);
    if (entry.at > engine.now) {
      const moved = engine.run({ until: entry.at });
      if (moved.steps > 0) throw new ReplayError(`replay diverged: moving the clock to ${entry.at} delivered ${moved.steps} message(s)`);
    }
    applyUserCommand(cluster, entry.command);
  }
  yield* advance(engine, target, target, chunkSteps);

}

/** Boots `cluster` and runs `replay` to the end without yielding to anyone. */
export function replayNow(cluster: ReplayableCluster, log: readonly LoggedCommand[], target: number): void {
  bootCluster(cluster);
  const run = replay(cluster, log, target, Number.POSITIVE_INFINITY);
  while (!run.next().done) { /* deliver */ }
}

function* advance(engine: Engine, to: number, total: number, chunkSteps: number): Generator<ReplayProgress, void> {
  while (engine.step < to) {
    const before = engine.step;
    try {
      engine.run({ maxSteps: Math.min(chunkSteps, to - engine.step) });
    } catch (error) {
      // A model error thrown by a delivery was reported live (an `error` event) and the host went on
      // from the same engine state; replay goes on the same way. A throw without a delivery is ours.
      if (engine.step === before) throw error;
    }
    if (engine.step === before) throw new ReplayError(`replay diverged: nothing left to deliver at step ${engine.step}, expected ${to}`);
    yield { done: engine.step, total };
  }
}
