// The one replay: rebuilds a cluster from its seed and command log. A log is a list of LogEntry: a command
// and the step (deliveries before it) and virtual instant it was applied at. The worker logs the page's
// commands (LoggedCommand, kept in IndexedDB and export files); the server logs, beside those, every
// request, etcd call and cancel that entered its cluster (src/server/server-log.ts, cluster.jsonl).
// Replay builds and boots the cluster, then delivers step by step, applying each entry after exactly the
// step and at exactly the instant it was applied originally. The simulation is deterministic, so the
// result equals the original at every step; this is how a fork, a reload, a crash restart and a server
// restart get a live simulation back (components are coroutines and cannot be serialised). Replay is a
// generator that yields after every chunk, so the worker's host can report progress and stay responsive.

import type { LoggableCommand } from '../protocol/index.ts';
import type { Engine } from '../sim/engine/index.ts';
import { applyUserCommand, type CommandTarget } from './user-commands.ts';

/** One entry of a command log: `command`, applied after delivery `step` at virtual time `at`. */
export interface LogEntry<C> {
  /** The number of deliveries before it was applied. */
  readonly step: number;
  /** The virtual time when it was applied (playing can move the clock between deliveries). */
  readonly at: number;
  readonly command: C;
}

/** The entry logging `command` applied now on `engine`. */
export function logEntry<C>(engine: Pick<Engine, 'step' | 'now'>, command: C): LogEntry<C> {
  return { step: engine.step, at: engine.now, command };
}

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
 * Replays `log` on `engine` (its cluster freshly built and booted) up to step `target`, handing each
 * entry's command to `apply` at its step and instant. Yields after each chunk of at most `chunkSteps`
 * deliveries.
 */
export function* replay<C>(engine: Engine, log: readonly LogEntry<C>[], target: number, chunkSteps: number, apply: (command: C) => void): Generator<ReplayProgress, void> {
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
    apply(entry.command);
  }
  yield* advance(engine, target, target, chunkSteps);
}

/** Replays `log` to the end without yielding to anyone. */
export function replayAll<C>(engine: Engine, log: readonly LogEntry<C>[], target: number, apply: (command: C) => void): void {
  const run = replay(engine, log, target, Number.POSITIVE_INFINITY, apply);
  while (!run.next().done) { /* deliver */ }
}

/** Boots `cluster` and replays the page's commands `log` on it to step `target` without yielding. */
export function replayNow(cluster: ReplayableCluster, log: readonly LogEntry<LoggableCommand>[], target: number): void {
  bootCluster(cluster);
  replayAll(cluster.engine, log, target, (command) => applyUserCommand(cluster, command));
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
