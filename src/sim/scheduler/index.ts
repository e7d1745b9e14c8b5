// kube-scheduler: the component, its queue and attempt records, and the default plugins.

export {
  defaultSchedulerName, fitErrorMessage, isPodUpdated, KubeScheduler, queueDurations,
  type AttemptRecord, type KubeSchedulerOptions, type NodeRecord, type PluginRecord, type ScoreRecord,
} from './scheduler.ts';
export { filterPlugins, podRequests, scorePlugins, tolerates, type FilterPlugin, type FilterResult, type NodeInfo, type ScorePlugin } from './plugins.ts';
