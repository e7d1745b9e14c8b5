// What a leader tracks of the whole membership: one Progress per voter, the votes of the current
// campaign, and the quorum arithmetic over both (the commit index a quorum has, whether a quorum was
// recently active, how a vote stands). The voters are fixed at start (no conf changes).
// Models raft/tracker/tracker.go (ProgressTracker, RecordVote, TallyVotes, Committed, QuorumActive) and
// raft/quorum/majority.go.

import { Progress } from './progress.ts';

type VoteResult = 'won' | 'lost' | 'pending';

export class ProgressTracker {
  /** Every voter's ID, ascending. */
  readonly voters: readonly number[];
  private readonly progress = new Map<number, Progress>();
  private votes = new Map<number, boolean>();

  constructor(voters: readonly number[], private readonly maxInflight: number) {
    this.voters = [...voters].sort((a, b) => a - b);
  }

  /** Fresh progress for every voter (`next` after `lastIndex`; `self` matches it) and no votes. */
  reset(self: number, lastIndex: number): void {
    this.votes = new Map();
    this.progress.clear();
    for (const id of this.voters) {
      const pr = new Progress(0, lastIndex + 1, this.maxInflight);
      if (id === self) pr.match = lastIndex;
      this.progress.set(id, pr);
    }
  }

  get(id: number): Progress | undefined {
    return this.progress.get(id);
  }

  /** The voters other than `self`, ascending. */
  others(self: number): number[] {
    return this.voters.filter((id) => id !== self);
  }

  get quorum(): number {
    return Math.floor(this.voters.length / 2) + 1;
  }

  resetVotes(): void {
    this.votes = new Map();
  }

  /** Records `id`'s vote (the first one counts) and tallies: a quorum granted, a quorum refused, or neither yet. */
  recordVote(id: number, granted: boolean): VoteResult {
    if (!this.votes.has(id)) this.votes.set(id, granted);
    let yes = 0;
    let no = 0;
    for (const v of this.votes.values()) {
      if (v) yes++;
      else no++;
    }
    if (yes >= this.quorum) return 'won';
    if (this.voters.length - no < this.quorum) return 'lost';
    return 'pending';
  }

  /** The highest index a quorum of voters has replicated. */
  committed(): number {
    const matches = [...this.progress.values()].map((p) => p.match).sort((a, b) => b - a);
    return matches[this.quorum - 1]!;
  }

  /**
   * Whether a quorum was active since the last check (`self` counts as active), then marks every other
   * voter inactive for the next period.
   */
  checkQuorumActive(self: number): boolean {
    this.progress.get(self)!.recentActive = true;
    const active = [...this.progress.values()].filter((p) => p.recentActive).length;
    for (const [id, pr] of this.progress) if (id !== self) pr.recentActive = false;
    return active >= this.quorum;
  }
}
