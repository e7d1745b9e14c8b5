// The UI's mirror of the simulation worker: the cluster it hosts, its status, the recent deliveries, and
// UI-only state (what the user selected, error notices). Worker events and UI actions are pure reducers
// over this state; the vanilla store applies them. Actions are plain functions that post commands: the
// store never changes the simulation's state itself, it waits for the worker's events.

import { createStore, type StoreApi } from 'zustand/vanilla';
import { milestoneLimit, type Milestone, type StepLevel } from '../../protocol/index.ts';
import type {
  CauseChainEvent, ClusterExportEvent, ClustersEvent, Command, CommandType, FaultSpec, InspectionEvent, InspectQuery, InspectTopic, PersistenceEvent, ProgressEvent,
  Flight, ScaleLessonView, ScenarioView, SimStatus, TimelineEvent, Topology, TourStopsEvent, TraceRangeCommand, TraceRangeEvent, TraceRecord, WorkerEvent, WorkerMessage,
} from '../../protocol/index.ts';
import type { EtcdMemberCount, InsidesEvent, ValueDescriptionEvent } from '../../protocol/index.ts';
import { applyConsoleOutput, applyLogLines, emptyActivity, resetActivity, startCommand, type ActivityState, type ConsoleEntry } from '../console/activity.ts';
import type { HeldVersion } from './key-table.ts';
import { applyDiff, applyMove, applySnapshot, emptyKeyspace, pickRevision, selectKey, type KeyspaceState } from './keyspace.ts';
import { applyFlights } from './flights.ts';
import { applyPods, emptyPods, type PodsState } from './pods.ts';
import { foldWholePayloads } from './payloads.ts';

export interface ClusterInfo {
  readonly seed: string | number;
  readonly nodes: number;
  readonly topology: Topology;
  /** How kube-apiserver stores objects in etcd (`--storage-media-type`). */
  readonly storageMediaType: 'protobuf' | 'json';
  /** How many etcd members it has (its topology's etcd components). */
  readonly etcdMembers: EtcdMemberCount;
  /** Increases with every `ready`: a new cluster, drawn afresh. */
  readonly version: number;
  /** Why the run is not deterministic (a server storing in a real etcd); absent when it is. */
  readonly nondeterministic?: string;
}

export type Selection =
  | { readonly type: 'message'; readonly id: number }
  /** A link, by its two components (in either order). */
  | { readonly type: 'link'; readonly a: string; readonly b: string };

/** The page attached to a server (`npm run apiserver`) instead of its own in-browser cluster. */
export interface ServerLink {
  /** The server's address, as shown (its origin). */
  readonly url: string;
  /** Connecting (or reconnecting), open, closed (it reconnects), refused (a bad token: it does not retry). */
  readonly state: 'connecting' | 'open' | 'closed' | 'refused';
  /** Why it is refused or closed: the close reason (`token missing`, `token refused`, …); null when none was given. */
  readonly reason: string | null;
}

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
  /** The messages over links near the playhead, delivered or in flight, in send order: the tokens drawn. */
  readonly tokens: readonly Flight[];
  /** Deliveries the worker made but did not ship (batch tails), since the cluster was built. */
  readonly omitted: number;
  readonly notices: readonly Notice[];
  readonly noticeSeq: number;
  readonly selection: Selection | null;
  /** etcd's keyspace: live, and at a revision the user picked. */
  readonly keyspace: KeyspaceState;
  /** The latest description of a stored value (the key details' byte views); null until asked. */
  readonly valueDescription: ValueDescriptionEvent | null;
  /** The pods at the step shown, grouped by node for the graph. */
  readonly pods: PodsState;
  /** Console commands and their output, and the request logs. */
  readonly activity: ActivityState;
  /** The latest answers to inspection queries (objects, scheduler), merged; null before the first. */
  readonly inspection: InspectionEvent | null;
  /** The "why?" chain asked for: loading (chain null) or answered. */
  readonly why: { readonly id: number; readonly answer: CauseChainEvent | null } | null;
  /** Where the view is on the timeline (null until the worker reports it). */
  readonly timeline: TimelineEvent | null;
  /** The long task running now (replay, restore …); null when none. */
  readonly progress: ProgressEvent | null;
  /** Whether and where the open cluster is saved, with the latest storage warning. */
  readonly persistence: PersistenceEvent | null;
  /** The saved clusters and which one is open (null until the worker lists them). */
  readonly savedClusters: ClustersEvent | null;
  /** The newest export the worker produced (the UI offers it as a download). */
  readonly lastExport: ClusterExportEvent | null;
  /** Set when the worker died (the reason); the UI offers to restart it from the last saved step. */
  readonly workerCrashed: string | null;
  /** The scenario catalog the worker posted (empty until it does). */
  readonly scenarios: readonly ScenarioView[];
  /** The milestones classified so far (the newest `milestoneLimit`), in step order. */
  readonly milestones: readonly Milestone[];
  /** What each component holds inside at the step shown (null until the worker reports it). */
  readonly insides: InsidesEvent | null;
  /** The stops of the tour asked for last (`locateTour`), found in this cluster's trace (src/ui/tours). */
  readonly tourStops: TourStopsEvent | null;
  /** The newest answer to a `traceRange` query (the sequence view keeps its own cache of them). */
  readonly traceRange: TraceRangeEvent | null;
  /** The server the page is attached to; null while it runs its own cluster in the worker. */
  readonly server: ServerLink | null;
  /** What the scenario at scale run on this cluster taught, measured after it (null until measured). */
  readonly scaleLesson: ScaleLessonView | null;
}

export const recentLimit = 500;
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
  valueDescription: null,
  pods: emptyPods,
  activity: emptyActivity,
  inspection: null,
  why: null,
  timeline: null,
  progress: null,
  persistence: null,
  savedClusters: null,
  lastExport: null,
  workerCrashed: null,
  scenarios: [],
  milestones: [],
  insides: null,
  tourStops: null,
  traceRange: null,
  server: null,
  scaleLesson: null,
};

export function reduceWorkerEvent(state: SimState, event: WorkerEvent): SimState {
  switch (event.type) {
    case 'ready':
      return {
        ...state,
        cluster: {
          seed: event.seed, nodes: event.nodes, topology: event.topology, storageMediaType: event.storageMediaType ?? 'protobuf', etcdMembers: event.etcdMembers ?? 1, version: (state.cluster?.version ?? 0) + 1,
          ...(event.nondeterministic !== undefined ? { nondeterministic: event.nondeterministic } : {}),
        },
        status: { ...initialStatus, speed: state.status.speed },
        recent: [],
        tokens: [],
        omitted: 0,
        selection: null,
        keyspace: emptyKeyspace,
        valueDescription: null,
        pods: emptyPods,
        activity: resetActivity(state.activity),
        inspection: null,
        why: null,
        timeline: null,
        milestones: [],
        insides: null,
        tourStops: null,
        traceRange: null,
        scaleLesson: null,
      };
    case 'traceBatch': {
      if (event.replace === true) {
        const recent = event.records.slice(-recentLimit);
        return { ...state, recent, omitted: event.omitted, selection: null };
      }
      if (event.records.length === 0 && event.omitted === 0) return state;
      const recent = [...state.recent, ...event.records].slice(-recentLimit);
      return { ...state, recent, omitted: state.omitted + event.omitted };
    }
    case 'timeline':
      return { ...state, timeline: event };
    case 'topology':
      return state.cluster ? { ...state, cluster: { ...state.cluster, topology: event.topology } } : state;
    case 'progress':
      return { ...state, progress: event.finished ? null : event };
    case 'persistence':
      return { ...state, persistence: event };
    case 'clusters':
      return { ...state, savedClusters: event };
    case 'clusterExport':
      return { ...state, lastExport: event };
    case 'status':
      return { ...state, status: event.status };
    case 'error':
      return addNotice(state, event.command, event.message);
    case 'keyspaceDiff':
      return { ...state, keyspace: applyDiff(state.keyspace, event) };
    case 'keyspaceSnapshot':
      return { ...state, keyspace: applySnapshot(state.keyspace, event) };
    case 'keyspaceMove':
      return { ...state, keyspace: applyMove(state.keyspace, event) };
    case 'valueDescription':
      return { ...state, valueDescription: event };
    case 'pods': {
      const pods = applyPods(state.pods, event);
      return pods === state.pods ? state : { ...state, pods };
    }
    case 'flights': {
      const tokens = applyFlights(state.tokens, event);
      return tokens === state.tokens ? state : { ...state, tokens };
    }
    case 'consoleOutput':
      return { ...state, activity: applyConsoleOutput(state.activity, event) };
    case 'logLines':
      return { ...state, activity: applyLogLines(state.activity, event) };
    case 'inspection':
      return { ...state, inspection: mergeInspection(state.inspection, event) };
    case 'causeChain':
      return state.why?.id === event.id ? { ...state, why: { id: event.id, answer: event } } : state;
    case 'scenarioCatalog':
      return { ...state, scenarios: event.scenarios };
    case 'insides':
      // Components left out did not change: their objects (and boxes) stay as they are.
      return { ...state, insides: event.replace || !state.insides ? event : { ...event, components: { ...state.insides.components, ...event.components } } };
    case 'tourStops':
      return { ...state, tourStops: event };
    case 'story': {
      if (!event.replace && event.milestones.length === 0) return state;
      const milestones = event.replace ? event.milestones : [...state.milestones, ...event.milestones];
      return { ...state, milestones: milestones.length > milestoneLimit ? milestones.slice(-milestoneLimit) : milestones };
    }
    case 'traceRange':
      // Negative ids are the store's own questions for whole payloads (payloads.ts).
      return event.id < 0 ? foldWholePayloads(state, event) : { ...state, traceRange: event };
    case 'scaleLesson':
      return { ...state, scaleLesson: event.lesson };
  }
}

/**
 * An inspection answer merged into what the page holds. A scheduler answer that says the attempt to show is
 * the one the page holds (`detailHeld`, asked with `SchedulerQuery.held`) keeps the held attempt, when it is
 * still that one; else none, and the panel, no longer holding it, asks again.
 */
function mergeInspection(held: InspectionEvent | null, event: InspectionEvent): InspectionEvent {
  const scheduler = event.scheduler;
  if (scheduler?.detailHeld === undefined) return { ...held, ...event };
  const kept = held?.scheduler?.detail;
  return { ...held, ...event, scheduler: { ...scheduler, detail: kept?.seq === scheduler.detailHeld ? kept : null } };
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

/** True when `record` travels the link between `a` and `b` (either way). */
export function onLink(record: Pick<TraceRecord, 'from' | 'to'>, a: string, b: string): boolean {
  return (record.from === a && record.to === b) || (record.from === b && record.to === a);
}

export type SimStore = StoreApi<SimState>;

export function createSimStore(): SimStore {
  return createStore<SimState>()(() => initialSimState);
}

export function applyWorkerEvent(store: SimStore, event: WorkerEvent): void {
  store.setState((state) => reduceWorkerEvent(state, event), true);
}

/** Applies one message from the worker: an event, or a turn's events together (one store update, one render). */
export function applyWorkerMessage(store: SimStore, message: WorkerMessage): void {
  if (!Array.isArray(message)) return applyWorkerEvent(store, message as WorkerEvent);
  store.setState((state) => (message as readonly WorkerEvent[]).reduce(reduceWorkerEvent, state), true);
}

export interface SimActions {
  step(count?: number): void;
  /** One unit at `level`, forward or back (the worker finds the next or previous step at that level). */
  stepLevel(level: StepLevel, direction: 'forward' | 'back'): void;
  /** Plays; at a level coarser than 'internal', one unit of that level at a time (story.ts). */
  play(level?: StepLevel): void;
  pause(): void;
  togglePlay(level?: StepLevel): void;
  setSpeed(speed: number): void;
  runUntilIdle(): void;
  /** Runs the live simulation for `ms` virtual milliseconds (deterministic, chunked like run until idle). */
  advance(ms: number): void;
  /** Delivers messages until console command `id` has finished (at most `maxMs` of virtual time). */
  runUntilCommandDone(id: number, maxMs: number): void;
  /** Builds a new cluster; by default with the current seed and node count. */
  /** A new cluster; what is not given is kept from the current one. */
  reset(seed?: string | number, nodes?: number, etcdMembers?: EtcdMemberCount): void;
  applyManifest(yaml: string): void;
  userRequest(to: string, kind: string, payload: unknown): void;
  select(selection: Selection | null): void;
  dismissNotice(id: number): void;
  /** Shows the keyspace at `revision` (asks the worker for it), or the live keyspace (null). */
  viewRevision(revision: number | null): void;
  selectKey(key: string | null): void;
  /**
   * Asks the worker to describe a version of a key (bytes, base64, decoded fields) and the change from its
   * previous version: `valueDescription`. A value the page does not hold the worker reads.
   */
  describeValue(key: string, version: HeldVersion, previous: HeldVersion | null): void;
  /** Runs a kubectl or etcdctl command line (`stdin`: what `-f -` reads); returns its id in `activity.entries`. */
  runCommand(line: string, options?: { readonly stdin?: string; readonly origin?: ConsoleEntry['origin'] }): number;
  /** Ctrl-C for a running command. */
  interruptCommand(id: number): void;
  /** Injects a fault (a user action on the timeline). */
  injectFault(fault: FaultSpec): void;
  /** Tells the worker whether the Logs panel is shown: it ships log lines only then (`logsShown`). */
  showLogs(shown: boolean): void;
  /** Asks the worker for the current state of `topics` (objects, scheduler); `query` picks the window and attempts shown. */
  inspect(topics: readonly InspectTopic[], query?: InspectQuery): void;
  /** Asks the worker where tour `id`'s stops are in the trace (answered in `tourStops`). */
  locateTour(id: string): void;
  /** Asks for the cause chain of message `id` (null: forget it). */
  askWhy(id: number | null): void;
  /** Timeline: move the view back, to a step, or to the step that wrote an etcd revision. */
  stepBack(count?: number): void;
  seek(step: number): void;
  seekRevision(revision: number): void;
  /** Makes the viewed past step the head; with a branch name the old future is kept as a saved cluster. */
  fork(branch?: string | null): void;
  /** Saved clusters. */
  listClusters(): void;
  createCluster(name: string, seed: string | number, nodes: number, storageMediaType?: 'protobuf' | 'json', etcdMembers?: EtcdMemberCount): void;
  openCluster(id: string): void;
  renameCluster(id: string, name: string): void;
  duplicateCluster(id: string, name: string): void;
  deleteCluster(id: string): void;
  exportCluster(id: string): void;
  importCluster(source: 'file' | 'link', text: string): void;
  /** Measures what a finished scenario at scale teaches (two lists as the user; answered in `scaleLesson`). */
  measureScaleLesson(): void;
  /** Asks the worker for a window of the trace (answered in `traceRange`). */
  traceRange(query: Omit<TraceRangeCommand, 'type'>): void;
  /** Replaces a crashed worker with a new one, which reopens the cluster at its last saved step. */
  restartWorker(): void;
}

/** The worker stopped: everything it held is gone, the UI keeps showing the last state until a restart. */
export function workerCrashed(state: SimState, reason: string): SimState {
  return { ...state, workerCrashed: reason, progress: null, status: { ...state.status, mode: 'paused' } };
}

/**
 * The page's actions on `store`. `flush` applies the worker messages queued for the next frame (inbox.ts):
 * an action that reads or changes the store runs it first, so it sees (and keeps) every event received.
 */
export function createSimActions(store: SimStore, post: (command: Command) => void, restart: () => void = () => undefined, flush: () => void = () => undefined): SimActions {
  const update = (reducer: (state: SimState) => SimState) => {
    flush();
    store.setState(reducer, true);
  };
  const current = () => {
    flush();
    return store.getState();
  };
  const actions: SimActions = {
    step: (count = 1) => post({ type: 'step', count }),
    stepLevel: (level, direction) => post({ type: 'stepLevel', level, direction }),
    play: (level) => post(level === undefined || level === 'internal' ? { type: 'play' } : { type: 'play', level }),
    pause: () => post({ type: 'pause' }),
    togglePlay: (level) => (current().status.mode === 'playing' ? actions.pause() : actions.play(level)),
    setSpeed: (speed) => post({ type: 'setSpeed', speed }),
    runUntilIdle: () => post({ type: 'runUntilIdle' }),
    advance: (ms) => post({ type: 'advance', ms }),
    runUntilCommandDone: (id, maxMs) => post({ type: 'runUntilCommandDone', id, maxMs }),
    reset: (seed, nodes, etcdMembers) => {
      const { cluster } = current();
      const next = { seed: seed ?? cluster?.seed, nodes: nodes ?? cluster?.nodes };
      const members = etcdMembers ?? cluster?.etcdMembers ?? 1;
      if (next.seed !== undefined && next.nodes !== undefined) {
        post({ type: 'reset', seed: next.seed, nodes: next.nodes, ...(members === 1 ? {} : { etcdMembers: members }) });
      }
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
    describeValue: (key, version, previous) => post({
      type: 'describeValue', key, modRevision: version.modRevision, value: version.value ?? null,
      previous: previous === null ? null : previous.value !== undefined ? { value: previous.value } : { modRevision: previous.modRevision },
    }),
    runCommand: (line, options = {}) => {
      const [activity, id] = startCommand(current().activity, line, options.origin ?? 'console');
      update((state) => ({ ...state, activity }));
      post({ type: 'consoleRun', id, line, ...(options.stdin !== undefined ? { stdin: options.stdin } : {}) });
      return id;
    },
    interruptCommand: (id) => post({ type: 'consoleInterrupt', id }),
    injectFault: (fault) => post({ type: 'fault', fault }),
    showLogs: (shown) => post({ type: 'logsShown', shown }),
    inspect: (topics, query) => post({ type: 'inspect', topics, ...query }),
    locateTour: (id) => post({ type: 'tourLocate', tour: id }),
    askWhy: (id) => {
      update((state) => ({ ...state, why: id === null ? null : { id, answer: null } }));
      if (id !== null) post({ type: 'causeChain', id });
    },
    stepBack: (count = 1) => post({ type: 'stepBack', count }),
    seek: (step) => post({ type: 'seek', step }),
    seekRevision: (revision) => post({ type: 'seekRevision', revision }),
    fork: (branch = null) => post({ type: 'fork', branch }),
    listClusters: () => post({ type: 'listClusters' }),
    createCluster: (name, seed, nodes, storageMediaType, etcdMembers) => post({
      type: 'createCluster', name, seed, nodes, ...(storageMediaType === 'json' ? { storageMediaType } : {}), ...(etcdMembers === 3 || etcdMembers === 5 ? { etcdMembers } : {}),
    }),
    openCluster: (id) => post({ type: 'openCluster', id }),
    renameCluster: (id, name) => post({ type: 'renameCluster', id, name }),
    duplicateCluster: (id, name) => post({ type: 'duplicateCluster', id, name }),
    deleteCluster: (id) => post({ type: 'deleteCluster', id }),
    exportCluster: (id) => post({ type: 'exportCluster', id }),
    importCluster: (source, text) => post({ type: 'importCluster', source, text }),
    measureScaleLesson: () => post({ type: 'measureScaleLesson' }),
    traceRange: (query) => post({ type: 'traceRange', ...query }),
    restartWorker: () => {
      update((state) => ({ ...state, workerCrashed: null }));
      restart();
    },
  };
  return actions;
}
