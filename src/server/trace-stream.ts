// The simulation's trace as server-sent events, so a browser (EventSource) can follow what a kubectl
// command causes on a server-hosted cluster. One `trace` event per delivered message:
//   event: trace
//   id: <step>
//   data: {"step":…,"id":…,"at":…,"from":…,"to":…,"kind":…,"cause":…,"replyTo":…,"background":…}
// `?payload=1` adds each message's payload. `?kind=http.` keeps only messages whose kind starts with it.

import type { IncomingMessage, ServerResponse } from 'node:http';
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
  res.write(`: podflow trace from step ${host.cluster.engine.step + 1}\n\n`);
  const engine = host.cluster.engine;
  const stop = host.onDelivery((m) => {
    if (kindPrefix !== '' && !m.kind.startsWith(kindPrefix)) return;
    const record = {
      step: engine.step, id: m.id, at: m.deliverAt, sentAt: m.sentAt, from: m.from, to: m.to, kind: m.kind,
      cause: m.cause, replyTo: m.replyTo, background: m.background,
      ...(withPayload ? { payload: m.payload } : {}),
    };
    res.write(`event: trace\nid: ${engine.step}\ndata: ${JSON.stringify(record)}\n\n`);
  });
  res.on('close', stop);
  req.resume();
}
