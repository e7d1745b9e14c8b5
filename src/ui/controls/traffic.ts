// Which requests the user can send, read from the topology: a request needs a modelled receiver and a
// link from the user to it.

import type { Topology } from '../../protocol/index.ts';

/** The modelled etcd the user has a link to (etcdctl), if any. */
export function etcdctlTarget(topology: Topology | undefined): string | null {
  if (!topology) return null;
  const user = topology.components.find((c) => c.role === 'user' && c.modelled);
  const etcd = topology.components.find((c) => c.role === 'etcd' && c.modelled);
  if (!user || !etcd) return null;
  const linked = topology.links.some((l) => (l.a === user.name && l.b === etcd.name) || (l.a === etcd.name && l.b === user.name));
  return linked ? etcd.name : null;
}
