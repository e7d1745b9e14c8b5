// The two tours of a 3-member etcd (issue 18): why a read with resourceVersion unset is a consensus read,
// and what happens when the leader dies. Their stops are raft messages between the members (etcd 3.4's
// raft package: MsgHeartbeat carrying a ReadIndex context, MsgPreVote, MsgVote, MsgApp) and the requests
// that caused them, found in the trace like every tour's (tours.ts).

import type { MessageMatcher, Tour } from './tours.ts';

const apiserver = 'kube-apiserver';
const member = 'etcd-*';

const unsetList: MessageMatcher = { kind: 'http.request', from: 'user', method: 'GET', path: '/api/v1/namespaces/default/pods', queryLacks: 'resourceVersion' };

export const consensusRead: Tour = {
  id: 'consensus-read',
  title: { en: 'Why a read with resourceVersion unset is a consensus read', zh: '为什么不带 resourceVersion 的读是共识读' },
  description: {
    en: 'Three etcd members. A List with resourceVersion unset reaches etcd as a linearizable Range: the leader confirms it still leads with a heartbeat round (ReadIndex) before the member answers. The same List with resourceVersion=0 never reaches etcd.',
    zh: '三个 etcd 成员。不带 resourceVersion 的 List 以线性一致的 Range 到达 etcd：成员应答之前，领导者要用一轮心跳（ReadIndex）确认自己仍是领导者。同样的 List 加上 resourceVersion=0 则根本不会到达 etcd。',
  },
  source: 'seeds/000',
  nodes: 1,
  etcdMembers: 3,
  steps: [
    { do: 'run', line: 'kubectl get --raw /api/v1/namespaces/default/pods' },
    { do: 'run', line: "kubectl get --raw '/api/v1/namespaces/default/pods?resourceVersion=0'" },
  ],
  stops: [
    {
      id: 'list-unset',
      title: { en: 'List with resourceVersion unset', zh: '不带 resourceVersion 的 List' },
      text: {
        en: 'No resourceVersion means "the most recent data": kube-apiserver cannot answer from its watch cache, which may lag behind etcd.',
        zh: '不带 resourceVersion 表示“要最新的数据”：kube-apiserver 不能用 watch cache 应答，因为它可能落后于 etcd。',
      },
      match: { message: unsetList },
    },
    {
      id: 'range',
      title: { en: 'A linearizable Range to one member', zh: '发往一个成员的线性一致 Range' },
      text: {
        en: 'kube-apiserver sends etcd a Range without serializable: etcd must not answer from a member\'s own copy, which could be stale if that member was cut off.',
        zh: 'kube-apiserver 向 etcd 发送一个不带 serializable 的 Range：etcd 不能直接用某个成员自己的副本应答——如果该成员已被隔离，副本可能是旧的。',
      },
      match: { message: { kind: 'etcd.Range', from: apiserver, to: member, causedBy: unsetList } },
    },
    {
      id: 'heartbeat',
      title: { en: 'ReadIndex: the leader asks for a quorum', zh: 'ReadIndex：领导者请求多数派确认' },
      text: {
        en: 'The leader records its commit index as the read index and sends a heartbeat carrying the read\'s context to every follower (a follower that got the Range first forwards it as MsgReadIndex).',
        zh: '领导者把自己的提交索引记为读索引，并向每个跟随者发送携带该读请求上下文的心跳（如果 Range 先到了跟随者，它会以 MsgReadIndex 转发给领导者）。',
      },
      match: { message: { kind: 'etcd.raft.MsgHeartbeat', from: member, to: member, causedBy: unsetList } },
    },
    {
      id: 'quorum',
      title: { en: 'A majority answers', zh: '多数派应答' },
      text: {
        en: 'One follower\'s answer makes two of three: no other leader can have been elected, so the commit index recorded is the newest. The member waits until it has applied that index, then reads its store.',
        zh: '一个跟随者的应答凑成三分之二：不可能已经选出别的领导者，所以记下的提交索引就是最新的。成员等自己应用到这个索引后，再读取本地存储。',
      },
      match: { message: { kind: 'etcd.raft.MsgHeartbeatResp', from: member, to: member, causedBy: unsetList } },
    },
    {
      id: 'answer',
      title: { en: 'The answer, with raft_term in its header', zh: '应答，header 中带有 raft_term' },
      text: {
        en: 'The RangeResponse carries every pod key; its header names the member and the raft term. This round trip is what "consistent read" costs on every List without resourceVersion.',
        zh: 'RangeResponse 带回所有 pod key；它的 header 标明了成员和 raft 任期。每个不带 resourceVersion 的 List 都要付出这一轮往返的代价，这就是“一致性读”。',
      },
      match: { message: { kind: 'etcd.RangeResponse', from: member, to: apiserver, causedBy: unsetList } },
    },
    {
      id: 'list-zero',
      title: { en: 'resourceVersion=0: no etcd traffic at all', zh: 'resourceVersion=0：完全没有 etcd 流量' },
      text: {
        en: 'The same List with ?resourceVersion=0 ("any version") is answered from kube-apiserver\'s watch cache: no Range, no heartbeat between the members.',
        zh: '同样的 List 加上 ?resourceVersion=0（“任何版本都可以”）由 kube-apiserver 的 watch cache 应答：没有 Range，成员之间也没有心跳。',
      },
      match: { message: { kind: 'http.response', to: 'user', path: '/api/v1/namespaces/default/pods', query: 'resourceVersion=0' } },
    },
  ],
};

const scaleUp: MessageMatcher = { kind: 'http.request', from: 'user', method: 'PATCH', path: '/apis/apps/v1/namespaces/default/replicasets/my-replicaset/scale' };

export const leaderDeath: Tour = {
  id: 'leader-death',
  title: { en: 'What happens when the etcd leader dies', zh: 'etcd 领导者宕机时会发生什么' },
  description: {
    en: 'Three etcd members. A write is proposed, replicated and committed; then the leader\'s process is killed. The followers notice the missing heartbeats, one campaigns in a higher term and is elected, and kube-apiserver\'s writes go on.',
    zh: '三个 etcd 成员。一次写入被提议、复制、提交；然后领导者进程被杀掉。跟随者发现心跳停了，其中一个在更高的任期发起竞选并当选，kube-apiserver 的写入继续进行。',
  },
  source: 'seeds/004',
  nodes: 1,
  etcdMembers: 3,
  steps: [
    { do: 'scenario', id: 'my-replicaset' },
    { do: 'fault', fault: { type: 'etcdKillLeader' } },
    { do: 'advance', ms: 3_000 },
    { do: 'run', line: 'kubectl scale replicaset my-replicaset --replicas=3' },
    { do: 'runUntilIdle' },
  ],
  stops: [
    {
      id: 'propose',
      title: { en: 'A write arrives at a member', zh: '一次写入到达某个成员' },
      text: {
        en: 'kube-apiserver\'s Txn creating the ReplicaSet reaches a member. It is not applied on arrival: it becomes a proposal, an entry for the leader\'s log.',
        zh: 'kube-apiserver 创建 ReplicaSet 的 Txn 到达某个成员。它不会在到达时立即应用，而是成为一个提议——领导者日志中的一条记录。',
      },
      match: { message: { kind: 'etcd.Txn', from: apiserver, to: member, path: '/registry/replicasets/default/my-replicaset', write: 'create' } },
    },
    {
      id: 'replicate',
      title: { en: 'MsgApp: the leader replicates the entry', zh: 'MsgApp：领导者复制这条记录' },
      text: {
        en: 'The leader appends the entry to its log and sends it to both followers in a MsgApp, with its commit index.',
        zh: '领导者把记录追加到自己的日志，并用 MsgApp 发给两个跟随者，同时带上自己的提交索引。',
      },
      match: { message: { kind: 'etcd.raft.MsgApp', from: member, to: member, includes: 'my-replicaset' } },
    },
    {
      id: 'ack',
      title: { en: 'MsgAppResp: a follower has it on disk', zh: 'MsgAppResp：跟随者已写入磁盘' },
      text: {
        en: 'A follower answers once the entry is in its log. With the leader\'s own copy that makes two of three: the entry is committed, and every member applies it to its MVCC store in log order.',
        zh: '跟随者把记录写入日志后应答。加上领导者自己的那份，就是三分之二：记录被提交，每个成员按日志顺序把它应用到自己的 MVCC 存储。',
      },
      match: { message: { kind: 'etcd.raft.MsgAppResp', from: member, to: member } },
    },
    {
      id: 'kill',
      title: { en: 'The leader\'s process is killed', zh: '领导者进程被杀掉' },
      text: {
        en: 'The leader stops: its heartbeats stop, and every connection to it is refused. Its box shows it stopped.',
        zh: '领导者停止：心跳停止，所有到它的连接都被拒绝。它的方框显示为已停止。',
      },
      match: { message: { kind: 'user.fault', includes: 'etcdKillLeader' } },
    },
    {
      id: 'campaign',
      title: { en: 'A follower campaigns in a higher term', zh: '一个跟随者在更高的任期发起竞选' },
      text: {
        en: 'After its randomized election timeout (10–20 ticks of 100 ms) without a heartbeat, a follower becomes a candidate: it raises its term by one and asks the others for their votes (MsgVote). etcd 3.4 runs without pre-vote unless --pre-vote is set (3.5 turns it on).',
        zh: '在随机的选举超时（10–20 个 100 毫秒的 tick）内没有收到心跳后，一个跟随者成为候选者：任期加一，并向其他成员请求投票（MsgVote）。etcd 3.4 默认不开启预投票（除非设置 --pre-vote；3.5 默认开启）。',
      },
      match: { message: { kind: 'etcd.raft.MsgVote', from: member, to: member } },
    },
    {
      id: 'vote',
      title: { en: 'The vote is granted', zh: '投票获准' },
      text: {
        en: 'A first campaign may be ignored: a follower that heard from the leader within its own election timeout keeps it (check-quorum\'s leader lease), and each new campaign raises the term again. Once the surviving follower\'s timeout has passed too and the candidate\'s log is at least as up to date as its own, it grants its vote; two of three make the candidate leader.',
        zh: '第一次竞选可能被忽略：在自己的选举超时内收到过领导者消息的跟随者会继续认它（check-quorum 的领导者租约），每次重新竞选任期都会再加一。等存活的跟随者的超时也过去，且候选者的日志至少和自己的一样新，它就投票给候选者；三分之二使候选者成为领导者。',
      },
      match: { message: { kind: 'etcd.raft.MsgVoteResp', from: member, to: member, includes: '"reject":false' } },
    },
    {
      id: 'new-leader',
      title: { en: 'The new leader\'s first MsgApp', zh: '新领导者的第一条 MsgApp' },
      text: {
        en: 'The new leader appends an empty entry of its term and replicates it: committing it commits everything before it. Its box now carries the star and the new term.',
        zh: '新领导者追加一条属于自己任期的空记录并复制出去：提交它就提交了之前的所有记录。它的方框现在带着星标和新的任期。',
      },
      match: { message: { kind: 'etcd.raft.MsgApp', from: member, to: member } },
    },
    {
      id: 'write-after',
      title: { en: 'Writes go on', zh: '写入继续进行' },
      text: {
        en: 'kubectl scale: kube-apiserver\'s etcd client lists every member in --etcd-servers; a request to the dead member is refused and goes to a live one, which forwards the proposal to the new leader.',
        zh: 'kubectl scale：kube-apiserver 的 etcd 客户端在 --etcd-servers 中列出了所有成员；发往已死成员的请求被拒绝后改发给存活的成员，由它把提议转发给新领导者。',
      },
      match: { message: { kind: 'etcd.Txn', from: apiserver, to: member, path: '/registry/replicasets/default/my-replicaset', causedBy: scaleUp } },
    },
    {
      id: 'write-committed',
      title: { en: 'Committed by the two members left', zh: '由剩下的两个成员提交' },
      text: {
        en: 'The Txn\'s answer comes back: two of three members still make a quorum. A second failure would stop every write and every consensus read.',
        zh: 'Txn 的应答回来了：三个成员中的两个仍是多数派。再坏一个，所有写入和共识读都会停止。',
      },
      match: { message: { kind: 'etcd.TxnResponse', from: member, to: apiserver, causedBy: scaleUp } },
    },
  ],
};
