// The scenario catalog as the UI sees it (src/sim/scenarios holds the data; the UI may not import it), and
// the two playback commands a scenario's steps need beyond `step` and `runUntilIdle`: run for a span of
// virtual time, and run until a console command has finished. A scenario's steps are carried out by
// the UI through the ordinary user commands (`consoleRun`, `fault`), so they are logged, persisted and
// replayed like anything else the user does; the playback commands are not logged (replay re-delivers
// the same steps by number).

import type { FaultSpec } from './console.ts';

/** A text in the two languages of the UI. */
export interface LocalizedTextView {
  readonly en: string;
  readonly zh: string;
}

/** One step as data (the same shapes as src/sim/scenarios/scenario.ts `ScenarioStep`). */
export type ScenarioStepSpec =
  | { readonly do: 'create'; readonly file: string }
  | { readonly do: 'scale'; readonly resource: string; readonly name: string; readonly replicas: number }
  | { readonly do: 'setImage'; readonly resource: string; readonly name: string; readonly container: string; readonly image: string }
  | { readonly do: 'delete'; readonly resource: string; readonly name: string; readonly propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' }
  | { readonly do: 'deleteOnePod'; readonly labelSelector: string }
  | { readonly do: 'fault'; readonly fault: FaultSpec }
  | { readonly do: 'runUntilIdle' }
  | { readonly do: 'advance'; readonly ms: number };

export interface ScenarioStepView {
  readonly step: ScenarioStepSpec;
  /** The step as the command a user types (`kubectl create -f nginx.yml`), or a `# …` comment for the others. */
  readonly commandLine: string;
}

export interface ScenarioView {
  readonly id: string;
  readonly title: LocalizedTextView;
  readonly description: LocalizedTextView;
  /** e.g. `seeds/004`; absent for scenarios not in the seeds. */
  readonly source?: string;
  /** Worker nodes the scenario expects. */
  readonly nodes: number;
  /** The Pods it ends with, Running and Ready (scenarios at scale: the panel shows their progress). */
  readonly pods?: number;
  /** The files its `create` steps name; the console's `kubectl … -f <file>` reads them by these names. */
  readonly manifests: readonly { readonly file: string; readonly yaml: string }[];
  readonly steps: readonly ScenarioStepView[];
}

/** Posted once by a new worker: every scenario of the catalog. */
export interface ScenarioCatalogEvent {
  readonly type: 'scenarioCatalog';
  readonly scenarios: readonly ScenarioView[];
}

/**
 * Pauses, then runs the live simulation for `ms` virtual milliseconds (> 0): every message due by then is
 * delivered and the clock ends at exactly now + ms. Chunked like `runUntilIdle` (the status reports
 * `runningUntilIdle` between chunks, `paused` when it is over or a `pause` stopped it).
 */
export interface AdvanceCommand {
  readonly type: 'advance';
  readonly ms: number;
}

/**
 * Pauses, then delivers messages one at a time until console command `id` has finished (its last
 * `consoleOutput` has `done`), for at most `maxMs` virtual milliseconds (an `error` if it is still
 * running then, e.g. a `-w` watch). Chunked like `runUntilIdle`.
 */
export interface RunUntilCommandDoneCommand {
  readonly type: 'runUntilCommandDone';
  readonly id: number;
  readonly maxMs: number;
}
