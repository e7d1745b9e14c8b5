// Playback controls and the engine's counters. Each control posts a command; what it shows (playing or
// not, the step, virtual time, pending messages) is the worker's last status, never a local guess.
// The level of detail (Story / Requests / All, remembered in prefs) decides what Step and Step back move
// by; "Previous milestone" and "Next milestone" always move one milestone.

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

export function LevelSwitch() {
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
}

function PlaybackControls() {
  const { t } = useTranslation('controls');
  const actions = useSimActions();
  const level = usePrefs((prefs) => prefs.level);
  const { mode, pending, idle, speed } = useSim(useShallow(({ status }) => ({
    mode: status.mode, pending: status.pending, idle: status.idle, speed: status.speed,
  })));
  const position = useSim((state) => state.timeline?.position ?? 0);
  const atStart = position === 0;
  const milestoneBefore = useSim((state) => hasMilestoneBefore(state.milestones, position));
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
      <button type="button" data-testid="step-button" onClick={() => stepAtLevel(actions, level, 'forward')} disabled={attached ? !behind : pending === 0} aria-keyshortcuts="ArrowRight" title={t('stepHint')}>
        {t('step')}
      </button>
      <button type="button" className="milestone-button" data-testid="next-milestone-button" onClick={() => stepMilestone(actions, 'forward')} disabled={attached ? !behind : pending === 0} aria-keyshortcuts="Shift+ArrowRight" title={t('nextMilestoneHint')}>
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

function StatusReadout() {
  const { t } = useTranslation('controls');
  const { step, now, pending, idle, mode } = useSim((state) => state.status);
  const activity = mode === 'playing' ? 'playing' : mode === 'runningUntilIdle' ? 'running' : idle ? 'idle' : 'paused';
  return (
    <dl className="readout" aria-label={t('status')}>
      <div><dt>{t('readout.step')}</dt><dd data-testid="step-counter">{step}</dd></div>
      <div><dt>{t('readout.time')}</dt><dd data-testid="virtual-time">{formatVirtualTime(now)}</dd></div>
      <div><dt>{t('readout.pending')}</dt><dd data-testid="pending-count">{pending}</dd></div>
      <div><dt>{t('readout.state')}</dt><dd data-testid="activity" data-state={activity}>{t(`activity.${activity}`)}</dd></div>
    </dl>
  );
}
