// Manifests the seeds teach with, offered as one-click starting points.

export interface ManifestPreset {
  readonly id: string;
  readonly label: string;
  readonly yaml: string;
}

/** seeds/000: `kubectl create -f nginx.yaml`. */
const nginxDeployment = `apiVersion: apps/v1
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
`;

export const manifestPresets: readonly ManifestPreset[] = [
  { id: 'nginx-deployment', label: 'nginx Deployment (seed 000)', yaml: nginxDeployment },
];
