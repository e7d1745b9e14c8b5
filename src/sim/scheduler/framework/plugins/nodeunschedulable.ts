// NodeUnschedulable (Filter): a cordoned node (spec.unschedulable) takes only pods that tolerate
// node.kubernetes.io/unschedulable:NoSchedule.
// Models pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go.

import type { FilterPlugin, FilterResult } from '../interface.ts';
import { tolerates } from './tainttoleration.ts';

const pass: FilterResult = { reasons: [], unresolvable: false };

export const nodeUnschedulable: FilterPlugin = {
  name: 'NodeUnschedulable',
  filter(_state, pod, { node }) {
    if (!node.spec?.unschedulable) return pass;
    const tolerated = (pod.spec.tolerations ?? []).some((t) => tolerates(t, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }));
    return tolerated ? pass : { reasons: ['node(s) were unschedulable'], unresolvable: true };
  },
};
