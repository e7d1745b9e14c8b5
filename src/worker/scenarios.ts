// The scenario catalog for the UI (src/sim/scenarios/catalog.ts as plain data, every step with the command
// line a user would type), and the scenarios' manifests as the files the console's `kubectl … -f <file>`
// reads: `kubectl create -f replicaset.yaml` in a scenario step and typed in the console are one command.

import type { ScenarioCatalogEvent, ScenarioStepSpec, ScenarioView } from '../protocol/index.ts';
import { defaultNodeCount } from '../sim/cluster.ts';
import { catalog, commandLine, type Scenario, type ScenarioStep } from '../sim/scenarios/index.ts';

/** The protocol's step type must stay the sim's step type. */
const sameStep = (step: ScenarioStep): ScenarioStepSpec => step;

export function scenarioView(scenario: Scenario): ScenarioView {
  return {
    id: scenario.id,
    title: scenario.title,
    description: scenario.description,
    ...(scenario.source !== undefined ? { source: scenario.source } : {}),
    nodes: scenario.nodes ?? defaultNodeCount,
    ...(scenario.pods !== undefined ? { pods: scenario.pods } : {}),
    manifests: scenario.manifests.map((m) => ({ file: m.file, yaml: m.yaml })),
    steps: scenario.steps.map((step) => ({ step: sameStep(step), commandLine: commandLine(step) })),
  };
}

export function scenarioCatalog(): ScenarioCatalogEvent {
  return { type: 'scenarioCatalog', scenarios: catalog.map(scenarioView) };
}

/** The scenarios' manifests by file name (each name holds one text across the catalog). */
export const scenarioFiles: ReadonlyMap<string, string> = new Map(catalog.flatMap((s) => s.manifests.map((m) => [m.file, m.yaml] as const)));
