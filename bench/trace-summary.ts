// Self time per trace event name and thread, from Chromium's trace (CDP `Tracing`, the devtools.timeline
// categories): where a CPU profile says only "(program)", the trace names the native work — style
// recalculation, layout, paint, a message's deserialization, garbage collection. Used by
// bench/ui-step-profile.ts with PODFLOW_PROFILE_TRACE=1.

import type { Cdp } from './cdp.ts';

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { readonly name?: string };
}

/** Records the trace between `start()` and `stop()` (browser-wide, over the DevTools protocol). */
export class TraceRecorder {
  private events: TraceEvent[] = [];
  private complete: (() => void) | null = null;

  constructor(private readonly cdp: Cdp) {
    cdp.on('Tracing.dataCollected', (params) => {
      for (const event of (params as { value: TraceEvent[] }).value) this.events.push(event);
    });
    cdp.on('Tracing.tracingComplete', () => this.complete?.());
  }

  async start(): Promise<void> {
    this.events = [];
    await this.cdp.send('Tracing.start', { categories: 'devtools.timeline,v8,blink,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  }

  /** Stops and summarises: the threads' self time by event name, largest first. */
  async stop(top: number): Promise<string[]> {
    const done = new Promise<void>((resolve) => (this.complete = resolve));
    await this.cdp.send('Tracing.end');
    await done;
    return summarizeTrace(this.events, top);
  }
}

/** Self time (an event's duration less its children's on the same thread) per thread and name. */
export function summarizeTrace(events: readonly TraceEvent[], top: number): string[] {
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const thread = `${e.pid}:${e.tid}`;
    const name = threadNames.get(thread) ?? '';
    if (name !== 'CrRendererMain' && !name.startsWith('DedicatedWorker')) continue;
    const list = byThread.get(thread);
    if (list) list.push(e);
    else byThread.set(thread, [e]);
  }
  const lines: string[] = [];
  for (const [thread, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const self = new Map<string, number>();
    const stack: { end: number; name: string }[] = [];
    for (const e of list) {
      while (stack.length > 0 && stack.at(-1)!.end <= e.ts) stack.pop();
      const parent = stack.at(-1);
      if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
      self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
      stack.push({ end: e.ts + e.dur!, name: e.name });
    }
    const busy = [...self.values()].reduce((a, b) => a + b, 0);
    lines.push(`  trace, ${threadNames.get(thread)}: ${(busy / 1000).toFixed(0)} ms in events, self time by event`);
    for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${(us / 1000).toFixed(1).padStart(9)} ms  ${name}`);
  }
  return lines;
}
