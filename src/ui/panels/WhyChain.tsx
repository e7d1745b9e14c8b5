// "Why?" as a causal tree: the chain of causes of the selected message, or else of the step shown, from
// the user's action (or the timer that started it) to that step. Milestones come first, in plain words;
// between two of them a closed row holds the requests and deliveries that led from one to the next.
// Every entry names its step (the timeline's numbers) and moves the timeline there. The tree follows the
// playhead and the selection: it asks the worker again when either moves to a step outside the chain
// on show.

import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TraceRecord } from '../../protocol/index.ts';
import { useSimActions, useSimStore } from '../store/sim-context.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { useMilestoneWords, useStepWords } from '../story/useWords.ts';
import { countByLevel, rootKind, whyNeedsAsking, whyTarget, whyTree, type WhyNode } from './why.ts';

/**
 * Keeps an open tree on the message Why? explains (the selection, else the step shown) as either moves.
 * Only a move asks again: a tree opened for another message (an object's "Why this version?") stays
 * until the playhead or the selection moves.
 */
function useFollow(): void {
  const actions = useSimActions();
  const store = useSimStore();
  const target = useSimSnapshot(whyTarget);
  const selected = useSimSnapshot((state) => state.selection?.type === 'message');
  const last = useRef(target);
  useEffect(() => {
    if (target === last.current) return;
    last.current = target;
    if (whyNeedsAsking(store.getState().why, target, selected)) actions.askWhy(target);
  }, [actions, store, target, selected]);
}

export function WhyChain() {
  const { t } = useTranslation('story');
  const why = useSimSnapshot((state) => state.why);
  const position = useSimSnapshot((state) => state.timeline?.position ?? null);
  const actions = useSimActions();
  useFollow();
  if (!why) return null;
  const answer = why.answer;
  const asked = answer?.chain[0];
  const nodes = answer ? whyTree(answer.chain) : [];
  return (
    <section className="panel-section why" aria-labelledby="why-heading" data-testid="why-chain">
      <h2 id="why-heading">{t('whyTree.heading', { step: asked?.step ?? '…' })}</h2>
      {answer === null ? <p className="hint" role="status">{t('whyTree.loading')}</p> : (
        <>
          <p className="hint" data-testid="why-root">{t(`whyTree.root.${rootKind(answer.chain, answer.truncated)}`)}</p>
          <ol className="why-tree" aria-label={t('whyTree.tree')}>
            {nodes.map((node) => <WhyEntry key={node.record.id} node={node} position={position} />)}
          </ol>
        </>
      )}
      <button type="button" className="link-button" onClick={() => actions.askWhy(null)}>{t('whyTree.close')}</button>
    </section>
  );
}

function WhyEntry({ node, position }: { readonly node: WhyNode; readonly position: number | null }) {
  const { t } = useTranslation('story');
  const { requests, deliveries } = countByLevel(node.between);
  return (
    <>
      {node.between.length > 0 && (
        <li className="why-gap">
          <details>
            <summary data-testid="why-between">{t(requests === 0 ? 'whyTree.betweenDeliveries' : deliveries === 0 ? 'whyTree.betweenRequests' : 'whyTree.between', { requests, deliveries })}</summary>
            <ol className="why-between">
              {node.between.map((record) => <WhyLink key={record.id} record={record} position={position} nested />)}
            </ol>
          </details>
        </li>
      )}
      <WhyLink record={node.record} role={node.role} position={position} />
    </>
  );
}

function WhyLink({ record, role, position, nested = false }: {
  readonly record: TraceRecord;
  readonly role?: WhyNode['role'];
  readonly position: number | null;
  readonly nested?: boolean;
}) {
  const { t } = useTranslation('story');
  const actions = useSimActions();
  const step = useStepWords(record);
  const milestone = useMilestoneWords(record.milestone);
  const text = nested ? step?.technical ?? '' : milestone?.title ?? step?.plain ?? '';
  const current = record.step === position;
  return (
    <li className={nested ? 'why-delivery' : `why-node why-node--${role ?? 'asked'}`} data-level={record.level ?? 'internal'}>
      <button
        type="button"
        data-testid={nested ? 'why-delivery' : 'why-milestone'}
        data-message-id={record.id}
        data-step={record.step}
        data-from={record.from}
        data-role={role}
        data-kind={record.milestone?.kind}
        aria-current={current ? 'step' : undefined}
        aria-label={t('whyTree.go', { step: record.step, text })}
        onClick={() => actions.seek(record.step)}
      >
        <span className="why-step" data-testid="why-step">{t('whyTree.stepLabel', { step: record.step })}</span>
        <span className="why-text">{text}</span>
        {!nested && step && step.technical !== text && <span className="why-exact">{step.technical}</span>}
      </button>
    </li>
  );
}
