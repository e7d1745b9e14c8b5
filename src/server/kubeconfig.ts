// The kubeconfig `npm run apiserver` writes: one cluster, one user (a bearer token) and one context,
// named podflow, with namespace default; over HTTPS it trusts the server's self-signed certificate. kubectl reads YAML or JSON; this is written as YAML.

import { stringify } from 'yaml';

export function kubeconfigFor(serverUrl: string, token: string, caCertificate?: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'podflow', cluster: { server: serverUrl, ...(caCertificate ? { 'certificate-authority-data': Buffer.from(caCertificate).toString('base64') } : {}) } }],
    users: [{ name: 'podflow-admin', user: { token } }],
    contexts: [{ name: 'podflow', context: { cluster: 'podflow', user: 'podflow-admin', namespace: 'default' } }],
    'current-context': 'podflow',
    preferences: {},
  });
}
