import { describe, expect, it } from 'vitest';
import type { Command, Topology, TraceRecord, WorkerEvent } from '../../protocol/index.ts';
import {
  applyWorkerEvent, applyWorkerMessage, createSimActions, createSimStore, initialSimState, noticeLimit, recentLimit, reduceWorkerEvent,
  type SimState,
} from './sim-store.ts';

const topology: Topology = {
  components: [{ name: 'user', role: 'user', modelled: true }, { name: 'etcd', role: 'etcd', modelled: true }],
  links: [{ a: 'user', b: 'etcd', latency: 5, jitter: 0 }],
};

function record(step: number, from = 'user', to = 'etcd'): TraceRecord {
  return { step, id: step, from, to, kind: 'etcd.Put', payload: { key: `/k${step}` }, sentAt: step, deliverAt: step + 5, cause: null, replyTo: null, background: false };
}

function reduceAll(events: readonly WorkerEvent[], state: SimState = initialSimState): SimState {
  return events.reduce(reduceWorkerEvent, state);
}

const ready: WorkerEvent = { type: 'ready', seed: 'podflow', nodes: 3, topology, bootSteps: 0 };

describe('reduceWorkerEvent', () => {
  it('takes the cluster from ready and numbers each new cluster', () => {
    const once = reduceAll([ready]);
    expect(once.cluster).toEqual({ seed: 'podflow', nodes: 3, topology, storageMediaType: 'protobuf', etcdMembers: 1, version: 1 });
    expect(reduceAll([ready], once).cluster?.version).toBe(2);
    expect(reduceAll([{ ...ready, etcdMembers: 3 }]).cluster?.etcdMembers).toBe(3);
  });

  it('keeps the scheduler attempt it holds when an answer says it is still the one shown, and only that one', () => {
    const attempt = (seq: number) => ({ seq, pod: 'default/p', attempt: 1, time: seq, selected: 'node-1', message: '', bound: true, nodes: [] });
    const view = (detail: ReturnType<typeof attempt> | null, detailHeld?: number) => ({
      made: 2, dropped: 0, pod: '', matching: 2, attempts: [], detail, ...(detailHeld === undefined ? {} : { detailHeld }),
    });
    const answer = (scheduler: ReturnType<typeof view>, step: number): WorkerEvent => ({ type: 'inspection', step, scheduler });
    const holding = reduceAll([ready, answer(view(attempt(2)), 10)]);
    const held = holding.inspection!.scheduler!.detail;
    const kept = reduceAll([answer(view(null, 2), 11)], holding).inspection!;
    expect(kept.step).toBe(11);
    expect(kept.scheduler!.detail).toBe(held);
    // Said of another attempt than the one held (answers crossed): none held, so the panel asks again.
    expect(reduceAll([answer(view(null, 1), 11)], holding).inspection!.scheduler!.detail).toBeNull();
  });

  it('takes a grown topology (an etcd client connected) without replacing the cluster', () => {
    const grown: Topology = { components: [...topology.components, { name: 'etcd-client/127.0.0.1:5000', role: 'etcd-client', modelled: true }], links: topology.links };
    const state = reduceAll([ready, { type: 'topology', topology: grown }]);
    expect(state.cluster).toMatchObject({ version: 1, topology: grown });
  });

  it('forgets the previous cluster\'s deliveries and selection on ready', () => {
    const state = reduceAll([
      ready,
      { type: 'traceBatch', records: [record(1)], omitted: 4 },
      { type: 'status', status: { step: 5, now: 6, pending: 0, idle: true, mode: 'paused', speed: 0.5 } },
    ]);
    const reset = reduceWorkerEvent({ ...state, selection: { type: 'message', id: 1 } }, ready);
    expect(reset).toMatchObject({ recent: [], tokens: [], omitted: 0, selection: null });
    expect(reset.status).toMatchObject({ step: 0, now: 0, speed: 0.5 });
  });

  it('replaces the deliveries it holds with a replacing batch (a seek) and drops the selection', () => {
    const state = reduceAll([
      ready,
      { type: 'traceBatch', records: [record(1), record(2), record(3)], omitted: 0 },
    ]);
    const seeked = reduceWorkerEvent({ ...state, selection: { type: 'message', id: 3 } }, { type: 'traceBatch', records: [record(1)], omitted: 0, replace: true });
    expect(seeked.recent.map((r) => r.step)).toEqual([1]);
    expect(seeked).toMatchObject({ omitted: 0, selection: null });
  });

  it('keeps the timeline, persistence and saved-cluster reports; a finished progress clears the progress', () => {
    const state = reduceAll([
      { type: 'timeline', position: 3, head: 9, live: false, bootSteps: 2, retainedFrom: 1, markers: [{ step: 2, kind: 'command', label: 'kubectl create' }], revision: 7 },
      { type: 'progress', task: 'replay', words: { key: 'restore', steps: 4 }, done: 1, total: 4, finished: false },
      { type: 'persistence', mode: 'memory-only', clusterId: null, lastPersistedStep: null, warning: { code: 'unavailable', message: 'no IndexedDB' } },
      { type: 'clusters', clusters: [], openId: null },
    ]);
    expect(state.timeline).toMatchObject({ position: 3, head: 9, live: false });
    expect(state.progress).toMatchObject({ done: 1, total: 4 });
    expect(state.persistence?.warning?.code).toBe('unavailable');
    expect(state.savedClusters).toEqual({ clusters: [], openId: null, type: 'clusters' });
    expect(reduceWorkerEvent(state, { type: 'progress', task: 'replay', words: { key: 'restore', steps: 4 }, done: 4, total: 4, finished: true }).progress).toBeNull();
  });

  it('mirrors the status', () => {
    const status = { step: 2, now: 10, pending: 1, idle: false, mode: 'playing', speed: 2 } as const;
    expect(reduceAll([{ type: 'status', status }]).status).toEqual(status);
  });

  it('appends batches, keeps the newest records and counts what the worker left out', () => {
    const records = Array.from({ length: recentLimit + 10 }, (_, i) => record(i + 1));
    const state = reduceAll([
      { type: 'traceBatch', records: records.slice(0, 300), omitted: 7 },
      { type: 'traceBatch', records: records.slice(300), omitted: 3 },
    ]);
    expect(state.recent).toHaveLength(recentLimit);
    expect(state.recent[0]?.step).toBe(11);
    expect(state.recent.at(-1)?.step).toBe(recentLimit + 10);
    expect(state.omitted).toBe(10);
  });

  it('mirrors the worker\'s flights as tokens: added in send order, stepped when delivered, removed', () => {
    const flight = (id: number, step: number | null) => ({ ...record(id), step });
    const state = reduceAll([
      { type: 'flights', replace: true, added: [flight(3, null), flight(1, 1)], removed: [], stepped: [] },
      { type: 'flights', replace: false, added: [flight(2, null)], removed: [1], stepped: [[3, 7]] },
    ]);
    expect(state.tokens.map((t) => [t.id, t.step])).toEqual([[2, null], [3, 7]]);
    const again = reduceWorkerEvent(state, { type: 'flights', replace: false, added: [], removed: [], stepped: [] });
    expect(again).toBe(state);
    const untouched = reduceWorkerEvent(state, { type: 'flights', replace: false, added: [], removed: [], stepped: [[3, null]] });
    expect(untouched.tokens[0]).toBe(state.tokens[0]);
    expect(untouched.tokens[1]?.step).toBeNull();
    expect(reduceWorkerEvent(state, { type: 'flights', replace: true, added: [flight(9, null)], removed: [], stepped: [] }).tokens.map((t) => t.id)).toEqual([9]);
    expect(reduceWorkerEvent(state, ready).tokens).toEqual([]);
    const withPayload = reduceWorkerEvent(state, { type: 'flights', replace: false, added: [{ ...flight(2, null), payload: 'full' }], removed: [], stepped: [] });
    expect(withPayload.tokens.map((t) => [t.id, t.payload])).toEqual([[2, 'full'], [3, { key: '/k3' }]]);
  });

  it('keeps the state as it is for an empty batch', () => {
    expect(reduceWorkerEvent(initialSimState, { type: 'traceBatch', records: [], omitted: 0 })).toBe(initialSimState);
  });

  it('keeps the newest error notices', () => {
    const errors = Array.from({ length: noticeLimit + 2 }, (_, i): WorkerEvent => ({ type: 'error', command: 'step', message: `e${i}` }));
    const state = reduceAll(errors);
    expect(state.notices.map((n) => n.message)).toEqual(Array.from({ length: noticeLimit }, (_, i) => `e${i + 2}`));
    expect(new Set(state.notices.map((n) => n.id)).size).toBe(noticeLimit);
  });
});

describe('sim actions', () => {
  function setup() {
    const store = createSimStore();
    const posted: Command[] = [];
    const actions = createSimActions(store, (command) => posted.push(command));
    return { store, posted, actions };
  }

  it('post commands and leave the mirrored state to the worker\'s answer', () => {
    const { store, posted, actions } = setup();
    actions.step();
    actions.step(10);
    actions.setSpeed(0.1);
    actions.runUntilIdle();
    actions.applyManifest('kind: Pod');
    actions.userRequest('etcd', 'etcd.Put', { key: 'a', value: 'b' });
    expect(posted).toEqual([
      { type: 'step', count: 1 },
      { type: 'step', count: 10 },
      { type: 'setSpeed', speed: 0.1 },
      { type: 'runUntilIdle' },
      { type: 'applyManifest', yaml: 'kind: Pod' },
      { type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: 'a', value: 'b' } },
    ]);
    expect(store.getState()).toBe(initialSimState);
  });

  it('toggle play by the mode the worker last reported', () => {
    const { store, posted, actions } = setup();
    actions.togglePlay();
    applyWorkerEvent(store, { type: 'status', status: { ...store.getState().status, mode: 'playing' } });
    actions.togglePlay();
    expect(posted).toEqual([{ type: 'play' }, { type: 'pause' }]);
  });

  it('apply a turn\'s events, posted as one message, in one store update and in order', () => {
    const { store } = setup();
    let updates = 0;
    store.subscribe(() => updates++);
    applyWorkerMessage(store, [ready, { type: 'status', status: { ...store.getState().status, step: 7, mode: 'playing' } }, { type: 'error', command: null, message: 'late' }]);
    expect(updates).toBe(1);
    const state = store.getState();
    expect(state.cluster?.seed).toBe('podflow');
    expect(state.status.step).toBe(7);
    expect(state.notices.map((n) => n.message)).toEqual(['late']);
    applyWorkerMessage(store, { type: 'status', status: { ...state.status, step: 8 } });
    expect(updates).toBe(2);
    expect(store.getState().status.step).toBe(8);
  });

  it('reset with the current seed and node count unless told otherwise', () => {
    const { store, posted, actions } = setup();
    actions.reset();
    applyWorkerEvent(store, ready);
    actions.reset();
    actions.reset('other', 5);
    expect(posted).toEqual([{ type: 'reset', seed: 'podflow', nodes: 3 }, { type: 'reset', seed: 'other', nodes: 5 }]);
  });

  it('select and dismiss locally', () => {
    const { store, posted, actions } = setup();
    actions.select({ type: 'link', a: 'user', b: 'etcd' });
    expect(store.getState().selection).toEqual({ type: 'link', a: 'user', b: 'etcd' });
    applyWorkerEvent(store, { type: 'error', command: null, message: 'boom' });
    actions.dismissNotice(store.getState().notices[0]!.id);
    expect(store.getState().notices).toEqual([]);
    expect(posted).toEqual([]);
  });
});
