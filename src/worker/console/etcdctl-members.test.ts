// The console's etcdctl against a 3-member model etcd: `--endpoints` names members, `endpoint status`,
// `endpoint health` and `member list` show every member as etcdctl 3.4.23 prints them (its printers are
// proven on recorded output in src/sim/etcd/etcdctl-cluster.test.ts), each response header carries the
// answering member's ID and current raft term, and with two members stopped the commands fail as they
// did against a real etcd (src/sim/etcd/testdata/etcdctl-cluster-3.4.23.ts): `context deadline exceeded` after the
// 5 s command timeout, the survivor's status reporting `etcdserver: no leader`.

import { describe, expect, it } from 'vitest';
import { createCluster } from '../../sim/cluster.ts';
import { hexId } from '../../sim/etcd/cluster.ts';
import type { EtcdServer } from '../../sim/etcd/server.ts';
import { etcdctlClusterTranscript } from '../../sim/etcd/testdata/etcdctl-cluster-3.4.23.ts';
import { consoleOf } from './console-of.ts';

interface Result { stdout: string; stderr: string; exitCode: number | undefined; ms: number }

function setup() {
  const cluster = createCluster({ seed: 'console-members', nodes: 1, etcdMembers: 3 });
  cluster.boot();
  const { session } = consoleOf(cluster);
  let id = 0;
  const run = (line: string): Result => {
    const mine = ++id;
    const start = cluster.engine.now;
    session.run(mine, line, '');
    const result: Result = { stdout: '', stderr: '', exitCode: undefined, ms: 0 };
    while (result.exitCode === undefined) {
      cluster.engine.runFor(100);
      for (const e of session.flush()) {
        if (e.id !== mine) continue;
        result.stdout += e.stdout;
        result.stderr += e.stderr;
        if (e.done) result.exitCode = e.exitCode;
      }
    }
    result.ms = cluster.engine.now - start;
    return result;
  };
  const members = cluster.etcdMembers as unknown as EtcdServer[];
  return { cluster, run, members };
}

const all = '--endpoints etcd-1:2379,etcd-2:2379,etcd-3:2379';

describe('etcdctl on three members', () => {
  it('endpoint status, member list and headers show every member, its ID, the leader and the term', () => {
    const { run, members } = setup();
    const leader = members.find((m) => m.raft!.state === 'StateLeader')!;
    const term = leader.raft!.term;
    const status = run(`etcdctl ${all} endpoint status`);
    expect(status.exitCode).toBe(0);
    const rows = status.stdout.split('\n').slice(0, -1).map((l) => l.split(', '));
    expect(rows.map((r) => r[0])).toEqual(['etcd-1:2379', 'etcd-2:2379', 'etcd-3:2379']);
    expect(rows.map((r) => r[1])).toEqual(members.map((m) => hexId(m.identity.memberId)));
    expect(rows.map((r) => r[4])).toEqual(members.map((m) => String(m === leader)));
    for (const r of rows) {
      expect(r.slice(5, 7)).toEqual(['false', String(term)]);
      expect(r[9]).toBe('');
    }
    expect(new Set(rows.map((r) => r[7])).size).toBe(1);
    const table = run(`etcdctl ${all} endpoint status -w table`).stdout.split('\n');
    expect(table[1]).toBe('|  ENDPOINT   |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |');
    const json = JSON.parse(run(`etcdctl ${all} endpoint status -w json`).stdout.replace(/(\d{16,})/g, '"$1"')) as Array<{ Status: { header: { member_id: string; raft_term: number }; leader: string } }>;
    expect(json.map((s) => s.Status.header.member_id)).toEqual(members.map((m) => m.identity.memberId));
    expect(json.map((s) => s.Status.leader)).toEqual(members.map(() => leader.identity.memberId));

    // --cluster: the endpoints are the members' client URLs from a MemberList, sorted by member ID.
    const sorted = [...members].sort((a, b) => (BigInt(a.identity.memberId) < BigInt(b.identity.memberId) ? -1 : 1));
    const cluster = run('etcdctl endpoint status --cluster').stdout.trimEnd().split('\n').map((l) => l.split(', ')[0]);
    expect(cluster).toEqual(sorted.map((m) => `http://${m.name}:2379`));
    expect(run('etcdctl member list').stdout).toBe(sorted.map((m) => `${hexId(m.identity.memberId)}, started, ${m.name}, http://${m.name}:2380, http://${m.name}:2379, false\n`).join(''));
    const list = run('etcdctl member list -w json').stdout;
    expect(list.startsWith(`{"header":{"cluster_id":${members[0]!.identity.clusterId},"member_id":${members[0]!.identity.memberId},"raft_term":${term}},"members":[`)).toBe(true);

    for (const m of members) {
      const put = run(`etcdctl --endpoints ${m.name}:2379 put a b -w json`).stdout;
      expect(put).toMatch(new RegExp(`^\\{"header":\\{"cluster_id":${m.identity.clusterId},"member_id":${m.identity.memberId},"revision":\\d+,"raft_term":${term}\\}\\}\\n$`));
    }
  });

  it('endpoint health: every member commits a proposal; with --cluster the client URLs', () => {
    const { run } = setup();
    const health = run(`etcdctl ${all} endpoint health`);
    expect(health.exitCode).toBe(0);
    expect(health.stdout).toBe('');
    const lines = health.stderr.trimEnd().split('\n');
    expect(lines.map((l) => l.split(' ')[0]).sort()).toEqual(['etcd-1:2379', 'etcd-2:2379', 'etcd-3:2379']);
    for (const l of lines) expect(l).toMatch(/^etcd-\d:2379 is healthy: successfully committed proposal: took = [\d.]+(ms|µs)$/);
    expect(run('etcdctl endpoint health --cluster -w json').stdout).toMatch(/^\[(\{"endpoint":"http:\/\/etcd-\d:2379","health":true,"took":"[\d.]+ms"\},?){3}\]\n$/);
  });

  it('with two members stopped: writes and health time out, status reports the survivor without a leader', () => {
    const { run, cluster, members } = setup();
    const survivor = members.find((m) => m.raft!.state === 'StateLeader')!;
    const term = survivor.identity.raftTerm;
    for (const m of members) if (m !== survivor) cluster.faults.stopEtcdMember(m.name);
    cluster.engine.runFor(3000);
    expect(survivor.raft!.lead).toBe(0);
    const put = run(`etcdctl --endpoints ${survivor.name}:2379 put x y`);
    expect(put).toMatchObject({ exitCode: 1, stdout: '', stderr: 'Error: context deadline exceeded\n' });
    // The run loop steps 100 ms at a time: the command ends in the step after its 5 s timeout.
    expect(put.ms).toBeGreaterThanOrEqual(5000);
    expect(put.ms).toBeLessThanOrEqual(5100);
    // A longer command timeout lets the member's own answer through at its request timeout (7 s): with
    // no leader the proposal never left raft's node, and etcd returns the context's error as is.
    const long = run(`etcdctl --endpoints ${survivor.name}:2379 --command-timeout 10s put x y`);
    expect(long).toMatchObject({ exitCode: 1, stderr: 'Error: rpc error: code = Unknown desc = context deadline exceeded\n' });
    expect(long.ms).toBeLessThanOrEqual(7100);
    expect(run(`etcdctl --endpoints ${survivor.name}:2379 get x --consistency s -w json`).stdout).toMatch(new RegExp(`^\\{"header":\\{"cluster_id":\\d+,"member_id":${survivor.identity.memberId},"revision":\\d+,"raft_term":${term}\\}\\}\n$`));
    const health = run(`etcdctl ${all} endpoint health -w json`);
    expect(health.exitCode).toBe(1);
    const parsed = JSON.parse(health.stdout) as Array<{ endpoint: string; health: boolean; took: string; error: string }>;
    expect(parsed.map((h) => [h.health, h.took, h.error])).toEqual([[false, '5s', 'context deadline exceeded'], [false, '5s', 'context deadline exceeded'], [false, '5s', 'context deadline exceeded']]);
    // Each endpoint's own client logs its failed attempt as the real one did (recorded: the survivor's Get
    // timed out, the stopped members' balancers had no connection); only the time and client IDs differ.
    const warnings = health.stderr.split('\n').filter((l) => l.startsWith('{'));
    expect(health.stderr).toBe(`${warnings.join('\n')}\nError: unhealthy cluster\n`);
    const recordedWarnings = /endpoint health -w json\nEXIT 1\nOUT:\n.*\n\nERR:\n((?:\{.*\n)+)/.exec(etcdctlClusterTranscript)![1]!.trimEnd().split('\n');
    const survivorEndpoint = /"endpoint":"([^"]+)","health":false,"took":"[^"]+","error":"context deadline exceeded"\}/.exec(etcdctlClusterTranscript)![1]!;
    const shape = (l: string, survivorAt: string): string => l.replace(/"ts":"[^"]+"/, '"ts":"…"')
      .replace(/client-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\/([^"]+)/, (_, ep: string) => `client-…/${ep === survivorAt ? 'survivor' : 'stopped'}`);
    expect(warnings.map((l) => shape(l, `${survivor.name}:2379`)).sort()).toEqual(recordedWarnings.map((l) => shape(l, survivorEndpoint)).sort());
    expect(warnings.every((l) => l.includes(`"ts":"${new Date(cluster.engine.epochMs + cluster.engine.now - health.ms + 5000).toISOString()}"`))).toBe(true);
    const status = run(`etcdctl ${all} endpoint status`);
    expect(status.exitCode).toBe(1);
    expect(status.ms).toBeGreaterThanOrEqual(10_000);
    expect(status.ms).toBeLessThanOrEqual(10_100);
    const row = status.stdout.split(', ');
    expect(row[0]).toBe(`${survivor.name}:2379`);
    expect(row[4]).toBe('false');
    // Alone, the member campaigns and raises raft's term; the term it reports is its last applied entry's.
    expect(survivor.raft!.term).toBeGreaterThan(term);
    expect(row[6]).toBe(String(term));
    expect(row[9]).toBe('etcdserver: no leader\n');
    const failed = status.stderr.split('\n').filter((l) => l.startsWith('Failed'));
    expect(failed).toEqual(members.filter((m) => m !== survivor).map((m) => `Failed to get the status of endpoint ${m.name}:2379 (context deadline exceeded)`));
    expect(status.stderr).toContain(`"target":"passthrough:///${members.find((m) => m !== survivor)!.name}:2379","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \\"transport: Error while dialing dial tcp`);
  });
});
