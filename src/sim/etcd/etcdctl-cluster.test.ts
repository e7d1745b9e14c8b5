// The cluster views print byte for byte as etcdctl 3.4.23 printed them against a real three-member
// etcd (testdata/etcdctl-cluster-3.4.23.ts): the JSON each command printed is parsed back into the
// responses, and the simple and table printers must give what etcdctl gave for the same responses.

import { describe, expect, it } from 'vitest';
import { printEndpointHealth, printEndpointStatus, printMemberList, tablewriter, wrapWords, type EndpointHealth, type EndpointStatus } from './etcdctl-cluster.ts';
import type { MemberListResponse, ResponseHeader } from './rpc.ts';
import { etcdctlClusterTranscript } from './testdata/etcdctl-cluster-3.4.23.ts';

interface Recorded { readonly stdout: string; readonly stderr: string; readonly exit: number }

const transcript = etcdctlClusterTranscript;
const runs: Array<{ args: string; out: Recorded }> = [];
for (const block of transcript.split(/^\$ etcdctl /m).slice(1)) {
  const nl = block.indexOf('\n');
  const body = block.slice(nl + 1);
  const exit = /^EXIT (\d+)\n/.exec(body);
  const out = /OUT:\n([\s\S]*?)(?:\nERR:\n|\n$)/.exec(body);
  const err = /\nERR:\n([\s\S]*)\n$/.exec(body);
  runs.push({ args: block.slice(0, nl), out: { exit: exit ? Number(exit[1]) : 0, stdout: out?.[1] ?? '', stderr: err?.[1] ?? '' } });
}

/** The k-th recorded run of a command (endpoints stripped), in recording order. */
function recorded(command: string, k = 0): Recorded {
  const found = runs.filter((r) => r.args.replace(/^--endpoints \S+ /, '') === command);
  if (found[k] === undefined) throw new Error(`no recording ${k} of ${command}`);
  return found[k].out;
}

/** encoding/json's output read back with uint64s as decimal strings. */
const parse = (json: string): unknown => JSON.parse(json.replace(/([:[,])(\d{16,})/g, '$1"$2"'));

type RawHeader = { cluster_id: string; member_id: string; revision?: number; raft_term: number };
const header = (h: RawHeader): ResponseHeader => ({ clusterId: h.cluster_id, memberId: h.member_id, revision: h.revision ?? 0, raftTerm: h.raft_term });

function statusList(json: string): EndpointStatus[] {
  type Raw = { Endpoint: string; Status: { header: RawHeader; version: string; dbSize: number; leader?: string; raftIndex: number; raftTerm: number; raftAppliedIndex: number; errors?: string[]; dbSizeInUse: number } };
  return (parse(json) as Raw[]).map(({ Endpoint, Status: s }) => ({
    endpoint: Endpoint,
    status: {
      header: header(s.header), version: s.version, dbSize: s.dbSize, leader: s.leader ?? '0', raftIndex: s.raftIndex, raftTerm: s.raftTerm,
      raftAppliedIndex: s.raftAppliedIndex, errors: s.errors ?? [], dbSizeInUse: s.dbSizeInUse, isLearner: false,
    },
  }));
}

describe('etcdctl 3.4.23 endpoint status, endpoint health and member list on three members', () => {
  it('endpoint status: simple, table and JSON, with a leader and after quorum is lost', () => {
    for (const k of [0, 1]) {
      const json = recorded('endpoint status -w json', k).stdout;
      const list = statusList(json);
      expect(printEndpointStatus(list, 'json')).toBe(json);
      expect(printEndpointStatus(list, 'table')).toBe(recorded('endpoint status -w table', k).stdout);
      expect(printEndpointStatus(list, 'simple')).toBe(recorded('endpoint status', k).stdout);
    }
  });

  it('endpoint health: JSON and table, healthy and unhealthy; the simple printer writes to stderr', () => {
    for (const k of [0, 1]) {
      const json = recorded('endpoint health -w json', k).stdout;
      const list = parse(json) as Array<EndpointHealth & { error?: string }>;
      const healths = list.map((h) => ({ ...h, error: h.error ?? '' }));
      expect(printEndpointHealth(healths, 'json').stdout).toBe(json);
      // The recorded table is another run (its times and its order differ): the header row is the same.
      if (k === 0) expect(printEndpointHealth(healths, 'table').stdout.split('\n')[1]).toBe(recorded('endpoint health -w table', k).stdout.split('\n')[1]);
    }
    const unhealthy = recorded('endpoint health', 1).stderr.split('\n').filter((l) => !l.startsWith('{')).join('\n');
    const list = (parse(recorded('endpoint health -w json', 1).stdout) as EndpointHealth[]);
    expect(`${printEndpointHealth(list, 'simple').stderr}Error: unhealthy cluster\n`).toBe(unhealthy);
  });

  it('member list: simple, table and JSON (sorted by member ID; the header without a revision)', () => {
    const json = recorded('member list -w json').stdout;
    type Raw = { header: RawHeader; members: Array<{ ID: string; name: string; peerURLs: string[]; clientURLs: string[] }> };
    const raw = parse(json) as Raw;
    const resp: MemberListResponse = { header: header(raw.header), members: raw.members.map((m) => ({ ...m, isLearner: false })) };
    expect(printMemberList(resp, 'json')).toBe(json);
    expect(printMemberList(resp, 'table')).toBe(recorded('member list -w table').stdout);
    expect(printMemberList(resp, 'simple')).toBe(recorded('member list').stdout);
  });

  it('wraps a cell over 30 columns as tablewriter does', () => {
    expect(wrapWords('rpc error: code = Unknown desc = context deadline exceeded', 30)).toEqual(['rpc error: code = Unknown desc', '= context deadline exceeded']);
    const recordedTable = recorded('endpoint health -w table', 1).stdout;
    const rows = [...recordedTable.matchAll(/^\| (127\.0\.0\.1:\d+) \|\s+(\w+) \| ([\d.]+s) \|\s+(.*?) \|$/gm)].map((m) => [m[1]!, m[2]!, m[3]!, m[4]!]);
    rows[2]![3] = 'rpc error: code = Unknown desc = context deadline exceeded';
    expect(tablewriter(['endpoint', 'health', 'took', 'error'], rows)).toBe(recordedTable);
  });
});
