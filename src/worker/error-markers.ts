// Which deliveries are errors worth a marker on the timeline scrubber: a failed HTTP response (status
// ≥ 400, e.g. a controller's 409 Conflict, a 403 or a 429), a watch's ERROR event (410 Expired), an etcd
// RPC that failed, a watch etcd canceled because its revision was compacted, and a broken watch stream.
// Not marked: 404 Not Found, which is how clients learn that something is absent in the normal flow (the
// kubelet's lease get-or-create, the garbage collector's owner check; src/protocol/failures.ts); a Txn whose compare failed (it
// takes its failure branch); a watch that ends normally.

import { isFlowFailure } from '../protocol/index.ts';
import type { HttpResponse, HttpWatchEvent } from '../sim/wire/http.ts';
import type { Message } from '../sim/engine/index.ts';
import type { EtcdReply, WatchStreamError, WatchStreamResponse } from '../sim/etcd/index.ts';

interface StatusLike {
  readonly reason?: string;
  readonly message?: string;
}

const shorten = (text: string) => (text.length > 160 ? `${text.slice(0, 157)}…` : text);

/** A one-line label when `message` is an error, else null. */
export function errorLabel(message: Message): string | null {
  switch (message.kind) {
    case 'http.response': {
      const response = message.payload as HttpResponse;
      if (!isFlowFailure(response.status)) return null;
      const body = (typeof response.body === 'object' && response.body !== null ? response.body : {}) as StatusLike;
      const text = typeof response.body === 'string' ? response.body.trim() : body.message ?? '';
      return shorten(`${message.to}: ${response.status}${body.reason ? ` ${body.reason}` : ''}${text ? `: ${text}` : ''}`);
    }
    case 'http.watchEvent': {
      const event = message.payload as HttpWatchEvent;
      if (event.type !== 'ERROR') return null;
      const status = (event.object ?? {}) as StatusLike & { code?: number };
      return shorten(`${message.to}: watch ERROR ${status.code ?? ''} ${status.reason ?? ''}: ${status.message ?? ''}`.replace(/ {2,}/g, ' '));
    }
    case 'etcd.WatchResponse': {
      const { response } = message.payload as WatchStreamResponse;
      if (response.compactRevision === 0) return null;
      return `${message.to}: etcd canceled watch ${response.watchId}: required revision has been compacted (compact revision ${response.compactRevision})`;
    }
    case 'etcd.WatchStreamError':
      return `${message.to}: etcd watch stream broke: ${(message.payload as WatchStreamError).error}`;
    default: {
      if (message.from !== 'etcd' || !message.kind.endsWith('Response') || message.replyTo === null) return null;
      const reply = message.payload as EtcdReply<unknown> | null;
      if (reply === null || typeof reply !== 'object' || !('ok' in reply) || reply.ok) return null;
      return shorten(`${message.to}: etcd refused ${message.kind.slice('etcd.'.length, -'Response'.length)}: ${reply.error.message}`);
    }
  }
}
