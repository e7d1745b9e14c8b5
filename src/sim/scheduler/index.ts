// kube-scheduler: the component, its scheduling queue, cache, framework with the default plugins, and
// its attempt records.

export { KubeScheduler } from './scheduler.ts';
export type { AttemptLog, AttemptRecord } from './attempt-record.ts';
export { tolerates } from './framework/plugins/tainttoleration.ts';
