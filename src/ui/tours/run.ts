// Starting a tour and moving between its stops, through the store's actions only (user commands and
// playback), as the Scenarios tab does: reset the cluster, carry out the tour's actions, ask the worker
// where the stops are, then show stop 0. Showing a stop seeks the timeline to the step where it is
// reached and selects its message, so the inspector shows that Txn or watch event in full.

import type { LocatedStop, Tour } from '../../protocol/index.ts';
import { deleteFirstPodLine, type StepAction } from '../scenarios/plan.ts';
import { maxCommandWaitMs, waitFor } from '../scenarios/perform.ts';
import type { SimActions, SimState, SimStore } from '../store/sim-store.ts';
import { fillResourceVersion, tourActions } from './plan.ts';
import type { TourStore } from './tour-store.ts';

function output(state: SimState, id: number): { done: boolean; stdout: string; exitCode: number | null } {
  const entry = state.activity.entries.find((e) => e.id === id);
  return {
    done: entry?.done === true,
    stdout: entry ? entry.output.filter((c) => c.stream === 'stdout').map((c) => c.text).join('') : '',
    exitCode: entry?.exitCode ?? null,
  };
}

async function runLine(store: SimStore, actions: SimActions, line: string, signal: AbortSignal): Promise<string> {
  const id = actions.runCommand(line, { origin: 'console' });
  actions.runUntilCommandDone(id, maxCommandWaitMs);
  const state = await waitFor(store, (s) => output(s, id).done, signal);
  const result = output(state, id);
  if (result.exitCode !== 0) throw new Error(`${line} failed`);
  // The status of the same report follows the output.
  const before = store.getState().status;
  await waitFor(store, (s) => s.status !== before || s.status.mode === 'paused', signal);
  return result.stdout;
}

async function perform(store: SimStore, actions: SimActions, action: StepAction, previous: string, signal: AbortSignal): Promise<string> {
  switch (action.kind) {
    case 'console': {
      const line = fillResourceVersion(action.line, previous);
      if (line === null) throw new Error(`${action.line}: the command before it printed no resourceVersion`);
      return runLine(store, actions, line, signal);
    }
    case 'deleteOnePod': {
      const line = deleteFirstPodLine(await runLine(store, actions, action.listLine, signal));
      if (line === null) throw new Error(`${action.listLine} listed no pod`);
      return runLine(store, actions, line, signal);
    }
    case 'fault': {
      const before = store.getState().status;
      actions.injectFault(action.fault);
      await waitFor(store, (s) => s.status !== before, signal);
      return '';
    }
    case 'runUntilIdle':
      actions.runUntilIdle();
      await waitFor(store, (s) => s.status.mode === 'paused' && s.status.idle, signal);
      return '';
    case 'advance': {
      const target = Math.round((store.getState().status.now + action.ms) * 1000) / 1000;
      actions.advance(action.ms);
      await waitFor(store, (s) => s.status.mode === 'paused' && s.status.now >= target, signal);
      return '';
    }
  }
}

/** A fresh cluster with the tour's node and etcd member counts: resolves once the worker reports it ready. */
async function freshCluster(store: SimStore, actions: SimActions, nodes: number, etcdMembers: 1 | 3 | 5, signal: AbortSignal): Promise<void> {
  const version = store.getState().cluster?.version ?? 0;
  actions.reset(undefined, nodes, etcdMembers);
  await new Promise<void>((resolve, reject) => {
    const check = (state: SimState) => {
      if (state.cluster && state.cluster.version > version && state.timeline !== null) {
        unsubscribe();
        resolve();
      }
    };
    const unsubscribe = store.subscribe(check);
    signal.addEventListener('abort', () => { unsubscribe(); reject(new Error('stopped')); }, { once: true });
    check(store.getState());
  });
}

/**
 * Prepares `tour`: a new cluster, the tour's commands, and the worker's answer where its stops are.
 * Resolves with that answer; rejects when a command fails, the worker reports an error, or `signal` aborts.
 */
export async function prepareTour(store: SimStore, actions: SimActions, tour: Tour, signal: AbortSignal): Promise<readonly LocatedStop[]> {
  await freshCluster(store, actions, tour.nodes, tour.etcdMembers ?? 1, signal);
  const plan = tourActions(tour, store.getState().scenarios);
  let previous = '';
  for (const action of plan) previous = await perform(store, actions, action, previous, signal);
  actions.locateTour(tour.id);
  const state = await waitFor(store, (s) => s.tourStops?.tour === tour.id, signal);
  return state.tourStops!.stops;
}

/** Shows `stop`: seeks to the step where it is reached, then selects its newest message. */
export async function showStop(store: SimStore, actions: SimActions, tours: TourStore, index: number, signal?: AbortSignal): Promise<void> {
  const stop = store.getState().tourStops?.stops[index];
  tours.setState({ stop: index, away: false, highlight: [] });
  if (!stop || stop.step === null) return;
  const step = stop.step;
  if (store.getState().timeline?.position !== step) {
    actions.seek(step);
    await waitFor(store, (s) => s.timeline?.position === step && s.recent.at(-1)?.step === step, signal);
  }
  const shown = stop.records.at(-1);
  if (shown) {
    actions.select({ type: 'message', id: shown.id });
    // Bring the inspector's payload into view (its panel may be scrolled to something else).
    if (typeof requestAnimationFrame === 'function') {
      requestAnimationFrame(() => document.querySelector('[data-testid="message-payload"]')?.scrollIntoView({ block: 'nearest' }));
    }
  }
  if (tours.getState().stop === index) tours.setState({ highlight: stop.components });
}

/**
 * Returns to stop `index` after the learner explored: asks the worker again where the stops are (the
 * learner may have stepped on, or changed the cluster's future at a past step), then shows the stop.
 */
export async function returnToStop(store: SimStore, actions: SimActions, tours: TourStore, tourId: string, index: number, signal?: AbortSignal): Promise<void> {
  const before = store.getState().tourStops;
  actions.locateTour(tourId);
  await waitFor(store, (s) => s.tourStops !== before && s.tourStops?.tour === tourId, signal);
  await showStop(store, actions, tours, index, signal);
}
