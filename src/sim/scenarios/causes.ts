// Walking cause links in a trace: every delivery records the message whose delivery sent it, so "why
// did this happen?" is the chain of causes back to a user request (or a timer). The scenario tests use
// it to prove the seeds' steps happen in causal order, not merely one after another.

import type { Message } from '../engine/index.ts';

export class CauseIndex {
  private readonly byId = new Map<number, Message>();

  constructor(records: readonly Message[]) {
    for (const m of records) this.byId.set(m.id, m);
  }

  /** The chain of causes of `message`, nearest first, as far back as the trace reaches. */
  causes(message: Message): Message[] {
    const chain: Message[] = [];
    let cause = message.cause;
    while (cause !== null) {
      const m = this.byId.get(cause);
      if (!m) break;
      chain.push(m);
      cause = m.cause;
    }
    return chain;
  }

  /** The first message of the chain: a user request, a timer, or what boot sent. */
  root(message: Message): Message {
    return this.causes(message).at(-1) ?? message;
  }

  /** True when `earlier` is among the causes of `later`. */
  caused(earlier: Message, later: Message): boolean {
    let cause = later.cause;
    while (cause !== null) {
      if (cause === earlier.id) return true;
      cause = this.byId.get(cause)?.cause ?? null;
    }
    return false;
  }
}
