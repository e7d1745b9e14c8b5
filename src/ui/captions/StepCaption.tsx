// The caption of the selected message, or else of the last delivered step, in the chosen language; and
// the language switch.

import type { TraceRecord } from '../../protocol/index.ts';
import { useSim } from '../store/sim-context.ts';
import type { SimState } from '../store/sim-store.ts';
import { usePrefs } from '../store/prefs.ts';
import { caption, type Language } from './captions.ts';

function shownRecord(state: SimState): TraceRecord | undefined {
  const { selection, recent } = state;
  if (selection?.type === 'message') return recent.find((r) => r.id === selection.id);
  return recent.at(-1);
}

/** The caption of `record`, with the request it answers as context when the UI still holds it. */
export function useCaption(record: TraceRecord | undefined): string {
  const language = usePrefs((prefs) => prefs.language);
  const request = useSim((state) => (record?.replyTo == null ? undefined : state.recent.find((r) => r.id === record.replyTo)));
  return record ? caption(record, language, { request }) : '';
}

export function StepCaption() {
  const record = useSim(shownRecord);
  const playing = useSim((state) => state.status.mode !== 'paused');
  const text = useCaption(record);
  const language = usePrefs((prefs) => prefs.language);
  return (
    <div className="step-caption-bar">
      <p className="step-caption" data-testid="step-caption" title={text} aria-live={playing ? 'off' : 'polite'} lang={language === 'zh' ? 'zh-Hans' : 'en'}>
        {record ? <><span className="caption-step">#{record.step}</span> {text}</> : <span className="hint">{language === 'zh' ? '还没有投递任何消息。' : 'No step delivered yet.'}</span>}
      </p>
      <LanguageSwitch />
    </div>
  );
}

const labels: ReadonlyArray<{ readonly language: Language; readonly label: string; readonly lang: string }> = [
  { language: 'en', label: 'English', lang: 'en' },
  { language: 'zh', label: '中文', lang: 'zh-Hans' },
];

function LanguageSwitch() {
  const language = usePrefs((prefs) => prefs.language);
  const setLanguage = usePrefs((prefs) => prefs.setLanguage);
  return (
    <div className="language-switch" role="group" aria-label="Caption language">
      {labels.map((l) => (
        <button key={l.language} type="button" lang={l.lang} aria-pressed={language === l.language} onClick={() => setLanguage(l.language)}>
          {l.label}
        </button>
      ))}
    </div>
  );
}
