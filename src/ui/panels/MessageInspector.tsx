// The side panel's message view: the recent deliveries, the messages of a selected link, or one
// message in full (its payload exactly as the engine delivered it, and its cause and request as links).

import { memo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/shallow';
import type { Flight, TraceRecord } from '../../protocol/index.ts';
import { useCaption } from '../captions/StepCaption.tsx';
import { formatPayload, formatVirtualTime } from '../format.ts';
import { useSimActions } from '../store/sim-context.ts';
import { useWholePayloads } from '../store/payloads.ts';
import { OnScreen, useOnScreen, useSimSnapshot } from '../store/snapshot.ts';
import { onLink, recentLimit } from '../store/sim-store.ts';
import { heldMessage, heldRecord } from './why.ts';

const listLength = 30;

/** While playing below the column's fold, it keeps what it showed (OnScreen, snapshot.ts). */
export function MessageInspector() {
  const selection = useSimSnapshot((state) => state.selection);
  const section = useRef<HTMLElement>(null);
  const onScreen = useOnScreen(section);
  return (
    <section className="panel-section inspector" aria-labelledby="inspector-heading" ref={section}>
      <OnScreen value={onScreen}>
        {selection?.type === 'message' ? <MessageDetails id={selection.id} />
          : selection?.type === 'link' ? <LinkMessages a={selection.a} b={selection.b} />
            : <RecentDeliveries />}
      </OnScreen>
    </section>
  );
}

function RecentDeliveries() {
  const { t } = useTranslation('inspector');
  const records = useSimSnapshot(useShallow((state) => state.recent.slice(-listLength)));
  const omitted = useSimSnapshot((state) => state.omitted);
  return (
    <>
      <h2 id="inspector-heading">{t('recent')}</h2>
      {records.length === 0 ? <p className="hint">{t('noneYet')}</p> : <MessageList records={records} />}
      {omitted > 0 && <p className="hint">{t('omitted', { count: omitted })}</p>}
    </>
  );
}

function LinkMessages({ a, b }: { readonly a: string; readonly b: string }) {
  const { t } = useTranslation('inspector');
  const actions = useSimActions();
  const records = useSimSnapshot(useShallow((state) => state.recent.filter((r) => onLink(r, a, b)).slice(-listLength)));
  const newest = records.at(-1);
  return (
    <>
      <h2 id="inspector-heading">{a} ↔ {b}</h2>
      {newest ? (
        <>
          <h3 className="message-heading">{newest.kind}</h3>
          <MessageBody record={newest} />
          {records.length > 1 && (
            <>
              <h3>{t('earlier')}</h3>
              <MessageList records={records.slice(0, -1)} />
            </>
          )}
        </>
      ) : <p className="hint">{t('noneOnLink')}</p>}
      <button type="button" className="link-button" onClick={() => actions.select(null)}>{t('all')}</button>
    </>
  );
}

function MessageList({ records }: { readonly records: readonly TraceRecord[] }) {
  return (
    <ol className="message-list" reversed>
      {[...records].reverse().map((record) => <MessageItem key={record.id} record={record} />)}
    </ol>
  );
}

const MessageItem = memo(function MessageItem({ record }: { readonly record: TraceRecord }) {
  const actions = useSimActions();
  const text = useCaption(record);
  return (
    <li>
      <button type="button" onClick={() => actions.select({ type: 'message', id: record.id })}>
        <span className="message-step">#{record.step}</span>
        <span className="message-kind">{record.kind}</span>
        <span className="message-route">{record.from} → {record.to}</span>
        <span className="message-caption" data-testid="message-caption">{text}</span>
      </button>
    </li>
  );
});

function MessageRef({ id }: { readonly id: number | null }) {
  const { t } = useTranslation('inspector');
  const actions = useSimActions();
  const retained = useSimSnapshot((state) => id !== null && heldRecord(state, id) !== undefined);
  if (id === null) return <>—</>;
  if (!retained) return <>{t('message', { id })}</>;
  return <button type="button" className="link-button" onClick={() => actions.select({ type: 'message', id })}>{t('message', { id })}</button>;
}

function MessageDetails({ id }: { readonly id: number }) {
  const { t } = useTranslation('inspector');
  const actions = useSimActions();
  const record = useSimSnapshot((state) => heldMessage(state, id));
  if (!record) {
    return (
      <>
        <h2 id="inspector-heading">{t('messageHeading', { id })}</h2>
        <p className="hint">{t('notKept', { count: recentLimit })}</p>
        <button type="button" className="link-button" onClick={() => actions.select(null)}>{t('all')}</button>
      </>
    );
  }
  return (
    <>
      <h2 id="inspector-heading" className="message-heading">{record.kind}</h2>
      <MessageBody record={record} />
      <button type="button" className="link-button" onClick={() => actions.select(null)}>{t('all')}</button>
    </>
  );
}

/** Everything about one message: route, timing, cause, and its payload as sent (and delivered, if it was). */
function MessageBody({ record }: { readonly record: TraceRecord | Flight }) {
  const { t } = useTranslation('inspector');
  const actions = useSimActions();
  // A light record (a seek's older delivery, a token delivered at a past step) shows its whole payload once it comes.
  useWholePayloads([record]);
  return (
    <>
      <p className="message-route">{record.from} → {record.to}</p>
      <dl className="message-facts">
        <div><dt>{t('facts.step')}</dt><dd>{record.step ?? t('facts.inFlight')}</dd></div>
        <div><dt>{t('facts.message')}</dt><dd>{record.id}</dd></div>
        <div><dt>{t('facts.sentAt')}</dt><dd>{formatVirtualTime(record.sentAt)}</dd></div>
        <div><dt>{t('facts.deliveredAt')}</dt><dd>{formatVirtualTime(record.deliverAt)}</dd></div>
        <div><dt>{t('facts.causedBy')}</dt><dd>{record.cause === null ? t('facts.noCause') : <MessageRef id={record.cause} />}</dd></div>
        <div><dt>{t('facts.answers')}</dt><dd><MessageRef id={record.replyTo} /></dd></div>
        {record.background && <div><dt>{t('facts.background')}</dt><dd>{t('facts.backgroundYes')}</dd></div>}
      </dl>
      {record.step !== null && <button type="button" onClick={() => actions.askWhy(record.id)}>{t('why')}</button>}
      <h3>{t('payload')}</h3>
      {'payloadKept' in record && record.payloadKept && <p className="hint" data-testid="message-payload-kept">{t(record.payloadKept === 'rebuilt' ? 'payloadRebuilt' : 'payloadSummary')}</p>}
      {record.payloadOmitted
        ? <p className="hint">{t(record.step === null ? 'payloadLater' : 'payloadComing')}</p>
        : <pre className="payload" data-testid="message-payload" tabIndex={0}>{formatPayload(record.payload)}</pre>}
    </>
  );
}
