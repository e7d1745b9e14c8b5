// One replay for the page and the server: the command log a page's session wrote is replayed by the
// worker's reload path (SimHost.restore, as from IndexedDB) and by the server's restart path
// (cluster.jsonl in --data-dir, replayed by ClusterHost on start, with and without the page's host), and
// every path arrives at the same step, clock and trace.

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Command, LoggedCommand } from '../protocol/index.ts';
import type { Engine } from '../sim/engine/index.ts';
import { FakeClock } from '../worker/fake-clock.ts';
import { SimHost } from '../worker/host.ts';
import { ClusterHost } from './cluster-host.ts';
import { ServerLog } from './server-log.ts';

const seed = 'one-replay';
const nodes = 2;
const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: late
`;

function traceHash(engine: Engine): string {
  const hash = createHash('sha256');
  for (const record of engine.trace.all()) hash.update(JSON.stringify(record)).update('\n');
  return hash.digest('hex');
}

function workerHost(): SimHost {
  return new SimHost({ post: () => undefined, clock: new FakeClock(), initial: { seed, nodes } });
}

/** A page's session: a console command run to its end, steps, a request mid-instant, a manifest. */
function pageSession(): SimHost {
  const host = workerHost();
  const commands: Command[] = [
    { type: 'consoleRun', id: 1, line: 'kubectl create deployment web --image=nginx --replicas=2' },
    { type: 'runUntilCommandDone', id: 1, maxMs: 60_000 },
    { type: 'step', count: 40 },
    { type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: '/x', value: 'y' } },
    { type: 'step', count: 7 },
    { type: 'applyManifest', yaml: configMap },
  ];
  for (const command of commands) host.handle(command);
  return host;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('one log, one replay', () => {
  it('replays a page session to the same step, clock and trace hash on the worker and on the server', { timeout: 300_000 }, () => {
    const session = pageSession();
    const log: readonly LoggedCommand[] = session.timeline.log;
    expect(log.map((entry) => entry.command.type)).toEqual(['consoleRun', 'userRequest', 'applyManifest']);
    const head = session.timeline.head;
    expect(log.at(-1)?.step).toBe(head);

    // The worker: a reload from IndexedDB restores by replay.
    const reloaded = workerHost();
    reloaded.restore({ seed, nodes }, log, head);
    expect(reloaded.busy).toBe(false);

    // The server: the same entries in cluster.jsonl, replayed on start.
    const dir = mkdtempSync(join(tmpdir(), 'podflow-one-replay-'));
    dirs.push(dir);
    const file = new ServerLog(dir, seed, nodes);
    file.begin(session.engine.epochMs);
    file.open();
    for (const entry of log) file.append(entry);
    const servers = [false, true].map((live) => new ClusterHost({ seed, nodes, dataDir: dir, fastForward: false, speed: 1, live }));

    const expected = { step: head, now: session.engine.now, trace: traceHash(session.engine) };
    for (const engine of [reloaded.engine, ...servers.map((server) => server.cluster.engine)]) {
      expect({ step: engine.step, now: engine.now, trace: traceHash(engine) }).toEqual(expected);
    }
    // The page's host on the server logged the replayed commands as the page did.
    expect(servers[1]!.live?.timeline.log).toEqual(log);
    expect(reloaded.timeline.log).toEqual(log);
  });
});
