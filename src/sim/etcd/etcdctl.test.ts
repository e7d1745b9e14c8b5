// etcdctl views against what a real etcdctl 3.4.23 printed for the same commands (cluster and member
// IDs replaced by the simulated cluster's).
import { describe, expect, it } from 'vitest';
import { Component, Engine, type Message } from '../engine/index.ts';
import { parseEtcdctl, renderReply, renderWatchResponse, type EtcdctlOutput } from './etcdctl.ts';
import type { EtcdReply, WatchStreamResponse } from './server.ts';
import { EtcdServer } from './server.ts';

class Shell extends Component {
  readonly watchOut: string[] = [];
  watchCmd: ReturnType<typeof parseEtcdctl> | null = null;
  private readonly replies = new Map<number, Message>();
  receive(m: Message): void {
    if (m.kind === 'etcd.WatchResponse' && this.watchCmd?.type === 'watch') {
      this.watchOut.push(renderWatchResponse(this.watchCmd, (m.payload as WatchStreamResponse).response).stdout);
    } else if (m.replyTo !== null) this.replies.set(m.replyTo, m);
  }
  take(id: number): Message | undefined {
    return this.replies.get(id);
  }
}

function setup(): { engine: Engine; shell: Shell; run: (line: string) => EtcdctlOutput } {
  const engine = new Engine({ seed: 'etcdctl' });
  engine.add(new EtcdServer('etcd'));
  const shell = engine.add(new Shell('etcdctl'));
  engine.link('etcd', 'etcdctl', { latency: 0.5 });
  const run = (line: string): EtcdctlOutput => {
    const cmd = parseEtcdctl(line);
    if (cmd.type === 'error') return { stdout: '', stderr: cmd.stderr, exitCode: cmd.exitCode };
    if (cmd.type === 'watch') {
      shell.watchCmd = cmd;
      engine.send('etcdctl', 'etcd', 'etcd.Watch', { stream: 'w', request: { createRequest: cmd.request } });
      engine.runFor(200);
      return { stdout: '', stderr: '', exitCode: 0 };
    }
    const m = engine.send('etcdctl', 'etcd', cmd.kind, cmd.request);
    engine.runFor(10);
    return renderReply(cmd, shell.take(m.id)!.payload as EtcdReply<unknown>);
  };
  return { engine, shell, run };
}

const ids = '"cluster_id":14841639068965178418,"member_id":10276657743932975437';

describe('etcdctl', () => {
  it('prints get, put, del and compaction as etcdctl 3.4 does', () => {
    const { run } = setup();
    expect(run('put foo bar').stdout).toBe('OK\n');
    expect(run('put foo/a 1 --prev-kv').stdout).toBe('OK\n');
    expect(run('etcdctl put foo/a 2 --prev-kv').stdout).toBe('OK\nfoo/a\n1\n');
    expect(run('get foo --prefix').stdout).toBe('foo\nbar\nfoo/a\n2\n');
    expect(run('get foo --prefix --keys-only').stdout).toBe('foo\n\nfoo/a\n\n');
    expect(run('get foo -w json').stdout).toBe(`{"header":{${ids},"revision":4,"raft_term":2},"kvs":[{"key":"Zm9v","create_revision":2,"mod_revision":2,"version":1,"value":"YmFy"}],"count":1}\n`);
    expect(run('get nope -w json').stdout).toBe(`{"header":{${ids},"revision":4,"raft_term":2}}\n`);
    expect(run('get foo --prefix -w json --rev 3').stdout).toBe(`{"header":{${ids},"revision":4,"raft_term":2},"kvs":[{"key":"Zm9v","create_revision":2,"mod_revision":2,"version":1,"value":"YmFy"},{"key":"Zm9vL2E=","create_revision":3,"mod_revision":3,"version":1,"value":"MQ=="}],"count":2}\n`);
    expect(run('del foo/a --prev-kv').stdout).toBe('1\nfoo/a\n2\n');
    expect(run('del nope').stdout).toBe('0\n');
    expect(run('compaction 2').stdout).toBe('compacted revision 2\n');
    expect(run('compaction 2')).toEqual({ stdout: '', stderr: 'Error: etcdserver: mvcc: required revision has been compacted\n', exitCode: 1 });
    expect(run('get foo --rev 1').stderr).toBe('Error: etcdserver: mvcc: required revision has been compacted\n');
    expect(run('put foo2 x -w json').stdout).toBe(`{"header":{${ids},"revision":6,"raft_term":2}}\n`);
    expect(run('del foo2 -w json').stdout).toBe(`{"header":{${ids},"revision":7,"raft_term":2},"deleted":1}\n`);
    expect(run('compaction 3 -w json').stdout).toBe('compacted revision 3\n');
    expect(run('put -w json foo y --prev-kv').stdout).toBe(`{"header":{${ids},"revision":8,"raft_term":2},"prev_kv":{"key":"Zm9v","create_revision":2,"mod_revision":2,"version":1,"value":"YmFy"}}\n`);
    expect(run('get foo -w json --keys-only').stdout).toBe(`{"header":{${ids},"revision":8,"raft_term":2},"kvs":[{"key":"Zm9v","create_revision":2,"mod_revision":8,"version":2}],"count":1}\n`);
    expect(run('get').stderr).toBe('Error: get command needs one argument as key and an optional argument as range_end\n');
    expect(run('get foo --count-only')).toMatchObject({ stderr: 'Error: unknown flag: --count-only\n', exitCode: 1 });
  });

  it('prints leases as etcdctl 3.4 does', () => {
    const { run } = setup();
    expect(run('lease grant 60 ').stdout).toMatch(/^lease [0-9a-f]{16} granted with TTL\(60s\)\n$/);
    const grant = run('lease grant 100 -w json').stdout;
    expect(grant).toMatch(new RegExp(`^\\{${ids},"revision":1,"raft_term":2,"ID":\\d+,"TTL":100,"Error":""\\}\\n$`));
    const id = BigInt(/"ID":(\d+)/.exec(grant)![1]!).toString(16).padStart(16, '0');
    expect(run(`put lk v --lease=${id}`).stdout).toBe('OK\n');
    expect(run(`lease timetolive ${id}`).stdout).toBe(`lease ${id} granted with TTL(100s), remaining(99s)\n`);
    expect(run(`lease timetolive ${id} --keys`).stdout).toBe(`lease ${id} granted with TTL(100s), remaining(99s), attached keys([lk])\n`);
    expect(run(`lease timetolive ${id} -w json`).stdout).toBe(`{${ids},"revision":2,"raft_term":2,"id":${BigInt(`0x${id}`)},"ttl":99,"granted-ttl":100,"keys":null}\n`);
    expect(run(`lease timetolive ${id} --keys -w json`).stdout).toContain('"keys":["bGs="]}');
    expect(run(`lease keep-alive --once ${id}`).stdout).toBe(`lease ${id} keepalived with TTL(100)\n`);
    expect(run('lease list').stdout).toMatch(/^found 2 leases\n[0-9a-f]{16}\n[0-9a-f]{16}\n$/);
    expect(run(`lease revoke ${id}`).stdout).toBe(`lease ${id} revoked\n`);
    expect(run(`lease revoke ${id}`)).toEqual({ stdout: '', stderr: 'Error: failed to revoke lease (etcdserver: requested lease not found)\n', exitCode: 1 });
    expect(run(`lease timetolive ${id}`).stdout).toBe(`lease ${id} already expired\n`);
    expect(run(`lease keep-alive --once ${id}`)).toEqual({ stdout: '', stderr: 'Error: etcdserver: requested lease not found\n', exitCode: 2 });
  });

  it('prints watch events, prev kvs first, DELETE kvs with an empty value', () => {
    const { run, shell } = setup();
    run('put foo bar');
    run('put foo/a 1');
    run('put foo/a 2');
    run('del foo/a');
    run('put foo2 x');
    run('del foo2');
    run('watch foo --prefix --rev 4 --prev-kv');
    expect(shell.watchOut.join('')).toBe('PUT\nfoo/a\n1\nfoo/a\n2\nDELETE\nfoo/a\n2\nfoo/a\n\nPUT\nfoo2\nx\nDELETE\nfoo2\nx\nfoo2\n\n');
  });
});
