// The narrator (UX.md's STORY column): at the step shown, the milestone it belongs to (the newest at or
// before it) in plain words; then, when the step shown is not that milestone's own step, what this step
// did; then under "exact" the step's technical line as it went over the wire (the Txn with its compare,
// the watch event with its revision); and Why?, the causal tree of the step shown.

import { useTranslation } from 'react-i18next';
import type { TraceRecord } from '../../protocol/index.ts';
import { formatVirtualTime } from '../format.ts';
import { WhyChain } from '../panels/WhyChain.tsx';
import { usePrefs } from '../store/prefs.ts';
import { useSimActions } from '../store/sim-context.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import type { SimState } from '../store/sim-store.ts';
import { milestoneIndexAt } from './story.ts';
import { useMilestoneWords, useStepWords } from './useWords.ts';
import { failureMilestones } from '../../protocol/index.ts';
import './story.css';

/** The delivery of the step shown, when the page holds it. */
function shownRecord(state: SimState): TraceRecord | undefined {
  const last = state.recent.at(-1);
  const position = state.timeline?.position ?? state.status.step;
  return last !== undefined && last.step === position ? last : undefined;
}

export function StoryPanel() {
  const { t } = useTranslation('story');
  const language = usePrefs((prefs) => prefs.language);
  const position = useSimSnapshot((state) => state.timeline?.position ?? state.status.step);
  const bootSteps = useSimSnapshot((state) => state.timeline?.bootSteps ?? 0);
  const playing = useSimSnapshot((state) => state.status.mode !== 'paused');
  const count = useSimSnapshot((state) => state.milestones.length);
  const index = useSimSnapshot((state) => milestoneIndexAt(state.milestones, position));
  const milestone = useSimSnapshot((state) => (index < 0 ? undefined : state.milestones[index]));
  const record = useSimSnapshot(shownRecord);
  const words = useMilestoneWords(milestone);
  const step = useStepWords(record);
  const whyOpen = useSimSnapshot((state) => state.why !== null);
  const nothingAhead = useSimSnapshot((state) => state.status.nothingAhead);
  const actions = useSimActions();
  const lang = language === 'zh' ? 'zh-Hans' : 'en';
  const failure = milestone !== undefined && failureMilestones.has(milestone.kind);
  return (
    <section className="panel-section story-panel" aria-labelledby="story-heading" data-testid="story-panel" lang={lang} tabIndex={0}>
      <h2 id="story-heading">{t('panel')}</h2>
      <div aria-live={playing ? 'off' : 'polite'} className="story-live">
        <p className="story-step" data-testid="story-step" data-step={position}>
          {t('stepOf', { step: position })}
          {milestone && <> · {t('milestoneOf', { index: index + 1, count })}</>}
        </p>
        {milestone && words ? (
          <p className={`story-milestone${failure ? ' story-milestone--failure' : ''}`} data-testid="story-milestone"
            data-kind={milestone.kind} data-step={milestone.step} data-failure={failure}>
            {failure && <span className="story-failure">{t('failure')}: </span>}
            {words.title}
          </p>
        ) : (
          <p className="hint" data-testid="story-milestone-none">{position > 0 && position <= bootSteps && count === 0 ? `${t('booted')} ` : ''}{t('noMilestone')}</p>
        )}
        {nothingAhead && (
          <p className="hint" data-testid="story-nothing-ahead" data-level={nothingAhead.level}>
            {t(`nothingAhead.${nothingAhead.level}`, { steps: nothingAhead.steps.toLocaleString(language === 'zh' ? 'zh-CN' : 'en'), time: formatVirtualTime(nothingAhead.virtualMs) })}
          </p>
        )}
        {record && step && record.step !== milestone?.step && (
          <p className="story-now" data-testid="story-now"><span className="story-label">{t('now')}:</span> {step.plain}</p>
        )}
        {record && step && (
          <div className="story-exact">
            <h3>{t('exact')}</h3>
            <p data-testid="story-exact" data-step={record.step}><code>{step.technical}</code></p>
          </div>
        )}
      </div>
      <div className="story-actions">
        <button type="button" aria-pressed={whyOpen} disabled={!record && !whyOpen} title={t('whyHint')}
          onClick={() => actions.askWhy(whyOpen || !record ? null : record.id)}>
          {t('why')}
        </button>
      </div>
      <WhyChain />
    </section>
  );
}
