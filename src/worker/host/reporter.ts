// Reporting: what a host tells the page after every command, tick or chunk. Deliveries are collected as
// they happen and flushed as one `traceBatch` (bounded tail + count left out), after the keyspace diff,
// the console's output and logs and the new milestones, and before the tokens near the playhead that
// changed (`flights`, flights.ts), the timeline (if it moved), what the components hold (if it changed)
// and, always last, the `status`. It reads the stage and the play state; it runs nothing.

import type { KeyspaceDiffEvent, NothingAhead, SimStatus, StepLevel, TraceRecord, WorkerEvent } from '../../protocol/index.ts';
import { logPageLimit, playingTraceTailLimit, traceTailLimit } from '../../protocol/index.ts';
import { consoleOf } from '../console/console-of.ts';
import { FlightTracker, type FlightPosition } from '../flights.ts';
import { headFlightPosition } from '../host-viewer.ts';
import type { Stage } from './stage.ts';

/** How the position is moving: what the status says and how the tokens are drawn. */
export interface PlayState {
  readonly mode: SimStatus['mode'];
  /** Virtual ms per real ms. */
  readonly speed: number;
  /** Playing at a level coarser than 'internal' (one unit per paced tick), else null. */
  readonly playLevel: Exclude<StepLevel, 'internal'> | null;
  /** Playing at the head, how far the page's playhead may trail the reports (FlightPosition.trail; default 0). */
  readonly trail?: number;
  /** The last search for a step at a level that found none at the head, and the step where it ended. */
  readonly nothingAhead?: { readonly atStep: number; readonly found: NothingAhead } | null;
}

/** What one report flushed at the head: what a saved cluster must add (see HostJournal). */
export interface ReportedBatch {
  readonly records: readonly TraceRecord[];
  readonly changes: KeyspaceDiffEvent | null;
}

export class Reporter {
  /** Deliveries since the last flush: the newest ones, and how many there were in all. */
  private tail: TraceRecord[] = [];
  private delivered = 0;
  private postedTimeline = '';
  private readonly flights: FlightTracker;
  /** Whether log lines are shipped (the page's Logs panel is shown), and whether the next report ships what was kept while not. */
  private logsShown: boolean;
  private logsCatchUp = false;

  /** `logsShown`: whether log lines are shipped until `showLogs` says otherwise (a server's host ships them always). */
  constructor(private readonly stage: Stage, private readonly play: PlayState, private readonly post: (event: WorkerEvent) => void, logsShown = true) {
    this.flights = new FlightTracker(stage.annotate);
    this.logsShown = logsShown;
  }

  /**
   * The page's Logs panel was shown or hidden. While hidden no log lines are shipped and the newest
   * `logPageLimit` are kept (what the page keeps); the first report after it is shown ships them.
   */
  showLogs(shown: boolean): void {
    if (shown && !this.logsShown) this.logsCatchUp = true;
    this.logsShown = shown;
  }

  /** Starts collecting the deliveries of the stage's newly adopted cluster; the timeline is posted anew. */
  adopted(): void {
    this.tail = [];
    this.delivered = 0;
    this.postedTimeline = '';
    const { engine } = this.stage;
    engine.onDelivery((message) => {
      this.delivered++;
      this.tail.push(this.stage.annotate(engine.step, message));
      if (this.tail.length >= 2 * traceTailLimit) this.tail.splice(0, this.tail.length - traceTailLimit);
    });
  }

  /** The page's tokens were emptied (a `ready`): the flights shipped from now on are all it holds. */
  clearFlights(): void {
    this.flights.reset();
  }

  /** Flushes what changed since the last report (see the header); returns what it flushed of the head. */
  report(): ReportedBatch {
    const { timeline, cluster, story } = this.stage;
    const diff = this.stage.keyspaceTracker?.flush() ?? null;
    if (diff) this.post(diff);
    const console = consoleOf(cluster);
    for (const output of console.session.flush()) this.post(output);
    if (this.logsShown) {
      const logs = this.logsCatchUp ? console.logs.flush(logPageLimit) : console.logs.flush();
      if (logs) this.post({ type: 'logLines', ...logs });
      this.logsCatchUp = false;
    }
    const milestones = story.takeNew();
    if (milestones.length > 0) this.post({ type: 'story', replace: false, milestones });
    let records: TraceRecord[] = [];
    if (this.delivered > 0) {
      records = this.tail.slice(-(this.play.mode === 'playing' ? playingTraceTailLimit : traceTailLimit));
      this.post({ type: 'traceBatch', records, omitted: this.delivered - records.length });
      this.tail = [];
      this.delivered = 0;
    }
    const flights = this.flights.report(cluster.engine, this.flightPosition(), this.play.mode !== 'playing' || this.play.playLevel !== null);
    if (flights) this.post(flights);
    const key = `${timeline.position}/${timeline.head}/${timeline.markerStamp}`;
    if (key !== this.postedTimeline) {
      this.postedTimeline = key;
      this.post(timeline.event(cluster.engine.trace.firstStep - 1));
    }
    const insides = this.stage.insides.eventIfChanged(timeline.position);
    if (insides) this.post(insides);
    this.post({ type: 'status', status: this.status() });
    return { records, changes: diff };
  }

  /** The step shown, for the tokens drawn at it. */
  flightPosition(): FlightPosition {
    const { timeline, engine } = this.stage;
    if (timeline.live) {
      if (this.play.mode === 'playing' && this.play.playLevel === null) return headFlightPosition(engine, this.play.trail);
      return { step: engine.step, now: engine.now, sent: engine.lastMessageId, live: true, playhead: engine.now };
    }
    const sample = timeline.sample(timeline.position);
    return { step: timeline.position, now: sample.now, sent: sample.sent ?? Number.POSITIVE_INFINITY, live: false };
  }

  /** The status of the position shown: the live engine's at the head, the recorded one in the past. */
  status(): SimStatus {
    const { timeline, engine } = this.stage;
    const { mode, speed } = this.play;
    if (timeline.live) {
      const ahead = this.play.nothingAhead;
      const nothingAhead = ahead && ahead.atStep === engine.step ? { nothingAhead: ahead.found } : {};
      return { step: engine.step, now: engine.now, pending: engine.pending, idle: engine.idle, mode, speed, ...nothingAhead };
    }
    const sample = timeline.sample(timeline.position);
    return { step: timeline.position, now: sample.now, pending: sample.pending, idle: sample.idle, mode, speed };
  }
}
