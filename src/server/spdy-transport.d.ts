// The part of spdy-transport (3.x, no published types) that port-forward.ts uses.
declare module 'spdy-transport' {
  import type { EventEmitter } from 'node:events';
  import type { Duplex } from 'node:stream';

  /** One SPDY stream: a duplex of its DATA frames; ending it sends FIN. */
  export interface SpdyStream extends Duplex {
    readonly id: number;
    /** The SYN_STREAM's headers, names in lower case. */
    readonly headers: Readonly<Record<string, string>>;
    /** Sends the SYN_REPLY. */
    respond(status: number, headers: Readonly<Record<string, string>>, callback?: (err?: Error) => void): void;
    abort(callback?: () => void): void;
  }

  export interface SpdyConnection extends EventEmitter {
    start(version: number): void;
    end(callback?: () => void): void;
    on(event: 'stream', listener: (stream: SpdyStream) => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    readonly _spdyState: { readonly parser: { parseKVs(buffer: unknown, callback: (err: Error | null, headers?: Record<string, string>) => void): void } };
  }

  const transport: {
    readonly connection: { create(socket: Duplex, options: { readonly protocol: 'spdy'; readonly isServer: boolean; readonly autoSpdy31?: boolean }): SpdyConnection };
  };
  export default transport;
}
