// One key in full: its revisions, lease, its value three ways — as `etcdctl get` prints it (the raw bytes,
// non-printable ones as \xNN), as `etcdctl get -w json` prints it (base64), and decoded (protobuf field by
// field with each field's byte size, as the `auger` tool shows etcd values; JSON values pretty-printed) —
// and the change from its previous version. The worker decodes (`describeValue`): the UI holds only bytes,
// and only those a diff brought (the worker reads the others).

import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/shallow';
import type { ValueDescriptionEvent, ValueField } from '../../protocol/index.ts';
import { useSimActions } from '../store/sim-context.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { jsonDiff } from './stored-value.ts';
import { shownEntry } from './selectors.ts';
import { WhyWrittenButton } from '../panels/WhyWrittenButton.tsx';

type ValueView = 'printed' | 'base64' | 'decoded';
const views: readonly ValueView[] = ['printed', 'base64', 'decoded'];

export function KeyDetails() {
  const { t, i18n } = useTranslation('keyspace');
  const actions = useSimActions();
  const key = useSimSnapshot((state) => state.keyspace.selectedKey);
  const shown = useSimSnapshot(useShallow((state) => (key === null ? undefined : shownEntry(state, key))));
  const entry = shown?.entry;
  const previous = shown?.previous ?? null;
  const described = useSimSnapshot((state) => state.valueDescription);
  // Until the worker describes a value the page does not hold, it is taken for what the cluster stores.
  const storedAs = useSimSnapshot((state) => state.cluster?.storageMediaType ?? 'protobuf');
  const [view, setView] = useState<ValueView>('decoded');
  useEffect(() => {
    if (entry && key !== null) actions.describeValue(key, entry, previous);
  }, [actions, key, entry, previous]);
  const description = described && entry && described.key === key && described.modRevision === entry.modRevision ? described : null;
  // A description asked for before a snapshot replaced the key's record may carry a change the record no longer has.
  const diff = useMemo(() => (description && previous && description.previousText !== null ? jsonDiff(description.previousText, description.text) : null), [description, previous]);
  // The details scroll on their own: focusable, so a keyboard can scroll them.
  if (key === null) return <div className="key-details" tabIndex={0} role="region" aria-label={t('details.region')}><p className="hint">{t('details.select')}</p></div>;
  const number = (n: number) => n.toLocaleString(i18n.language === 'zh' ? 'zh-CN' : 'en-US');
  return (
    <div className="key-details" data-testid="key-details" tabIndex={0} role="region" aria-label={t('details.region')}>
      <h3 className="key-details-name"><code>{key}</code></h3>
      {!entry ? <p className="hint">{t('details.absent')}</p> : (
        <>
          <dl className="message-facts key-facts">
            <div><dt>create_revision</dt><dd>{entry.createRevision}</dd></div>
            <div><dt>mod_revision</dt><dd data-testid="detail-mod-revision">{entry.modRevision}</dd></div>
            <div><dt>version</dt><dd>{entry.version}</dd></div>
            <div><dt>lease</dt><dd>{entry.lease === '0' ? t('details.noLease') : entry.lease}</dd></div>
            <div>
              <dt>{t('details.valueLabel')}</dt>
              <dd data-testid="value-media-type">
                {t(`details.media.${description?.mediaType ?? (entry.value === undefined ? storedAs : entry.value.startsWith('k8s\0') ? 'protobuf' : 'json')}`)}
                {' · '}{t('details.bytes', { count: entry.size, formatted: number(entry.size) })}
              </dd>
            </div>
          </dl>
          <div className="value-views" role="tablist" aria-label={t('details.views')}>
            {views.map((v) => (
              <button key={v} type="button" role="tab" id={`value-tab-${v}`} aria-selected={view === v} aria-controls="value-view"
                className={view === v ? 'active' : undefined} data-testid={`value-tab-${v}`} onClick={() => setView(v)}>
                {t(`details.view.${v}`)}
              </button>
            ))}
          </div>
          <div id="value-view" role="tabpanel" aria-labelledby={`value-tab-${view}`}>
            {description === null ? <p className="hint">{t('details.decoding')}</p> : <ValueBody description={description} view={view} />}
          </div>
          {diff ? (
            <>
              <h4>{t('details.change', { version: previous!.version, modRevision: previous!.modRevision })}</h4>
              <pre className="payload value-diff" tabIndex={0} data-testid="key-diff">
                {diff.map((line, i) => (
                  <span key={i} className={`diff-${line.type}`}>{line.type === 'added' ? '+ ' : line.type === 'removed' ? '- ' : '  '}{line.text}{'\n'}</span>
                ))}
              </pre>
            </>
          ) : description === null ? null : (
            <p className="hint">{entry.version === 1 ? t('details.firstVersion') : t('details.unwatched')}</p>
          )}
        </>
      )}
      <WhyWrittenButton keyName={key} />
      <button type="button" className="link-button" onClick={() => actions.selectKey(null)}>{t('details.close')}</button>
    </div>
  );
}

function ValueBody({ description, view }: { readonly description: ValueDescriptionEvent; readonly view: ValueView }) {
  const { t } = useTranslation('keyspace');
  if (view === 'printed') {
    return (
      <>
        <p className="hint">{t('details.printedHint')}</p>
        <pre className="payload value-printed" tabIndex={0} data-testid="key-value-printed">{highlightEscapes(description.printed)}</pre>
      </>
    );
  }
  if (view === 'base64') {
    return (
      <>
        <p className="hint">{t('details.base64Hint')}</p>
        <pre className="payload value-base64" tabIndex={0} data-testid="key-value-base64">{`"value": "${description.base64}"`}</pre>
      </>
    );
  }
  return (
    <>
      {description.error ? <p className="hint" role="status">{t('details.undecodable', { error: description.error })}</p> : null}
      {description.fields ? (
        <>
          <p className="hint">{t('details.fieldsHint')}</p>
          <ul className="proto-fields" data-testid="key-value-fields" aria-label={t('details.fields')}>
            {description.fields.map((f, i) => <FieldRow key={i} field={f} depth={0} />)}
          </ul>
        </>
      ) : description.json !== null ? (
        <pre className="payload" tabIndex={0} data-testid="key-value">{description.json}</pre>
      ) : (
        <pre className="payload" tabIndex={0} data-testid="key-value">{description.printed}</pre>
      )}
    </>
  );
}

function FieldRow({ field, depth }: { readonly field: ValueField; readonly depth: number }) {
  const { t } = useTranslation('keyspace');
  const head = (
    <>
      <span className="proto-name">{field.name}</span>
      <span className="proto-number">#{field.number}</span>
      <span className="proto-size">{t('details.fieldBytes', { count: field.size })}</span>
      {field.value !== undefined ? <span className="proto-value">{typeof field.value === 'string' ? JSON.stringify(field.value) : String(field.value)}</span> : null}
    </>
  );
  if (!field.children || field.children.length === 0) return <li className="proto-field" title={field.path}>{head}</li>;
  return (
    <li className="proto-field">
      <details open={depth < 1}>
        <summary title={field.path}>{head}</summary>
        <ul>{field.children.map((c, i) => <FieldRow key={i} field={c} depth={depth + 1} />)}</ul>
      </details>
    </li>
  );
}

/** The printed bytes with each `\xNN` escape marked, so the binary bytes stand out from the text. */
function highlightEscapes(text: string): Array<string | React.JSX.Element> {
  const parts: Array<string | React.JSX.Element> = [];
  const re = /\\x[0-9a-f]{2}/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let i = 0;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(<span key={i++} className="byte-escape">{m[0]}</span>);
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
