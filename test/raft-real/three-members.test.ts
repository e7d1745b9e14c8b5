// The model's etcd and a real etcd 3.4.23, both three members on loopback, go through the same sequence
// of actions, each driven by etcdctl (the real one against the real members, the console's against the
// model's): a write is visible on every member; stopping the leader elects a new one and writes go on;
// stopping a second member makes writes and linearizable reads fail with the same errors, while a
// serializable read is still served; starting a member again restores quorum. After each action both
// sides record what `endpoint status -w json` and the response headers show, in terms of roles (the
// leader, the members up) rather than member names, since each side elects its own first leader: the
// number of leaders, how the raft term moved, how far the raft index moved, the errors. The two records
// must be equal. The term a member reports is the term of the last entry it applied (etcdserver's
// s.Term()): etcd 3.4 runs without pre-vote, so a member alone campaigns at every randomized election
// timeout and raises raft's term each time, but applies nothing; the reported term stays until quorum
// returns, and then jumps by how many campaigns there were, which is chance. The record says whether
// the term stayed or rose. Compared loosely, and why:
// - a write or read that times out at etcdctl's default 5 s: the member's context (its deadline carried
//   in grpc-timeout, a little shorter) and the client's end together, and either error may win
//   (`context deadline exceeded` or `rpc error: code = Unknown desc = context deadline exceeded`); the
//   model's member does not know the client's deadline. With `--command-timeout 10s` the member's own
//   answer is compared exactly.
// Skipped, with a message, without etcd or etcdctl.

import { execFile } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { findEtcd, findEtcdctl } from '../etcd/real-etcd.ts';
import { RealEtcdCluster } from '../etcd/real-etcd-cluster.ts';
import { ModelEtcd, type CommandResult } from './model-etcd.ts';

const etcdBinary = findEtcd();
const etcdctlBinary = findEtcdctl();
if (!etcdBinary || !etcdctlBinary) console.warn('test/raft-real: SKIPPED, it needs etcd and etcdctl 3.4 on PATH');

/** One side of the comparison: three members, etcdctl against them, time passing, member faults. */
interface Side {
  readonly endpoints: readonly string[];
  /** Raft entries a member proposes when it starts (a real member publishes its attributes). */
  readonly entriesOnStart: number;
  etcdctl(args: readonly string[]): Promise<CommandResult>;
  settle(ms: number): Promise<void>;
  kill(i: number): Promise<void>;
  restart(i: number): Promise<void>;
}

function modelSide(): Side {
  const model = new ModelEtcd('raft-real', 3);
  return {
    endpoints: model.endpoints,
    entriesOnStart: 0,
    etcdctl: async (args) => model.etcdctl(args),
    settle: async (ms) => model.settle(ms),
    kill: async (i) => model.kill(i),
    restart: async (i) => model.restart(i),
  };
}

function realSide(cluster: RealEtcdCluster): Side {
  return {
    endpoints: cluster.endpoints,
    entriesOnStart: 1,
    etcdctl: (args) => new Promise((resolve) => {
      execFile(etcdctlBinary!, [...args], { env: { ...process.env, ETCDCTL_API: '3' } }, (error, stdout, stderr) => {
        resolve({ stdout, stderr, code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1 });
      });
    }),
    settle: (ms) => new Promise((r) => setTimeout(r, ms)),
    kill: (i) => cluster.kill(i),
    restart: async (i) => cluster.restart(i),
  };
}

/** encoding/json's output read back with uint64s as decimal strings. */
const parse = (json: string): unknown => JSON.parse(json.replace(/([:[,])(\d{16,})/g, '$1"$2"'));

interface Header { member_id: string; revision?: number; raft_term: number }
interface Status { Endpoint: string; Status: { header: Header; leader?: string; raftIndex: number; raftTerm: number; raftAppliedIndex: number; errors?: string[] } }

/** etcdctl's stderr without clientv3's retry warnings (JSON log lines with wall-clock times). */
const errors = (r: CommandResult): string => r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('{')).join('\n');

/** The member's and the client's deadline errors at etcdctl's default timeout, as one (see above). */
const deadline = (error: string): string => error.replace('Error: rpc error: code = Unknown desc = context deadline exceeded', 'Error: context deadline exceeded');

/** Runs the sequence on one side; returns what it observed, in roles and deltas. */
async function scenario(side: Side): Promise<unknown[]> {
  const record: unknown[] = [];
  const ep = (i: number): string => side.endpoints[i]!;
  const all = ['--endpoints', side.endpoints.join(',')];
  let baseIndex = 0;
  let lastTerm = 0;
  const ids: string[] = [];
  /** How a term moved since the last one recorded. */
  const moved = (term: number): string => {
    const how = term === lastTerm ? 'same' : term > lastTerm ? 'rose' : 'fell';
    lastTerm = term;
    return how;
  };

  const status = async (members: readonly number[]): Promise<Status[]> => {
    const r = await side.etcdctl(['--endpoints', members.map(ep).join(','), 'endpoint', 'status', '-w', 'json']);
    return parse(r.stdout) as Status[];
  };
  /** What `endpoint status` shows of every member, in roles: the number of leaders, terms, index moves, errors. */
  const observe = async (what: string): Promise<void> => {
    const r = await side.etcdctl([...all, 'endpoint', 'status', '-w', 'json']);
    const list = parse(r.stdout) as Status[];
    record.push({
      what, exit: r.code,
      failed: errors(r).split('\n').filter((l) => l.startsWith('Failed to get the status')).map((l) => l.replace(/endpoint \S+/, 'endpoint <member>')),
      answered: list.length,
      leaders: list.filter((s) => s.Status.leader === s.Status.header.member_id).length,
      headerTermIsStatusTerm: list.every((s) => s.Status.header.raft_term === s.Status.raftTerm),
      termsAgree: new Set(list.map((s) => s.Status.raftTerm)).size === 1,
      term: moved(Math.max(...list.map((s) => s.Status.raftTerm))),
      indexMoved: [...new Set(list.map((s) => s.Status.raftIndex - baseIndex))],
      appliedIsIndex: list.every((s) => s.Status.raftAppliedIndex === s.Status.raftIndex),
      errors: [...new Set(list.flatMap((s) => s.Status.errors ?? []))],
    });
  };
  /** Polls the members' status until one of them leads (a leader exists once every member knows it). */
  const leaderAmong = async (members: readonly number[]): Promise<number> => {
    for (let waited = 0; waited < 20_000; waited += 200) {
      const list = await status(members);
      const lead = list.find((s) => s.Status.leader === s.Status.header.member_id);
      if (lead !== undefined && list.every((s) => s.Status.leader === lead.Status.leader)) return ids.indexOf(lead.Status.header.member_id);
      await side.settle(200);
    }
    throw new Error('no leader within 20 s');
  };
  const put = async (i: number, value: string, extra: readonly string[] = []): Promise<void> => {
    const r = await side.etcdctl(['--endpoints', ep(i), ...extra, 'put', 'k', value, '-w', 'json']);
    const h = r.code === 0 ? (parse(r.stdout) as { header: Header }).header : null;
    record.push({
      what: `put ${value}${extra.length > 0 ? ` ${extra.join(' ')}` : ''}`, exit: r.code, error: deadline(errors(r)), revision: h?.revision,
      term: h && moved(h.raft_term), answeredBy: h && ids.indexOf(h.member_id) === i,
    });
  };
  const get = async (i: number, extra: readonly string[] = []): Promise<void> => {
    const r = await side.etcdctl(['--endpoints', ep(i), 'get', 'k', '--print-value-only', ...extra]);
    record.push({ what: `get ${extra.join(' ')}`.trim(), exit: r.code, value: r.stdout, error: deadline(errors(r)) });
  };

  await side.settle(0);
  const first = await status([0, 1, 2]);
  ids.push(...first.map((s) => s.Status.header.member_id));
  const leader0 = await leaderAmong([0, 1, 2]);
  baseIndex = (await status([0, 1, 2]))[0]!.Status.raftIndex;
  await observe('three members');

  // A write through one member is visible on every member.
  await put((leader0 + 1) % 3, 'v1');
  for (const i of [0, 1, 2]) await get(i);
  await observe('after a write');

  // The leader stops: the others elect a new one; writes go on.
  await side.kill(leader0);
  const survivors = [0, 1, 2].filter((i) => i !== leader0);
  const leader1 = await leaderAmong(survivors);
  await observe('leader stopped, new leader elected');
  await put(survivors.find((i) => i !== leader1)!, 'v2');
  for (const i of survivors) await get(i);
  await observe('after a write with two members');

  // A second member stops: no quorum. The survivor's leader (or the leader itself) steps down.
  const last = survivors.find((i) => i !== leader1)!;
  await side.kill(leader1);
  await side.settle(3000);
  await observe('two members stopped');
  await put(last, 'v3');
  const long = await side.etcdctl(['--endpoints', ep(last), '--command-timeout', '10s', 'put', 'k', 'v3']);
  record.push({ what: 'put v3 --command-timeout 10s', exit: long.code, error: errors(long) });
  await get(last);
  await get(last, ['--consistency', 's']);
  const health = await side.etcdctl(['--endpoints', ep(last), 'endpoint', 'health', '-w', 'json']);
  record.push({ what: 'health', exit: health.code, result: (JSON.parse(health.stdout) as Array<{ health: boolean; error?: string }>).map((h) => [h.health, deadline(`Error: ${h.error}`)]) });

  // A stopped member starts again: quorum returns, a leader is elected, writes go on. The real member
  // publishes its attributes through raft when it starts (etcdserver.publish: one entry more); the
  // model's members have fixed attributes.
  await side.restart(leader0);
  await leaderAmong([leader0, last]);
  baseIndex += side.entriesOnStart;
  await put(last, 'v4');
  await get(leader0);
  await observe('a member started again');
  return record;
}

describe.skipIf(!etcdBinary || !etcdctlBinary)('the model\'s three etcd members and a real etcd 3.4.23\'s, the same actions', () => {
  let cluster: RealEtcdCluster | null = null;
  afterAll(() => cluster?.stop());

  test('show the same leaders, terms, index moves, values and errors', async () => {
    cluster = await RealEtcdCluster.start(etcdBinary!, 3);
    const real = await scenario(realSide(cluster));
    const model = await scenario(modelSide());
    expect(model).toEqual(real);
  }, 300_000);
});
