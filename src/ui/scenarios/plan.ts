// How the page carries out a scenario step: through the same user commands a user would send by hand, so
// each is a logged user action on the timeline (persisted, replayed on fork and restore). kubectl steps
// run their command line in the console (`kubectl create -f replicaset.yaml` reads the scenario's file,
// which the console's working directory holds); fault steps inject the fault as the Faults tab does;
// `runUntilIdle` and `advance` are playback (not logged: replay re-delivers the same steps).

import type { FaultSpec, ScenarioStepView } from '../../protocol/index.ts';
import { lowerBound, prefixEnd } from '../keyspace/key-tree.ts';

export type StepAction =
  /** Run `line` in the console, then deliver messages until it has finished. */
  | { readonly kind: 'console'; readonly line: string }
  /**
   * `kubectl delete $(kubectl get pods -l … -o name | head -1)`: the console has no shell, so the list
   * runs first and the delete names the first pod it printed (two logged commands).
   */
  | { readonly kind: 'deleteOnePod'; readonly listLine: string }
  | { readonly kind: 'fault'; readonly fault: FaultSpec }
  | { readonly kind: 'runUntilIdle' }
  | { readonly kind: 'advance'; readonly ms: number };

/** What carrying out `view` means on the page. */
export function stepAction(view: ScenarioStepView): StepAction {
  const { step } = view;
  switch (step.do) {
    case 'create': case 'scale': case 'setImage': case 'delete':
      return { kind: 'console', line: view.commandLine };
    case 'deleteOnePod':
      return { kind: 'deleteOnePod', listLine: `kubectl get pods -l ${step.labelSelector} -o name` };
    case 'fault':
      return { kind: 'fault', fault: step.fault };
    case 'runUntilIdle':
      return { kind: 'runUntilIdle' };
    case 'advance':
      return { kind: 'advance', ms: step.ms };
  }
}

/**
 * The delete that follows `kubectl get pods -o name` in a `deleteOnePod` step: the first `pod/<name>` line
 * of its output, as `kubectl delete pod/<name>` (what the shell substitution would run); null when it
 * listed none.
 */
export function deleteFirstPodLine(listOutput: string): string | null {
  const first = listOutput.split('\n').map((l) => l.trim()).find((l) => l.startsWith('pod/'));
  return first === undefined ? null : `kubectl delete ${first}`;
}

/** etcd key prefixes of the objects a scenario makes; any of them present means the cluster is in use. */
export const workloadPrefixes = [
  '/registry/pods/', '/registry/replicasets/', '/registry/deployments/', '/registry/services/specs/',
  '/registry/daemonsets/', '/registry/statefulsets/', '/registry/jobs/',
] as const;

/** What kube-apiserver creates for itself at start (the `kubernetes` Service): not someone's workload. */
const bootstrapWorkloadKeys: ReadonlySet<string> = new Set(['/registry/services/specs/default/kubernetes']);

const counted = new WeakMap<readonly string[], number>();

/**
 * How many of `sortedKeys` (in the keyspace's order) are workload keys: two binary searches per prefix,
 * once per keys array (the panel asks on every store update; the keys change far less often).
 */
export function workloadKeyCount(sortedKeys: readonly string[]): number {
  const known = counted.get(sortedKeys);
  if (known !== undefined) return known;
  let count = 0;
  for (const prefix of workloadPrefixes) count += lowerBound(sortedKeys, prefixEnd(prefix)) - lowerBound(sortedKeys, prefix);
  for (const key of bootstrapWorkloadKeys) {
    const at = lowerBound(sortedKeys, key);
    if (sortedKeys[at] === key) count--;
  }
  counted.set(sortedKeys, count);
  return count;
}

/** The keys of objects someone already created (pods, ReplicaSets, Deployments …). */
export function workloadKeys(keys: readonly string[]): string[] {
  return keys.filter((k) => workloadPrefixes.some((p) => k.startsWith(p)) && !bootstrapWorkloadKeys.has(k));
}
