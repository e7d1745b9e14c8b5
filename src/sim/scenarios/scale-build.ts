// How a scenario at scale is built: one Deployment `web` of N replicas on M nodes, created with kubectl
// and run until idle. The catalog's sizes (scale.ts, scale-big.ts) and the tests' small sizes go through
// the same function, so a test at 10 nodes runs the steps the page runs at 5,000.

import type { LocalizedText, Scenario, ScenarioManifest } from './scenario.ts';

/** The size of a scenario at scale: worker nodes and the replicas of its one Deployment. */
export interface ScaleSize {
  readonly nodes: number;
  readonly pods: number;
}

/** `web-<replicas>.yaml`: Deployment `web` of `replicas` replicas of nginx:1.14.2. */
export function webDeployment(replicas: number): ScenarioManifest {
  return {
    file: `web-${replicas}.yaml`,
    yaml: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.14.2
`,
  };
}

/** A scenario at scale: `kubectl create` of `web` with `size.pods` replicas on `size.nodes` nodes, run until idle. */
export function scaleScenario(id: string, size: ScaleSize, title: LocalizedText, description: LocalizedText): Scenario {
  const manifest = webDeployment(size.pods);
  return {
    id, title, description, nodes: size.nodes, pods: size.pods, manifests: [manifest],
    steps: [{ do: 'create', file: manifest.file }, { do: 'runUntilIdle' }],
  };
}
