// Replay after reload equals the live run (replay-proof.ts) at a few nodes; `npm run bench -- replay` runs
// the same code at the flow bench's size.

import { describe, expect, it } from 'vitest';
import { liveRun, replayedRun } from './replay-proof.ts';

describe('replay after reload', () => {
  const size = { nodes: 3, pods: 12 };

  it('equals the live run: same steps, trace, keyspace and scheduler records', () => {
    const live = liveRun(size);
    expect(live.converged).toBe(true);
    expect(live.digest.available).toBe(12);
    expect(live.log.map((e) => e.command.type)).toEqual(['applyManifest', 'consoleRun']);
    // The console command was typed after a chunk that moved the clock past the last delivery.
    expect(live.log[1]!.at).toBeGreaterThan(0);
    expect(replayedRun(size, live.log, live.digest.step)).toEqual(live.digest);
  }, 300_000);

  it('tells runs apart: without the typed command the replay differs', () => {
    const live = liveRun(size);
    const replayed = replayedRun(size, live.log.slice(0, 1), live.digest.step);
    expect(replayed.step).toBe(live.digest.step);
    expect(replayed.trace).not.toBe(live.digest.trace);
  }, 300_000);

  it('stops when asked, and the replay still equals the run that far', () => {
    let chunks = 0;
    const live = liveRun(size, { stop: () => ++chunks > 1 });
    expect(live.converged).toBe(false);
    expect(live.digest.available).toBeLessThan(12);
    expect(replayedRun(size, live.log, live.digest.step)).toEqual(live.digest);
  }, 300_000);
});
