// etcd's LeaseKeepAlive stream as the real-etcd member uses it: one stream to the pinned endpoint, opened
// on the first keepalive; each keepalive is written on it and answered by the next response, in order
// (etcd answers a stream's keepalives in the order it reads them). A broken stream fails the keepalives
// it still owes with its error; the next keepalive opens a new stream.

import type { ClientDuplexStream } from '@grpc/grpc-js';
import type { Message, Reservation } from '../../sim/engine/index.ts';
import { leaseKeepAliveResponseFromWire, type Wire } from '../etcd-proto/convert.ts';
import { rpcError, type EtcdGrpcClient, type GrpcFailure } from './grpc-client.ts';
import type { EtcdReply, LeaseKeepAliveResponse } from '../../sim/etcd/index.ts';

/** A keepalive's answer, for the reservation made when it was delivered. */
export type KeepAliveAnswer = (m: Message, reservation: Reservation, reply: EtcdReply<LeaseKeepAliveResponse>) => void;

interface Open {
  readonly call: ClientDuplexStream<Wire, Wire>;
  readonly waiting: Array<{ readonly m: Message; readonly reservation: Reservation }>;
}

export class KeepAliveStream {
  private open: Open | null = null;

  constructor(private readonly client: EtcdGrpcClient, private readonly answer: KeepAliveAnswer) {}

  /** Sends keepalive `m` (its payload holds the lease `ID`); its answer fills `reservation`. */
  send(m: Message, reservation: Reservation): void {
    const open = this.open ?? this.start();
    open.waiting.push({ m, reservation });
    open.call.write({ ID: (m.payload as { ID: string }).ID });
  }

  close(): void {
    this.open?.call.cancel();
    this.open = null;
  }

  private start(): Open {
    const { call } = this.client.stream('Lease', 'leaseKeepAlive');
    const open: Open = { call, waiting: [] };
    this.open = open;
    call.on('data', (data: Wire) => {
      const next = open.waiting.shift();
      if (next !== undefined) this.answer(next.m, next.reservation, { ok: true, response: leaseKeepAliveResponseFromWire(data), stats: null, log: null, write: null });
    });
    call.on('error', (error: GrpcFailure) => {
      if (this.open === open) this.open = null;
      for (const next of open.waiting.splice(0)) this.answer(next.m, next.reservation, { ok: false, error: rpcError(error), stats: null, log: null, write: null });
    });
    return open;
  }
}
