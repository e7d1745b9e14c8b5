// The console's side in the worker: runs each command line (kubectl or etcdctl, and the filters of a
// pipe after it: pipe.ts) as a coroutine of the user component, so its requests are messages of the
// trace, and buffers the output until the host reports. A command runs as far as the engine has
// delivered its replies: its output grows as the user steps or plays. Ctrl-C interrupts a running
// command (a watch is cancelled on the wire). Errors inside a command (a model bug, a malformed reply)
// end that command with the error text; they never escape into the engine.

import type { ConsoleChunk, ConsoleOutputEvent, ManifestProblem } from '../../protocol/console.ts';
import type { Co, Engine, Message } from '../../sim/engine/index.ts';
import type { User } from '../../sim/user/user.ts';
import { closeWatch, runEtcdctl, watchOutput, type EtcdctlWatch } from './etcdctl.ts';
import { cancelWatch } from './http.ts';
import { parseKubectl } from './kubectl-args.ts';
import { runKubectl, type KubectlIO } from './kubectl.ts';
import { parsePodCommand, runPodCommand } from './kubectl-pods.ts';
import { parseRunCommand, runRun } from './kubectl-run.ts';
import { runCrane } from './crane.ts';
import { splitArgs } from '../../sim/go/shell.ts';
import type { LogCollector } from './logs.ts';
import { parsePipeline, type Pipe } from './pipe.ts';

interface Running {
  readonly id: number;
  /** What the command printed since the last flush, in the order it printed it. */
  chunks: ConsoleChunk[];
  problems: ManifestProblem[];
  done: boolean;
  exitCode: number;
  interrupted: boolean;
  /** An open kubectl watch request (for Ctrl-C). */
  watchRequest: number | null;
  /** An open etcdctl watch. */
  etcdWatch: EtcdctlWatch | null;
  /** True when something new is to be reported. */
  dirty: boolean;
  /** The filters after a `|` that stdout goes through, if any. */
  readonly pipe: Pipe | null;
}

export class ConsoleSession {
  private readonly running = new Map<number, Running>();
  private streams = 0;

  constructor(private readonly engine: Engine, private readonly user: User, private readonly logs: LogCollector | null, private readonly etcdMembers: readonly string[] = ['etcd']) {}

  /** Starts a command line; output is reported by `flush`. */
  run(id: number, line: string, stdin = ''): void {
    // A page reloaded over a restored cluster numbers its commands afresh: an old command still running
    // under the same id (a watch) gives way to the new one.
    const previous = this.running.get(id);
    if (previous && !previous.done) this.interrupt(id);
    this.running.delete(id);
    const pipeline = parsePipeline(line.trim());
    const pipe = 'pipe' in pipeline ? pipeline.pipe : null;
    const state: Running = { id, chunks: [], problems: [], done: false, exitCode: 0, interrupted: false, watchRequest: null, etcdWatch: null, dirty: true, pipe };
    this.running.set(id, state);
    if ('error' in pipeline) {
      this.err(state, pipeline.error);
      this.finish(state, pipeline.exitCode);
      return;
    }
    const trimmed = pipeline.command;
    const tool = trimmed.split(/\s+/)[0];
    if (tool === 'crane') {
      const result = runCrane(splitArgs(trimmed).slice(1));
      this.out(state, result.stdout);
      this.err(state, result.stderr);
      this.finish(state, result.exitCode);
      return;
    }
    if (tool !== 'kubectl' && tool !== 'etcdctl') {
      this.err(state, `${tool || line}: command not found (this console runs kubectl, etcdctl and crane; after a | grep, head and wc -l)\n`);
      this.finish(state, 127);
      return;
    }
    this.engine.spawn(this.user, this.guarded(state, tool === 'kubectl' ? this.kubectl(state, trimmed, stdin) : this.etcdctl(state, trimmed)));
  }

  /** Ctrl-C. */
  interrupt(id: number): void {
    const state = this.running.get(id);
    if (!state || state.done) return;
    state.interrupted = true;
    if (state.watchRequest !== null) cancelWatch({ user: this.user }, state.watchRequest);
    if (state.etcdWatch !== null) closeWatch({ user: this.user }, state.etcdWatch);
    this.err(state, '^C\n');
    this.finish(state, 130);
  }

  /** Lets open etcdctl watches see the responses delivered on their streams. */
  observe(message: Message): void {
    for (const state of this.running.values()) {
      if (state.done || state.etcdWatch === null) continue;
      const output = watchOutput(state.etcdWatch, message);
      if (!output) continue;
      this.out(state, output.stdout);
      this.err(state, output.stderr);
      state.dirty = true;
      if (output.done) this.finish(state, output.exitCode);
    }
  }

  /** Output since the last flush, one event per command that printed or finished. */
  flush(): ConsoleOutputEvent[] {
    const events: ConsoleOutputEvent[] = [];
    for (const state of this.running.values()) {
      if (!state.dirty) continue;
      const text = (stream: ConsoleChunk['stream']) => state.chunks.filter((c) => c.stream === stream).map((c) => c.text).join('');
      events.push({
        type: 'consoleOutput', id: state.id, stdout: text('stdout'), stderr: text('stderr'), chunks: state.chunks, done: state.done,
        ...(state.done ? { exitCode: state.exitCode } : {}),
        ...(state.problems.length > 0 ? { problems: state.problems } : {}),
      });
      state.chunks = [];
      state.problems = [];
      state.dirty = false;
      if (state.done) this.running.delete(state.id);
    }
    return events;
  }

  /** True while command `id` has not finished (an unknown id has). */
  isRunning(id: number): boolean {
    const state = this.running.get(id);
    return state !== undefined && !state.done;
  }

  /** Commands still running (waiting for replies or watching). */
  get active(): number {
    let n = 0;
    for (const s of this.running.values()) if (!s.done) n++;
    return n;
  }

  private io(state: Running, stdin: string, verbosity: number, impersonate: string | undefined): KubectlIO {
    const { engine, user, logs } = this;
    return {
      engine, user, stdin, verbosity,
      ...(impersonate !== undefined ? { impersonate } : {}),
      out: (text) => { if (!state.interrupted) { this.out(state, text); state.dirty = true; } },
      err: (text) => { if (!state.interrupted) { this.err(state, text); state.dirty = true; } },
      problem: (p) => { state.problems.push(p); state.dirty = true; },
      requestLog: (line, method, path) => logs?.kubectl(engine.step, line, method, path),
      get interrupted() { return state.interrupted; },
      watching: (requestId) => { state.watchRequest = requestId; },
    };
  }

  private *kubectl(state: Running, line: string, stdin: string): Co<number> {
    const pods = parsePodCommand(line);
    if (pods !== null) {
      if (!pods.ok) {
        this.err(state, pods.stderr);
        return 1;
      }
      return yield* runPodCommand(this.io(state, stdin, pods.command.verbosity, pods.command.as), pods.command);
    }
    const run = parseRunCommand(line);
    if (run !== null) {
      if (!run.ok) {
        this.err(state, run.stderr);
        return 1;
      }
      return yield* runRun(this.io(state, stdin, run.command.verbosity, run.command.as), run.command);
    }
    const parsed = parseKubectl(line);
    if (!parsed.ok) {
      this.err(state, parsed.stderr);
      return 1;
    }
    const { flags } = parsed.command;
    return yield* runKubectl(this.io(state, stdin, flags.verbosity, flags.as), parsed.command);
  }

  private *etcdctl(state: Running, line: string): Co<number | null> {
    const result = yield* runEtcdctl(this.io(state, '', 0, undefined), line, `etcdctl-${++this.streams}`, this.etcdMembers);
    if (typeof result === 'number') return result;
    state.etcdWatch = result;
    return null;
  }

  /** Runs a command body; a thrown error ends the command with its message instead of reaching the engine. */
  private *guarded(state: Running, body: Co<number | null>): Co<void> {
    try {
      const exit = yield* body;
      if (exit !== null && !state.interrupted) this.finish(state, exit);
    } catch (error) {
      this.err(state, `error: ${error instanceof Error ? error.message : String(error)}\n`);
      this.finish(state, 1);
    }
  }

  /** Standard output, through the pipe when the line has one. */
  private out(state: Running, text: string): void {
    write(state, 'stdout', state.pipe ? state.pipe.write(text) : text);
  }

  /** Standard error (a pipe's filters do not see it). */
  private err(state: Running, text: string): void {
    write(state, 'stderr', text);
  }

  /** Ends the command; with a pipe the filters see the end of their input and the last one's status is the line's. */
  private finish(state: Running, exitCode: number): void {
    if (state.done) return;
    state.done = true;
    state.exitCode = exitCode;
    if (state.pipe) {
      const end = state.pipe.end();
      write(state, 'stdout', end.text);
      if (!state.interrupted) state.exitCode = end.exitCode;
    }
    state.dirty = true;
  }
}

/** Appends to the command's output, joining a chunk to the previous one of the same stream. */
function write(state: Running, stream: ConsoleChunk['stream'], text: string): void {
  if (text === '') return;
  const last = state.chunks.at(-1);
  if (last?.stream === stream) state.chunks[state.chunks.length - 1] = { stream, text: last.text + text };
  else state.chunks.push({ stream, text });
}
