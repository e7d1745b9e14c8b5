// kube-scheduler's scheduling queue: every unassigned pod this scheduler is responsible for is in one of
// activeQ (waiting to be popped, first in first out), podBackoffQ (waiting out its back-off),
// unschedulablePods (failed; waiting for a cluster change or the 5 min flush), or in flight (popped,
// being scheduled or bound).
//
//   new pod ──▶ activeQ ──pop──▶ in flight ──bound──▶ (gone)
//                 ▲                 │ failed
//                 │                 ▼
//   backoff ends  podBackoffQ ◀── unschedulablePods ── a node added or changed, the pod updated,
//                 (or activeQ at once if its back-off is over)          or 5 min without an attempt
//
// Back-off doubles per attempt from 1 s to at most 10 s; a binding error goes back at once (through
// back-off), without waiting for a change.
// Models pkg/scheduler/internal/queue/scheduling_queue.go (PriorityQueue: Add, Update, Delete, Pop,
// AddUnschedulableIfNotPresent, MoveAllToActiveOrBackoffQueue, flushUnschedulablePodsLeftover,
// calculateBackoffDuration, isPodUpdated, PendingPods).
//
// PendingPods is asked after every delivery the scheduler takes (the page's insides), so the queue keeps its
// counts as pods move, and the unschedulable and in-flight pods apart, rather than walk every queued pod: at
// 150,000 pending Pods that walk was most of the simulation's time.
//
// Not modelled: priority order in activeQ (every pod has the same priority: first in, first out), the
// queueing hints that pick which pods an event moves (every change moves every unschedulable pod), and
// the gated pods' own queue (a gated pod is not added).

import type { Pod } from '../../../api/types/core.ts';
import type { ClientHost } from '../../../client/index.ts';
import type { Duration } from '../../../engine/index.ts';

export const queueDurations = {
  initialBackoff: 1000,
  maxBackoff: 10_000,
  unschedulableFlush: 5 * 60_000,
} as const;

/** framework.QueuedPodInfo: how often the pod was tried, until when it backs off, and where it is. */
export interface QueuedPodInfo {
  attempts: number;
  backoffUntil: number;
  /** Where it is: changed by the queue alone, which keeps its counts with it. */
  readonly state: QueueState;
  /** When it was queued (the queue's count of pods added): the order in which the queue goes through its pods. */
  readonly order: number;
}

type QueueState = 'active' | 'backoff' | 'unschedulable' | 'inflight';
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Models scheduling_queue.go isPodUpdated: an update moves an unschedulable pod only if something other
 * than its resourceVersion, generation, managedFields or status changed (so the scheduler's own
 * PodScheduled=False patch does not retry the pod).
 */
export function isPodUpdated(old: Pod, pod: Pod): boolean {
  const strip = (p: Pod) => {
    const { resourceVersion: _rv, generation: _g, managedFields: _mf, ...metadata } = p.metadata;
    return JSON.stringify({ metadata, spec: p.spec });
  };
  return strip(old) !== strip(pod);
}

export class SchedulingQueue {
  /** Every queued pod by `namespace/name`, in whichever of the queues it is. */
  private readonly pods = new Map<string, Writable<QueuedPodInfo>>();
  /**
   * activeQ's order from `activeHead` on: keys whose pod may have left activeQ since are skipped by pop. Popped
   * from a head index (the array's front is cut off in chunks): shifting a 150,000-key array moves it.
   */
  private activeQ: string[] = [];
  private activeHead = 0;
  /** How many queued pods are in each state. */
  private readonly counts: Record<QueueState, number> = { active: 0, backoff: 0, unschedulable: 0, inflight: 0 };
  /** The pods in unschedulablePods and in flight, by key (the few a node event or PendingPods looks at). */
  private readonly apart: Partial<Record<QueueState, Map<string, QueuedPodInfo>>> = { unschedulable: new Map(), inflight: new Map() };
  private added = 0;

  /** `onActive` runs whenever a pod enters activeQ (the scheduling loop waits for it). */
  constructor(private readonly clock: Pick<ClientHost, 'now' | 'after'>, private readonly onActive: () => void) {}

  /**
   * Add and Update: a new pod enters activeQ; an unschedulable one moves when the update changed more
   * than its status (an Add of a pod already queued has no old object: it moves).
   */
  update(key: string, pod: Pod, old: Pod | undefined): void {
    const q = this.pods.get(key);
    if (!q) {
      this.pods.set(key, { attempts: 0, backoffUntil: 0, state: 'active', order: this.added++ });
      this.counts.active++;
      this.activate(key);
    } else if (q.state === 'unschedulable' && (!old || isPodUpdated(old, pod))) {
      this.requeue(key, q);
    }
  }

  /** Delete, and Done for a bound pod: it leaves whichever queue it is in. */
  delete(key: string): void {
    const q = this.pods.get(key);
    if (!q) return;
    this.counts[q.state]--;
    this.apart[q.state]?.delete(key);
    this.pods.delete(key);
  }

  /** A node was added or changed: every unschedulable pod may fit now. */
  moveAllToActiveOrBackoffQueue(): void {
    // In the order the queue holds them, as a walk of every queued pod would meet them.
    const waiting = [...this.apart.unschedulable!].sort((a, b) => a[1].order - b[1].order);
    for (const [key, q] of waiting) this.requeue(key, q);
  }

  /** The next pod of activeQ, now in flight with one more attempt; undefined when activeQ is empty. */
  pop(): { readonly key: string; readonly info: QueuedPodInfo } | undefined {
    for (let key = this.shiftActive(); key !== undefined; key = this.shiftActive()) {
      const info = this.pods.get(key);
      if (!info || info.state !== 'active') continue;
      this.move(key, info, 'inflight');
      info.attempts++;
      return { key, info };
    }
    return undefined;
  }

  /**
   * A scheduling attempt failed: the pod backs off for 1 s doubled per attempt (at most 10 s) and waits
   * in unschedulablePods, flushed after 5 min if nothing moved it; `unschedulable` false (an error, not
   * a fit failure) sends it on through back-off at once.
   */
  addUnschedulableIfNotPresent(key: string, q: QueuedPodInfo, unschedulable: boolean): void {
    const backoff: Duration = Math.min(queueDurations.initialBackoff * 2 ** (q.attempts - 1), queueDurations.maxBackoff);
    q.backoffUntil = this.clock.now + backoff;
    this.move(key, q, 'unschedulable');
    const attempts = q.attempts;
    this.clock.after(queueDurations.unschedulableFlush, 'scheduler-flush-unschedulable', () => {
      if (this.pods.get(key) === q && q.state === 'unschedulable' && q.attempts === attempts) this.requeue(key, q);
    }, { background: true });
    if (!unschedulable) this.requeue(key, q);
  }

  /** PendingPods: the queues' lengths and the pod in flight (`namespace/name`, null for none). */
  pendingPods(): { active: number; backoff: number; unschedulable: number; scheduling: string | null } {
    // Of the pods in flight (one being scheduled, others binding), the one queued last.
    let scheduling: string | null = null;
    let order = -1;
    for (const [key, q] of this.apart.inflight!) {
      if (q.order > order) {
        scheduling = key;
        order = q.order;
      }
    }
    const { active, backoff, unschedulable } = this.counts;
    return { active, backoff, unschedulable, scheduling };
  }

  /** A restarted scheduler's queue starts empty. */
  clear(): void {
    this.pods.clear();
    this.activeQ = [];
    this.activeHead = 0;
    for (const state of Object.keys(this.counts) as QueueState[]) {
      this.counts[state] = 0;
      this.apart[state]?.clear();
    }
  }

  /**
   * Moves a pod to `state`, keeping the counts and the pods kept apart while it is queued (a pod deleted
   * while in flight comes back from its attempt no longer queued: only its own state changes).
   */
  private move(key: string, q: QueuedPodInfo, state: QueueState): void {
    const queued = this.pods.get(key) === q;
    if (queued) {
      this.counts[q.state]--;
      this.apart[q.state]?.delete(key);
    }
    (q as Writable<QueuedPodInfo>).state = state;
    if (queued) {
      this.counts[state]++;
      this.apart[state]?.set(key, q);
    }
  }

  /** Unschedulable → podBackoffQ (until its back-off ends) → activeQ. */
  private requeue(key: string, q: QueuedPodInfo): void {
    if (q.backoffUntil <= this.clock.now) {
      this.move(key, q, 'active');
      this.activate(key);
      return;
    }
    this.move(key, q, 'backoff');
    this.clock.after(q.backoffUntil - this.clock.now, 'scheduler-backoff', () => {
      if (this.pods.get(key) === q && q.state === 'backoff') {
        this.move(key, q, 'active');
        this.activate(key);
      }
    }, { background: true });
  }

  private shiftActive(): string | undefined {
    if (this.activeHead >= this.activeQ.length) return undefined;
    const key = this.activeQ[this.activeHead];
    // A popped key names its pod no longer (the pod may be deleted long before the front is cut off).
    this.activeQ[this.activeHead++] = '';
    if (this.activeHead >= 1024 && this.activeHead * 2 >= this.activeQ.length) {
      this.activeQ = this.activeQ.slice(this.activeHead);
      this.activeHead = 0;
    }
    return key;
  }

  private activate(key: string): void {
    this.activeQ.push(key);
    this.onActive();
  }
}
