// etcd 3.4's raft, as a pure state machine a member component hosts (see raft.ts).

export { etcdRaftDefaults, proposalDropped, Raft, type RaftConfig } from './raft.ts';
export { RaftLog } from './log.ts';
export {
  message, messageTypes, networkMessageTypes, none, type Entry, type HardState, type MessageType, type RaftMessage, type ReadState, type Snapshot,
  type StateType,
} from './types.ts';
