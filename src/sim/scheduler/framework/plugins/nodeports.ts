// NodePorts (PreFilter, Filter): a pod asking for host ports fits only where none of them is taken.
// Models pkg/scheduler/framework/plugins/nodeports/node_ports.go.

import type { Pod } from '../../../api/types/core.ts';
import type { FilterPlugin, FilterResult, PreFilterPlugin } from '../interface.ts';

const pass: FilterResult = { reasons: [], unresolvable: false };
const preFilterStateKey = 'PreFilterNodePorts';
const hostPortsOfFrozenSpec = new WeakMap<Pod['spec'], readonly string[]>();

/** The pod's host ports as `protocol/ip/port`, computed once per frozen spec (Filter asks for every pod of every node). */
function hostPorts(pod: Pod): readonly string[] {
  if (!Object.isFrozen(pod.spec)) return computeHostPorts(pod);
  let ports = hostPortsOfFrozenSpec.get(pod.spec);
  if (ports === undefined) hostPortsOfFrozenSpec.set(pod.spec, (ports = Object.freeze(computeHostPorts(pod))));
  return ports;
}

function computeHostPorts(pod: Pod): string[] {
  return pod.spec.containers.flatMap((c) => (c.ports ?? []).filter((p) => p.hostPort)
    .map((p) => `${p.protocol ?? 'TCP'}/${p.hostIP ?? '0.0.0.0'}/${p.hostPort}`));
}

export const nodePorts: PreFilterPlugin & FilterPlugin = {
  name: 'NodePorts',
  preFilter(state, pod) {
    state.write(preFilterStateKey, hostPorts(pod));
  },
  filter(state, _pod, info) {
    const wanted = state.read<readonly string[]>(preFilterStateKey);
    if (wanted.length === 0) return pass;
    const used = new Set(info.pods.flatMap(hostPorts));
    return wanted.some((p) => used.has(p)) ? { reasons: ["node(s) didn't have free ports for the requested pod ports"], unresolvable: false } : pass;
  },
};
