// kube-scheduler: the component, its scheduling queue, cache, framework with the default plugins, and
// its attempt records.

export { defaultSchedulerName, KubeScheduler, type KubeSchedulerOptions } from './scheduler.ts';
export type { AttemptRecord, NodeRecord, PluginRecord, ScoreRecord } from './attempt-record.ts';
export type { Plugins } from './framework/interface.ts';
export { tolerates } from './framework/plugins/tainttoleration.ts';
