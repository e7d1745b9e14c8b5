// What starting a tour runs: its steps (src/protocol/tours.ts) as the page's scenario actions — a
// catalog scenario expands into its own steps, exactly as the Scenarios tab carries them out.

import type { ScenarioView, Tour } from '../../protocol/index.ts';
import { stepAction, type StepAction } from '../scenarios/plan.ts';

/** The actions of `tour`, in order; throws when it names a scenario the catalog does not have. */
export function tourActions(tour: Tour, catalog: readonly ScenarioView[]): StepAction[] {
  const actions: StepAction[] = [];
  for (const step of tour.steps) {
    switch (step.do) {
      case 'scenario': {
        const scenario = catalog.find((s) => s.id === step.id);
        if (!scenario) throw new Error(`tour ${tour.id}: no scenario "${step.id}" in the catalog`);
        actions.push(...scenario.steps.map(stepAction));
        break;
      }
      case 'run':
        actions.push({ kind: 'console', line: step.line });
        break;
      default:
        actions.push(stepAction({ step, commandLine: '' }));
    }
  }
  return actions;
}

/**
 * A console line of a tour with `{resourceVersion}` replaced by the `metadata.resourceVersion` of the JSON
 * the previous command printed (`kubectl get --raw` of a list); null when that output has none.
 */
export function fillResourceVersion(line: string, previousOutput: string): string | null {
  if (!line.includes('{resourceVersion}')) return line;
  let resourceVersion: unknown;
  try {
    resourceVersion = (JSON.parse(previousOutput) as { metadata?: { resourceVersion?: unknown } }).metadata?.resourceVersion;
  } catch {
    return null;
  }
  return typeof resourceVersion === 'string' && resourceVersion !== '' ? line.replaceAll('{resourceVersion}', resourceVersion) : null;
}
