import { describe, expect, it } from 'vitest';
import type { Command } from '../../protocol/index.ts';
import { createSimActions, createSimStore } from '../store/sim-store.ts';
import { handleShortcut, type ShortcutEvent } from './shortcuts.ts';

function key(k: string, extra: Partial<ShortcutEvent> = {}): ShortcutEvent {
  return { key: k, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, defaultPrevented: false, target: null, ...extra };
}

function setup() {
  const posted: Command[] = [];
  const actions = createSimActions(createSimStore(), (c) => posted.push(c));
  return { posted, actions };
}

describe('playback shortcuts', () => {
  it('→ and ← move one delivery at "All", as Step always did', () => {
    const { posted, actions } = setup();
    expect(handleShortcut(key('ArrowRight'), actions, 'internal')).toBe(true);
    expect(handleShortcut(key('ArrowLeft'), actions, 'internal')).toBe(true);
    expect(posted).toEqual([{ type: 'step', count: 1 }, { type: 'stepBack', count: 1 }]);
  });

  it('→ and ← move one step at the chosen level otherwise', () => {
    const { posted, actions } = setup();
    handleShortcut(key('ArrowRight'), actions, 'request');
    handleShortcut(key('ArrowLeft'), actions, 'milestone');
    expect(posted).toEqual([
      { type: 'stepLevel', level: 'request', direction: 'forward' },
      { type: 'stepLevel', level: 'milestone', direction: 'back' },
    ]);
  });

  it('Shift+→ and Shift+← move one milestone whatever the level', () => {
    const { posted, actions } = setup();
    handleShortcut(key('ArrowRight', { shiftKey: true }), actions, 'internal');
    handleShortcut(key('ArrowLeft', { shiftKey: true }), actions, 'request');
    expect(posted).toEqual([
      { type: 'stepLevel', level: 'milestone', direction: 'forward' },
      { type: 'stepLevel', level: 'milestone', direction: 'back' },
    ]);
  });

  it('space plays and pauses; other keys and modified keys are left alone', () => {
    const { posted, actions } = setup();
    expect(handleShortcut(key(' '), actions, 'milestone')).toBe(true);
    expect(posted).toEqual([{ type: 'play', level: 'milestone' }]);
    expect(handleShortcut(key('ArrowRight', { ctrlKey: true }), actions, 'internal')).toBe(false);
    expect(handleShortcut(key('ArrowRight', { defaultPrevented: true }), actions, 'internal')).toBe(false);
    expect(handleShortcut(key('a'), actions, 'internal')).toBe(false);
    expect(posted).toHaveLength(1);
    handleShortcut(key(' '), createSimActions(createSimStore(), (c) => posted.push(c)), 'internal');
    expect(posted.at(-1)).toEqual({ type: 'play' });
  });
});
