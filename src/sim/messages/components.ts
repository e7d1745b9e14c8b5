// The messages of the other components: the user's fault commands, kube-controller-manager's joins (a
// sync.WaitGroup made visible), every component's timers, and the synthetic load of engine benchmarks.

import type { TimerPayload } from '../engine/message.ts';
import type { Fault } from '../faults.ts';

/** `kcm.join`: kube-controller-manager starts `tasks` concurrent tasks under `label` and waits for them. */
export interface JoinPayload {
  readonly label: string;
  readonly tasks: number;
}

/**
 * `kcm.join.done`: the tasks under `label` have all finished; when they finished before the join itself
 * was delivered, the reply is the join's own payload (with `tasks`).
 */
export interface JoinDonePayload {
  readonly label: string;
  readonly tasks?: number;
}

export interface ComponentMessages {
  'user.fault': Fault;
  'kcm.join': JoinPayload;
  'kcm.join.done': JoinDonePayload;
  timer: TimerPayload;
}

/**
 * Kinds only the engine's own tests and benchmarks send (a cluster never does): a token passed around a
 * ring of peers (engine/synthetic-load.ts). The engine's tests send their own words under this kind's
 * type, as requests whose replies carry anything.
 */
export interface SyntheticMessages {
  token: unknown;
}
