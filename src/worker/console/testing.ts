// Test support: a console session over a whole booted cluster, with what each command printed.
// `run` starts a line and lets the cluster settle: until idle, or for `settleMs` of virtual time when the
// line leaves work running (a follow, a container that keeps going).

import { createCluster, type Cluster, type ClusterConfig } from '../../sim/cluster.ts';
import { LogCollector } from './logs.ts';
import { ConsoleSession } from './session.ts';

export interface ConsoleResult { stdout: string; stderr: string; exitCode: number | undefined; problems: unknown[] }

export function consoleOnCluster(config: Pick<ClusterConfig, 'seed' | 'nodes'>, settleMs?: number) {
  const cluster: Cluster = createCluster(config);
  cluster.boot();
  const logs = new LogCollector(cluster.apiserver.audit);
  const session = new ConsoleSession(cluster.engine, cluster.user, logs);
  cluster.engine.onDelivery((m) => { logs.observe(cluster.engine.step, m); session.observe(m); });
  const results = new Map<number, ConsoleResult>();
  const empty = (): ConsoleResult => ({ stdout: '', stderr: '', exitCode: undefined, problems: [] });
  const output = (id: number): ConsoleResult => {
    for (const e of session.flush()) {
      const result = results.get(e.id) ?? empty();
      results.set(e.id, result);
      result.stdout += e.stdout;
      result.stderr += e.stderr;
      result.problems.push(...(e.problems ?? []));
      if (e.done) result.exitCode = e.exitCode;
    }
    return results.get(id) ?? empty();
  };
  let id = 0;
  const start = (line: string, stdin = ''): number => {
    session.run(++id, line, stdin);
    return id;
  };
  const run = (line: string, stdin = ''): ConsoleResult => {
    const mine = start(line, stdin);
    if (settleMs === undefined) cluster.engine.runUntilIdle();
    else cluster.engine.runFor(settleMs);
    return output(mine);
  };
  return { cluster, session, logs, run, start, output };
}
