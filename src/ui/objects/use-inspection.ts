// Keeps an inspection topic fresh while a panel shows it: asks the worker once on mount and again
// whenever the step moves or the panel's query changes, at most every `minIntervalMs` of real time
// (playing at speed moves the step hundreds of times a second; the panel needs a few updates a second at
// most). The step and the cluster are followed through a store subscription, not read in render: a panel
// re-renders when an answer comes, not at every step (the Scheduler panel, with its 200 listed attempts
// and its table, was rendered again at each of the ~50 status updates a second of playing).

import { useEffect, useRef } from 'react';
import type { InspectQuery, InspectTopic } from '../../protocol/index.ts';
import { useSimActions, useSimStore } from '../store/sim-context.ts';

/** `query`: what the panel picks of the topic (the objects' window, the attempts listed); asked again when it changes. */
export function useInspection(topic: InspectTopic, minIntervalMs = 250, query?: InspectQuery): void {
  const actions = useSimActions();
  const store = useSimStore();
  const last = useRef(Number.NEGATIVE_INFINITY);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  // A question asked later (throttled) asks with the query as it is then.
  const latest = useRef(query);
  useEffect(() => {
    latest.current = query;
  });
  const asked = JSON.stringify(query ?? null);
  useEffect(() => {
    const ask = () => {
      pending.current = null;
      last.current = performance.now();
      actions.inspect([topic], latest.current);
    };
    const askSoon = () => {
      const wait = last.current + minIntervalMs - performance.now();
      if (wait <= 0) ask();
      else if (pending.current === null) pending.current = setTimeout(ask, wait);
    };
    // On mount, and when the topic or the query changes.
    askSoon();
    return store.subscribe((state, previous) => {
      if (state.status.step !== previous.status.step || state.cluster?.version !== previous.cluster?.version) askSoon();
    });
  }, [actions, store, topic, minIntervalMs, asked]);
  useEffect(() => () => {
    if (pending.current !== null) clearTimeout(pending.current);
  }, []);
}
