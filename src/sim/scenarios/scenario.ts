// What a scenario is: a titled, bilingual list of steps a user takes against a fresh cluster. Steps are
// data (plain, structured-clone-safe), so the worker can post the list to the UI for a picker and the
// runner (runner.ts) can replay them. Steps that act on the cluster are kubectl commands, sent as user
// requests (the roots of cause chains); fault steps are user actions too (the cluster's fault injection);
// the last two kinds only say how far to let the cluster run.

import type { Fault } from '../faults.ts';

/** A text in the two languages of the UI. */
export interface LocalizedText {
  readonly en: string;
  readonly zh: string;
}

/** `kubectl delete --cascade=background|foreground|orphan`. */
export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export type ScenarioStep =
  /** `kubectl create -f <file>`: one POST per object, in document order. */
  | { readonly do: 'create'; readonly file: string }
  /** `kubectl scale <resource>/<name> --replicas=N`. */
  | { readonly do: 'scale'; readonly resource: string; readonly name: string; readonly replicas: number }
  /** `kubectl set image <resource>/<name> <container>=<image>`. */
  | { readonly do: 'setImage'; readonly resource: string; readonly name: string; readonly container: string; readonly image: string }
  /** `kubectl delete <resource> <name> --cascade=…` (background by default, as kubectl). */
  | { readonly do: 'delete'; readonly resource: string; readonly name: string; readonly propagationPolicy?: PropagationPolicy }
  /**
   * Deletes one pod of a workload: `kubectl get pods -l <selector> -o name`, then `kubectl delete` of the
   * first name listed.
   */
  | { readonly do: 'deleteOnePod'; readonly labelSelector: string }
  | { readonly do: 'fault'; readonly fault: Fault }
  /** Let the cluster run until only background work (leases, resyncs) is left. */
  | { readonly do: 'runUntilIdle' }
  /** Let virtual time pass (milliseconds), e.g. for a node lease to expire. */
  | { readonly do: 'advance'; readonly ms: number };

export interface ScenarioManifest {
  /** The file name the command line shows, e.g. `replicaset.yaml`. */
  readonly file: string;
  readonly yaml: string;
}

export interface Scenario {
  /** Stable, URL-safe. */
  readonly id: string;
  readonly title: LocalizedText;
  /** One line. */
  readonly description: LocalizedText;
  /** Where it comes from, e.g. `seeds/004` (absent for scenarios not in the seeds). */
  readonly source?: string;
  /** Worker nodes the scenario expects (3 by default). */
  readonly nodes?: number;
  /** The Pods it ends with, Running and Ready: a scenario at scale shows their progress while it runs. */
  readonly pods?: number;
  readonly manifests: readonly ScenarioManifest[];
  readonly steps: readonly ScenarioStep[];
}
