// The contract between the UI and the simulation worker: typed commands (UI → worker) and events
// (worker → UI), all plain structured-clone-safe data. The UI depends on this module only.

export type {
  ApplyManifestCommand, Command, KeyspaceAtCommand, CommandType, PauseCommand, PlayCommand, ResetCommand, RunUntilIdleCommand,
  SetSpeedCommand, StepCommand, UserRequestCommand, StepBackCommand, SeekCommand, SeekRevisionCommand, ForkCommand,
  ListClustersCommand, CreateClusterCommand, OpenClusterCommand, RenameClusterCommand, DuplicateClusterCommand,
  DeleteClusterCommand, ExportClusterCommand, ImportClusterCommand,
} from './commands.ts';
export { maxNodes } from './commands.ts';
export type {
  PlaybackMode, ReadyEvent, SimErrorEvent, SimStatus, StatusEvent, TraceBatchEvent, WorkerEvent, WorkerMessage,
} from './events.ts';
export { playingTraceTailLimit, traceTailLimit } from './events.ts';
export type { ComponentRole, ComponentView, LinkView, Topology, VirtualTime } from './topology.ts';
export type { TraceRecord } from './trace.ts';
export type {
  DescribeValueCommand, KeyChange, KeyEntry, KeyspaceDiffEvent, KeyspaceSnapshotEvent, ValueDescriptionEvent, ValueField,
} from './keyspace.ts';
export type {
  ApiserverWatch, CauseChainCommand, CauseChainEvent, EtcdWatch, WatchersView, WatchCacheView, InspectCommand, InspectionEvent, InspectTopic, ObjectCondition, ObjectRow, ObjectsView,
  ObjectTable, OwnerRef, SchedulerAttempt, SchedulerNodeRecord, SchedulerPluginVerdict,
} from './inspect.ts';
export type { ProgressEvent, ProgressTask, TimelineEvent, TimelineMarker, TimelineMarkerKind } from './timeline.ts';
export { timelineMarkerLimit } from './timeline.ts';
export type {
  ClusterExportEvent, ClusterExportFile, ClustersEvent, LoggableCommand, LoggedCommand, PersistenceEvent, PersistenceMode,
  PersistenceWarning, PersistenceWarningCode, SavedClusterSummary,
} from './saved-clusters.ts';
export {
  clusterExportFormat, clusterExportVersion, importMaxBytes, shareFragmentKey, shareLinkMaxLength,
} from './saved-clusters.ts';
export type {
  ConsoleInterruptCommand, ConsoleOutputEvent, ConsoleRunCommand, FaultCommand, FaultSpec, LogLine, LogLinesEvent, LogSource, ManifestProblem,
} from './console.ts';
export { logTailLimit } from './console.ts';
export type { Flight, FlightsEvent, PodChip, PodsEvent } from './graph.ts';
export { flightLimit } from './graph.ts';
export type {
  ApiserverInsides, ComponentInsides, ContainerStepView, ControllerInsides, ControllerManagerInsides, ControllerName, EtcdInsides, EtcdWriteView,
  InsidesEvent, KubeletInsides, SchedulerInsides, WatchCacheInsides,
} from './insides.ts';
export type {
  AdvanceCommand, LocalizedTextView, RunUntilCommandDoneCommand, ScenarioCatalogEvent, ScenarioStepSpec, ScenarioStepView, ScenarioView,
} from './scenarios.ts';
export type { Milestone, MilestoneFacts, MilestoneKind, ObjectRef, StepLevel, StepLevelCommand, StoryEvent } from './story.ts';
export { failureMilestones, isFailureMilestone, milestoneLimit, stepLevelRank, stepLevels } from './story.ts';
export type { LocatedStop, MessageMatcher, MilestoneMatcher, StopMatcher, Tour, TourLocateCommand, TourStep, TourStop, TourStopsEvent, TourText } from './tours.ts';
export { locateStops, tourById, tours, tourTrace } from './tours.ts';
export type { TraceRangeCommand, TraceRangeEvent } from './trace-range.ts';
export { traceRangeLimit } from './trace-range.ts';
