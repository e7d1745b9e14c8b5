// Playback controls and the engine's counters. Each control posts a command; what it shows (playing or
// not, the step, virtual time, pending messages) is the worker's last status, never a local guess.
// The level of detail (Story / Requests / All, remembered in prefs) decides what Step and Step back move
// by; "Previous milestone" and "Next milestone" always move one milestone.

import { memo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/shallow';
import { stepLevels, type StepLevel } from '../../protocol/index.ts';
import { formatSpeed, formatVirtualTime } from '../format.ts';
import { usePrefs } from '../store/prefs.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { useAttached } from '../live/LiveControls.tsx';
import { hasMilestoneBefore } from '../story/story.ts';
import { stepAtLevel, stepMilestone } from './navigate.ts';
import './controls.css';

const speeds = [0.001, 0.01, 0.1, 1, 10, 100] as const;

/** Coarsest first, as the buttons read: Story, Requests, All. */
const levelOrder: readonly StepLevel[] = [...stepLevels].reverse();

export function PlaybackBar() {
  return (
    <div className="playback-bar">
      <PlaybackControls />
      <StatusReadout />
    </div>
  );
}

// Memoised: the toolbar re-renders when the mode or a button's state changes, and the switch only on a level change.
export const LevelSwitch = memo(function LevelSwitch() {
  const { t } = useTranslation('controls');
  const level = usePrefs((prefs) => prefs.level);
  const setLevel = usePrefs((prefs) => prefs.setLevel);
  return (
    <div className="level-switch" role="group" aria-label={t('level.group')} data-testid="level-switch">
      {levelOrder.map((l) => (
        <button key={l} type="button" aria-pressed={level === l} data-level={l} title={t(`level.${l}Hint`)} onClick={() => setLevel(l)}>
          {t(`level.${l}`)}
        </button>
      ))}
    </div>
  );
});

/**
 * The toolbar re-renders only when what it draws changes (the mode, the speed, a button enabled or not),
 * not on every worker update while playing: it reads whether there are pending messages and whether the
 * position is at the start or past a milestone, never the counts themselves.
 */
function PlaybackControls() {
  const { t } = useTranslation('controls');
  const actions = useSimActions();
  const level = usePrefs((prefs) => prefs.level);
  const { mode, nothingPending, idle, speed } = useSim(useShallow(({ status }) => ({
    mode: status.mode, nothingPending: status.pending === 0, idle: status.idle, speed: status.speed,
  })));
  const atStart = useSim((state) => (state.timeline?.position ?? 0) === 0);
  const milestoneBefore = useSim((state) => hasMilestoneBefore(state.milestones, state.timeline?.position ?? 0));
  const options = speeds.includes(speed as (typeof speeds)[number]) ? speeds : [...speeds, speed].sort((x, y) => x - y);
  // A server's cluster runs on the server's clock: no speed, no run until idle, no reset (live/).
  const attached = useAttached();
  const behind = useSim((state) => state.timeline !== null && state.timeline.position < state.timeline.head);
  return (
    <div className="playback-controls" role="toolbar" aria-label={t('playback')}>
      <LevelSwitch />
      <button type="button" data-testid="previous-milestone-button" onClick={() => stepMilestone(actions, 'back')} disabled={!milestoneBefore} aria-keyshortcuts="Shift+ArrowLeft" title={t('previousMilestoneHint')}>
        <span aria-hidden="true">◀ </span>{t('previousMilestone')}
      </button>
      <button type="button" data-testid="step-back-button" onClick={() => stepAtLevel(actions, level, 'back')} disabled={atStart} aria-keyshortcuts="ArrowLeft" title={t('stepBackHint')}>
        {t('stepBack')}
      </button>
      <button type="button" data-testid="step-button" onClick={() => stepAtLevel(actions, level, 'forward')} disabled={attached ? !behind : nothingPending} aria-keyshortcuts="ArrowRight" title={t('stepHint')}>
        {t('step')}
      </button>
      <button type="button" className="milestone-button" data-testid="next-milestone-button" onClick={() => stepMilestone(actions, 'forward')} disabled={attached ? !behind : nothingPending} aria-keyshortcuts="Shift+ArrowRight" title={t('nextMilestoneHint')}>
        {t('nextMilestone')}<span aria-hidden="true"> ▶</span>
      </button>
      <button type="button" className="play-button" data-testid="play-button" onClick={() => actions.togglePlay(level)} aria-keyshortcuts="Space" title={t('playHint')}>
        {mode === 'playing' ? t('pause') : t('play')}
      </button>
      {attached ? null : (
        <>
          <button type="button" onClick={actions.runUntilIdle} disabled={idle}>
            {t('runUntilIdle')}
          </button>
          <label className="speed">
            {t('speed')}
            <select value={speed} onChange={(event) => actions.setSpeed(Number(event.target.value))}>
              {options.map((option) => <option key={option} value={option}>{formatSpeed(option)}</option>)}
            </select>
          </label>
          <button type="button" onClick={() => actions.reset()} title={t('resetHint')}>
            {t('reset')}
          </button>
        </>
      )}
    </div>
  );
}

type Activity = 'playing' | 'running' | 'idle' | 'paused';

/** The readout's words in the language of `t`, translated once per language (it re-renders on every update while playing). */
const readoutWords = new WeakMap<TFunction<'controls'>, Record<'status' | 'step' | 'time' | 'pending' | 'state' | Activity, string>>();
function wordsOf(t: TFunction<'controls'>) {
  let words = readoutWords.get(t);
  if (!words) {
    words = {
      status: t('status'), step: t('readout.step'), time: t('readout.time'), pending: t('readout.pending'), state: t('readout.state'),
      playing: t('activity.playing'), running: t('activity.running'), idle: t('activity.idle'), paused: t('activity.paused'),
    };
    readoutWords.set(t, words);
  }
  return words;
}

function StatusReadout() {
  const { t } = useTranslation('controls');
  const words = wordsOf(t);
  const { step, now, pending, idle, mode } = useSim((state) => state.status);
  const activity: Activity = mode === 'playing' ? 'playing' : mode === 'runningUntilIdle' ? 'running' : idle ? 'idle' : 'paused';
  return (
    <dl className="readout" aria-label={words.status}>
      <div><dt>{words.step}</dt><dd data-testid="step-counter">{step}</dd></div>
      <div><dt>{words.time}</dt><dd data-testid="virtual-time">{formatVirtualTime(now)}</dd></div>
      <div><dt>{words.pending}</dt><dd data-testid="pending-count">{pending}</dd></div>
      <div><dt>{words.state}</dt><dd data-testid="activity" data-state={activity}>{words[activity]}</dd></div>
    </dl>
  );
}
