// The contract between the UI and the simulation worker: typed commands (UI → worker) and events
// (worker → UI), all plain structured-clone-safe data. The UI depends on this module only.

export type { Command, CommandType, EtcdMemberCount } from './commands.ts';
export { defaultNewClusterEtcdMembers, etcdMemberCounts, maxNodes, simPortMark, smallBoundsMark, type StorageGone } from './commands.ts';
export type { NothingAhead, SimStatus, TraceBatchEvent, WorkerEvent, WorkerMessage } from './events.ts';
export { playingTraceTailLimit, traceTailLimit } from './events.ts';
export type { ComponentRole, ComponentView, LinkView, Topology, VirtualTime } from './topology.ts';
export type { TraceRecord } from './trace.ts';
export type {
  DescribeValueCommand, KeyChange, KeyEntry, KeyMeta, KeyspaceDiffEvent, KeyspaceMoveEvent, KeyspaceSnapshotEvent, ValueDescriptionEvent, ValueField,
} from './keyspace.ts';
export type {
  ApiserverWatch, CauseChainEvent, EtcdWatch, WatchersView, WatchCacheView, InspectionEvent, InspectQuery, InspectTopic, ObjectsQuery,
  ObjectCondition, ObjectRow, ObjectsView, ObjectTable, OwnerRef, SchedulerAttempt, SchedulerAttemptSummary, SchedulerQuery, SchedulerView,
} from './inspect.ts';
export type { ProgressEvent, ProgressTask, ProgressWords, TimelineEvent, TimelineMarker, TimelineMarkerKind } from './timeline.ts';
export { timelineMarkerLimit } from './timeline.ts';
export { objectsWindowLimit, schedulerListLimit } from './inspect.ts';
export { forEachKeyFields, forEachKeyMeta, KeyMetaColumnsBuilder, keysUnder, metasOfColumns, packKeyMetas } from './key-columns.ts';
export type {
  ClusterExportEvent, ClusterExportFile, ClustersEvent, LoggableCommand, LoggedCommand, PersistenceEvent,
  PersistenceWarning, PersistenceWarningCode, SavedClusterSummary,
} from './saved-clusters.ts';
export {
  clusterExportFormat, clusterExportVersion, importMaxBytes, shareFragmentKey, shareLinkMaxLength,
} from './saved-clusters.ts';
export type { ConsoleOutputEvent, FaultSpec, LogLine, LogLinesEvent, LogSource, ManifestProblem } from './console.ts';
export { logPageLimit } from './console.ts';
export type { Flight, FlightsEvent, PodChip, PodsEvent } from './graph.ts';
export { flightLimit, playheadMaxBehindMs } from './graph.ts';
export type {
  ApiserverInsides, ComponentInsides, ControllerInsides, ControllerManagerInsides, EtcdAppliedWrite, EtcdInsides, EtcdMemberInsides, EtcdWriteView, RealEtcdInsides,
  InsidesEvent, KubeletInsides, SchedulerInsides, WatchCacheInsides,
} from './insides.ts';
export type { ListCostView, ScaleLessonEvent, ScaleLessonView } from './scale-lesson.ts';
export type { ScenarioCatalogEvent, ScenarioStepSpec, ScenarioStepView, ScenarioView } from './scenarios.ts';
export type { Milestone, MilestoneFacts, MilestoneKind, ObjectRef, StepLevel, StoryEvent } from './story.ts';
export { failureMilestones, isFailureMilestone, milestoneLimit, stepLevelRank, stepLevels } from './story.ts';
export type { LocatedStop, Tour, TourStopsEvent } from './tours.ts';
export { locateStops, tourById, tours, tourTrace } from './tours.ts';
export type { TraceRangeCommand, TraceRangeEvent } from './trace-range.ts';
export { traceRangeLimit } from './trace-range.ts';
export { isFailedStatus, isFlowFailure } from './failures.ts';
export { firstBytes, isProtobuf, protoFields, unknownFields, type ProtoFields } from './protobuf-reader.ts';
export type {
  ClusterMessageKind, ClusterMessages, Compare, EtcdReplyPayload, KeyValue, RequestOp, ResponseHeader, TxnRequest, TypedMessageView,
  WatchResponse, WriteRecord,
} from './messages.ts';
export { typedRecord } from './messages.ts';
