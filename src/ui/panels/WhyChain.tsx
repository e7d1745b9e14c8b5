// "Why?": the chain of causes of one step, from the user's action (or the timer that started it) down
// to the step asked about. Every link is a button that selects that message (its caption and payload
// show, its keys light up), with a second one that moves the timeline to that step.

import type { TraceRecord } from '../../protocol/index.ts';
import { useCaption } from '../captions/StepCaption.tsx';
import { usePrefs } from '../store/prefs.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { rootKind, storyOrder } from './why.ts';

export function WhyChain() {
  const why = useSim((state) => state.why);
  const actions = useSimActions();
  const zh = usePrefs((prefs) => prefs.language) === 'zh';
  if (!why) return null;
  const answer = why.answer;
  return (
    <section className="panel-section why" aria-labelledby="why-heading" data-testid="why-chain">
      <h2 id="why-heading">{zh ? `为什么？消息 ${why.id} 的因果链` : `Why? The causes of message ${why.id}`}</h2>
      {answer === null ? <p className="hint" role="status">{zh ? '加载中…' : 'Loading…'}</p> : (
        <>
          <p className="hint" data-testid="why-root">{rootText(rootKind(answer.chain, answer.truncated), zh)}</p>
          <ol className="message-list why-list">
            {storyOrder(answer.chain).map((record) => <WhyLink key={record.id} record={record} current={record.id === why.id} />)}
          </ol>
        </>
      )}
      <button type="button" className="link-button" onClick={() => actions.askWhy(null)}>{zh ? '关闭因果链' : 'Close the chain'}</button>
    </section>
  );
}

function rootText(root: ReturnType<typeof rootKind>, zh: boolean): string {
  switch (root) {
    case 'user': return zh ? '起点是用户的操作。' : 'It starts with the user\'s action.';
    case 'timer': return zh ? '起点是组件自己的定时器。' : 'It starts with a component\'s own timer.';
    case 'start-up': return zh ? '起点是集群启动。' : 'It starts at cluster start-up.';
    case 'truncated': return zh ? '更早的原因已不在保留的记录中。' : 'Older causes are no longer kept in the trace.';
  }
}

function WhyLink({ record, current }: { readonly record: TraceRecord; readonly current: boolean }) {
  const actions = useSimActions();
  const selected = useSim((state) => state.selection?.type === 'message' && state.selection.id === record.id);
  const text = useCaption(record);
  const zh = usePrefs((prefs) => prefs.language) === 'zh';
  return (
    <li>
      <button type="button" data-testid="why-link" data-message-id={record.id} data-from={record.from} aria-current={current ? 'step' : undefined} aria-pressed={selected} onClick={() => actions.select({ type: 'message', id: record.id })}>
        <span className="message-step">#{record.step}</span>
        <span className="message-kind">{record.kind}</span>
        <span className="message-route">{record.from} → {record.to}</span>
        <span className="message-caption">{text}</span>
      </button>
      <button type="button" className="link-button why-seek" data-testid="why-seek"
        aria-label={seekLabel(record.step, zh)} title={seekLabel(record.step, zh)} onClick={() => actions.seek(record.step)}>
        ⏮
      </button>
    </li>
  );
}

function seekLabel(step: number, zh: boolean): string {
  return zh ? `时间线跳到第 ${step} 步` : `Go to step ${step} on the timeline`;
}
