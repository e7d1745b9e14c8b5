// What the heavy panels draw (keyspace, story, inspector, objects, timeline markers, kubelets' insides):
// a snapshot of the simulation store that may trail it while playing, never otherwise. While the
// simulation is paused (a step, a step back, a seek, or nothing), the snapshot is the store's state,
// updated in the same store notification, so those panels render in the same frame as the step counter.
// While it plays (or runs until idle), the snapshot catches up at most once every `trailMs`, in a task of
// its own after the update, so the graph's tokens and the counters (which read the store itself) are
// drawn in one frame and the panels in a later one, not all in one long task per update. What the user
// did on the page (a selection, a picked key or revision, a "why?") shows at once, playing or not.
// What is off screen (`OnScreen` false above it: a kubelet's box outside the graph's view, the inspector
// below the column's fold) stays as it was while playing, and catches up when it comes into view or the
// simulation pauses.
// The page's parts catch up in lanes (`SnapshotLane` above them: the graph's boxes, the keyspace, the
// timeline's markers, the other panels), each a snapshot of its own whose catch-ups while playing are a
// quarter of `trailMs` apart from the next lane's, so that one catch-up task renders one part of the page,
// not all of them in one frame. Paused, every lane is the store's state in the same notification.

import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useSimStore } from './sim-context.ts';
import type { SimState, SimStore } from './sim-store.ts';

/** Real ms the snapshot may trail the store while playing: about four frames' worth at 60 Hz. */
export const trailMs = 250;

/** The real clock and timer the snapshot catches up by (injected in tests). */
export interface SnapshotClock {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

const realClock: SnapshotClock = {
  now: () => performance.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** True when going from `shown` to `next` must be drawn at once: paused, a new mode, or the user's own change. */
function catchUpAtOnce(shown: SimState, next: SimState): boolean {
  return next.status.mode === 'paused'
    || next.status.mode !== shown.status.mode
    || next.cluster !== shown.cluster
    || next.selection !== shown.selection
    || next.why !== shown.why
    || next.keyspace.selectedKey !== shown.keyspace.selectedKey
    || next.keyspace.past !== shown.keyspace.past
    || next.valueDescription !== shown.valueDescription
    || next.workerCrashed !== shown.workerCrashed;
}

/**
 * A read-only store holding `live`'s state as the heavy panels draw it (see the file's comment). `phaseMs`
 * (0 ≤ phaseMs < trailMs): after catching up at once (playing began, or the user changed something), the
 * first catch-up while playing comes `phaseMs` early, so lanes with different phases keep catching up in
 * different tasks, `trailMs` apart each.
 */
export function createSnapshotStore(live: SimStore, clock: SnapshotClock = realClock, phaseMs = 0): StoreApi<SimState> {
  const snapshot = createStore<SimState>()(() => live.getState());
  let timer: unknown = null;
  // Made while playing (a lane's first reader mounted then), it starts in its phase too.
  let shownAt = clock.now() - phaseMs;
  const publish = (atOnce: boolean) => {
    if (timer !== null) clock.clearTimer(timer);
    timer = null;
    shownAt = clock.now() - (atOnce ? phaseMs : 0);
    snapshot.setState(live.getState(), true);
  };
  live.subscribe((next) => {
    if (catchUpAtOnce(snapshot.getState(), next)) publish(true);
    else timer ??= clock.setTimer(() => publish(false), Math.max(0, shownAt + trailMs - clock.now()));
  });
  return snapshot;
}

/** The parts of the page that catch up apart while playing; a reader's lane is the `SnapshotLane` above it. */
const lanes = ['panels', 'graph', 'keyspace', 'timeline'] as const;
type Lane = (typeof lanes)[number];

/** The lane of the snapshot readers below (the right-hand column's panels and the dock's others unless set). */
export const SnapshotLane = createContext<Lane>('panels');

const snapshots = new WeakMap<SimStore, Map<Lane, StoreApi<SimState>>>();

/** The snapshot store of `live` for a lane (one per store and lane, made on first use). */
export function snapshotOf(live: SimStore, lane: Lane = 'panels'): StoreApi<SimState> {
  let byLane = snapshots.get(live);
  if (!byLane) snapshots.set(live, byLane = new Map());
  let snapshot = byLane.get(lane);
  if (!snapshot) {
    snapshot = createSnapshotStore(live, realClock, (lanes.indexOf(lane) * trailMs) / lanes.length);
    byLane.set(lane, snapshot);
  }
  return snapshot;
}

/** Whether the components below are on screen (false: they may stay as they were while playing). */
export const OnScreen = createContext(true);

type Seen = (onScreen: boolean) => void;
let observer: IntersectionObserver | null = null;
const watched = new WeakMap<Element, Seen>();

/** Whether `ref`'s element intersects the page's viewport (true until first observed, and without IntersectionObserver). */
export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    observer ??= new IntersectionObserver((entries) => {
      for (const entry of entries) watched.get(entry.target)?.(entry.isIntersecting);
    });
    watched.set(element, setOnScreen);
    observer.observe(element);
    return () => {
      observer?.unobserve(element);
      watched.delete(element);
    };
  }, [ref]);
  return onScreen;
}

/**
 * As `useSim`, from the snapshot: the store's state when paused, at most `trailMs` old while playing, and
 * while playing off screen (`OnScreen`), what it was when it went off screen.
 */
export function useSimSnapshot<T>(selector: (state: SimState) => T): T {
  const store = snapshotOf(useSimStore(), useContext(SnapshotLane));
  const onScreen = useContext(OnScreen);
  const held = useRef<{ value: T } | null>(null);
  const read = () => {
    const state = store.getState();
    if (!onScreen && held.current !== null && state.status.mode !== 'paused') return held.current.value;
    const value = selector(state);
    if (held.current?.value !== value) held.current = { value };
    return value;
  };
  return useSyncExternalStore(store.subscribe, read, read);
}
