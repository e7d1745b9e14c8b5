// Answers: the commands that ask about the cluster and change nothing (a keyspace at a revision, a value
// described, the inspect panels, a cause chain, a tour's steps, a window of the trace). Both hosts answer
// them the same way from their stage, at the position shown; a window of the trace is answered even while
// the worker's host replays.

import type { Command, SimStatus, TraceRangeCommand, WorkerEvent } from '../../protocol/index.ts';
import { describeValue } from '../keyspace.ts';
import { causeChain, inspect } from '../queries.ts';
import { locateTour } from '../tour-locate.ts';
import type { Stage } from './stage.ts';

/** The answer to a query, or undefined when `command` is not one; throws what the query cannot answer. */
export function answer(stage: Stage, command: Command): WorkerEvent | undefined {
  const { timeline, engine } = stage;
  switch (command.type) {
    case 'keyspaceAt': {
      if (!stage.keyspaceTracker) throw new Error('this cluster has no etcd member to read');
      return stage.keyspaceTracker.at(command.revision);
    }
    case 'describeValue':
      return describeValue(command, (key, modRevision) => stage.keyspaceTracker?.valueAt(key, modRevision) ?? null);
    case 'inspect':
      return inspect(stage.cluster, command.topics, { step: timeline.position, ...timeline.sample(timeline.position) }, command);
    case 'causeChain':
      return causeChain(engine, command.id, stage.annotate);
    case 'tourLocate':
      return locateTour(command.tour, engine.trace, stage.annotate);
    default:
      return undefined;
  }
}

/**
 * A window of the trace (the sequence view scrolling): answered at once, even while a replay runs, from
 * the cluster the stage holds, and followed by the status alone — a query changes nothing to report or save.
 */
export function answerTraceRange(stage: Stage, command: TraceRangeCommand, post: (event: WorkerEvent) => void, status: SimStatus): void {
  try {
    post(stage.traceRange.answer(stage.engine, command, stage.story));
  } catch (error) {
    post({ type: 'error', command: command.type, message: error instanceof Error ? error.message : String(error) });
  }
  post({ type: 'status', status });
}
