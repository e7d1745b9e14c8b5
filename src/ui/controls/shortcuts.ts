// Keyboard shortcuts for playback: space plays or pauses, → steps, ← steps back. They stay out of the way of text
// fields, selects and focused buttons, which keep their own keys.

import { useEffect } from 'react';
import { useSimActions } from '../store/sim-context.ts';

function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable="true"]')) return true;
  return key === ' ' && target.closest('button, a[href], [role="button"]') !== null;
}

export function usePlaybackShortcuts(): void {
  const actions = useSimActions();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || ownsKey(event.target, event.key)) return;
      if (event.key === ' ') {
        event.preventDefault();
        actions.togglePlay();
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        actions.step();
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault();
        actions.stepBack();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [actions]);
}
