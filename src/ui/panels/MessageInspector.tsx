// The side panel's message view: the recent deliveries, the messages of a selected link, or one
// message in full (its payload exactly as the engine delivered it, and its cause and request as links).

import { memo } from 'react';
import { useShallow } from 'zustand/shallow';
import type { Flight, TraceRecord } from '../../protocol/index.ts';
import { useCaption } from '../captions/StepCaption.tsx';
import { formatPayload, formatVirtualTime } from '../format.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { onLink, recentLimit } from '../store/sim-store.ts';
import { heldMessage, heldRecord } from './why.ts';

const listLength = 30;

export function MessageInspector() {
  const selection = useSim((state) => state.selection);
  return (
    <section className="panel-section inspector" aria-labelledby="inspector-heading">
      {selection?.type === 'message' ? <MessageDetails id={selection.id} />
        : selection?.type === 'link' ? <LinkMessages a={selection.a} b={selection.b} />
          : <RecentDeliveries />}
    </section>
  );
}

function RecentDeliveries() {
  const records = useSim(useShallow((state) => state.recent.slice(-listLength)));
  const omitted = useSim((state) => state.omitted);
  return (
    <>
      <h2 id="inspector-heading">Recent deliveries</h2>
      {records.length === 0 ? <p className="hint">No message delivered yet.</p> : <MessageList records={records} />}
      {omitted > 0 && <p className="hint">{omitted} deliveries made while running fast are counted but not listed.</p>}
    </>
  );
}

function LinkMessages({ a, b }: { readonly a: string; readonly b: string }) {
  const actions = useSimActions();
  const records = useSim(useShallow((state) => state.recent.filter((r) => onLink(r, a, b)).slice(-listLength)));
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
              <h3>Earlier on this link</h3>
              <MessageList records={records.slice(0, -1)} />
            </>
          )}
        </>
      ) : <p className="hint">No recent message on this link.</p>}
      <button type="button" className="link-button" onClick={() => actions.select(null)}>All recent deliveries</button>
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
  const actions = useSimActions();
  const retained = useSim((state) => id !== null && heldRecord(state, id) !== undefined);
  if (id === null) return <>—</>;
  if (!retained) return <>message {id}</>;
  return <button type="button" className="link-button" onClick={() => actions.select({ type: 'message', id })}>message {id}</button>;
}

function MessageDetails({ id }: { readonly id: number }) {
  const actions = useSimActions();
  const record = useSim((state) => heldMessage(state, id));
  if (!record) {
    return (
      <>
        <h2 id="inspector-heading">Message {id}</h2>
        <p className="hint">No longer kept: the UI holds the newest {recentLimit} deliveries.</p>
        <button type="button" className="link-button" onClick={() => actions.select(null)}>All recent deliveries</button>
      </>
    );
  }
  return (
    <>
      <h2 id="inspector-heading" className="message-heading">{record.kind}</h2>
      <MessageBody record={record} />
      <button type="button" className="link-button" onClick={() => actions.select(null)}>All recent deliveries</button>
    </>
  );
}

/** Everything about one message: route, timing, cause, and its payload as sent (and delivered, if it was). */
function MessageBody({ record }: { readonly record: TraceRecord | Flight }) {
  const actions = useSimActions();
  return (
    <>
      <p className="message-route">{record.from} → {record.to}</p>
      <dl className="message-facts">
        <div><dt>Step</dt><dd>{record.step ?? 'in flight: not delivered at the step shown'}</dd></div>
        <div><dt>Message</dt><dd>{record.id}</dd></div>
        <div><dt>Sent at</dt><dd>{formatVirtualTime(record.sentAt)}</dd></div>
        <div><dt>Delivered at</dt><dd>{formatVirtualTime(record.deliverAt)}</dd></div>
        <div><dt>Caused by</dt><dd>{record.cause === null ? 'nothing: a user command or start-up' : <MessageRef id={record.cause} />}</dd></div>
        <div><dt>Answers</dt><dd><MessageRef id={record.replyTo} /></dd></div>
        {record.background && <div><dt>Background</dt><dd>yes: does not keep “run until idle” going</dd></div>}
      </dl>
      {record.step !== null && <button type="button" onClick={() => actions.askWhy(record.id)}>Why? Show its causes</button>}
      <h3>Payload</h3>
      {'payloadOmitted' in record && record.payloadOmitted
        ? <p className="hint">Its payload is shown when playback pauses or the message is delivered.</p>
        : <pre className="payload" data-testid="message-payload" tabIndex={0}>{formatPayload(record.payload)}</pre>}
    </>
  );
}
