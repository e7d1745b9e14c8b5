// Background tasks: the worker host's long work (a replay for a fork, a reload, an opened cluster) run in
// time slices, so the worker stays responsive. One task runs at a time; it posts `progress` as it goes,
// and the commands handed to the host meanwhile wait in order until it ends (a `pause` stops playback at
// once as well). When a task ends the host reports and carries out the waiting commands.

import type { Command, ProgressTask, ProgressWords, WorkerEvent } from '../../protocol/index.ts';
import type { ReplayProgress } from '../replay.ts';
import type { HostClock } from './playback.ts';

/** A background task: a generator of progress, and what to do when it ends. */
export interface Task {
  readonly kind: ProgressTask;
  readonly words: ProgressWords;
  readonly run: Generator<ReplayProgress, void>;
  readonly done: () => void;
  readonly failed: () => void;
}

/** What the tasks call back into their host. */
export interface TaskHost {
  fail(command: null, error: unknown): void;
  /** After a task ended (done or failed): report, then carry out the waiting commands (`takeWaiting`). */
  settled(): void;
}

export class BackgroundTasks {
  private task: Task | null = null;
  private timer: unknown = null;
  /** Commands posted while a task ran; carried out in order when it ends. */
  private readonly waiting: Command[] = [];

  constructor(
    private readonly clock: HostClock,
    private readonly sliceMs: number,
    private readonly post: (event: WorkerEvent) => void,
    private readonly host: TaskHost,
  ) {}

  /** True while a task runs. */
  get busy(): boolean {
    return this.task !== null;
  }

  /** Keeps a command until the running task ends. */
  wait(command: Command): void {
    this.waiting.push(command);
  }

  /** The next waiting command, once no task runs. */
  takeWaiting(): Command | undefined {
    return this.task ? undefined : this.waiting.shift();
  }

  run(task: Task): void {
    this.task = task;
    this.post({ type: 'progress', task: task.kind, words: task.words, done: 0, total: 0, finished: false });
    this.pump();
  }

  /** Drops the running task (a new cluster replaces the one it was building). */
  cancel(): void {
    const task = this.task;
    if (!task) return;
    this.task = null;
    this.stopTimer();
    this.post({ type: 'progress', task: task.kind, words: task.words, done: 0, total: 0, finished: true });
  }

  stopTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly pump = (): void => {
    this.timer = null;
    const task = this.task;
    if (!task) return;
    const deadline = this.clock.now() + this.sliceMs;
    let last: ReplayProgress = { done: 0, total: 0 };
    try {
      for (;;) {
        const next = task.run.next();
        if (next.done) break;
        last = next.value;
        if (this.clock.now() >= deadline) {
          this.post({ type: 'progress', task: task.kind, words: task.words, done: last.done, total: last.total, finished: false });
          this.timer = this.clock.setTimeout(this.pump, 0);
          return;
        }
      }
      this.task = null;
      this.post({ type: 'progress', task: task.kind, words: task.words, done: last.total, total: last.total, finished: true });
      task.done();
    } catch (error) {
      this.task = null;
      this.post({ type: 'progress', task: task.kind, words: task.words, done: last.done, total: last.total, finished: true });
      this.host.fail(null, error);
      task.failed();
    }
    this.host.settled();
  };
}
