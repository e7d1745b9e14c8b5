// What the console, the editor and the logs panel show: each command line run (its output as it
// arrives, its exit code, the manifest problems it reported) and the request log lines. Pure reducers
// over worker events; the sim store holds the state.

import type { ConsoleOutputEvent, LogLine, LogLinesEvent, ManifestProblem } from '../../protocol/index.ts';
import { logPageLimit } from '../../protocol/index.ts';

export interface OutputChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

export interface ConsoleEntry {
  readonly id: number;
  readonly line: string;
  /** Where the command came from: typed in the console, or an editor button. */
  readonly origin: 'console' | 'editor';
  readonly output: readonly OutputChunk[];
  readonly done: boolean;
  readonly exitCode: number | null;
  readonly problems: readonly ManifestProblem[];
}

export interface ActivityState {
  readonly entries: readonly ConsoleEntry[];
  readonly nextId: number;
  readonly logs: readonly LogLine[];
  /** Log lines the worker or this store dropped (oldest first). */
  readonly logsOmitted: number;
}

export const entryLimit = 200;

export const emptyActivity: ActivityState = { entries: [], nextId: 1, logs: [], logsOmitted: 0 };

/** Records a command about to be posted; returns the state and the command's id. */
export function startCommand(state: ActivityState, line: string, origin: ConsoleEntry['origin']): [ActivityState, number] {
  const id = state.nextId;
  const entry: ConsoleEntry = { id, line, origin, output: [], done: false, exitCode: null, problems: [] };
  return [{ ...state, nextId: id + 1, entries: [...state.entries, entry].slice(-entryLimit) }, id];
}

export function applyConsoleOutput(state: ActivityState, event: ConsoleOutputEvent): ActivityState {
  const i = state.entries.findIndex((e) => e.id === event.id);
  if (i < 0) return state;
  const entry = state.entries[i]!;
  const output = [...entry.output];
  output.push(...event.chunks);
  const next: ConsoleEntry = {
    ...entry, output, done: event.done,
    exitCode: event.exitCode ?? entry.exitCode,
    problems: event.problems ? [...entry.problems, ...event.problems] : entry.problems,
  };
  const entries = [...state.entries];
  entries[i] = next;
  return { ...state, entries };
}

export function applyLogLines(state: ActivityState, event: LogLinesEvent): ActivityState {
  const all = [...state.logs, ...event.lines];
  const dropped = Math.max(0, all.length - logPageLimit);
  return { ...state, logs: dropped > 0 ? all.slice(dropped) : all, logsOmitted: state.logsOmitted + event.omitted + dropped };
}

/** A new cluster: its logs start afresh; the console keeps its transcript (commands in flight are void). */
export function resetActivity(state: ActivityState): ActivityState {
  return {
    ...state, logs: [], logsOmitted: 0,
    entries: state.entries.map((e) => (e.done ? e : { ...e, done: true, output: [...e.output, { stream: 'stderr', text: 'the cluster was reset\n' }] })),
  };
}

export function entryText(entry: ConsoleEntry, stream?: OutputChunk['stream']): string {
  return entry.output.filter((c) => stream === undefined || c.stream === stream).map((c) => c.text).join('');
}
