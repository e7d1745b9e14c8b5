// The YAML editor's starting points: the scenarios' manifest files (the worker posts them with the
// scenario catalog; src/sim/scenarios/manifests.ts holds the seeds' texts) plus a blank page. The seeds/000
// nginx Deployment is also kept here, because the editor and the kubectl create form show it before the
// worker has said anything: src/worker/scenarios.test.ts checks it is the catalog's nginx.yml word for word.

import type { ScenarioView } from '../../protocol/index.ts';

export interface EditorPreset {
  readonly id: string;
  readonly label: string;
  readonly yaml: string;
}

/** seeds/000's nginx Deployment: the editor's text at first render. */
export const nginxDeploymentPreset: EditorPreset = {
  id: 'nginx.yml',
  label: 'nginx.yml (seeds/000)',
  yaml: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`,
};

const blank: EditorPreset = { id: 'blank', label: 'Blank', yaml: '' };

/**
 * The presets: nginx.yml first (there before the catalog is), then every other file of the catalog,
 * labelled with the seed of the first scenario that uses it, then a blank page.
 */
export function editorPresets(scenarios: readonly ScenarioView[]): EditorPreset[] {
  const files = new Map<string, EditorPreset>([[nginxDeploymentPreset.id, nginxDeploymentPreset]]);
  for (const s of scenarios) {
    for (const m of s.manifests) {
      if (!files.has(m.file)) files.set(m.file, { id: m.file, label: `${m.file}${s.source ? ` (${s.source})` : ''}`, yaml: m.yaml });
    }
  }
  return [...files.values(), blank];
}
