// The credentials of the simulated cluster, as kubeadm writes them: one bearer token per identity the real
// control plane uses, plus a restricted user (`alice`, no bindings) for trying RBAC denials. Clients take
// their token from here as a component reads it from its kubeconfig (`users[].user.token`); kube-apiserver
// reads the same tokens as its static token file (apiserver/filters/authentication.ts maps each to its user).

/** The identities built into every simulated cluster and their tokens. */
export const builtinTokens = {
  admin: 'podflow-admin-token',
  controllerManager: 'podflow-kube-controller-manager-token',
  scheduler: 'podflow-kube-scheduler-token',
  restricted: 'podflow-alice-token',
  kubelet: (node: string) => `podflow-kubelet-${node}-token`,
} as const;
