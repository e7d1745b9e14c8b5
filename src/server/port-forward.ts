// `kubectl port-forward` over SPDY/3.1 (`Upgrade: SPDY/3.1`, `X-Stream-Protocol-Version:
// portforward.k8s.io`). After the 101, kubectl opens two SPDY streams per forwarded connection, both with
// the headers `streamType` (`error` or `data`), `port` and `requestID`: it half-closes the error stream at
// once and reads it to its end (an error text, or nothing); the data stream carries the connection's bytes
// both ways. Each chunk of bytes kubectl sends enters the simulation as a request of its own
// (`POST …/pods/{name}/portforward?ports={port}` with the chunk as its body: apiserver → kubelet → the
// container's server) and the answer's bytes go back on the data stream; when the client closes its side,
// or the server closes the connection, both streams end. A kubelet error (nothing listens on the port) is
// written to the error stream and ends the data stream, as the kubelet's stream handler does.
// Models k8s.io/apimachinery/pkg/util/httpstream/spdy (upgrade.go: the 101 answer) and
// pkg/kubelet/cri/streaming/portforward/httpstream.go (the stream pairs by requestID).
// SPDY framing is spdy-transport's.

import type { Duplex } from 'node:stream';
import transport, { type SpdyConnection, type SpdyStream } from 'spdy-transport';
import type { HttpRequest, HttpResponse, HttpStreamData } from '../sim/wire/http.ts';
import { portForwardChannel } from '../sim/kubelet/server.ts';
import type { ClusterHost } from './cluster-host.ts';

/** The SPDY sub-protocol served. */
const portForwardProtocol = 'portforward.k8s.io';

/** The answer to an accepted upgrade. */
export const switchingProtocols = `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${portForwardProtocol}\r\n\r\n`;

interface Pair {
  error?: SpdyStream;
  data?: SpdyStream;
}

/**
 * Go's spdystream (kubectl) opens streams with its own headers only; spdy-transport's parser wants a
 * request's `:method` and `:path`. Streams are given the values of the upgraded request.
 */
function acceptBareStreams(connection: SpdyConnection, path: string): void {
  const parser = connection._spdyState.parser;
  const parseKVs = parser.parseKVs.bind(parser);
  parser.parseKVs = (buffer, callback) => parseKVs(buffer, (err, headers) => {
    if (headers && (headers.streamtype !== undefined || headers.port !== undefined)) {
      headers[':method'] ??= 'POST';
      headers[':path'] ??= path;
    }
    callback(err, headers);
  });
}

/**
 * Serves the port-forward streams of an upgraded `socket` (the 101 is already written). `request` is the
 * upgrade as it entered the simulation; each chunk goes in as a copy of it with `ports` and a body.
 */
export function servePortForward(host: ClusterHost, socket: Duplex, request: HttpRequest): void {
  const connection = transport.connection.create(socket, { protocol: 'spdy', isServer: true, autoSpdy31: true });
  acceptBareStreams(connection, request.path);
  connection.start(3.1);
  const pairs = new Map<string, Pair>();
  const cancels = new Set<() => void>();
  connection.on('error', () => socket.destroy());
  // kubectl gone (stopped, or it gave up after an error): the connection ends with it.
  socket.once('end', () => socket.destroy());
  socket.on('close', () => {
    for (const cancel of [...cancels]) cancel();
  });
  connection.on('stream', (stream: SpdyStream) => {
    stream.on('error', () => stream.destroy());
    const type = stream.headers.streamtype;
    const requestID = stream.headers.requestid ?? '';
    const port = stream.headers.port ?? '';
    if (type !== 'error' && type !== 'data') {
      stream.abort();
      return;
    }
    stream.respond(200, {});
    const pair = pairs.get(requestID) ?? {};
    pairs.set(requestID, pair);
    pair[type] = stream;
    if (type === 'error') {
      stream.resume();
      return;
    }
    forward(host, request, port, pair, cancels, () => pairs.delete(requestID));
  });
}

/** Carries one forwarded connection: the data stream's chunks in order, each through the simulation. */
function forward(host: ClusterHost, upgrade: HttpRequest, port: string, pair: Pair, cancels: Set<() => void>, done: () => void): void {
  const data = pair.data!;
  const chunks: Buffer[] = [];
  let clientDone = false;
  let busy = false;
  let finished = false;
  const finish = (error?: string) => {
    if (finished) return;
    finished = true;
    done();
    if (error !== undefined) pair.error?.end(Buffer.from(error, 'utf8'));
    else pair.error?.end();
    data.end();
  };
  const next = () => {
    if (finished || busy) return;
    const chunk = chunks.shift();
    if (chunk === undefined) {
      if (clientDone) finish();
      return;
    }
    busy = true;
    const request: HttpRequest = { ...upgrade, query: `ports=${encodeURIComponent(port)}`, body: chunk.toString('latin1') };
    const cancel = () => submission.cancel();
    const submission = host.submit(request, {
      response: (response: HttpResponse) => {
        if (response.stream) return;
        // An error answer (the pod is gone, a bad port): its message on the error stream.
        const body = response.body as { message?: string } | string | null;
        finish(typeof body === 'string' ? body.trim() : body?.message ?? `${response.status}`);
      },
      watchEvent: () => undefined,
      streamData: (chunk: HttpStreamData) => {
        if (chunk.channel === portForwardChannel.data) data.write(Buffer.from(chunk.data, 'latin1'));
        else if (chunk.channel === portForwardChannel.error) finish(chunk.data);
        else if (chunk.channel === portForwardChannel.close) finish();
      },
      watchEnd: () => {
        cancels.delete(cancel);
        busy = false;
        next();
      },
    });
    cancels.add(cancel);
  };
  data.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    next();
  });
  data.on('end', () => {
    clientDone = true;
    next();
  });
}
