// Playback controls and the engine's counters. Each control posts a command; what it shows (playing or
// not, the step, virtual time, pending messages) is the worker's last status, never a local guess.

import { useShallow } from 'zustand/shallow';
import { formatSpeed, formatVirtualTime } from '../format.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';

const speeds = [0.001, 0.01, 0.1, 1, 10, 100] as const;

export function PlaybackBar() {
  return (
    <div className="playback-bar">
      <PlaybackControls />
      <StatusReadout />
    </div>
  );
}

function PlaybackControls() {
  const actions = useSimActions();
  const { mode, pending, idle, speed } = useSim(useShallow(({ status }) => ({
    mode: status.mode, pending: status.pending, idle: status.idle, speed: status.speed,
  })));
  const atStart = useSim((state) => (state.timeline?.position ?? 0) === 0);
  const options = speeds.includes(speed as (typeof speeds)[number]) ? speeds : [...speeds, speed].sort((x, y) => x - y);
  return (
    <div className="playback-controls" role="toolbar" aria-label="Playback">
      <button type="button" onClick={() => actions.stepBack()} disabled={atStart} aria-keyshortcuts="ArrowLeft" title="Show the previous step (←)">
        Step back
      </button>
      <button type="button" onClick={() => actions.step()} disabled={pending === 0} aria-keyshortcuts="ArrowRight" title="Deliver the next message (→)">
        Step
      </button>
      <button type="button" className="play-button" onClick={actions.togglePlay} aria-keyshortcuts="Space" title="Play or pause (space)">
        {mode === 'playing' ? 'Pause' : 'Play'}
      </button>
      <button type="button" onClick={actions.runUntilIdle} disabled={idle}>
        Run until idle
      </button>
      <label className="speed">
        Speed
        <select value={speed} onChange={(event) => actions.setSpeed(Number(event.target.value))}>
          {options.map((option) => <option key={option} value={option}>{formatSpeed(option)}</option>)}
        </select>
      </label>
      <button type="button" onClick={() => actions.reset()} title="Build the cluster again from the same seed">
        Reset
      </button>
    </div>
  );
}

function StatusReadout() {
  const { step, now, pending, idle, mode } = useSim((state) => state.status);
  const activity = mode === 'playing' ? 'playing' : mode === 'runningUntilIdle' ? 'running' : idle ? 'idle' : 'paused';
  return (
    <dl className="readout" aria-label="Simulation status">
      <div><dt>Step</dt><dd data-testid="step-counter">{step}</dd></div>
      <div><dt>Virtual time</dt><dd data-testid="virtual-time">{formatVirtualTime(now)}</dd></div>
      <div><dt>Pending</dt><dd data-testid="pending-count">{pending}</dd></div>
      <div><dt>State</dt><dd data-testid="activity">{activity}</dd></div>
    </dl>
  );
}
