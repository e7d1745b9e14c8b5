// The caption of the selected message, or else of the last delivered step, in the chosen language (the
// language switch is the page's, in the header).

import type { Flight, TraceRecord } from '../../protocol/index.ts';
import type { SimState } from '../store/sim-store.ts';
import { heldMessage, recentById } from '../panels/why.ts';
import { usePrefs } from '../store/prefs.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { caption, type Language } from './captions.ts';

function shownRecord(state: SimState): TraceRecord | Flight | undefined {
  const { selection, recent } = state;
  if (selection?.type === 'message') return heldMessage(state, selection.id);
  return recent.at(-1);
}

/** The caption of `record`, with the request it answers as context when the UI still holds it. */
export function useCaption(record: Omit<TraceRecord, 'step'> | undefined): string {
  const language = usePrefs((prefs) => prefs.language);
  const request = useSim((state) => (record?.replyTo == null ? undefined : recentById(state.recent).get(record.replyTo)));
  return record ? caption(record, language, { request }) : '';
}

export function StepCaption() {
  const record = useSim(shownRecord);
  const playing = useSim((state) => state.status.mode !== 'paused');
  const text = useCaption(record);
  const language = usePrefs((prefs) => prefs.language);
  const bootSteps = useSim((state) => state.timeline?.bootSteps ?? 0);
  return (
    <div className="step-caption-bar">
      <p className="step-caption" data-testid="step-caption" title={text} aria-live={playing ? 'off' : 'polite'} lang={language === 'zh' ? 'zh-Hans' : 'en'}>
        {record ? <><span className="caption-step">{record.step === null ? 'in flight' : `#${record.step}`}</span> {text}</> : <span className="hint">{idleHint(language, bootSteps)}</span>}
      </p>
      <WhyButton record={record} />
    </div>
  );
}

/** What the caption bar says before any step is on show: how the cluster booted, and what to do next. */
function idleHint(language: Language, bootSteps: number): string {
  if (bootSteps === 0) return language === 'zh' ? '还没有投递任何消息。' : 'No step delivered yet.';
  return language === 'zh'
    ? `集群启动用了 ${bootSteps} 步（引导命名空间与 RBAC、kubelet 注册节点、各 informer 的 list 与 watch）。发送一个请求，然后单步执行。`
    : `The cluster booted in ${bootSteps} steps (bootstrap namespaces and RBAC, kubelets registering their nodes, every informer's list and watch). Send a request, then step.`;
}

/** Asks for the cause chain of the step on show. */
function WhyButton({ record }: { readonly record: TraceRecord | Flight | undefined }) {
  const actions = useSimActions();
  const zh = usePrefs((prefs) => prefs.language) === 'zh';
  return (
    <button type="button" disabled={!record || record.step === null} aria-label={zh ? '为什么？显示这一步的因果链' : 'Why? Show the causes of this step'} onClick={() => {
      if (!record) return;
      actions.select({ type: 'message', id: record.id });
      actions.askWhy(record.id);
    }}>
      {zh ? '为什么？' : 'Why?'}
    </button>
  );
}
