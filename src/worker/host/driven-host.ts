// The driven host: the server's pieces of the page's host (src/server/cluster-host.ts). Someone else (the
// server's wall-clock pacing, the ClusterDriver) runs the cluster; this host runs nothing. It keeps the
// same stage (the cluster, its timeline, story, keyspace and insides) and the same reporter as the
// worker's host, reports what the driver's cluster did whenever `pulse` is called, and answers the same
// queries. Its own position is always the head: the commands that move a view (play, pause, step, step
// back, seek) are each page's (PageViewer, host-viewer.ts), those that would run, reset or rebuild the
// cluster are refused, and user actions are handed to the driver, which applies them at a clean instant
// and logs them (server-log.ts).

import type { Command, CommandType, LoggableCommand, SimStatus, WorkerEvent } from '../../protocol/index.ts';
import { applyUserCommand, describeUserCommand, loggable } from '../user-commands.ts';
import { followerTrail, viewEvents, type ViewedHost } from '../host-viewer.ts';
import { withPods } from '../pods.ts';
import { bootCluster } from '../replay.ts';
import { answer, answerTraceRange } from './answers.ts';
import type { ClusterSpec, HostedCluster } from './hosted-cluster.ts';
import { Reporter, type PlayState } from './reporter.ts';
import { Stage } from './stage.ts';

/** Whoever runs a driven host's cluster (the server, in step with the wall clock). */
export interface ClusterDriver {
  /**
   * Runs `apply` at the driver's next clean instant (every message due by then delivered). `apply` applies
   * `command` as the user component and logs it on the timeline; it reports its own failure and returns
   * whether the command was applied (only applied ones belong in the driver's log).
   */
  act(command: LoggableCommand, apply: () => boolean): void;
  /** Virtual ms per real ms of the driver's pacing (the status's speed). */
  readonly speed: number;
}

export interface DrivenHostOptions {
  readonly post: (event: WorkerEvent) => void;
  readonly spec: ClusterSpec;
  /** The driver's cluster, built and not yet booted: the host boots it, recording from step 0. */
  readonly cluster: HostedCluster;
  readonly driver: ClusterDriver;
}

/** The `error` message for a command a driven host does not carry out. */
function drivenRefusal(type: CommandType): string {
  return `${type} is not available while attached to a server: its cluster runs on the server's clock and serves real kubectl, so the page can watch it, step back through it and act on it, but not run, reset or rebuild it (go back to your in-browser cluster for that)`;
}

export class DrivenHost implements ViewedHost {
  private readonly post: (event: WorkerEvent) => void;
  private readonly stage: Stage;
  private readonly reporter: Reporter;
  private readonly driver: ClusterDriver;

  constructor(options: DrivenHostOptions) {
    this.post = withPods(options.post, () => this.stage.keyspaceTracker);
    this.driver = options.driver;
    // The pages get the reports over a socket, every pulse of the server's: late or in bursts under load.
    const play: PlayState = { mode: 'playing', speed: options.driver.speed, playLevel: null, trail: followerTrail(options.driver.speed) };
    this.stage = new Stage(this.post);
    this.reporter = new Reporter(this.stage, play, this.post);
    const prepared = this.stage.prepare(options.cluster);
    prepared.timeline.bootSteps = prepared.story.quietly(() => bootCluster(options.cluster));
    this.post(Stage.ready(options.spec, options.cluster, prepared.timeline.bootSteps));
    this.stage.adopt(options.spec, prepared);
    this.reporter.adopted();
    this.reporter.report();
  }

  /** Reports what the driver's cluster did since the last report. */
  pulse(): void {
    this.reporter.report();
  }

  /** Applies a logged command again (the driver replaying its log at the command's step and instant). */
  replayCommand(command: LoggableCommand): void {
    this.applyLogged(command);
  }

  /**
   * What a page that attaches now needs, from `ready` on: the view at the head, built afresh so that the
   * pages attached before (and the deltas they are sent) are not disturbed.
   */
  snapshot(): WorkerEvent[] {
    return [...this.stage.opening(), ...viewEvents(this, this.stage.timeline, this.reporter.flightPosition(), this.status())];
  }

  handle(command: Command): void {
    if (command.type === 'traceRange') {
      answerTraceRange(this.stage, command, this.post, this.status());
      return;
    }
    try {
      this.execute(command);
    } catch (error) {
      this.fail(command.type, error);
    }
    this.reporter.report();
  }

  get timeline(): ViewedHost['timeline'] {
    return this.stage.timeline;
  }

  get story(): ViewedHost['story'] {
    return this.stage.story;
  }

  get engine(): ViewedHost['engine'] {
    return this.stage.engine;
  }

  get keyspaceTracker(): ViewedHost['keyspaceTracker'] {
    return this.stage.keyspaceTracker;
  }

  get insides(): ViewedHost['insides'] {
    return this.stage.insides;
  }

  get hostedCluster(): HostedCluster {
    return this.stage.cluster;
  }

  status(): SimStatus {
    return this.reporter.status();
  }

  private execute(command: Command): void {
    const event = answer(this.stage, command);
    if (event) {
      this.post(event);
      return;
    }
    switch (command.type) {
      case 'play':
      case 'pause':
      case 'step':
      case 'stepLevel':
      case 'stepBack':
      case 'seek':
      case 'seekRevision':
        throw new Error(`${command.type} moves a page's own view (PageViewer): a driven host stays at its head`);
      case 'setSpeed':
      case 'runUntilIdle':
      case 'advance':
      case 'runUntilCommandDone':
      case 'measureScaleLesson':
      case 'reset':
      case 'fork':
        throw new Error(drivenRefusal(command.type));
      case 'applyManifest':
      case 'userRequest':
      case 'consoleRun':
      case 'consoleInterrupt':
      case 'fault':
        return this.act(loggable(command));
      case 'logsShown':
        // The cluster's log lines go to every page watching it, whichever panels each shows.
        return;
      default:
        throw new Error(`${command.type} needs saved clusters, which are not available in this worker`);
    }
  }

  /** Hands a user action to the driver, which applies it at its next clean instant. */
  private act(command: LoggableCommand): void {
    this.driver.act(command, () => {
      try {
        this.applyLogged(command);
        return true;
      } catch (error) {
        this.fail(command.type, error);
        return false;
      }
    });
  }

  private applyLogged(command: LoggableCommand): void {
    const { cluster, timeline, engine } = this.stage;
    applyUserCommand(cluster, command);
    timeline.logCommand(command, engine.now, describeUserCommand(command));
    timeline.noteSent(engine.lastMessageId);
  }

  /** Reports a failure as an `error` event and marks it on the timeline. */
  private fail(command: CommandType | null, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.stage.timeline.mark(this.stage.timeline.position, 'error', message.slice(0, 200));
    this.post({ type: 'error', command, message });
  }
}
