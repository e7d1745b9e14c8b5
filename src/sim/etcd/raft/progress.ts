// What a leader knows of each follower's log: `match` (highest index known replicated), `next` (the
// next index to send), and the flow-control state:
//   probe      one MsgApp at a time until the follower answers (after a rejection or a restart)
//   replicate  optimistic streaming, at most `maxInflight` unacknowledged MsgApps
//   snapshot   a MsgSnap is on its way; nothing else is sent until it is reported
// Models raft/tracker/progress.go and raft/tracker/inflights.go.

export type ProgressState = 'StateProbe' | 'StateReplicate' | 'StateSnapshot';

export class Progress {
  state: ProgressState = 'StateProbe';
  /** Probe: a MsgApp was sent and not yet answered. */
  probeSent = false;
  pendingSnapshot = 0;
  /** Heard from since the last check-quorum (leaders count themselves active). */
  recentActive = false;
  /** Last indexes of the MsgApps in flight (replicate state). */
  private inflights: number[] = [];

  constructor(public match: number, public next: number, private readonly maxInflight: number) {}

  private resetState(state: ProgressState): void {
    this.probeSent = false;
    this.pendingSnapshot = 0;
    this.state = state;
    this.inflights = [];
  }

  becomeProbe(): void {
    if (this.state === 'StateSnapshot') {
      const pending = this.pendingSnapshot;
      this.resetState('StateProbe');
      this.next = Math.max(this.match + 1, pending + 1);
    } else {
      this.resetState('StateProbe');
      this.next = this.match + 1;
    }
  }

  becomeReplicate(): void {
    this.resetState('StateReplicate');
    this.next = this.match + 1;
  }

  becomeSnapshot(snapshotIndex: number): void {
    this.resetState('StateSnapshot');
    this.pendingSnapshot = snapshotIndex;
  }

  /** A follower acknowledged up to `n`; true when that moved `match`. */
  maybeUpdate(n: number): boolean {
    let updated = false;
    if (this.match < n) {
      this.match = n;
      updated = true;
      this.probeSent = false;
    }
    this.next = Math.max(this.next, n + 1);
    return updated;
  }

  optimisticUpdate(n: number): void {
    this.next = n + 1;
  }

  /**
   * A follower rejected the MsgApp after `rejected` and has `last` as its last index; true when `next`
   * moved back (a stale rejection changes nothing).
   */
  maybeDecrTo(rejected: number, last: number): boolean {
    if (this.state === 'StateReplicate') {
      if (rejected <= this.match) return false;
      this.next = this.match + 1;
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    this.next = Math.max(1, Math.min(rejected, last + 1));
    this.probeSent = false;
    return true;
  }

  isPaused(): boolean {
    switch (this.state) {
      case 'StateProbe': return this.probeSent;
      case 'StateReplicate': return this.inflights.length >= this.maxInflight;
      case 'StateSnapshot': return true;
    }
  }

  addInflight(last: number): void {
    this.inflights.push(last);
  }

  /** Frees the MsgApps acknowledged by an answer up to `to`. */
  freeInflightsTo(to: number): void {
    let i = 0;
    while (i < this.inflights.length && this.inflights[i]! <= to) i++;
    this.inflights.splice(0, i);
  }

  /** A heartbeat answer frees one slot of a full window, so a lost MsgApp cannot stall the follower. */
  freeFirstInflight(): void {
    this.inflights.shift();
  }

  get inflightFull(): boolean {
    return this.inflights.length >= this.maxInflight;
  }
}
