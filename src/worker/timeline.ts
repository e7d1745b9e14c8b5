// The timeline of the hosted cluster: what each step looked like to the UI (virtual time, queue length,
// idleness, etcd revision after it), the log of user commands with the step and virtual time each was
// applied at, markers for the UI, and the position the user is looking at. The deliveries themselves stay
// in the engine's own trace (bounded by its retention); a past step is a view assembled from these records,
// so looking back never touches the live simulation. See src/protocol/timeline.ts for the contract.

import type { LoggableCommand, LoggedCommand, TimelineEvent, TimelineMarker, TimelineMarkerKind } from '../protocol/index.ts';
import { timelineMarkerLimit } from '../protocol/index.ts';
import { float64Column, uint32Column, uint8Column } from './step-columns.ts';

/** `sents`' value for a step whose newest message is unknown. */
const unknownSent = 0xffff_ffff;

/** What the timeline reads after each delivery. */
export interface StepSample {
  readonly now: number;
  readonly pending: number;
  readonly idle: boolean;
  /** The etcd store's revision (0 in clusters without etcd). */
  readonly revision: number;
  /** The newest message id sent by then (what was in flight at the step); absent: unknown. */
  readonly sent?: number;
}

export class Timeline {
  /**
   * Index = step; entry 0 is the state before the first delivery. Typed columns (step-columns.ts): 21 bytes
   * a step, where JS arrays took 28 and up to half as much again in spare capacity (a 150,000-Pod run is
   * 40 million steps). Revisions and message ids fit 32 bits (a run reaches tens of millions).
   */
  private readonly times = float64Column();
  private readonly pendings = uint32Column();
  private readonly idles = uint8Column();
  private readonly revisions = uint32Column();
  private readonly sents = uint32Column();
  private readonly commandLog: LoggedCommand[] = [];
  /** Markers of user actions (commands, forks), and of errors: kept apart so a storm of errors never pushes user actions out. */
  private markerList: TimelineMarker[] = [];
  private errorMarkers: TimelineMarker[] = [];
  private positionStep = 0;
  bootSteps = 0;

  constructor(initial: StepSample) {
    this.push(initial);
  }

  get head(): number {
    return this.times.length - 1;
  }

  get position(): number {
    return this.positionStep;
  }

  get live(): boolean {
    return this.positionStep === this.head;
  }

  get log(): readonly LoggedCommand[] {
    return this.commandLog;
  }

  /** Every kept marker in step order: the newest user actions and the newest errors, each up to half the limit. */
  get markers(): readonly TimelineMarker[] {
    const half = timelineMarkerLimit / 2;
    const actions = this.markerList.slice(-half);
    const errors = this.errorMarkers.slice(-half);
    if (errors.length === 0) return actions;
    if (actions.length === 0) return errors;
    const merged: TimelineMarker[] = [];
    let i = 0;
    let j = 0;
    while (i < actions.length || j < errors.length) {
      if (j >= errors.length || (i < actions.length && actions[i]!.step <= errors[j]!.step)) merged.push(actions[i++]!);
      else merged.push(errors[j++]!);
    }
    return merged;
  }

  /** How many markers there are, and the step of the newest (for change detection). */
  get markerStamp(): string {
    return `${this.markerList.length}:${this.markerList.at(-1)?.step ?? -1}/${this.errorMarkers.length}:${this.errorMarkers.at(-1)?.step ?? -1}`;
  }

  /** Records the state after the newest delivery (the new head); a live timeline's position follows it. */
  record(sample: StepSample): void {
    const follow = this.live;
    this.push(sample);
    if (follow) this.positionStep = this.head;
  }

  sample(step: number): StepSample {
    this.requireStep(step);
    const sent = this.sents.at(step)!;
    return { now: this.times.at(step)!, pending: this.pendings.at(step)!, idle: this.idles.at(step) === 1, revision: this.revisions.at(step)!, ...(sent !== unknownSent ? { sent } : {}) };
  }

  /** Messages sent at the head after its delivery (a user command): they belong to the head's step. */
  noteSent(sent: number): void {
    this.sents.set(this.head, sent);
  }

  revisionAt(step: number): number {
    this.requireStep(step);
    return this.revisions.at(step)!;
  }

  /** The first step after which the store's revision is ≥ `revision`, or null if it never got there. */
  stepOfRevision(revision: number): number | null {
    const revisions = this.revisions;
    if (revisions.length === 0 || revisions.at(revisions.length - 1)! < revision) return null;
    let lo = 0;
    let hi = revisions.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (revisions.at(mid)! >= revision) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  seek(step: number): void {
    this.requireStep(step);
    this.positionStep = step;
  }

  /** Logs a command applied now, at the head, and marks it. */
  logCommand(command: LoggableCommand, at: number, label: string): void {
    this.commandLog.push({ step: this.head, at, command });
    this.mark(this.head, 'command', label);
  }

  /** Takes a command from a saved log (restore): logged as it was, and marked. */
  adoptCommand(entry: LoggedCommand, label: string): void {
    this.commandLog.push(entry);
    this.mark(entry.step, 'command', label);
  }

  mark(step: number, kind: TimelineMarkerKind, label: string): void {
    if (kind === 'error') {
      this.errorMarkers.push({ step, kind, label });
      if (this.errorMarkers.length > timelineMarkerLimit) this.errorMarkers = this.errorMarkers.slice(-timelineMarkerLimit / 2);
      return;
    }
    this.markerList.push({ step, kind, label });
    if (this.markerList.length > timelineMarkerLimit) this.markerList = this.markerList.slice(-timelineMarkerLimit / 2);
  }

  /**
   * Forgets everything after `step` (the fork point): later samples, commands logged after it and markers
   * after it. Commands logged *at* `step` are kept: they were applied before the next delivery, so they are
   * part of what the user saw at that step.
   */
  truncate(step: number): void {
    this.requireStep(step);
    for (const column of [this.times, this.pendings, this.idles, this.revisions, this.sents]) column.truncate(step + 1);
    const keep = this.commandLog.filter((entry) => entry.step <= step);
    this.commandLog.length = 0;
    this.commandLog.push(...keep);
    this.markerList = this.markerList.filter((marker) => marker.step <= step);
    this.errorMarkers = this.errorMarkers.filter((marker) => marker.step <= step);
    this.positionStep = step;
  }

  /** The `timeline` event for the current position. */
  event(retainedFrom: number): TimelineEvent {
    const position = this.positionStep;
    return {
      type: 'timeline',
      position,
      head: this.head,
      live: this.live,
      bootSteps: this.bootSteps,
      retainedFrom,
      markers: this.markers,
      revision: this.revisions.at(position)!,
    };
  }

  private push(sample: StepSample): void {
    this.times.push(sample.now);
    this.pendings.push(sample.pending);
    this.idles.push(sample.idle ? 1 : 0);
    this.revisions.push(sample.revision);
    this.sents.push(sample.sent ?? unknownSent);
  }

  private requireStep(step: number): void {
    if (!(Number.isInteger(step) && step >= 0 && step <= this.head)) throw new RangeError(`step must be an integer from 0 to ${this.head}, got ${step}`);
  }
}
