// Carries out one scenario step from the page and waits until it is over, the way the scenario runner
// (src/sim/scenarios/runner.ts `runStep`) does in tests: a kubectl command delivers messages until it has
// finished, `runUntilIdle` until only background work is queued, `advance` until virtual time has moved
// on by its span. Everything goes through the store's actions (user commands and playback commands);
// completion is read from the worker's events in the store.

import type { SimStatus } from '../../protocol/index.ts';
import type { ConsoleEntry } from '../console/activity.ts';
import type { SimActions, SimState, SimStore } from '../store/sim-store.ts';
import { deleteFirstPodLine, stepAction, type StepAction } from './plan.ts';
import type { ScenarioStepView } from '../../protocol/index.ts';

/** How long (virtual ms) a kubectl step may wait for its answers, as the runner's default. */
export const maxCommandWaitMs = 10 * 60 * 1000;

export class StepStopped extends Error {
  override readonly name = 'StepStopped';
}

export interface StepResult {
  /** Console entries the step ran (their output is in the store's activity). */
  readonly entries: readonly number[];
  readonly ok: boolean;
}

export interface PerformOptions {
  /** Aborted by the user's Stop: the wait ends (what the worker is doing goes on until paused). */
  readonly signal?: AbortSignal;
  /** Called with each console entry as soon as the step starts it. */
  readonly started?: (id: number) => void;
}

/**
 * Resolves with the first state (now or after a change) that `done` accepts; rejects when the cluster is
 * replaced, the worker reports an error, or `signal` aborts.
 */
export function waitFor(store: SimStore, done: (state: SimState, previous?: SimState) => boolean, signal?: AbortSignal): Promise<SimState> {
  return new Promise((resolve, reject) => {
    const start = store.getState();
    const version = start.cluster?.version;
    const noticeSeq = start.noticeSeq;
    let unsubscribe = (): void => undefined;
    const finish = (error: Error | null, state?: SimState) => {
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(state!);
    };
    const check = (state: SimState, previous?: SimState): boolean => {
      if (state.workerCrashed !== null) finish(new StepStopped(`the simulation worker stopped: ${state.workerCrashed}`));
      else if (state.cluster?.version !== version) finish(new StepStopped('the cluster was replaced'));
      else if (state.noticeSeq !== noticeSeq && state.notices.at(-1)) finish(new StepStopped(state.notices.at(-1)!.message));
      else if (done(state, previous)) finish(null, state);
      else return false;
      return true;
    };
    const onAbort = () => finish(new StepStopped('stopped'));
    if (signal?.aborted) {
      onAbort();
      return;
    }
    if (check(start)) return;
    signal?.addEventListener('abort', onAbort);
    unsubscribe = store.subscribe((state, previous) => { check(state, previous); });
  });
}

/** Waits for the next `status` event (one arrives after every command and every reported chunk). */
function nextStatus(store: SimStore, accept: (status: SimStatus) => boolean, signal?: AbortSignal): Promise<SimState> {
  const before = store.getState().status;
  return waitFor(store, (s) => s.status !== before && accept(s.status), signal);
}

function entryOf(state: SimState, id: number): ConsoleEntry | undefined {
  return state.activity.entries.find((e) => e.id === id);
}

/** Runs a console line as a user command and delivers messages until it has finished. */
async function runConsole(store: SimStore, actions: SimActions, line: string, options: PerformOptions): Promise<ConsoleEntry> {
  const id = actions.runCommand(line, { origin: 'console' });
  options.started?.(id);
  actions.runUntilCommandDone(id, maxCommandWaitMs);
  // The status of the same report follows the output, in the same message (a turn's events travel
  // together) or the next: once it is applied the store's clock is current.
  let reported = false;
  const state = await waitFor(store, (s, previous) => {
    if (entryOf(s, id)?.done !== true) return false;
    reported = previous !== undefined && s.status !== previous.status;
    return true;
  }, options.signal);
  if (!reported) await nextStatus(store, () => true, options.signal);
  return entryOf(state, id)!;
}

/** Carries out one step and resolves when it is over. */
export async function performStep(store: SimStore, actions: SimActions, view: ScenarioStepView, options: PerformOptions = {}): Promise<StepResult> {
  if (store.getState().status.mode !== 'paused') {
    actions.pause();
    await nextStatus(store, (s) => s.mode === 'paused', options.signal);
  }
  const action: StepAction = stepAction(view);
  switch (action.kind) {
    case 'console': {
      const entry = await runConsole(store, actions, action.line, options);
      return { entries: [entry.id], ok: entry.exitCode === 0 };
    }
    case 'deleteOnePod': {
      const list = await runConsole(store, actions, action.listLine, options);
      const line = deleteFirstPodLine(list.output.filter((c) => c.stream === 'stdout').map((c) => c.text).join(''));
      if (list.exitCode !== 0 || line === null) return { entries: [list.id], ok: false };
      const removed = await runConsole(store, actions, line, options);
      return { entries: [list.id, removed.id], ok: removed.exitCode === 0 };
    }
    case 'fault':
      actions.injectFault(action.fault);
      await nextStatus(store, () => true, options.signal);
      return { entries: [], ok: true };
    case 'runUntilIdle':
      actions.runUntilIdle();
      await waitFor(store, (s) => s.status.mode === 'paused' && s.status.idle, options.signal);
      return { entries: [], ok: true };
    case 'advance': {
      // The worker rounds to whole microseconds; so does the target here.
      const target = Math.round((store.getState().status.now + action.ms) * 1000) / 1000;
      actions.advance(action.ms);
      await waitFor(store, (s) => s.status.mode === 'paused' && s.status.now >= target, options.signal);
      return { entries: [], ok: true };
    }
  }
}

// ── Milestone by milestone ─────────────────────────────────────────────────────────────────────────
// A step's command is sent (`startStep`), then each "Next milestone" moves the cluster to its next
// milestone (`milestoneForward`) until the step's work is done (`stepWorkDone`): its command has
// finished and only background work is queued. Then the next click starts the next step.

/** A step whose command was sent: what to watch for its end. */
export interface StartedStep {
  readonly entries: readonly number[];
  /** The console entry whose end (and exit code) ends the step; null when none (faults, run until idle). */
  readonly watch: number | null;
  /** Set when the step was carried out whole (advance, or a list that found nothing): its result. */
  readonly result: StepResult | null;
}

/** Sends the step's command (or carries out an `advance` whole) and resolves once the worker took it. */
export async function startStep(store: SimStore, actions: SimActions, view: ScenarioStepView, options: PerformOptions = {}): Promise<StartedStep> {
  if (store.getState().status.mode !== 'paused') {
    actions.pause();
    await nextStatus(store, (s) => s.mode === 'paused', options.signal);
  }
  const action: StepAction = stepAction(view);
  const send = async (line: string): Promise<number> => {
    const before = store.getState().status;
    const id = actions.runCommand(line, { origin: 'console' });
    options.started?.(id);
    await waitFor(store, (s) => s.status !== before, options.signal);
    return id;
  };
  switch (action.kind) {
    case 'console': {
      const id = await send(action.line);
      return { entries: [id], watch: id, result: null };
    }
    case 'deleteOnePod': {
      const list = await runConsole(store, actions, action.listLine, options);
      const line = deleteFirstPodLine(list.output.filter((c) => c.stream === 'stdout').map((c) => c.text).join(''));
      if (list.exitCode !== 0 || line === null) return { entries: [list.id], watch: null, result: { entries: [list.id], ok: false } };
      const id = await send(line);
      return { entries: [list.id, id], watch: id, result: null };
    }
    case 'fault':
      actions.injectFault(action.fault);
      await nextStatus(store, () => true, options.signal);
      return { entries: [], watch: null, result: null };
    case 'runUntilIdle':
      return { entries: [], watch: null, result: null };
    case 'advance':
      return { entries: [], watch: null, result: await performStep(store, actions, view, options) };
  }
}

/** The step's work is over: its command (if any) has finished and only background work is left. */
export function stepWorkDone(state: SimState, watch: number | null): boolean {
  if (watch !== null && entryOf(state, watch)?.done !== true) return false;
  return state.status.mode === 'paused' && state.status.idle && (state.timeline?.live ?? true);
}

/** Whether the step watched ended well (its command exited 0). */
export function stepWorkOk(state: SimState, watch: number | null): boolean {
  return watch === null || entryOf(state, watch)?.exitCode === 0;
}

/** Moves to the next milestone and resolves with the state the worker answered. */
export function milestoneForward(store: SimStore, actions: SimActions, signal?: AbortSignal): Promise<SimState> {
  const before = store.getState().status;
  actions.stepLevel('milestone', 'forward');
  return waitFor(store, (s) => s.status !== before && s.status.mode === 'paused', signal);
}
