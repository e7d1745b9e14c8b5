// A page's own view of a driven host (host/driven-host.ts: the server's cluster). The pages
// attached to one server share its cluster, its timeline, its story and what each component holds; each
// looks at a step of its own. A page follows the head (the host's events reach it as they are posted) until
// it pauses, steps or seeks: it then holds a position on the shared timeline, served from the records
// (timeline-view.ts) to it alone, while the host's head events pass it by except the timeline (its head
// grows; the position is the page's) and the status (the page's step, paused). `play` (or any user action)
// shows it the head again and it follows on. The host's own position stays at the head.

import type { Command, FlightsEvent, SimStatus, TimelineEvent, WorkerEvent } from '../protocol/index.ts';
import { playheadMaxBehindMs, stepLevels } from '../protocol/index.ts';
import type { Engine } from '../sim/engine/index.ts';
import { FlightTracker, type FlightPosition } from './flights.ts';
import { requirePositiveInteger } from './host/hosted-cluster.ts';
import type { InsidesRecorder } from './insides.ts';
import type { KeyspaceTracker } from './keyspace.ts';
import { withPods } from './pods.ts';
import { inspect, type InspectedCluster } from './queries.ts';
import type { StoryRecord } from './story/record.ts';
import type { Timeline } from './timeline.ts';
import { TimelineView, type TimelineCursor } from './timeline-view.ts';

/** What a page's view reads of the host (`DrivenHost` and `SimHost` are). */
export interface ViewedHost {
  readonly timeline: Timeline;
  readonly story: StoryRecord;
  readonly engine: Engine;
  readonly keyspaceTracker: KeyspaceTracker | null;
  readonly insides: InsidesRecorder;
  readonly hostedCluster: InspectedCluster;
  /** The status at the host's position (the head). */
  status(): SimStatus;
}

/** A position on the host's timeline of the page's own (the host's timeline keeps the host's). */
class Cursor implements TimelineCursor {
  constructor(private readonly timeline: Timeline, public position: number) {}

  get head(): number {
    return this.timeline.head;
  }

  get live(): boolean {
    return this.position === this.timeline.head;
  }

  seek(step: number): void {
    // The timeline checks the step's range.
    this.timeline.sample(step);
    this.position = step;
  }

  revisionAt(step: number): number {
    return this.timeline.revisionAt(step);
  }

  stepOfRevision(revision: number): number | null {
    return this.timeline.stepOfRevision(revision);
  }
}

/** The whole view at `cursor`'s step, replacing what the page holds (but its story and its ready). */
export function viewEvents(host: ViewedHost, cursor: TimelineCursor, flightPosition: FlightPosition, status: SimStatus): WorkerEvent[] {
  const { timeline, story, engine } = host;
  const { position } = cursor;
  const annotate = story.annotate.bind(story);
  const events: WorkerEvent[] = [];
  const post = withPods((event) => events.push(event), () => host.keyspaceTracker);
  const view = new TimelineView(cursor, () => host, host.keyspaceTracker, post, annotate);
  post({ type: 'traceBatch', ...view.tailAt(position), replace: true });
  if (host.keyspaceTracker) post({ ...host.keyspaceTracker.at(cursor.revisionAt(position)), current: true });
  post(replacing(new FlightTracker(annotate).report(engine, flightPosition)));
  post(atPosition(timeline.event(engine.trace.firstStep - 1), cursor));
  const components = host.insides.at(position);
  post({ type: 'insides', step: position, retained: components !== null, replace: true, components: components ?? {} });
  post({ type: 'status', status });
  return events;
}

/** A flights report (or none) as a replacement of every flight the page holds. */
function replacing(report: FlightsEvent | null): FlightsEvent {
  return { type: 'flights', replace: true, added: report?.added ?? [], removed: [], stepped: [] };
}

/** The host's timeline event as a page at `cursor` sees it. */
function atPosition(event: TimelineEvent, cursor: TimelineCursor): TimelineEvent {
  return { ...event, position: cursor.position, live: cursor.position === event.head, revision: cursor.revisionAt(cursor.position) };
}

/**
 * Where the graph's tokens are when a page follows a driven head: trailing it by the longest flight
 * (playing), and by up to `trail` more (FlightPosition.trail).
 */
export function headFlightPosition(engine: Engine, trail = 0): FlightPosition {
  return { step: engine.step, now: engine.now, sent: engine.lastMessageId, live: true, playhead: engine.now - engine.longestLink(), trail };
}

/**
 * How far a page following a driven host at `speed` may trail its reports (FlightPosition.trail): its
 * playhead's bound, twice, so that a playhead skipping to that bound reaches a flight before the report
 * that drops it.
 */
export function followerTrail(speed: number): number {
  return 2 * speed * playheadMaxBehindMs;
}

/** The held position of a page: its cursor, the view served from it, and the flights it was shipped. */
interface Held {
  readonly cursor: Cursor;
  readonly view: TimelineView;
  readonly flights: FlightTracker;
}

export class PageViewer {
  private held: Held | null = null;
  /** Posts to this page as the host does: every keyspace change followed by its pods. */
  private readonly post: (event: WorkerEvent) => void;

  /** `send` delivers an event to this page alone. */
  constructor(private readonly host: ViewedHost, private readonly send: (event: WorkerEvent) => void) {
    this.post = withPods(send, () => host.keyspaceTracker);
  }

  /** True while the page follows the head (it has not paused, stepped or sought since it last played). */
  get following(): boolean {
    return this.held === null;
  }

  /** The step the page shows. */
  get position(): number {
    return this.held?.cursor.position ?? this.host.timeline.head;
  }

  /**
   * Carries out a command of this page that moves its view (answering it alone, errors included); false
   * for the host's commands. A user action shows the page the head again (then false: the host acts).
   */
  handle(command: Command): boolean {
    try {
      return this.execute(command);
    } catch (error) {
      this.send({ type: 'error', command: command.type, message: error instanceof Error ? error.message : String(error) });
      return true;
    }
  }

  /** A host event for every page, as this page gets it: as is while following, else only what its position leaves. */
  pass(event: WorkerEvent): void {
    const held = this.held;
    if (!held) {
      this.send(event);
      return;
    }
    switch (event.type) {
      case 'traceBatch':
      case 'keyspaceDiff':
      case 'keyspaceMove':
      case 'pods':
      case 'flights':
      case 'insides':
        return;
      case 'keyspaceSnapshot':
        if (!event.current) this.send(event);
        return;
      case 'timeline':
        this.send(atPosition(event, held.cursor));
        return;
      case 'status':
        this.send({ type: 'status', status: this.heldStatus(held.cursor) });
        return;
      default:
        this.send(event);
    }
  }

  private execute(command: Command): boolean {
    const { timeline, story } = this.host;
    switch (command.type) {
      case 'play':
        this.follow();
        return true;
      case 'pause':
        this.hold();
        break;
      case 'step':
        requirePositiveInteger('step count', command.count);
        this.hold().view.forward(command.count);
        break;
      case 'stepLevel': {
        if (!stepLevels.includes(command.level)) throw new RangeError(`level must be one of ${stepLevels.join(', ')}, got ${String(command.level)}`);
        const { cursor, view } = this.hold();
        const at = cursor.position;
        if (command.direction === 'back') {
          const to = story.previous(at, command.level);
          // Before the first step there is step 0 (nothing delivered), which every level shows.
          if (to !== null || (command.level === 'internal' && at > 0)) view.seek(to ?? 0);
        } else if (command.direction === 'forward') {
          view.forward((story.next(at, command.level, timeline.head) ?? timeline.head) - at);
        } else {
          throw new RangeError(`direction must be forward or back, got ${String(command.direction)}`);
        }
        break;
      }
      case 'stepBack': {
        requirePositiveInteger('step-back count', command.count);
        const { cursor, view } = this.hold();
        view.seek(Math.max(0, cursor.position - command.count));
        break;
      }
      case 'seek':
        this.hold().view.seek(command.step);
        break;
      case 'seekRevision': {
        const step = timeline.stepOfRevision(command.revision);
        if (step === null) throw new RangeError(`revision ${command.revision} was never reached (the newest is ${timeline.revisionAt(timeline.head)})`);
        this.hold().view.seek(step);
        break;
      }
      case 'inspect': {
        const step = this.position;
        this.send(inspect(this.host.hostedCluster, command.topics, { step, ...timeline.sample(step) }, command));
        return true;
      }
      case 'applyManifest':
      case 'userRequest':
      case 'consoleRun':
      case 'consoleInterrupt':
      case 'fault':
        this.follow();
        return false;
      default:
        return false;
    }
    this.reportHeld();
    return true;
  }

  /** Holds the page's view at the head (if it followed it) and returns the held position. */
  private hold(): Held {
    if (this.held) return this.held;
    const { host } = this;
    const cursor = new Cursor(host.timeline, host.timeline.head);
    const annotate = host.story.annotate.bind(host.story);
    // The head's writes not yet flushed are the host's to ship: a page's view only reads the history.
    const tracker = host.keyspaceTracker;
    const keyspace = tracker && { at: tracker.at.bind(tracker), between: tracker.between.bind(tracker), move: tracker.move.bind(tracker) };
    const flights = new FlightTracker(annotate);
    this.held = { cursor, view: new TimelineView(cursor, () => host, keyspace, this.post, annotate), flights };
    // The page holds the head's flights: they are replaced by the held step's at once.
    this.post(replacing(flights.report(host.engine, this.heldFlightPosition(cursor))));
    return this.held;
  }

  /** Shows the page the head again and lets the host's events reach it. */
  private follow(): void {
    if (!this.held) return;
    this.held = null;
    const { host } = this;
    const head = new Cursor(host.timeline, host.timeline.head);
    const status = host.status();
    for (const event of viewEvents(host, head, headFlightPosition(host.engine, followerTrail(status.speed)), status)) this.send(event);
  }

  /** After a move of the held position: its flights, timeline, insides and status. */
  private reportHeld(): void {
    const held = this.held!;
    const { cursor } = held;
    const { host } = this;
    const flights = held.flights.report(host.engine, this.heldFlightPosition(cursor));
    if (flights) this.post(flights);
    this.post(atPosition(host.timeline.event(host.engine.trace.firstStep - 1), cursor));
    const components = host.insides.at(cursor.position);
    this.post({ type: 'insides', step: cursor.position, retained: components !== null, replace: true, components: components ?? {} });
    this.post({ type: 'status', status: this.heldStatus(cursor) });
  }

  private heldFlightPosition(cursor: Cursor): FlightPosition {
    const sample = this.host.timeline.sample(cursor.position);
    return { step: cursor.position, now: sample.now, sent: sample.sent ?? Number.POSITIVE_INFINITY, live: false };
  }

  private heldStatus(cursor: Cursor): SimStatus {
    const sample = this.host.timeline.sample(cursor.position);
    return { step: cursor.position, now: sample.now, pending: sample.pending, idle: sample.idle, mode: 'paused', speed: this.host.status().speed };
  }
}
