// Scenarios: the seeds' flows and what follows them, as data, and the runner that plays them.
export { scenarios, scenarioById } from './catalog.ts';
export { commandLine, runScenario, ScenarioRunner, type StepRecord } from './runner.ts';
export type { LocalizedText, PropagationPolicy, Scenario, ScenarioManifest, ScenarioStep } from './scenario.ts';
