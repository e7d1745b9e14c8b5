// Test support: a SimHost on a manual clock, driven as the page drives it. `send` hands the host a
// command and then fires its timers (run-until-idle chunks, playback ticks) until none is left; `run`
// types a console line as the page does (`consoleRun`, then `runUntilCommandDone`) and returns its output.

import type { Command, ConsoleOutputEvent, SimStatus, WorkerEvent } from '../protocol/index.ts';
import { SimHost, type SimHostOptions } from './host.ts';

export function manualHost(options: Partial<Pick<SimHostOptions, 'pacing' | 'initial'>> = {}) {
  const events: WorkerEvent[] = [];
  const timers = new Map<number, () => void>();
  let nextTimer = 1;
  const host = new SimHost({
    post: (event) => events.push(event),
    clock: {
      now: () => 0,
      setTimeout: (callback) => { timers.set(nextTimer, callback); return nextTimer++; },
      clearTimeout: (handle) => { timers.delete(handle as number); },
    },
    ...options,
  });
  const settle = () => {
    for (let guard = 0; timers.size > 0; guard++) {
      if (guard > 10_000) throw new Error('the host keeps scheduling work');
      const [id, callback] = timers.entries().next().value!;
      timers.delete(id);
      callback();
    }
  };
  const send = (command: Command) => {
    host.handle(command);
    settle();
  };
  const status = (): SimStatus => {
    const last = events.filter((e) => e.type === 'status').at(-1);
    if (!last) throw new Error('no status yet');
    return last.status;
  };
  const output = (id: number) => {
    const chunks = events.filter((e): e is ConsoleOutputEvent => e.type === 'consoleOutput' && e.id === id);
    return { stdout: chunks.map((c) => c.stdout).join(''), stderr: chunks.map((c) => c.stderr).join(''), done: chunks.some((c) => c.done), exitCode: chunks.find((c) => c.done)?.exitCode };
  };
  const errors = () => events.filter((e) => e.type === 'error');
  const last = <T extends WorkerEvent['type']>(type: T) => events.filter((e): e is Extract<WorkerEvent, { type: T }> => e.type === type).at(-1);
  let consoleIds = 0;
  const run = (line: string) => {
    const id = ++consoleIds;
    send({ type: 'consoleRun', id, line });
    send({ type: 'runUntilCommandDone', id, maxMs: 600_000 });
    return output(id);
  };
  return { host, events, send, status, output, errors, last, run };
}
