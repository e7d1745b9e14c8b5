// The vocabulary of etcd 3.4's raft package as plain data: log entries, the messages members send each
// other, the state a member persists (term, vote, commit) and the read states ReadIndex yields. Every
// value is structured-clone-safe, so a raft message can travel as an engine message's payload.
// Models raft/raftpb/raft.proto and raft/read_only.go (ReadState).

/** Member ID 0: no member (raft.None). */
export const none = 0;

export interface Entry {
  readonly term: number;
  readonly index: number;
  /** The proposal: what the application applies; null for the empty entry a new leader appends. */
  readonly data: unknown;
  /** Bytes of the proposal, for MsgApp batching (MaxSizePerMsg). */
  readonly size: number;
}

export interface SnapshotMetadata {
  readonly index: number;
  readonly term: number;
}

export interface Snapshot {
  readonly metadata: SnapshotMetadata;
  /** The application's state at `metadata.index` (for etcd: the backend database). */
  readonly data: unknown;
}

/** MsgHup, MsgBeat, MsgCheckQuorum and MsgSnapStatus are local: a member steps them into itself. */
export type MessageType =
  | 'MsgHup' | 'MsgBeat' | 'MsgProp' | 'MsgApp' | 'MsgAppResp' | 'MsgVote' | 'MsgVoteResp' | 'MsgSnap' | 'MsgHeartbeat'
  | 'MsgHeartbeatResp' | 'MsgCheckQuorum' | 'MsgSnapStatus' | 'MsgReadIndex' | 'MsgReadIndexResp' | 'MsgPreVote' | 'MsgPreVoteResp';

export interface RaftMessage {
  readonly type: MessageType;
  readonly from: number;
  readonly to: number;
  /** 0 for a local message and for a proposal or read index a follower forwards to its leader. */
  readonly term: number;
  /** MsgApp: term of the entry before `entries`; votes: the candidate's last term. */
  readonly logTerm: number;
  /** MsgApp: index before `entries`; MsgAppResp: last index accepted or the index rejected; votes: last index. */
  readonly index: number;
  readonly entries: readonly Entry[];
  readonly commit: number;
  readonly snapshot: Snapshot | null;
  readonly reject: boolean;
  /** On a rejected MsgAppResp: the follower's last index. */
  readonly rejectHint: number;
  /** MsgHeartbeat(Resp): the ReadIndex request context it confirms, '' for none. */
  readonly context: string;
}

/** What a member must keep on disk (the WAL's HardState). */
export interface HardState {
  readonly term: number;
  readonly vote: number;
  readonly commit: number;
}

/** A confirmed read index: reads that asked with `requestCtx` may be served once applied reaches `index`. */
export interface ReadState {
  readonly index: number;
  readonly requestCtx: string;
}

export type StateType = 'StateFollower' | 'StateCandidate' | 'StateLeader' | 'StatePreCandidate';

/** A message with defaults for the fields its type does not use. */
export function message(fields: Partial<RaftMessage> & Pick<RaftMessage, 'type'>): RaftMessage {
  return {
    from: none, to: none, term: 0, logTerm: 0, index: 0, entries: [], commit: 0, snapshot: null, reject: false, rejectHint: 0, context: '',
    ...fields,
  };
}

export function isVoteType(t: MessageType): boolean {
  return t === 'MsgVote' || t === 'MsgPreVote';
}

export function voteResponseType(t: MessageType): MessageType {
  return t === 'MsgVote' ? 'MsgVoteResp' : 'MsgPreVoteResp';
}
