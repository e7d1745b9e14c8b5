// The timeline: a scrubber over every step from 0 to the head, with the story's milestones above it as
// labelled markers (failures red; the full sentence as the hover title), markers where the user acted
// (and where errors and forks happened), the position the view shows, and a way back to the live head.
// Moving the scrubber, or clicking a marker, seeks (the worker serves past steps from its records); a
// user action at a past position forks the timeline there (the worker says so with a `fork` marker).

import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Milestone, TimelineMarker } from '../../protocol/index.ts';
import type { Language } from '../captions/captions.ts';
import { usePrefs } from '../store/prefs.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import type { SimActions } from '../store/sim-store.ts';
import { SnapshotLane, useSimSnapshot } from '../store/snapshot.ts';
import { milestoneIndexAt } from '../story/story.ts';
import { milestoneWords } from '../story/texts.ts';
import { visibleMarkers } from './timeline-markers.ts';
import { layoutMilestoneMarks, type MilestoneMark } from './timeline-milestones.ts';
import './controls.css';

export function Timeline() {
  const { t } = useTranslation('controls');
  const actions = useSimActions();
  const timeline = useSim((state) => state.timeline);
  const hasMilestones = useSim((state) => state.milestones.length > 0);
  if (!timeline) return <div className="timeline" aria-hidden="true" />;
  const { position, head, live, markers } = timeline;
  return (
    <div className="timeline" role="group" aria-label={t('timeline.label')}>
      <div className={`timeline-track${hasMilestones ? ' has-milestones' : ''}`}>
        <SnapshotLane.Provider value="timeline"><MilestoneMarkers /></SnapshotLane.Provider>
        <input
          type="range"
          className="timeline-scrubber"
          aria-label={t('timeline.scrubber')}
          aria-valuetext={t(live ? 'timeline.valueLive' : 'timeline.value', { position, head })}
          min={0}
          max={Math.max(head, 1)}
          step={1}
          value={position}
          onChange={(event) => actions.seek(Number(event.target.value))}
        />
        <div className="timeline-markers" style={{ '--timeline-head': Math.max(head, 1) } as React.CSSProperties}>
          {visibleMarkers(markers).map((marker) => <Marker key={`${marker.kind}-${marker.step}-${marker.label}`} marker={marker} />)}
        </div>
      </div>
      <p className="timeline-position" data-testid="timeline-position" data-step={position}>
        {t(live ? 'timeline.positionLive' : 'timeline.position', { position, head })}
      </p>
      <button type="button" onClick={() => actions.seek(head)} disabled={live} title={t('timeline.liveHint')}>
        {t('timeline.live')}
      </button>
    </div>
  );
}

/**
 * A marker placed at its step over the head (the row's `--timeline-head`, clamped to the track as
 * `markerPercent` clamps), so the head moving on every update while playing re-renders no marker.
 */
const Marker = memo(function Marker({ marker }: { readonly marker: TimelineMarker }) {
  const { t } = useTranslation('controls');
  const actions = useSimActions();
  const vars = { step: marker.step, label: marker.label };
  return (
    <button
      type="button"
      tabIndex={-1}
      className={`timeline-marker timeline-marker--${marker.kind}`}
      style={{ left: `clamp(0%, calc(${marker.step} * 100% / var(--timeline-head)), 100%)` }}
      title={t('timeline.markerTitle', vars)}
      aria-label={t('timeline.markerGo', vars)}
      data-testid="timeline-marker"
      data-kind={marker.kind}
      onClick={() => actions.seek(marker.step)}
    />
  );
});

/** The track's width in pixels, followed as the page resizes. */
function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

// Memoised (no props): the scrubber re-renders on every worker update while playing, the markers only
// when the panels' snapshot they read moves.
const MilestoneMarkers = memo(function MilestoneMarkers() {
  const { t } = useTranslation('controls');
  const actions = useSimActions();
  // From the panels' snapshot: while playing, hundreds of milestones a second would otherwise lay out
  // and re-render the markers on every update; paused, it is the step shown.
  const milestones = useSimSnapshot((state) => state.milestones);
  const head = useSimSnapshot((state) => state.timeline?.head ?? 0);
  const position = useSimSnapshot((state) => state.timeline?.position ?? 0);
  const language = usePrefs((prefs) => prefs.language);
  const [ref, width] = useWidth();
  const currentIndex = milestoneIndexAt(milestones, position);
  const currentStep = currentIndex < 0 ? null : milestones[currentIndex]!.step;
  const marks = useMemo(
    () => (width > 0 ? layoutMilestoneMarks(milestones, head, width, (m) => milestoneWords(m, language).short, currentStep) : []),
    [milestones, head, width, language, currentStep],
  );
  // Each marker is placed at its step over the head (a CSS variable of the row) and keeps its key and place
  // as the head grows (timeline-milestones.ts): the head moving re-renders only the markers whose
  // milestone, label or current state changed, not every marker on the track.
  const style = { '--timeline-head': Math.max(head, 1) } as React.CSSProperties;
  return (
    <div className="timeline-milestones" ref={ref} role="group" aria-label={t('timeline.milestones')} data-testid="timeline-milestones" style={style}>
      {marks.map((mark) => (
        <MilestoneMarker
          key={mark.key}
          milestone={mark.milestone}
          at={mark.at}
          failure={mark.failure}
          labelled={mark.labelled}
          anchor={mark.anchor}
          current={mark.milestone.step === currentStep}
          language={language}
          t={t}
          actions={actions}
        />
      ))}
    </div>
  );
});

type MilestoneMarkerProps = Pick<MilestoneMark<Milestone>, 'milestone' | 'at' | 'failure' | 'labelled' | 'anchor'> & {
  readonly current: boolean;
  // From the row (the same for every marker, changing only with the language): a marker mounted as the
  // head grows then costs no hooks of its own (react-i18next copies its i18n instance for each new user).
  readonly language: Language;
  readonly t: TFunction<'controls'>;
  readonly actions: SimActions;
};

const MilestoneMarker = memo(function MilestoneMarker({ milestone, at, failure, labelled, anchor, current, language, t, actions }: MilestoneMarkerProps) {
  const words = milestoneWords(milestone, language);
  const classes = `timeline-milestone${failure ? ' timeline-milestone--failure' : ''}${anchor === 'left' ? ' timeline-milestone--left' : ''}`;
  // The current milestone's label may lie over other markers: it is drawn beneath them and lets clicks
  // through to them; other labels fit before the next marker and are part of their button.
  const inline = labelled && !current;
  const left = { left: `calc(${at} * 100% / var(--timeline-head))` };
  return (
    <>
      {labelled && current && (
        <span className={`${classes} timeline-milestone-current`} style={left} aria-hidden="true" data-testid="timeline-current-label">
          {words.short}
        </span>
      )}
      <button
        type="button"
        tabIndex={-1}
        className={`${classes}${inline ? '' : ' timeline-milestone--dot'}`}
        style={left}
        title={words.title}
        aria-label={t('timeline.milestoneGo', { step: milestone.step, title: words.title })}
        aria-current={current ? 'step' : undefined}
        data-testid="timeline-milestone"
        data-step={milestone.step}
        data-kind={milestone.kind}
        data-failure={failure}
        onClick={() => actions.seek(milestone.step)}
      >
        {inline ? words.short : null}
      </button>
    </>
  );
});
