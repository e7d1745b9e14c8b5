// kube-scheduler's record of each scheduling attempt: for every node it examined (all of them below 100 nodes; see schedule-one.ts), each filter plugin's verdict
// (with its reasons) and, for feasible nodes, each score plugin's raw and normalised score and weight,
// then the node chosen (or the FailedScheduling message). Newest attempt first.

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SchedulerAttempt } from '../../protocol/index.ts';
import { formatVirtualTime } from '../format.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { useInspection } from './use-inspection.ts';

export function SchedulerPanel() {
  const { t } = useTranslation('objects');
  useInspection('scheduler');
  const attempts = useSimSnapshot((state) => state.inspection?.scheduler);
  const [chosen, setChosen] = useState<number | null>(null);
  if (attempts === undefined) return <p className="hint panel-empty" role="status">{t('scheduler.loading')}</p>;
  if (attempts === null) return <p className="hint panel-empty">{t('scheduler.none')}</p>;
  if (attempts.length === 0) return <p className="hint panel-empty" data-testid="scheduler-empty">{t('scheduler.empty')}</p>;
  const index = chosen !== null && chosen < attempts.length ? chosen : attempts.length - 1;
  const attempt = attempts[index]!;
  return (
    <section className="scheduler" aria-label={t('scheduler.label')} data-testid="scheduler">
      <div className="objects-toolbar">
        <label className="attempt-picker">
          {t('scheduler.attempt')}
          <select value={index} onChange={(event) => setChosen(Number(event.target.value))}>
            {attempts.map((a, i) => <option key={i} value={i}>{a.pod} #{a.attempt} → {a.selected ?? t('scheduler.unschedulable')}</option>).reverse()}
          </select>
        </label>
        <p className="hint" data-testid="attempt-outcome">
          {formatVirtualTime(attempt.time)}: {attempt.bound ? t('scheduler.bound', { node: attempt.selected }) : attempt.selected ? t('scheduler.chose', { node: attempt.selected, message: attempt.message || t('scheduler.binding') }) : attempt.message}
        </p>
      </div>
      <AttemptTable attempt={attempt} />
    </section>
  );
}

function AttemptTable({ attempt }: { readonly attempt: SchedulerAttempt }) {
  const { t } = useTranslation('objects');
  const filterPlugins = [...new Set(attempt.nodes.flatMap((n) => n.filters.map((f) => f.plugin)))];
  const scorePlugins = [...new Set(attempt.nodes.flatMap((n) => n.scores.map((s) => s.plugin)))];
  return (
    <div className="objects-scroller" tabIndex={0}>
      <table className="objects-table scheduler-table" aria-label={t('scheduler.table', { pod: attempt.pod })}>
        <thead>
          <tr>
            <th scope="col">{t('scheduler.node')}</th>
            {filterPlugins.map((p) => <th key={`f-${p}`} scope="col" title={t('scheduler.filterPlugin')}>{p}</th>)}
            {scorePlugins.map((p) => <th key={`s-${p}`} scope="col" title={t('scheduler.scorePlugin')}>{p}</th>)}
            <th scope="col">{t('scheduler.score')}</th>
          </tr>
        </thead>
        <tbody>
          {attempt.nodes.map((n) => (
            <tr key={n.node} data-testid="scheduler-node" data-node={n.node} className={n.node === attempt.selected ? 'object-row--selected' : undefined}>
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
          ))}
        </tbody>
      </table>
    </div>
  );
}
