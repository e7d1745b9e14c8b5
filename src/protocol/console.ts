// The console, the YAML editor and the logs panel: commands that run a kubectl or etcdctl command line
// as the user component (every request it makes is a message in the trace), and the events that carry
// its output and the request logs back. Output arrives in chunks as the simulation delivers replies: a
// command's output is complete once an event with `done` arrives.

import type { Fault } from '../sim/messages/index.ts';

/**
 * Runs one command line: `kubectl …` or `etcdctl …`. `stdin` is what `-f -` reads (the editor's text).
 * `id` is chosen by the UI and names the command's output events.
 */
export interface ConsoleRunCommand {
  readonly type: 'consoleRun';
  readonly id: number;
  readonly line: string;
  readonly stdin?: string;
}

/** Ctrl-C: ends a running command (a `-w` watch sends `http.cancel` / closes its etcd watch stream). */
export interface ConsoleInterruptCommand {
  readonly type: 'consoleInterrupt';
  readonly id: number;
}

/** Where a problem with a manifest sits: a position, or the object (by the line it starts on) and a field. */
export interface ManifestProblem {
  /** 1-based line where the object the problem belongs to starts. */
  readonly objectLine?: number;
  /** The field as the apiserver names it: `spec.template.spec.containers[0].image`. */
  readonly field?: string;
  /** 1-based, when the position itself is known (YAML syntax, kind errors). */
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  /** The HTTP status when the server answered (409, 422, 403, 404…); absent for client-side errors. */
  readonly code?: number;
  /** The Status reason: `Invalid`, `Conflict`, `Forbidden`, `NotFound`… */
  readonly reason?: string;
}

/** A stretch of a command's output on one stream. */
export interface ConsoleChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

export interface ConsoleOutputEvent {
  readonly type: 'consoleOutput';
  readonly id: number;
  /** Everything printed to standard output since the last event (the text of `chunks` on that stream). */
  readonly stdout: string;
  readonly stderr: string;
  /** The same output in the order it was printed, as a terminal shows it (a warning before the table it precedes). */
  readonly chunks: readonly ConsoleChunk[];
  /** True on the last event of the command. */
  readonly done: boolean;
  /** Set with `done`: 0 on success, as the real tool exits. */
  readonly exitCode?: number;
  /** Problems located in the manifest read with `-f -` (for the editor's markers). */
  readonly problems?: readonly ManifestProblem[];
}

export type LogSource = 'kubectl' | 'etcd' | 'audit';

export interface LogLine {
  readonly source: LogSource;
  /** The engine step of the delivery that produced the line. */
  readonly step: number;
  /** The line as the real program prints it. */
  readonly text: string;
  /** etcd: the RPC (`Range`, `Txn`, `Put`…); kubectl and audit: the HTTP verb. */
  readonly rpc?: string;
  /** etcd: the first key of the request; kubectl and audit: the request path. */
  readonly key?: string;
  /** etcd: a response larger than the expensive-request thresholds. */
  readonly expensive?: boolean;
}

/** New log lines since the last event (a bounded tail; `omitted` counts what was left out). */
export interface LogLinesEvent {
  readonly type: 'logLines';
  readonly lines: readonly LogLine[];
  readonly omitted: number;
}

/** At most this many log lines travel in one `logLines` event while the Logs panel is shown. */
export const logTailLimit = 500;

/**
 * The log lines the page keeps (the newest). While the Logs panel is hidden the worker keeps this many
 * instead of shipping them, and ships them in one `logLines` event when the panel is shown again: the
 * panel then holds what it would have held had the lines travelled all along.
 */
export const logPageLimit = 3000;

/**
 * Whether the page shows its Logs panel (sent when the panel is shown or hidden). The page's own worker
 * starts with it hidden and ships no log lines until it is shown; a server's cluster, watched by any
 * number of pages, ships them always and takes the command as a no-op.
 */
export interface LogsShownCommand {
  readonly type: 'logsShown';
  readonly shown: boolean;
}

/** A fault to inject (the model's `Fault`, src/sim/faults.ts): a user action on the timeline. */
export type FaultSpec = Fault;

export interface FaultCommand {
  readonly type: 'fault';
  readonly fault: FaultSpec;
}
