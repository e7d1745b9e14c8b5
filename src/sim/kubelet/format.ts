// How the kubelet names things in its messages: a pod as `name_namespace(uid)`, a pod in its sleeps as
// `namespace/name`, and a duration as Go's time.Duration.String prints it.
// Models pkg/kubelet/util/format/pod.go (Pod) and Go's time.Duration.String.

import type { Pod } from '../api/types/core.ts';

/** format.Pod: `name_namespace(uid)`, as the kubelet names a pod in its messages. */
export function podDescription(w: { name: string; namespace: string; uid: string }): string {
  return `${w.name}_${w.namespace}(${w.uid})`;
}

/** A pod as its sleeps name it (SleepReason.pod): `namespace/name`. */
export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
}

/** Go's time.Duration.String for a whole number of milliseconds (`850ms`, `3.456s`, `1m2.5s`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const minutes = Math.floor(ms / 60_000);
  const restMs = ms - minutes * 60_000;
  const secs = `${Math.floor(restMs / 1000)}${restMs % 1000 ? `.${String(restMs % 1000).padStart(3, '0').replace(/0+$/, '')}` : ''}s`;
  return minutes > 0 ? `${minutes}m${secs}` : secs;
}
