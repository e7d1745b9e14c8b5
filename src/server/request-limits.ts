// What the HTTP front accepts before a request reaches the simulated kube-apiserver, with kube-apiserver's
// own limits and answers:
// - the request line and headers together at most 1 MiB (Go's http.Server MaxHeaderBytes as kube-apiserver
//   sets it; past it Go answers `431 Request Header Fields Too Large` in plain text and closes);
// - headers within 32 s (ReadHeaderTimeout; Go closes the connection without an answer), an idle keep-alive
//   connection closed after 90 s (IdleTimeout);
// - a write request's body at most 3 MiB (MaxRequestBodyBytes, `--max-resource-write-bytes`): the body is
//   read through a limited reader and never buffered past limit + 1 bytes; past it the answer is the 413
//   Status `Request entity too large: limit is 3145728` with `Connection: close`. What still arrives is
//   discarded unkept (up to 64 MiB, and within the request deadline) before the connection closes, so the
//   client reads its 413 instead of a reset (Go's server discards only 256 KiB before closing). Bodies of
//   reads (GET) are never read, as upstream's read handlers never read them;
// - a request not answered within 60 s (`--request-timeout`; a body still arriving counts) gets the 504
//   Status `Timeout: request did not complete within requested timeout - context deadline exceeded`;
//   watches are long-running and exempt.
// Models k8s.io/apiserver/pkg/server/secure_serving.go (MaxHeaderBytes, ReadHeaderTimeout, IdleTimeout),
// pkg/server/config.go (MaxRequestBodyBytes, RequestTimeout), pkg/endpoints/handlers/rest.go
// (limitedReadBody), pkg/server/filters/timeout.go and go/src/net/http/server.go (errors before a handler).
//
// Deviation: upstream reads the body in the REST handler, after authentication and authorization, so an
// unauthorized 50 MB create gets 403 there; here the front answers 413 before the simulation sees it.

import type { IncomingMessage } from 'node:http';

export interface RequestLimits {
  /** Request line plus headers, bytes. */
  readonly maxHeaderBytes: number;
  /** Body of a write request, bytes. */
  readonly maxRequestBodyBytes: number;
  /** Until the headers are complete, ms. */
  readonly headerTimeoutMs: number;
  /** An idle keep-alive connection, ms. */
  readonly idleTimeoutMs: number;
  /** A non-long-running request, from its headers to its answer (body included), ms. */
  readonly requestTimeoutMs: number;
  /** Bytes of an unwanted body discarded after an early answer before the connection is closed. */
  readonly maxDiscardBytes: number;
}

export const defaultRequestLimits: RequestLimits = {
  maxHeaderBytes: 1 << 20,
  maxRequestBodyBytes: 3 * 1024 * 1024,
  headerTimeoutMs: 32_000,
  idleTimeoutMs: 90_000,
  requestTimeoutMs: 60_000,
  maxDiscardBytes: 64 << 20,
};

/** The methods whose handlers read a body (create, update, patch, delete with DeleteOptions). */
export function readsBody(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

export type BodyResult =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: 'too-large' | 'aborted' };

/**
 * Reads a body through a limited reader: at most `limit` bytes are kept; one byte more ends the read with
 * 'too-large' (the rest is left unread). A declared Content-Length over the limit fails at once.
 */
export function readLimitedBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('aborted', onAbort);
      req.off('close', onClose);
      if (!result.ok) req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, bytes: Buffer.concat(chunks, size) });
    const onAbort = (): void => finish({ ok: false, reason: 'aborted' });
    const onClose = (): void => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('aborted', onAbort);
    req.on('close', onClose);
  });
}

/**
 * After an answer sent before the body was read: discards what still arrives, without keeping it, and
 * closes the connection once more than `maxDiscardBytes` came or the request deadline passed.
 */
export function discardRest(req: IncomingMessage, limits: RequestLimits): void {
  if (req.complete) return;
  let discarded = 0;
  const deadline = setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, limits.requestTimeoutMs);
  req.on('end', () => clearTimeout(deadline));
  req.on('close', () => clearTimeout(deadline));
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxDiscardBytes) req.socket.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}

/** The request line of a Go net/http error answer written straight to the socket (before any handler). */
export function goPlainError(status: 400 | 431): string {
  const text = status === 400 ? '400 Bad Request' : '431 Request Header Fields Too Large';
  return `HTTP/1.1 ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`;
}
