// The worker's bounds: the product's unless its name asks for the small ones (a page opened with
// `?bounds=small`), and a host built with them keeps that much trace and that few aged pod versions.

import { describe, expect, it } from 'vitest';
import { smallBoundsMark } from '../../protocol/index.ts';
import { agedVersionLimit, podPruneEvery } from '../pod-history.ts';
import { SimHost, type HostClock } from '../host.ts';
import { boundsOfWorker, productBounds, smallBounds } from './bounds.ts';

const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

describe('the worker\'s bounds', () => {
  it('are the product\'s unless the worker\'s name carries the small bounds\' mark', () => {
    expect(boundsOfWorker('podflow-sim')).toBe(productBounds);
    expect(boundsOfWorker('')).toBe(productBounds);
    expect(boundsOfWorker('podflow-sim-small-bounds')).toBe(productBounds);
    expect(boundsOfWorker(`podflow-sim ${smallBoundsMark}`)).toBe(smallBounds);
    expect(productBounds).toMatchObject({ traceRetention: 200_000, tracePayloadRetention: 50_000, agedPodVersions: agedVersionLimit, podPruneEvery });
  });

  it('bound a host\'s trace', () => {
    const host = new SimHost({ post: () => undefined, clock: stillClock, initial: { seed: 'bounds', nodes: 1 }, bounds: smallBounds });
    host.engine.run({ until: host.engine.now + 600_000, maxSteps: smallBounds.traceRetention + 500 });
    expect(host.engine.step).toBeGreaterThan(smallBounds.traceRetention);
    expect(host.engine.trace.lastStep - host.engine.trace.firstStep + 1).toBeLessThanOrEqual(smallBounds.traceRetention);
  });
});
