// One key in full: its revisions, lease, value decoded, and the change from its previous version.

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/shallow';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { decodeValue, valueDiff } from './stored-value.ts';
import { shownEntry } from './selectors.ts';
import { WhyWrittenButton } from '../panels/WhyWrittenButton.tsx';

export function KeyDetails() {
  const { t } = useTranslation('keyspace');
  const actions = useSimActions();
  const key = useSim((state) => state.keyspace.selectedKey);
  const shown = useSim(useShallow((state) => (key === null ? undefined : shownEntry(state, key))));
  const entry = shown?.entry;
  const previous = shown?.previous ?? null;
  const decoded = useMemo(() => (entry ? decodeValue(entry.value) : null), [entry]);
  const diff = useMemo(() => (entry && previous ? valueDiff(previous.value, entry.value) : null), [entry, previous]);
  if (key === null) return <div className="key-details"><p className="hint">{t('details.select')}</p></div>;
  return (
    <div className="key-details" data-testid="key-details">
      <h3 className="key-details-name"><code>{key}</code></h3>
      {!entry || !decoded ? <p className="hint">{t('details.absent')}</p> : (
        <>
          <dl className="message-facts key-facts">
            <div><dt>create_revision</dt><dd>{entry.createRevision}</dd></div>
            <div><dt>mod_revision</dt><dd data-testid="detail-mod-revision">{entry.modRevision}</dd></div>
            <div><dt>version</dt><dd>{entry.version}</dd></div>
            <div><dt>lease</dt><dd>{entry.lease === '0' ? t('details.noLease') : entry.lease}</dd></div>
          </dl>
          <h4>{decoded.json ? t('details.valueJson') : t('details.value')}</h4>
          <pre className="payload" tabIndex={0} data-testid="key-value">{decoded.text}</pre>
          {diff ? (
            <>
              <h4>{t('details.change', { version: previous!.version, modRevision: previous!.modRevision })}</h4>
              <pre className="payload value-diff" tabIndex={0} data-testid="key-diff">
                {diff.map((line, i) => (
                  <span key={i} className={`diff-${line.type}`}>{line.type === 'added' ? '+ ' : line.type === 'removed' ? '- ' : '  '}{line.text}{'\n'}</span>
                ))}
              </pre>
            </>
          ) : (
            <p className="hint">{entry.version === 1 ? t('details.firstVersion') : t('details.unwatched')}</p>
          )}
        </>
      )}
      <WhyWrittenButton keyName={key} />
      <button type="button" className="link-button" onClick={() => actions.selectKey(null)}>{t('details.close')}</button>
    </div>
  );
}
