// Keeps an inspection topic fresh while a panel shows it: asks the worker once on mount and again
// whenever the step moves, at most every `minIntervalMs` of real time (playing at speed moves the step
// hundreds of times a second; the panel needs a few updates a second at most).

import { useEffect, useRef } from 'react';
import type { InspectTopic } from '../../protocol/index.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';

export function useInspection(topic: InspectTopic, minIntervalMs = 250): void {
  const actions = useSimActions();
  const step = useSim((state) => state.status.step);
  const version = useSim((state) => state.cluster?.version);
  const last = useRef(Number.NEGATIVE_INFINITY);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    const ask = () => {
      pending.current = null;
      last.current = performance.now();
      actions.inspect([topic]);
    };
    const wait = last.current + minIntervalMs - performance.now();
    if (wait <= 0) ask();
    else if (pending.current === null) pending.current = setTimeout(ask, wait);
  }, [actions, topic, step, version, minIntervalMs]);
  useEffect(() => () => {
    if (pending.current !== null) clearTimeout(pending.current);
  }, []);
}
