// Captions of the raft messages between etcd members (`etcd.raft.<type>`, src/sim/etcd/raft): a plain
// sentence of what the message does in the protocol, and the technical line in the words of etcd's
// raft log lines (term, index, log term, commit, entries).

import { count, flag, list, text } from './payload.ts';

interface Both {
  readonly en: string;
  readonly zh: string;
}

type Record_ = { readonly from: string; readonly to: string; readonly payload: unknown };

export const raftKindPrefix = 'etcd.raft.';

const plainByType: Readonly<Record<string, (r: Record_) => Both>> = {
  MsgPreVote: (r) => ({ en: `${r.from} asks ${r.to} whether it would vote for it (a pre-vote: no term changes unless a majority agrees)`, zh: `${r.from} 询问 ${r.to} 是否会投票给它（预投票：除非多数同意，任期不变）` }),
  MsgPreVoteResp: (r) => granted(r, { en: 'would vote for it', zh: '愿意投票给它' }, { en: 'would not vote for it (it still hears from a leader, or its log is newer)', zh: '不愿投票给它（它仍能收到 leader 的消息，或它的日志更新）' }),
  MsgVote: (r) => ({ en: `${r.from} campaigns in term ${count(r.payload, 'term') ?? 0} and asks ${r.to} for its vote`, zh: `${r.from} 在任期 ${count(r.payload, 'term') ?? 0} 竞选，请求 ${r.to} 投票` }),
  MsgVoteResp: (r) => granted(r, { en: 'votes for it', zh: '投票给它' }, { en: 'refuses its vote', zh: '拒绝投票' }),
  MsgApp: (r) => {
    const n = list(r.payload, 'entries').length;
    return n > 0
      ? { en: `The leader ${r.from} replicates ${n} log ${n === 1 ? 'entry' : 'entries'} to ${r.to}; they are committed once a majority has them`, zh: `leader ${r.from} 把 ${n} 条日志复制给 ${r.to}；多数成员写入后即提交` }
      : { en: `The leader ${r.from} tells ${r.to} how far the log is committed (index ${count(r.payload, 'commit') ?? 0})`, zh: `leader ${r.from} 告诉 ${r.to} 日志已提交到 ${count(r.payload, 'commit') ?? 0}` };
  },
  MsgAppResp: (r) => flag(r.payload, 'reject')
    ? { en: `${r.from} rejects the entries: its log does not match there; the leader will send from further back`, zh: `${r.from} 拒绝了这些日志：该位置不匹配；leader 会从更早的位置重发` }
    : { en: `${r.from} has the log up to index ${count(r.payload, 'index') ?? 0} on disk and tells the leader ${r.to}`, zh: `${r.from} 已把日志写到磁盘上的 ${count(r.payload, 'index') ?? 0}，告诉 leader ${r.to}` },
  MsgHeartbeat: (r) => (text(r.payload, 'context')
    ? { en: `The leader ${r.from} sends ${r.to} a heartbeat to confirm it still leads before answering a linearizable read`, zh: `leader ${r.from} 向 ${r.to} 发送心跳，在回答线性一致读之前确认自己仍是 leader` }
    : { en: `The leader ${r.from} sends ${r.to} a heartbeat: it is alive, so no election starts`, zh: `leader ${r.from} 向 ${r.to} 发送心跳：它还在，不会发起选举` }),
  MsgHeartbeatResp: (r) => ({ en: `${r.from} answers the heartbeat of the leader ${r.to}`, zh: `${r.from} 回应 leader ${r.to} 的心跳` }),
  MsgProp: (r) => ({ en: `${r.from} is not the leader: it forwards the write to the leader ${r.to}`, zh: `${r.from} 不是 leader：它把写请求转发给 leader ${r.to}` }),
  MsgReadIndex: (r) => ({ en: `${r.from} asks the leader ${r.to} for the commit index a linearizable read must wait for (ReadIndex)`, zh: `${r.from} 向 leader ${r.to} 询问线性一致读必须等到的提交索引（ReadIndex）` }),
  MsgReadIndexResp: (r) => ({ en: `The leader ${r.from} confirms the read index ${count(r.payload, 'index') ?? 0}: ${r.to} serves the read once it has applied that far`, zh: `leader ${r.from} 确认读索引 ${count(r.payload, 'index') ?? 0}：${r.to} 应用到该位置后即可回答读请求` }),
  MsgSnap: (r) => ({ en: `The leader ${r.from} sends ${r.to} a snapshot: the entries it lacks are already compacted`, zh: `leader ${r.from} 向 ${r.to} 发送快照：它缺的日志已被压缩` }),
};

/** The raft message kinds with a plain caption of their own. */
export const raftPlainKinds: readonly string[] = Object.keys(plainByType).map((type) => raftKindPrefix + type);

function granted(r: Record_, yes: Both, no: Both): Both {
  const w = flag(r.payload, 'reject') ? no : yes;
  return { en: `${r.from} answers the candidate ${r.to}: it ${w.en}`, zh: `${r.from} 回复候选者 ${r.to}：${w.zh}` };
}

/** The plain caption of a raft message. */
export function raftPlain(r: Record_ & { readonly kind: string }): Both {
  const type = r.kind.slice(raftKindPrefix.length);
  return (plainByType[type] ?? ((x: Record_) => ({ en: `${x.from} sends ${x.to} a raft message`, zh: `${x.from} 向 ${x.to} 发送一条 raft 消息` })))(r);
}

/** The technical line: the type and its fields as etcd's raft logs them. */
export function raftTechnical(r: Record_ & { readonly kind: string }): Both {
  const p = r.payload;
  const type = r.kind.slice(raftKindPrefix.length);
  const parts = [`term=${count(p, 'term') ?? 0}`];
  if (type === 'MsgApp' || type.endsWith('Vote')) parts.push(`log_term=${count(p, 'logTerm') ?? 0}`, `index=${count(p, 'index') ?? 0}`);
  if (type === 'MsgApp') parts.push(`entries=${list(p, 'entries').length}`, `commit=${count(p, 'commit') ?? 0}`);
  if (type === 'MsgAppResp' || type === 'MsgReadIndexResp') parts.push(`index=${count(p, 'index') ?? 0}`);
  if (type === 'MsgHeartbeat') parts.push(`commit=${count(p, 'commit') ?? 0}`);
  if (flag(p, 'reject')) parts.push('reject=true');
  const line = `${r.from} → ${r.to} ${type} ${parts.join(' ')}`;
  return { en: line, zh: line };
}

/** etcd's own timers and sleeps in a cluster (technical names and plain reasons). */
export const raftTimerLabels: Readonly<Record<string, Both>> = {
  'etcd.raft-tick': { en: 'raft tick (100 ms)', zh: 'raft 时钟滴答（100 毫秒）' },
  'etcd.request-timeout': { en: 'etcd request timeout (7 s)', zh: 'etcd 请求超时（7 秒）' },
};

export const raftTimerReasons: Readonly<Record<string, Both>> = {
  'etcd.raft-tick': { en: 'an etcd member ticks its raft clock: a leader sends heartbeats, a follower that has heard no leader for its election timeout starts an election', zh: 'etcd 成员的 raft 时钟走了一格：leader 发送心跳；超过选举超时没收到 leader 消息的 follower 发起选举' },
  'etcd.request-timeout': { en: 'an etcd member gives up on a request raft did not finish within 7 s: the client gets "etcdserver: request timed out"', zh: 'etcd 成员放弃了 raft 在 7 秒内没完成的请求：客户端收到 "etcdserver: request timed out"' },
};

/** The faults on etcd members (src/sim/faults.ts). */
export function etcdFaultCaption(type: string, payload: unknown): { technical: Both; plain: Both } | null {
  const member = text(payload, 'member') ?? '';
  switch (type) {
    case 'etcdMemberStop': return {
      technical: { en: `Fault: stop etcd member ${member}`, zh: `故障：停止 etcd 成员 ${member}` },
      plain: { en: `You stop etcd member ${member}: its connections close; the others go on if they still are a majority`, zh: `你停止了 etcd 成员 ${member}：它的连接断开；其余成员若仍占多数就继续工作` },
    };
    case 'etcdMemberStart': return {
      technical: { en: `Fault: start etcd member ${member} again`, zh: `故障恢复：重新启动 etcd 成员 ${member}` },
      plain: { en: `You start etcd member ${member} again: it comes back from its write-ahead log as a follower and catches up`, zh: `你重新启动了 etcd 成员 ${member}：它从预写日志恢复为 follower 并追上进度` },
    };
    case 'etcdKillLeader': return {
      technical: { en: 'Fault: stop the etcd leader', zh: '故障：停止 etcd 的 leader' },
      plain: { en: 'You stop the etcd leader: after an election timeout the others elect a new one', zh: '你停止了 etcd 的 leader：选举超时后其余成员选出新的 leader' },
    };
    case 'etcdPartition': return {
      technical: { en: `Fault: partition etcd member ${member} from the others`, zh: `故障：把 etcd 成员 ${member} 与其他成员隔离` },
      plain: { en: `You cut etcd member ${member} off from the other members (clients still reach it): it can neither lead nor serve linearizable reads`, zh: `你把 etcd 成员 ${member} 与其他成员隔离（客户端仍能连到它）：它既不能当 leader，也不能回答线性一致读` },
    };
    case 'etcdHeal': return {
      technical: { en: 'Fault healed: every etcd member hears the others again', zh: '故障恢复：etcd 成员之间恢复连通' },
      plain: { en: 'You heal the network between the etcd members', zh: '你恢复了 etcd 成员之间的网络' },
    };
    case 'etcdSlowDisk': {
      const ms = count(payload, 'fsyncMs') ?? 0;
      return {
        technical: { en: `Fault: etcd member ${member} fsync ${ms} ms`, zh: `故障：etcd 成员 ${member} 的 fsync 耗时 ${ms} 毫秒` },
        plain: { en: `You slow the disk of etcd member ${member}: each write to its log takes ${ms} ms to reach the disk`, zh: `你让 etcd 成员 ${member} 的磁盘变慢：每次写日志要 ${ms} 毫秒才落盘` },
      };
    }
    default: return null;
  }
}

/** Fault types as words for milestone summaries. */
export const etcdFaultWords: Readonly<Record<string, Both>> = {
  etcdMemberStop: { en: 'stop etcd member', zh: '停止 etcd 成员' }, etcdMemberStart: { en: 'start etcd member', zh: '启动 etcd 成员' },
  etcdKillLeader: { en: 'stop the etcd leader', zh: '停止 etcd leader' }, etcdPartition: { en: 'partition etcd member', zh: '隔离 etcd 成员' },
  etcdHeal: { en: 'heal etcd network', zh: '恢复 etcd 网络' }, etcdSlowDisk: { en: 'slow etcd disk', zh: 'etcd 磁盘变慢' },
};
