// The pod versions written since the keyspace was mirrored, so a seek's pods come from here rather than from
// etcd (where an old value is rebuilt from its deltas and decoded again) and a revision etcd has compacted
// still shows its pods. Versions written since the retained steps began keep their values (each decoded at
// most once, when first asked for); the one in place when they began keeps its chip; older ones keep only what
// their chip needs, as three small integers each — revision,
// create revision and a shape (node, phase, STATUS, ready, deleting: shared by every pod in that state on
// that node; the name comes from the key). Past `agedVersionLimit` aged versions the oldest half are
// forgotten, and the history answers from a later revision on (`from`: a replacement of pods it no longer
// knows says so, PodsEvent.keptFrom).

import type { KeyChange, PodChip } from '../protocol/index.ts';
import { podChip } from './pods.ts';
import { partitionPoint } from './sorted.ts';

const podPrefix = '/registry/pods/';

/** Versions noted between prunes (a prune turns those no retained revision reads into shapes). */
export const podPruneEvery = 4096;

/**
 * Aged versions kept at most. Each is three small integers in its key's array (~12–18 bytes), so the bound is
 * ~16 MiB: a 150,000-Pod rollout writes ~6 versions a Pod, so a seek anywhere into it finds its pods here.
 */
export const agedVersionLimit = 1_000_000;

/**
 * One version of a pod's key kept whole: its value (null: deleted, or let go once its chip is made) and, once
 * asked for, its chip.
 */
interface PodVersion {
  readonly revision: number;
  readonly createRevision: number;
  value: string | null;
  chip?: PodChip | null;
}

interface KeyHistory {
  /** Versions older than the retained steps as (revision, createRevision, shape) triples in revision order; null: none. */
  aged: number[] | null;
  /** The versions after them, whole, in revision order (never empty: a prune leaves the last one). */
  readonly whole: PodVersion[];
}

/** What a chip holds beyond its key and create revision. */
interface Shape {
  readonly node: string | null;
  readonly phase: string;
  readonly status: string;
  readonly ready: boolean;
  readonly deleting: boolean;
  /** Set only when the stored pod's namespace and name are not its key's (never, as kube-apiserver stores pods). */
  readonly identity?: { readonly namespace: string; readonly name: string };
}

/** The shape id of a version with no pod (deleted, or a value that is not a pod). */
const noPod = -1;

/** Interned shapes: a shape's id is its place in `list`. */
class ChipShapes {
  private readonly ids = new Map<string, number>();
  private readonly list: Shape[] = [];

  idOf(key: string, chip: PodChip | null): number {
    if (!chip) return noPod;
    const { namespace, name } = identityOf(key);
    const own = chip.namespace === namespace && chip.name === name ? '' : `${chip.namespace}/${chip.name}`;
    const text = `${chip.node ?? ''}\u0000${chip.node === null ? 0 : 1}${chip.ready ? 1 : 0}${chip.deleting ? 1 : 0}\u0000${chip.phase}\u0000${chip.status}\u0000${own}`;
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.list.length;
      this.ids.set(text, id);
      const { node, phase, status, ready, deleting } = chip;
      this.list.push(own ? { node, phase, status, ready, deleting, identity: { namespace: chip.namespace, name: chip.name } } : { node, phase, status, ready, deleting });
    }
    return id;
  }

  chip(key: string, id: number, createRevision: number): PodChip | null {
    if (id === noPod) return null;
    const { node, phase, status, ready, deleting, identity } = this.list[id]!;
    const { namespace, name } = identity ?? identityOf(key);
    // One literal (a seek builds up to every pod's chip: a spread here costs several times as much).
    return { key, namespace, name, node, phase, status, ready, deleting, createRevision };
  }
}

/** The namespace and name a pod key names: /registry/pods/<namespace>/<name>. */
function identityOf(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/', podPrefix.length);
  return slash < 0 ? { namespace: '', name: key.slice(podPrefix.length) } : { namespace: key.slice(podPrefix.length, slash), name: key.slice(slash + 1) };
}

export class PodHistory {
  private readonly keys = new Map<string, KeyHistory>();
  private readonly shapes = new ChipShapes();
  private added = 0;
  private agedCount = 0;
  /** Versions before the one in place at this revision keep their shapes only. */
  private retainedFrom: number;
  /** The oldest revision answered: what etcd held at it is noted first, or where forgetting left it. */
  private oldest: number;

  /**
   * `from`: the oldest revision answered (what etcd held at it is noted first). `limit`: agedVersionLimit;
   * `pruneEvery`: versions noted between prunes (both smaller in tests: host/bounds.ts).
   */
  constructor(from: number, private readonly limit = agedVersionLimit, private readonly pruneEvery = podPruneEvery) {
    this.oldest = from;
    this.retainedFrom = from;
  }

  /** The oldest revision whose pods the history answers. */
  get from(): number {
    return this.oldest;
  }

  /** Versions kept as shapes only. */
  get aged(): number {
    return this.agedCount;
  }

  /** Versions that still hold their value (not yet decoded into a chip, or written after the retained steps' start). */
  valuesHeld(): number {
    let held = 0;
    for (const { whole } of this.keys.values()) for (const version of whole) if (version.value !== null) held++;
    return held;
  }

  /** Notes a write (of any key: other keys are ignored); writes come in revision order. */
  note(change: KeyChange): void {
    if (!change.key.startsWith(podPrefix)) return;
    let history = this.keys.get(change.key);
    if (!history) this.keys.set(change.key, (history = { aged: null, whole: [] }));
    history.whole.push(change.deleted
      ? { revision: change.modRevision, createRevision: 0, value: null }
      : { revision: change.modRevision, createRevision: change.createRevision, value: change.value });
    this.added++;
  }

  /**
   * The chip of the version of `key` written at `revision`, when the history holds that very version (a
   * whole one is decoded once, then kept); undefined when it does not (older than it reaches, or forgotten).
   */
  versionChip(key: string, revision: number): PodChip | null | undefined {
    const history = this.keys.get(key);
    if (!history || revision < this.oldest) return undefined;
    const whole = versionAt(history.whole, revision);
    if (whole?.revision === revision) return chipOf(key, whole);
    const { aged } = history;
    const at = aged ? agedAt(aged, revision) : -1;
    return at >= 0 && aged![at] === revision ? this.agedChip(key, aged!, at) : undefined;
  }

  /** The pods at `revision`, in key order; null below the oldest revision kept. */
  at(revision: number): PodChip[] | null {
    if (revision < this.oldest) return null;
    const chips: PodChip[] = [];
    for (const [key, history] of this.keys) {
      const chip = this.chipIn(key, history, revision);
      if (chip) chips.push(chip);
    }
    // In key order, as a snapshot's entries are.
    return chips.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /**
   * The chip of `key` at `revision` (null: no pod then, or not a pod); undefined below the oldest revision
   * kept, where the history cannot say.
   */
  chipAt(key: string, revision: number): PodChip | null | undefined {
    if (revision < this.oldest) return undefined;
    const history = this.keys.get(key);
    return history ? this.chipIn(key, history, revision) : null;
  }

  /**
   * Keeps only the shape of each version no revision from `revision` on reads (each key keeps its version
   * in place at it whole), now and then: after `podPruneEvery` notes since the last prune. A shape is what an
   * older revision's pods need; the value is what etcd may have compacted and the trace no longer shows.
   */
  prune(revision: number): void {
    if (this.added < this.pruneEvery || revision <= this.retainedFrom) return;
    this.added = 0;
    this.retainedFrom = revision;
    for (const [key, history] of this.keys) {
      const { whole } = history;
      let i = 0;
      while (i + 1 < whole.length && whole[i + 1]!.revision <= revision) i++;
      // The version in place at `revision` is read from then on only as its chip: its value (a whole pod, ~2 KB,
      // which etcd itself by now keeps as a small delta) need not stay.
      const inPlace = whole[i]!;
      if (inPlace.revision <= revision && inPlace.value !== null) {
        chipOf(key, inPlace);
        inPlace.value = null;
      }
      if (i === 0) continue;
      const aged = history.aged ?? (history.aged = []);
      for (let j = 0; j < i; j++) {
        const version = whole[j]!;
        aged.push(version.revision, version.createRevision, this.shapes.idOf(key, chipOf(key, version)));
      }
      whole.splice(0, i);
      this.agedCount += i;
    }
    if (this.agedCount > this.limit) this.forget();
  }

  private chipIn(key: string, history: KeyHistory, revision: number): PodChip | null {
    const { whole, aged } = history;
    if (whole[0]!.revision <= revision) return chipOf(key, versionAt(whole, revision)!);
    const at = aged ? agedAt(aged, revision) : -1;
    return at < 0 ? null : this.agedChip(key, aged!, at);
  }

  /** The chip of the aged triple at `at` of `key`'s (revision, createRevision, shape). */
  private agedChip(key: string, aged: readonly number[], at: number): PodChip | null {
    return this.shapes.chip(key, aged[at + 2]!, aged[at + 1]!);
  }

  /**
   * Forgets the oldest half of the aged versions: the history then answers from the revision that splits
   * them, each key keeping its version in place there, and a pod deleted by then not at all.
   */
  private forget(): void {
    const revisions = new Float64Array(this.agedCount);
    let n = 0;
    for (const { aged } of this.keys.values()) if (aged) for (let i = 0; i < aged.length; i += 3) revisions[n++] = aged[i]!;
    revisions.sort();
    const from = revisions[Math.floor(n / 2)] ?? this.oldest;
    if (from <= this.oldest) return;
    this.oldest = from;
    this.agedCount = 0;
    for (const [key, history] of this.keys) {
      const { aged, whole } = history;
      // The version in place at `from` (the last at or before it) stays; older ones go.
      if (aged) {
        const at = whole[0]!.revision <= from ? aged.length : agedAt(aged, from);
        if (at > 0) aged.splice(0, at);
        if (aged.length === 0) history.aged = null;
        this.agedCount += aged.length / 3;
      }
      const only = whole[0]!;
      if (!history.aged && whole.length === 1 && only.createRevision === 0 && only.revision <= from) this.keys.delete(key);
    }
  }
}

/** The version of a key in place at `revision`, or undefined before its first. */
function versionAt(list: readonly PodVersion[], revision: number): PodVersion | undefined {
  const after = partitionPoint(list.length, (i) => list[i]!.revision <= revision);
  return after === 0 ? undefined : list[after - 1];
}

/** The index of the aged triple in place at `revision`, or -1 before the first. */
function agedAt(aged: readonly number[], revision: number): number {
  return (partitionPoint(aged.length / 3, (i) => aged[i * 3]! <= revision) - 1) * 3;
}

function chipOf(key: string, version: PodVersion): PodChip | null {
  if (version.chip !== undefined) return version.chip;
  if (version.value === null) return null;
  version.chip = podChip({ key, value: version.value, modRevision: version.revision, createRevision: version.createRevision });
  return version.chip;
}
