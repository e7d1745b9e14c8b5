// Drives the one clock every animated element reads: a motion value holding the playhead's virtual time,
// advanced once per animation frame from the store's status. Tokens derive their position from it with
// motion transforms, so the clock moving re-renders no React component.

import { useAnimationFrame, useMotionValue, useReducedMotion, type MotionValue } from 'motion/react';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { VirtualTime } from '../../protocol/index.ts';
import { useSimStore } from '../store/sim-context.ts';
import type { SimState } from '../store/sim-store.ts';
import { Playhead, presentationLag } from './playhead.ts';

const PlayheadContext = createContext<MotionValue<VirtualTime> | null>(null);

export function PlayheadProvider({ children }: { readonly children: ReactNode }) {
  const store = useSimStore();
  const time = useMotionValue<VirtualTime>(0);
  const [playhead] = useState(() => new Playhead());
  const reducedMotion = useReducedMotion() ?? false;

  useEffect(() => {
    let version: number | undefined;
    const sync = (state: SimState, previous?: SimState) => {
      if (state.cluster?.version !== version) {
        version = state.cluster?.version;
        playhead.reset(presentationLag(state.cluster?.topology ?? null));
      }
      const playing = state.status.mode === 'playing';
      // A pause whose store update also carries the last turns' clock (the inbox applies a frame's worker
      // messages at once): that clock was reached while playing, so it is followed as playing first and
      // the pause then freezes the playhead where it is, as when each message was applied alone.
      if (!playing && previous?.status.mode === 'playing' && previous.cluster?.version === state.cluster?.version) playhead.follow(state.status.now, true);
      playhead.follow(state.status.now, playing);
    };
    sync(store.getState());
    return store.subscribe((state, previous) => {
      if (state.status !== previous.status || state.cluster !== previous.cluster) sync(state, previous);
    });
  }, [store, playhead]);

  useAnimationFrame((_, dtMs) => {
    const { status } = store.getState();
    const t = playhead.advance({ dtMs, playing: status.mode === 'playing', speed: status.speed, reducedMotion });
    if (t !== time.get()) time.set(t);
  });

  return <PlayheadContext value={time}>{children}</PlayheadContext>;
}

/** The playhead's virtual time, as a motion value. */
export function usePlayhead(): MotionValue<VirtualTime> {
  const time = useContext(PlayheadContext);
  if (!time) throw new Error('no PlayheadProvider above this component');
  return time;
}
