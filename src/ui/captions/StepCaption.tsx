// The caption of the selected message, or else of the last delivered step, in the chosen language (the
// language switch is the page's, in the header).

import { useTranslation } from 'react-i18next';
import type { Flight, TraceRecord } from '../../protocol/index.ts';
import type { SimState } from '../store/sim-store.ts';
import { heldMessage, recentById } from '../panels/why.ts';
import { usePrefs } from '../store/prefs.ts';
import { awaitsPayload, useWholePayloads } from '../store/payloads.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { caption, describeStep, type Language, type StepText } from './captions.ts';
import './captions.css';

function shownRecord(state: SimState): TraceRecord | Flight | undefined {
  const { selection, recent } = state;
  if (selection?.type === 'message') return heldMessage(state, selection.id);
  return recent.at(-1);
}

/**
 * The request `record` answers and the message that caused it, when the UI holds them whole. Light ones
 * (a seek's older deliveries) are asked for here, and read once they come.
 */
function useContext(record: Omit<TraceRecord, 'step'> | undefined) {
  const request = useSim((state) => (record?.replyTo == null ? undefined : recentById(state.recent).get(record.replyTo)));
  const cause = useSim((state) => (record?.cause == null ? undefined : recentById(state.recent).get(record.cause)));
  useWholePayloads([record, request, cause]);
  return { request: awaitsPayload(request) ? undefined : request, cause: awaitsPayload(cause) ? undefined : cause };
}

/** What a light record's caption says until its whole payload comes: its route and kind. */
function pendingText(record: Omit<TraceRecord, 'step'>): StepText {
  return { plain: '…', technical: `${record.from} → ${record.to}: ${record.kind}` };
}

/** The technical caption of `record` (one line), with the request it answers as context when the UI still holds it. */
export function useCaption(record: Omit<TraceRecord, 'step'> | undefined): string {
  const language = usePrefs((prefs) => prefs.language);
  const context = useContext(record);
  if (!record) return '';
  return awaitsPayload(record) ? pendingText(record).technical : caption(record, language, context);
}

/** Both lines of `record`'s caption: plain words first, the exact wire line second. */
export function useStepText(record: Omit<TraceRecord, 'step'> | undefined): StepText | undefined {
  const language = usePrefs((prefs) => prefs.language);
  const context = useContext(record);
  if (!record) return undefined;
  return awaitsPayload(record) ? pendingText(record) : describeStep(record, language, context);
}

/** The plain sentence first (what happened and why), the exact wire line beneath it in monospace. */
export function StepCaption() {
  const { t } = useTranslation('captions');
  const record = useSim(shownRecord);
  const playing = useSim((state) => state.status.mode !== 'paused');
  const text = useStepText(record);
  const language: Language = usePrefs((prefs) => prefs.language);
  const bootSteps = useSim((state) => state.timeline?.bootSteps ?? 0);
  return (
    <div className="step-caption-bar">
      <div className="step-caption" data-testid="step-caption" aria-live={playing ? 'off' : 'polite'} lang={language === 'zh' ? 'zh-Hans' : 'en'}>
        {record && text ? (
          <>
            <p className="step-caption-plain" data-testid="step-caption-plain" title={text.plain}>
              <span className="caption-step">{record.step === null ? t('inFlight') : t('stepNumber', { step: record.step })}</span> {text.plain}
            </p>
            <p className="step-caption-technical" data-testid="step-caption-technical" title={text.technical}>
              {text.technical}
            </p>
          </>
        ) : (
          <p className="step-caption-plain hint">{bootSteps === 0 ? t('noStep') : t('booted', { steps: bootSteps })}</p>
        )}
      </div>
      <WhyButton record={record} />
    </div>
  );
}

/** Asks for the cause chain of the step on show. */
function WhyButton({ record }: { readonly record: TraceRecord | Flight | undefined }) {
  const actions = useSimActions();
  const { t } = useTranslation('captions');
  return (
    <button type="button" disabled={!record || record.step === null} aria-label={t('whyLabel')} onClick={() => {
      if (!record) return;
      actions.select({ type: 'message', id: record.id });
      actions.askWhy(record.id);
    }}>
      {t('why')}
    </button>
  );
}
