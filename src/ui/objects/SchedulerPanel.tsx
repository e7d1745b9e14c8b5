// kube-scheduler's record of each scheduling attempt: for every node it examined (all of them below 100 nodes; see schedule-one.ts), each filter plugin's verdict
// (with its reasons) and, for feasible nodes, each score plugin's raw and normalised score and weight,
// then the node chosen (or the FailedScheduling message). The worker lists the newest attempts (filtered
// by pod name) and sends the chosen one in full, so the panel costs the same at 3 Pods as at 150,000; its
// table draws the rows in view only (an attempt at 5,000 nodes examines hundreds). "Show on the graph" centres
// the graph on the chosen node's kubelet (found-node.ts): at 5,000 nodes it lies far from the control plane.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { SchedulerAttempt, SchedulerAttemptSummary } from '../../protocol/index.ts';
import { formatVirtualTime } from '../format.ts';
import { goToNode } from '../graph/found-node.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { useInspection } from './use-inspection.ts';

export function SchedulerPanel() {
  const { t } = useTranslation('objects');
  const [pod, setPod] = useState('');
  const [chosen, setChosen] = useState<number | null>(null);
  const view = useSimSnapshot((state) => state.inspection?.scheduler);
  // The attempt held in full is named, so that an answer while it is still the one shown does not carry it again.
  const held = view?.detail?.seq;
  useInspection('scheduler', 250, { scheduler: { pod, ...(chosen !== null ? { seq: chosen } : {}), ...(held !== undefined ? { held } : {}) } });
  if (view === undefined) return <p className="hint panel-empty" role="status">{t('scheduler.loading')}</p>;
  if (view === null) return <p className="hint panel-empty">{t('scheduler.none')}</p>;
  if (view.made === 0) return <p className="hint panel-empty" data-testid="scheduler-empty">{t('scheduler.empty')}</p>;
  const attempt = view.detail;
  // The attempt shown stays listed even when newer ones pushed it past the list's end.
  const listed: readonly SchedulerAttemptSummary[] = attempt && !view.attempts.some((a) => a.seq === attempt.seq) ? [...view.attempts, attempt] : view.attempts;
  return (
    <section className="scheduler" aria-label={t('scheduler.label')} data-testid="scheduler">
      <div className="objects-toolbar">
        <input
          className="key-filter" type="search" aria-label={t('scheduler.filter')} placeholder={t('scheduler.filterPlaceholder')} value={pod}
          onChange={(event) => { setPod(event.target.value); setChosen(null); }}
        />
        {attempt && (
          <label className="attempt-picker">
            {t('scheduler.attempt')}
            <select value={attempt.seq} onChange={(event) => setChosen(Number(event.target.value))}>
              {listed.map((a) => <option key={a.seq} value={a.seq}>{a.pod} #{a.attempt} → {a.selected ?? t('scheduler.unschedulable')}</option>)}
            </select>
          </label>
        )}
      </div>
      <p className="hint attempt-outcome">
        {attempt && <span data-testid="attempt-outcome">{outcomeText(t, attempt)}</span>}
        {attempt?.selected && (
          <button type="button" className="link-button" data-testid="show-node" onClick={() => goToNode(`kubelet/${attempt.selected!}`)}>
            {t('scheduler.showNode', { node: attempt.selected })}
          </button>
        )}
        <span className="attempt-counts" data-testid="scheduler-counts">
          {[
            t('scheduler.matching', { count: view.matching }),
            ...(view.matching > view.attempts.length ? [t('scheduler.listedNewest', { count: view.attempts.length })] : []),
            ...(view.dropped > 0 ? [t('scheduler.dropped', { count: view.dropped })] : []),
          ].join(' · ')}
        </span>
      </p>
      {attempt ? <AttemptTable attempt={attempt} /> : <p className="hint panel-empty" data-testid="scheduler-no-match">{t('scheduler.noMatch', { pod: view.pod })}</p>}
    </section>
  );
}

/** What came of an attempt: bound, chosen and binding, or why no node fits. */
function outcomeText(t: TFunction<'objects'>, attempt: SchedulerAttempt): string {
  const when = formatVirtualTime(attempt.time);
  if (attempt.bound) return `${when}: ${t('scheduler.bound', { node: attempt.selected })}`;
  if (attempt.selected) return `${when}: ${t('scheduler.chose', { node: attempt.selected, message: attempt.message || t('scheduler.binding') })}`;
  return `${when}: ${attempt.message}`;
}

/** A row's height before it is measured (one line of 11 px text in the objects table). */
const estimatedRowHeight = 21;

function AttemptTable({ attempt }: { readonly attempt: SchedulerAttempt }) {
  const { t } = useTranslation('objects');
  const scroller = useRef<HTMLDivElement>(null);
  // Once per attempt, not at each answer: the panel re-renders every 250 ms while playing, and an attempt at
  // 5,000 nodes has tens of thousands of verdicts.
  const filterPlugins = useMemo(() => [...new Set(attempt.nodes.flatMap((n) => n.filters.map((f) => f.plugin)))], [attempt]);
  const scorePlugins = useMemo(() => [...new Set(attempt.nodes.flatMap((n) => n.scores.map((s) => s.plugin)))], [attempt]);
  // Made once per attempt: a key function made anew at each render lays out every row again.
  const rowKey = useCallback((index: number) => attempt.nodes[index]!.node, [attempt]);
  // eslint-disable-next-line react-hooks/incompatible-library -- rows render from the virtualizer's state on every scroll; nothing below memoises its functions
  const virtualizer = useVirtualizer({
    count: attempt.nodes.length, getScrollElement: () => scroller.current, estimateSize: () => estimatedRowHeight, overscan: 12,
    getItemKey: rowKey,
  });
  const items = virtualizer.getVirtualItems();
  // Spacer rows above and below the drawn ones keep the scroll height of the whole table.
  const above = items[0]?.start ?? 0;
  const below = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const width = filterPlugins.length + scorePlugins.length + 2;
  return (
    <div className="objects-scroller" ref={scroller} tabIndex={0}>
      <table className="objects-table scheduler-table" aria-label={t('scheduler.table', { pod: attempt.pod })} aria-rowcount={attempt.nodes.length + 2}>
        <thead>
          {/* A plugin may both filter and score (TaintToleration, NodeAffinity): the first row names the phase. */}
          <tr aria-rowindex={1}>
            <th scope="col" rowSpan={2}>{t('scheduler.node')}</th>
            {filterPlugins.length > 0 ? <th scope="colgroup" colSpan={filterPlugins.length} data-testid="scheduler-phase">{t('scheduler.filterPhase')}</th> : null}
            {scorePlugins.length > 0 ? <th scope="colgroup" colSpan={scorePlugins.length} data-testid="scheduler-phase">{t('scheduler.scorePhase')}</th> : null}
            <th scope="col" rowSpan={2}>{t('scheduler.score')}</th>
          </tr>
          <tr aria-rowindex={2}>
            {filterPlugins.map((p) => <th key={`f-${p}`} scope="col" title={t('scheduler.filterPlugin')}>{p}</th>)}
            {scorePlugins.map((p) => <th key={`s-${p}`} scope="col" title={t('scheduler.scorePlugin')}>{p}</th>)}
          </tr>
        </thead>
        <tbody>
          {above > 0 ? <tr className="objects-spacer" aria-hidden="true"><td colSpan={width} style={{ height: above }} /></tr> : null}
          {items.map((item) => {
            const n = attempt.nodes[item.index]!;
            return (
              <tr
                key={item.key} ref={virtualizer.measureElement} data-index={item.index} aria-rowindex={item.index + 3}
                data-testid="scheduler-node" data-node={n.node} className={n.node === attempt.selected ? 'object-row--selected' : undefined}
              >
                <th scope="row">{n.node}{n.node === attempt.selected ? ' ✓' : ''}</th>
                {filterPlugins.map((p) => {
                  const f = n.filters.find((x) => x.plugin === p);
                  return <td key={`f-${p}`} className={f && !f.pass ? 'unavailable' : undefined} title={f?.reasons.join('; ')}>{f ? (f.pass ? t('scheduler.pass') : t('scheduler.fail', { reasons: f.reasons.join('; ') })) : '—'}</td>;
                })}
                {scorePlugins.map((p) => {
                  const s = n.scores.find((x) => x.plugin === p);
                  return <td key={`s-${p}`}>{s ? `${s.normalized} × ${s.weight} (${s.raw})` : '—'}</td>;
                })}
                <td data-testid="scheduler-final-score">{n.finalScore ?? (n.feasible ? '—' : t('scheduler.infeasible'))}</td>
              </tr>
            );
          })}
          {below > 0 ? <tr className="objects-spacer" aria-hidden="true"><td colSpan={width} style={{ height: below }} /></tr> : null}
        </tbody>
      </table>
    </div>
  );
}
