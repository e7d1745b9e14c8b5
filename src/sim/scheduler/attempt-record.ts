// Podflow's record of every scheduling attempt: each node's verdict from each Filter plugin, each
// feasible node's raw, normalized and weighted scores, the node selected, the FitError message and
// whether the binding succeeded; the UI's scheduler tab and the attempts hash read them. Attempts are
// appended, never overwritten (a record is replaced only to mark its binding's outcome).
// Models what schedule_one.go decides (framework.Diagnosis's NodeToStatusMap, prioritizeNodes'
// NodePluginScores), which kube-scheduler itself only logs at high verbosity.
//
// A record keeps the decision compact (per node the index of the rejecting Filter plugin, the scores in
// typed arrays, the node and plugin names shared between attempts) and builds the per-node records when
// they are read: at 500 nodes one attempt's node records would hold ~260 KiB.

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

/** One Score plugin's scores of the feasible nodes, in their order, as the framework returns them. */
export interface PluginScores {
  readonly plugin: { readonly name: string };
  readonly weight: number;
  readonly raw: readonly number[];
  readonly normalized: readonly number[];
}

/** Numbers kept exactly: bytes when every one is an integer from 0 to 255 (a normalized score is 0–100), 32-bit integers when every one is an integer, doubles otherwise. */
type Numbers = Uint8Array | Int32Array | Float64Array;

function pack(values: readonly number[]): Numbers {
  if (!values.every((v) => (v | 0) === v && !Object.is(v, -0))) return Float64Array.from(values);
  return values.every((v) => v >= 0 && v <= 255) ? Uint8Array.from(values) : Int32Array.from(values);
}

/** What one attempt decided about the nodes, compact. */
export interface AttemptDecision {
  /** The nodes in the snapshot's order. */
  readonly nodes: readonly string[];
  /** The Filter plugins' names, in order. */
  readonly filters: readonly string[];
  /** Per node, the index of the Filter plugin that rejected it, or -1 when it passed every one. */
  readonly failedAt: Int16Array;
  /** The rejecting plugin's reasons, one entry per rejected node, in node order. */
  readonly reasons: readonly (readonly string[])[];
  /** The Score plugins that ran, in order. */
  readonly scorePlugins: readonly { readonly plugin: string; readonly weight: number }[];
  /** Raw and normalized scores at [feasible node's place × plugins + plugin's place]. */
  readonly raw: Numbers;
  readonly normalized: Numbers;
}

/** The Filter phase's decision; with no feasible node it is the whole decision. */
export function filterDecision(nodes: readonly string[], filters: readonly string[], failedAt: Int16Array, reasons: readonly (readonly string[])[]): AttemptDecision {
  return { nodes, filters, failedAt, reasons, scorePlugins: [], raw: new Int32Array(0), normalized: new Int32Array(0) };
}

/** The Score plugins' names and weights, one frozen list per list of them (attempts share it). */
const scorePluginLists = new Map<string, AttemptDecision['scorePlugins']>();

function scorePluginsOf(scores: readonly PluginScores[]): AttemptDecision['scorePlugins'] {
  const key = scores.map((s) => `${s.plugin.name}:${s.weight}`).join(',');
  let list = scorePluginLists.get(key);
  if (list === undefined) {
    list = Object.freeze(scores.map((s) => Object.freeze({ plugin: s.plugin.name, weight: s.weight })));
    scorePluginLists.set(key, list);
  }
  return list;
}

/** Adds the Score plugins' results (over the feasible nodes) to a filter decision. */
export function scoredDecision(filtered: AttemptDecision, scores: readonly PluginScores[], feasible: number): AttemptDecision {
  const raw: number[] = new Array<number>(feasible * scores.length);
  const normalized: number[] = new Array<number>(feasible * scores.length);
  scores.forEach((s, p) => {
    for (let i = 0; i < feasible; i++) {
      raw[i * scores.length + p] = s.raw[i]!;
      normalized[i * scores.length + p] = s.normalized[i]!;
    }
  });
  return { ...filtered, scorePlugins: scorePluginsOf(scores), raw: pack(raw), normalized: pack(normalized) };
}

/** Every Filter plugin's record when it passes, in order, per list of plugin names (records are read-only). */
const passRecordsOf = new WeakMap<readonly string[], readonly PluginRecord[]>();

function passRecords(filters: readonly string[]): readonly PluginRecord[] {
  let records = passRecordsOf.get(filters);
  if (records === undefined) {
    records = Object.freeze(filters.map((plugin) => Object.freeze({ plugin, pass: true, reasons: Object.freeze([]) })));
    passRecordsOf.set(filters, records);
  }
  return records;
}

/** Everything one scheduling attempt decided. Its JSON is the plain record's (the attempts hash reads it). */
export class AttemptRecord {
  constructor(
    readonly pod: string,
    readonly uid: string,
    readonly attempt: number,
    readonly time: number,
    private readonly decision: AttemptDecision,
    readonly selected: string | null,
    readonly message: string,
    readonly bound: boolean,
  ) {}

  /** The same attempt with its binding's outcome. */
  settled(outcome: { readonly message?: string; readonly bound?: boolean }): AttemptRecord {
    return new AttemptRecord(this.pod, this.uid, this.attempt, this.time, this.decision, this.selected, outcome.message ?? this.message, outcome.bound ?? this.bound);
  }

  /** Every node's filter verdicts and, for the feasible ones, scores and weighted total (built on each read). */
  get nodes(): NodeRecord[] {
    const { nodes, filters, failedAt, reasons, scorePlugins, raw, normalized } = this.decision;
    const passed = passRecords(filters);
    const plugins = scorePlugins.length;
    let rejected = 0;
    let feasible = 0;
    return nodes.map((node, j) => {
      const failed = failedAt[j]!;
      if (failed >= 0) {
        const nodeFilters = [...passed.slice(0, failed), { plugin: filters[failed]!, pass: false, reasons: reasons[rejected++]! }];
        return { node, filters: nodeFilters, feasible: false, scores: [], finalScore: null };
      }
      const base = feasible++ * plugins;
      let finalScore = 0;
      const scores = scorePlugins.map(({ plugin, weight }, p) => {
        finalScore = finalScore + normalized[base + p]! * weight;
        return { plugin, weight, raw: raw[base + p]!, normalized: normalized[base + p]! };
      });
      return { node, filters: passed, feasible: true, scores, finalScore };
    });
  }

  toJSON(): unknown {
    const { pod, uid, attempt, time, nodes, selected, message, bound } = this;
    return { pod, uid, attempt, time, nodes, selected, message, bound };
  }
}

/** The attempts in order, at most `limit` of them: beyond it the oldest are dropped in chunks of a quarter, as the trace drops records. */
export class AttemptLog {
  readonly records: AttemptRecord[] = [];
  #dropped = 0;
  private lastNodes: readonly string[] = [];

  constructor(private readonly limit: number) {}

  /** The node names as given, or the previous attempt's equal array (attempts share it while the nodes stay). */
  sharedNodes(names: readonly string[]): readonly string[] {
    const last = this.lastNodes;
    if (last.length !== names.length || names.some((n, i) => n !== last[i])) this.lastNodes = names;
    return this.lastNodes;
  }

  record(record: AttemptRecord): void {
    this.records.push(record);
    if (this.records.length > this.limit) {
      const drop = Math.min(this.records.length, Math.max(this.records.length - this.limit, Math.ceil(this.limit / 4)));
      this.records.splice(0, drop);
      this.#dropped += drop;
    }
  }

  /** Attempts dropped from the front so far: `records[i]` is attempt number `dropped + i + 1` of all made. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Every attempt made, dropped ones included. */
  get total(): number {
    return this.#dropped + this.records.length;
  }

  /** Replaces a record still kept (searching from the newest: it is usually the last). */
  replace(record: AttemptRecord, next: AttemptRecord): void {
    const i = this.records.lastIndexOf(record);
    if (i >= 0) this.records[i] = next;
  }
}
