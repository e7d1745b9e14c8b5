// Keyboard shortcuts for playback: space plays or pauses, → goes to the next step at the chosen level of
// detail, ← back, Shift+→ / Shift+← the next / previous milestone. They stay out of the way of text
// fields, selects and focused buttons, which keep their own keys.

import { useEffect } from 'react';
import type { StepLevel } from '../../protocol/index.ts';
import { prefsStore } from '../store/prefs.ts';
import { useSimActions } from '../store/sim-context.ts';
import type { SimActions } from '../store/sim-store.ts';
import { stepAtLevel, stepMilestone } from './navigate.ts';

function ownsKey(target: EventTarget | null, key: string): boolean {
  if (typeof Element === 'undefined' || !(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable="true"]')) return true;
  return key === ' ' && target.closest('button, a[href], [role="button"]') !== null;
}

export type ShortcutEvent = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey' | 'defaultPrevented' | 'target'>;

/** Carries out the shortcut `event` stands for; true when it was one (the caller prevents the default). */
export function handleShortcut(event: ShortcutEvent, actions: Pick<SimActions, 'togglePlay' | 'step' | 'stepBack' | 'stepLevel'>, level: StepLevel): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || ownsKey(event.target, event.key)) return false;
  if (event.key === ' ') {
    if (event.shiftKey) return false;
    actions.togglePlay(level);
  } else if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
    const direction = event.key === 'ArrowRight' ? 'forward' : 'back';
    if (event.shiftKey) stepMilestone(actions, direction);
    else stepAtLevel(actions, level, direction);
  } else {
    return false;
  }
  return true;
}

export function usePlaybackShortcuts(): void {
  const actions = useSimActions();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (handleShortcut(event, actions, prefsStore.getState().level)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [actions]);
}
