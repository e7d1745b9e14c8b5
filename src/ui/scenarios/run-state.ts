// Where the page is in a scenario: which steps are done, which is running, which comes next, and the
// console entries each step ran. Pure functions; the Scenarios panel holds the state.

import type { ScenarioView } from '../../protocol/index.ts';

export type StepStatus = 'pending' | 'running' | 'done' | 'failed';

export interface StepState {
  readonly status: StepStatus;
  /** Console entries (ids in the store's activity) the step ran. */
  readonly entries: readonly number[];
  /** Why it failed or stopped. */
  readonly message?: string;
}

export interface ScenarioRun {
  readonly scenarioId: string;
  /** The cluster (its `ready` version) the steps ran on. */
  readonly clusterVersion: number;
  /** The index of the next step to run (= steps.length when all are done). */
  readonly next: number;
  readonly steps: readonly StepState[];
}

export function initialRun(scenario: ScenarioView, clusterVersion: number): ScenarioRun {
  return { scenarioId: scenario.id, clusterVersion, next: 0, steps: scenario.steps.map(() => ({ status: 'pending', entries: [] })) };
}

export function stepStarted(run: ScenarioRun, index: number): ScenarioRun {
  return { ...run, steps: run.steps.map((s, i) => (i === index ? { status: 'running', entries: [] } : s)) };
}

/** The running step started console command `id` (its output shows under the step as it arrives). */
export function stepRanCommand(run: ScenarioRun, index: number, id: number): ScenarioRun {
  return { ...run, steps: run.steps.map((s, i) => (i === index ? { ...s, entries: [...s.entries, id] } : s)) };
}

/**
 * A step is over: done (the next one is up) or failed (it stays next, so it can be run again — a kubectl
 * command that answered an error is done as far as the cluster is concerned, but the user should see it).
 */
export function stepFinished(run: ScenarioRun, index: number, result: { readonly ok: boolean; readonly entries: readonly number[]; readonly message?: string }): ScenarioRun {
  const state: StepState = { status: result.ok ? 'done' : 'failed', entries: result.entries, ...(result.message !== undefined ? { message: result.message } : {}) };
  return {
    ...run,
    next: result.ok ? Math.max(run.next, index + 1) : run.next,
    steps: run.steps.map((s, i) => (i === index ? state : s)),
  };
}
