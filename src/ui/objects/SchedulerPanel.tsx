// kube-scheduler's record of each scheduling attempt: for every node, each filter plugin's verdict
// (with its reasons) and, for feasible nodes, each score plugin's raw and normalised score and weight,
// then the node chosen (or the FailedScheduling message). Newest attempt first.

import { useState } from 'react';
import type { SchedulerAttempt } from '../../protocol/index.ts';
import { formatVirtualTime } from '../format.ts';
import { useSim } from '../store/sim-context.ts';
import { useInspection } from './use-inspection.ts';

export function SchedulerPanel() {
  useInspection('scheduler');
  const attempts = useSim((state) => state.inspection?.scheduler);
  const [chosen, setChosen] = useState<number | null>(null);
  if (attempts === undefined) return <p className="hint panel-empty" role="status">Loading scheduling attempts…</p>;
  if (attempts === null) return <p className="hint panel-empty">This cluster runs no kube-scheduler.</p>;
  if (attempts.length === 0) return <p className="hint panel-empty" data-testid="scheduler-empty">No scheduling attempt yet: create a Deployment and step until its pods are scheduled.</p>;
  const index = chosen !== null && chosen < attempts.length ? chosen : attempts.length - 1;
  const attempt = attempts[index]!;
  return (
    <section className="scheduler" aria-label="Scheduling attempts" data-testid="scheduler">
      <div className="objects-toolbar">
        <label className="attempt-picker">
          Attempt
          <select value={index} onChange={(event) => setChosen(Number(event.target.value))}>
            {attempts.map((a, i) => <option key={i} value={i}>{a.pod} #{a.attempt} → {a.selected ?? 'unschedulable'}</option>).reverse()}
          </select>
        </label>
        <p className="hint" data-testid="attempt-outcome">
          {formatVirtualTime(attempt.time)}: {attempt.bound ? `bound to ${attempt.selected}` : attempt.selected ? `chose ${attempt.selected}; ${attempt.message || 'binding…'}` : attempt.message}
        </p>
      </div>
      <AttemptTable attempt={attempt} />
    </section>
  );
}

function AttemptTable({ attempt }: { readonly attempt: SchedulerAttempt }) {
  const filterPlugins = [...new Set(attempt.nodes.flatMap((n) => n.filters.map((f) => f.plugin)))];
  const scorePlugins = [...new Set(attempt.nodes.flatMap((n) => n.scores.map((s) => s.plugin)))];
  return (
    <div className="objects-scroller">
      <table className="objects-table scheduler-table" aria-label={`Filter and score per node for ${attempt.pod}`}>
        <thead>
          <tr>
            <th scope="col">Node</th>
            {filterPlugins.map((p) => <th key={`f-${p}`} scope="col" title="filter plugin">{p}</th>)}
            {scorePlugins.map((p) => <th key={`s-${p}`} scope="col" title="score plugin: normalised × weight (raw)">{p}</th>)}
            <th scope="col">Score</th>
          </tr>
        </thead>
        <tbody>
          {attempt.nodes.map((n) => (
            <tr key={n.node} data-testid="scheduler-node" data-node={n.node} className={n.node === attempt.selected ? 'object-row--selected' : undefined}>
              <th scope="row">{n.node}{n.node === attempt.selected ? ' ✓' : ''}</th>
              {filterPlugins.map((p) => {
                const f = n.filters.find((x) => x.plugin === p);
                return <td key={`f-${p}`} className={f && !f.pass ? 'unavailable' : undefined} title={f?.reasons.join('; ')}>{f ? (f.pass ? 'pass' : `fail: ${f.reasons.join('; ')}`) : '—'}</td>;
              })}
              {scorePlugins.map((p) => {
                const s = n.scores.find((x) => x.plugin === p);
                return <td key={`s-${p}`}>{s ? `${s.normalized} × ${s.weight} (${s.raw})` : '—'}</td>;
              })}
              <td data-testid="scheduler-final-score">{n.finalScore ?? (n.feasible ? '—' : 'infeasible')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
