// The UI's mirror of the simulation worker: the cluster it hosts, its status, the recent deliveries, and
// UI-only state (what the user selected, error notices). Worker events and UI actions are pure reducers
// over this state; the vanilla store applies them. Actions are plain functions that post commands: the
// store never changes the simulation's state itself, it waits for the worker's events.

import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Command, CommandType, SimStatus, Topology, TraceRecord, WorkerEvent } from '../../protocol/index.ts';
import { applyConsoleOutput, applyLogLines, emptyActivity, resetActivity, startCommand, type ActivityState, type ConsoleEntry } from '../console/activity.ts';
import { applyDiff, applySnapshot, emptyKeyspace, pickRevision, selectKey, type KeyspaceState } from './keyspace.ts';

export interface ClusterInfo {
  readonly seed: string | number;
  readonly nodes: number;
  readonly topology: Topology;
  /** Increases with every `ready`: a new cluster, drawn afresh. */
  readonly version: number;
}

export type Selection =
  | { readonly type: 'message'; readonly id: number }
  /** A link, by its two components (in either order). */
  | { readonly type: 'link'; readonly a: string; readonly b: string };

export interface Notice {
  readonly id: number;
  readonly command: CommandType | null;
  readonly message: string;
}

export interface SimState {
  readonly cluster: ClusterInfo | null;
  readonly status: SimStatus;
  /** The newest deliveries received, oldest first (at most `recentLimit`). */
  readonly recent: readonly TraceRecord[];
  /** The newest of `recent` that travel a link (from ≠ to): the candidates for animated tokens. */
  readonly tokens: readonly TraceRecord[];
  /** Deliveries the worker made but did not ship (batch tails), since the cluster was built. */
  readonly omitted: number;
  readonly notices: readonly Notice[];
  readonly noticeSeq: number;
  readonly selection: Selection | null;
  /** etcd's keyspace: live, and at a revision the user picked. */
  readonly keyspace: KeyspaceState;
  /** Console commands and their output, and the request logs. */
  readonly activity: ActivityState;
}

export const recentLimit = 500;
export const tokenLimit = 64;
export const noticeLimit = 3;

export const initialStatus: SimStatus = { step: 0, now: 0, pending: 0, idle: true, mode: 'paused', speed: 1 };

export const initialSimState: SimState = {
  cluster: null,
  status: initialStatus,
  recent: [],
  tokens: [],
  omitted: 0,
  notices: [],
  noticeSeq: 0,
  selection: null,
  keyspace: emptyKeyspace,
  activity: emptyActivity,
};

export function reduceWorkerEvent(state: SimState, event: WorkerEvent): SimState {
  switch (event.type) {
    case 'ready':
      return {
        ...state,
        cluster: { seed: event.seed, nodes: event.nodes, topology: event.topology, version: (state.cluster?.version ?? 0) + 1 },
        status: { ...initialStatus, speed: state.status.speed },
        recent: [],
        tokens: [],
        omitted: 0,
        selection: null,
        keyspace: emptyKeyspace,
        activity: resetActivity(state.activity),
      };
    case 'traceBatch': {
      if (event.records.length === 0 && event.omitted === 0) return state;
      const recent = [...state.recent, ...event.records].slice(-recentLimit);
      return { ...state, recent, tokens: recent.filter((r) => r.from !== r.to).slice(-tokenLimit), omitted: state.omitted + event.omitted };
    }
    case 'status':
      return { ...state, status: event.status };
    case 'error':
      return addNotice(state, event.command, event.message);
    case 'keyspaceDiff':
      return { ...state, keyspace: applyDiff(state.keyspace, event) };
    case 'keyspaceSnapshot':
      return { ...state, keyspace: applySnapshot(state.keyspace, event) };
    case 'consoleOutput':
      return { ...state, activity: applyConsoleOutput(state.activity, event) };
    case 'logLines':
      return { ...state, activity: applyLogLines(state.activity, event) };
  }
}

export function addNotice(state: SimState, command: CommandType | null, message: string): SimState {
  const id = state.noticeSeq + 1;
  return { ...state, noticeSeq: id, notices: [...state.notices, { id, command, message }].slice(-noticeLimit) };
}

export function dismissNotice(state: SimState, id: number): SimState {
  return { ...state, notices: state.notices.filter((n) => n.id !== id) };
}

export function select(state: SimState, selection: Selection | null): SimState {
  return { ...state, selection };
}

/** True when `record` travelled the link between `a` and `b` (either way). */
export function onLink(record: TraceRecord, a: string, b: string): boolean {
  return (record.from === a && record.to === b) || (record.from === b && record.to === a);
}

export type SimStore = StoreApi<SimState>;

export function createSimStore(): SimStore {
  return createStore<SimState>()(() => initialSimState);
}

export function applyWorkerEvent(store: SimStore, event: WorkerEvent): void {
  store.setState((state) => reduceWorkerEvent(state, event), true);
}

export interface SimActions {
  step(count?: number): void;
  play(): void;
  pause(): void;
  togglePlay(): void;
  setSpeed(speed: number): void;
  runUntilIdle(): void;
  /** Builds a new cluster; by default with the current seed and node count. */
  reset(seed?: string | number, nodes?: number): void;
  applyManifest(yaml: string): void;
  userRequest(to: string, kind: string, payload: unknown): void;
  select(selection: Selection | null): void;
  dismissNotice(id: number): void;
  /** Shows the keyspace at `revision` (asks the worker for it), or the live keyspace (null). */
  viewRevision(revision: number | null): void;
  selectKey(key: string | null): void;
  /** Runs a kubectl or etcdctl command line (`stdin`: what `-f -` reads); returns its id in `activity.entries`. */
  runCommand(line: string, options?: { readonly stdin?: string; readonly origin?: ConsoleEntry['origin'] }): number;
  /** Ctrl-C for a running command. */
  interruptCommand(id: number): void;
}

export function createSimActions(store: SimStore, post: (command: Command) => void): SimActions {
  const update = (reducer: (state: SimState) => SimState) => store.setState(reducer, true);
  const actions: SimActions = {
    step: (count = 1) => post({ type: 'step', count }),
    play: () => post({ type: 'play' }),
    pause: () => post({ type: 'pause' }),
    togglePlay: () => (store.getState().status.mode === 'playing' ? actions.pause() : actions.play()),
    setSpeed: (speed) => post({ type: 'setSpeed', speed }),
    runUntilIdle: () => post({ type: 'runUntilIdle' }),
    reset: (seed, nodes) => {
      const { cluster } = store.getState();
      const next = { seed: seed ?? cluster?.seed, nodes: nodes ?? cluster?.nodes };
      if (next.seed !== undefined && next.nodes !== undefined) post({ type: 'reset', seed: next.seed, nodes: next.nodes });
    },
    applyManifest: (yaml) => post({ type: 'applyManifest', yaml }),
    userRequest: (to, kind, payload) => post({ type: 'userRequest', to, kind, payload }),
    select: (selection) => update((state) => select(state, selection)),
    dismissNotice: (id) => update((state) => dismissNotice(state, id)),
    viewRevision: (revision) => {
      update((state) => ({ ...state, keyspace: pickRevision(state.keyspace, revision) }));
      if (revision !== null) post({ type: 'keyspaceAt', revision });
    },
    selectKey: (key) => update((state) => ({ ...state, keyspace: selectKey(state.keyspace, key) })),
    runCommand: (line, options = {}) => {
      const [activity, id] = startCommand(store.getState().activity, line, options.origin ?? 'console');
      update((state) => ({ ...state, activity }));
      post({ type: 'consoleRun', id, line, ...(options.stdin !== undefined ? { stdin: options.stdin } : {}) });
      return id;
    },
    interruptCommand: (id) => post({ type: 'consoleInterrupt', id }),
  };
  return actions;
}
