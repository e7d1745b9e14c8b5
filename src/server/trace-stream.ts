// The simulation's trace as server-sent events, so a browser (EventSource) can follow what a kubectl
// command causes on a server-hosted cluster. One `trace` event per delivered message:
//   event: trace
//   id: <step>
//   data: {"step":…,"id":…,"at":…,"from":…,"to":…,"kind":…,"cause":…,"replyTo":…,"background":…}
// `?payload=1` adds each message's payload. `?kind=http.` keeps only messages whose kind starts with it.
// `?from=N` (or a reconnecting EventSource's Last-Event-ID + 1) first sends the retained records from step N.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Message } from '../sim/engine/index.ts';
import type { ClusterHost } from './cluster-host.ts';

export function serveTrace(host: ClusterHost, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const withPayload = url.searchParams.get('payload') === '1';
  const kindPrefix = url.searchParams.get('kind') ?? '';
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'access-control-allow-origin': '*',
  });
  const engine = host.cluster.engine;
  const lastEventId = Number(req.headers['last-event-id'] ?? Number.NaN);
  const fromText = url.searchParams.get('from');
  const from = fromText !== null ? Number(fromText) : Number.isFinite(lastEventId) ? lastEventId + 1 : engine.step + 1;
  const realEtcd = host.deterministic ? '' : ' (not deterministic: the store is a real etcd)';
  res.write(`: podflow trace from step ${Math.max(from, engine.trace.firstStep)}${realEtcd}\n\n`);
  const send = (step: number, m: Message): void => {
    if (kindPrefix !== '' && !m.kind.startsWith(kindPrefix)) return;
    const record = {
      step, id: m.id, at: m.deliverAt, sentAt: m.sentAt, from: m.from, to: m.to, kind: m.kind,
      cause: m.cause, replyTo: m.replyTo, background: m.background,
      ...(withPayload ? { payload: m.payload } : {}),
    };
    res.write(`event: trace\nid: ${step}\ndata: ${JSON.stringify(record)}\n\n`);
  };
  for (let step = Math.max(from, engine.trace.firstStep); step <= engine.step; step++) {
    const m = engine.trace.at(step);
    if (m) send(step, m);
  }
  const stop = host.onDelivery((m) => send(engine.step, m));
  res.on('close', stop);
  req.resume();
}
