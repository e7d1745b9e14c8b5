// NodeName (Filter): a pod that names its node fits only there.
// Models pkg/scheduler/framework/plugins/nodename/node_name.go.

import type { FilterPlugin, FilterResult } from '../interface.ts';

const pass: FilterResult = { reasons: [], unresolvable: false };

export const nodeName: FilterPlugin = {
  name: 'NodeName',
  filter(_state, pod, { node }) {
    return !pod.spec.nodeName || pod.spec.nodeName === node.metadata.name ? pass
      : { reasons: ["node(s) didn't match the requested node name"], unresolvable: true };
  },
};
