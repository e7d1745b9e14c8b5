// The request logs: kubectl's request lines (as `-v=6` prints them), etcd 3.4's "request stats" debug
// lines for every RPC it served, and kube-apiserver's audit events (RequestReceived / ResponseComplete
// with user, verb, resource and code). Filters: by source, by key or path prefix, by RPC or verb, and
// expensive etcd requests only (large responses, flagged).

import { memo, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogLine, LogSource } from '../../protocol/index.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { auditSummary, filterLogs, rpcsOf } from './log-filter.ts';

const shownLimit = 400;
const sources: readonly LogSource[] = ['kubectl', 'etcd', 'audit'];

// Memoised: lines never change, and an audit line's summary parses its JSON.
const Line = memo(function Line({ line }: { line: LogLine }) {
  const { t } = useTranslation('logs');
  const summary = line.source === 'audit' ? auditSummary(line.text) : null;
  return (
    <li className={`log-line log-${line.source}`} data-testid="log-line" data-source={line.source} data-rpc={line.rpc} data-expensive={line.expensive ? 'true' : undefined}>
      <span className="log-step">#{line.step}</span>
      <span className="log-source">{line.source}</span>
      {line.expensive && <span className="badge expensive" title={t('expensiveHint')}>{t('expensive')}</span>}
      {summary ? <code title={line.text}>{summary}</code> : <code>{line.text}</code>}
    </li>
  );
});

export function LogsPanel() {
  const { t } = useTranslation('logs');
  const { showLogs } = useSimActions();
  // Mounted while shown: the dock hides the panel in an <Activity>, which runs effects' cleanups on hiding.
  // The worker ships log lines only while the panel is shown, and on showing it what it kept meanwhile.
  useEffect(() => {
    showLogs(true);
    return () => showLogs(false);
  }, [showLogs]);
  const logs = useSim((s) => s.activity.logs);
  const omitted = useSim((s) => s.activity.logsOmitted);
  const [shown, setShown] = useState<ReadonlySet<LogSource>>(new Set(sources));
  const [prefix, setPrefix] = useState('');
  const [rpc, setRpc] = useState('');
  const [expensiveOnly, setExpensiveOnly] = useState(false);
  const deferredPrefix = useDeferredValue(prefix);
  const rpcs = useMemo(() => rpcsOf(logs), [logs]);
  const filtered = useMemo(
    () => filterLogs(logs, { sources: shown, prefix: deferredPrefix, rpc, expensiveOnly }),
    [logs, shown, deferredPrefix, rpc, expensiveOnly],
  );
  const visible = filtered.slice(-shownLimit);
  return (
    <div className="logs-panel">
      <form className="logs-filters" aria-label={t('filters')} onSubmit={(e) => e.preventDefault()}>
        {sources.map((s) => (
          <label key={s}>
            <input type="checkbox" checked={shown.has(s)} onChange={(e) => {
              const next = new Set(shown);
              if (e.target.checked) next.add(s);
              else next.delete(s);
              setShown(next);
            }} />
            {t(`sources.${s}`)}
          </label>
        ))}
        <input type="search" aria-label={t('prefix')} placeholder={t('prefixPlaceholder')} value={prefix} onChange={(e) => setPrefix(e.target.value)} />
        <select aria-label={t('rpc')} value={rpc} onChange={(e) => setRpc(e.target.value)}>
          <option value="">{t('anyRpc')}</option>
          {rpcs.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
        <label><input type="checkbox" checked={expensiveOnly} onChange={(e) => setExpensiveOnly(e.target.checked)} /> {t('expensiveOnly')}</label>
      </form>
      <p className="muted logs-count">{t('count', { shown: filtered.length, count: logs.length })}{omitted > 0 ? t('dropped', { count: omitted }) : ''}{filtered.length > shownLimit ? t('newest', { count: shownLimit }) : ''}</p>
      <ol className="log-lines" aria-label={t('lines')}>
        {visible.map((l, i) => <Line key={`${l.step}-${i}-${l.source}`} line={l} />)}
      </ol>
    </div>
  );
}
