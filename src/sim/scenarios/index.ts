// Scenarios: the seeds' flows and what follows them, as data, and the runner that plays them.
export { catalog, scenarios, scenarioById } from './catalog.ts';
export { commandLine, runScenario, ScenarioRunner } from './runner.ts';
export type { Scenario, ScenarioStep } from './scenario.ts';
