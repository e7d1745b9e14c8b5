// The leader's pending ReadIndex requests (ReadOnlySafe, as etcd configures raft): each is the commit
// index at the time it arrived, and the members that have acknowledged a heartbeat carrying its
// context. Once a quorum has, that request and every one queued before it are confirmed: the leader
// was still the leader when they arrived. Models raft/read_only.go.

import type { RaftMessage } from './types.ts';

interface ReadIndexStatus {
  readonly request: RaftMessage;
  readonly index: number;
  readonly acks: Set<number>;
}

export class ReadOnly {
  private readonly pending = new Map<string, ReadIndexStatus>();
  private queue: string[] = [];

  /** Queues `request` (its context is `request.entries[0].data`) at read index `index`. */
  addRequest(index: number, request: RaftMessage): void {
    const ctx = contextOf(request);
    if (this.pending.has(ctx)) return;
    this.pending.set(ctx, { index, request, acks: new Set() });
    this.queue.push(ctx);
  }

  /** Records `id`'s acknowledgement of `ctx`; the members that have acknowledged it, or null if unknown. */
  recvAck(id: number, ctx: string): ReadonlySet<number> | null {
    const status = this.pending.get(ctx);
    if (status === undefined) return null;
    status.acks.add(id);
    return status.acks;
  }

  /** Removes and returns the requests up to and including `ctx`, oldest first. */
  advance(ctx: string): Array<{ readonly request: RaftMessage; readonly index: number }> {
    const at = this.queue.indexOf(ctx);
    if (at < 0) return [];
    const done = this.queue.slice(0, at + 1);
    this.queue = this.queue.slice(at + 1);
    return done.map((c) => {
      const status = this.pending.get(c)!;
      this.pending.delete(c);
      return { request: status.request, index: status.index };
    });
  }

  /** The newest pending context ('' when none): a heartbeat carries it. */
  lastPendingRequestCtx(): string {
    return this.queue.at(-1) ?? '';
  }
}

/** A ReadIndex request's context: its one entry's data, a string. */
export function contextOf(request: RaftMessage): string {
  return String(request.entries[0]?.data ?? '');
}
