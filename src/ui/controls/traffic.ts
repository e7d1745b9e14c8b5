// Which requests the user can send, read from the topology: a request needs a modelled receiver and a
// link from the user to it.

import type { Topology } from '../../protocol/index.ts';

/** The modelled component of `role` the user has a link to, if any. */
function userTarget(topology: Topology | undefined, role: 'etcd' | 'kube-apiserver'): string | null {
  if (!topology) return null;
  const user = topology.components.find((c) => c.role === 'user' && c.modelled);
  const target = topology.components.find((c) => c.role === role && c.modelled);
  if (!user || !target) return null;
  const linked = topology.links.some((l) => (l.a === user.name && l.b === target.name) || (l.a === target.name && l.b === user.name));
  return linked ? target.name : null;
}

/** The modelled etcd the user has a link to (etcdctl), if any. */
export function etcdctlTarget(topology: Topology | undefined): string | null {
  return userTarget(topology, 'etcd');
}

/** The modelled kube-apiserver the user has a link to (kubectl), if any. */
export function kubectlTarget(topology: Topology | undefined): string | null {
  return userTarget(topology, 'kube-apiserver');
}
