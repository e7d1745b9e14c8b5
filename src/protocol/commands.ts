// Commands the UI posts to the simulation worker. Every command is answered by at least one `status`
// event (or an `error` event when it cannot be carried out); commands are handled in the order posted.

import type { ConsoleInterruptCommand, ConsoleRunCommand } from './console.ts';

/** Pauses playback, then delivers up to `count` (≥ 1) messages, one step each. */
export interface StepCommand {
  readonly type: 'step';
  readonly count: number;
}

/**
 * Plays in real time: each tick advances virtual time by elapsed real time × speed, delivering every
 * message due by then in the same steps as step mode. Playing goes on while nothing is pending.
 */
export interface PlayCommand {
  readonly type: 'play';
}

/** Stops playing or running until idle; virtual time stays where it is. */
export interface PauseCommand {
  readonly type: 'pause';
}

/** Virtual milliseconds per real millisecond while playing (finite, > 0). */
export interface SetSpeedCommand {
  readonly type: 'setSpeed';
  readonly speed: number;
}

/** Pauses playback, then delivers messages until only background work is queued (in chunks). */
export interface RunUntilIdleCommand {
  readonly type: 'runUntilIdle';
}

/** Discards the cluster and builds a new one; answered by `ready`. */
export interface ResetCommand {
  readonly type: 'reset';
  readonly seed: string | number;
  /** Worker nodes, node-1 … node-N (1 ≤ N ≤ maxNodes). */
  readonly nodes: number;
}

/**
 * `kubectl apply -f` of YAML text (one or more documents). The worker parses it; until kube-apiserver is
 * modelled it answers with an `error` event naming the objects it parsed, or the YAML error.
 */
export interface ApplyManifestCommand {
  readonly type: 'applyManifest';
  readonly yaml: string;
}

/**
 * A request sent by the user component (the root of a cause chain), e.g. etcdctl's
 * `{to: 'etcd', kind: 'etcd.Put', payload: {key, value}}`. `to` must be a modelled component.
 */
export interface UserRequestCommand {
  readonly type: 'userRequest';
  readonly to: string;
  readonly kind: string;
  readonly payload: unknown;
}

/** Asks for the keyspace as it was at `revision` (answered by a `keyspaceSnapshot`). */
export interface KeyspaceAtCommand {
  readonly type: 'keyspaceAt';
  readonly revision: number;
}

export type Command =
  | StepCommand
  | PlayCommand
  | PauseCommand
  | SetSpeedCommand
  | RunUntilIdleCommand
  | ResetCommand
  | ApplyManifestCommand
  | UserRequestCommand
  | KeyspaceAtCommand
  | ConsoleRunCommand
  | ConsoleInterruptCommand;

export type CommandType = Command['type'];

export const maxNodes = 50;
