// Podflow's record of every scheduling attempt: each node's verdict from each Filter plugin, each
// feasible node's raw, normalized and weighted scores, the node selected, the FitError message and
// whether the binding succeeded; the UI's scheduler tab and the attempts hash read them. Attempts are
// appended, never overwritten (a record is replaced only to mark its binding's outcome).
// Models what schedule_one.go decides (framework.Diagnosis's NodeToStatusMap, prioritizeNodes'
// NodePluginScores), which kube-scheduler itself only logs at high verbosity.

/** One plugin's verdict on one node in one attempt. */
export interface PluginRecord {
  readonly plugin: string;
  readonly pass: boolean;
  readonly reasons: readonly string[];
}

export interface ScoreRecord {
  readonly plugin: string;
  readonly weight: number;
  readonly raw: number;
  readonly normalized: number;
}

export interface NodeRecord {
  readonly node: string;
  readonly filters: readonly PluginRecord[];
  readonly feasible: boolean;
  readonly scores: readonly ScoreRecord[];
  readonly finalScore: number | null;
}

/** Everything one scheduling attempt decided. */
export interface AttemptRecord {
  readonly pod: string;
  readonly uid: string;
  readonly attempt: number;
  readonly time: number;
  readonly nodes: readonly NodeRecord[];
  readonly selected: string | null;
  readonly message: string;
  readonly bound: boolean;
}

/** The attempts in order, at most `limit` of them: beyond it the oldest are dropped in chunks of a quarter, as the trace drops records. */
export class AttemptLog {
  readonly records: AttemptRecord[] = [];

  constructor(private readonly limit: number) {}

  record(record: AttemptRecord): void {
    this.records.push(record);
    if (this.records.length > this.limit) {
      this.records.splice(0, Math.max(this.records.length - this.limit, Math.ceil(this.limit / 4)));
    }
  }

  /** Replaces a record still kept (searching from the newest: it is usually the last). */
  replace(record: AttemptRecord, next: AttemptRecord): void {
    const i = this.records.lastIndexOf(record);
    if (i >= 0) this.records[i] = next;
  }
}
