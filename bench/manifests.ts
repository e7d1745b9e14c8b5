// The Deployment the page benches create and scale: `web`, nginx:1.14.2, as YAML for the page's form.

export const webDeploymentYaml = (replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: "nginx:1.14.2"}]}
`;
