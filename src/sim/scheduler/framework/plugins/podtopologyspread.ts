// PodTopologySpread (PreScore, Score) for the pod's own ScheduleAnyway constraints: fewer matching pods
// in the node's domain scores higher. A pod without such constraints is skipped (the system default
// constraints, which need the pod's Service/ReplicaSet selector, are not modelled; nor is its Filter).
// Models pkg/scheduler/framework/plugins/podtopologyspread/scoring.go.

import { labelSelectorAsSelector, matchesLabels, type Selector } from '../../../api/labels.ts';
import type { TopologySpreadConstraint } from '../../../api/types/core.ts';
import type { PreScorePlugin, ScorePlugin } from '../interface.ts';
import type { NodeInfo } from '../types.ts';
import { maxNodeScore } from '../types.ts';

const preScoreStateKey = 'PreScorePodTopologySpread';

interface SpreadState {
  /** Each ScheduleAnyway constraint with its selector (null when the selector does not parse). */
  readonly constraints: readonly { readonly topologyKey: string; readonly selector: Selector | null }[];
  readonly all: readonly NodeInfo[];
}

export const podTopologySpread: PreScorePlugin & ScorePlugin = {
  name: 'PodTopologySpread',
  preScore(state, pod, _feasible, all) {
    const constraints = (pod.spec.topologySpreadConstraints ?? []).filter((c: TopologySpreadConstraint) => c.whenUnsatisfiable === 'ScheduleAnyway');
    if (constraints.length === 0) return false;
    state.write(preScoreStateKey, {
      constraints: constraints.map((c) => {
        const selector = labelSelectorAsSelector(c.labelSelector);
        return { topologyKey: c.topologyKey, selector: selector.ok ? selector.value : null };
      }),
      all,
    } satisfies SpreadState);
    return true;
  },
  // The pods of the pod's namespace matching each constraint's selector, in the node's domain.
  score(state, pod, { node }) {
    const { constraints, all } = state.read<SpreadState>(preScoreStateKey);
    return constraints.reduce((sum, c) => {
      const domain = node.metadata.labels?.[c.topologyKey];
      if (domain === undefined || c.selector === null) return sum;
      const selector = c.selector;
      const count = all.filter((i) => i.node.metadata.labels?.[c.topologyKey] === domain)
        .reduce((n, i) => n + i.pods.filter((p) => p.metadata.namespace === pod.metadata.namespace && matchesLabels(selector, p.metadata.labels)).length, 0);
      return sum + count;
    }, 0);
  },
  normalizeScore: (_state, raw) => {
    const max = Math.max(...raw);
    const min = Math.min(...raw);
    return raw.map((s) => (max === min ? maxNodeScore : Math.floor((maxNodeScore * (max + min - s)) / max)));
  },
};
