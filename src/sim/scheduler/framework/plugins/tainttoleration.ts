// TaintToleration (Filter, PreScore, Score): a node with a NoSchedule or NoExecute taint the pod does not
// tolerate is filtered out; among the rest, fewer intolerable PreferNoSchedule taints score higher.
// Models pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go and, for `tolerates`,
// k8s.io/api/core/v1/toleration.go (ToleratesTaint).

import type { Taint, Toleration } from '../../../api/types/core.ts';
import type { CycleState, FilterPlugin, FilterResult, PreScorePlugin, ScorePlugin } from '../interface.ts';
import { normalizeByMax } from './helper.ts';

const pass: FilterResult = { reasons: [], unresolvable: false };
const preScoreStateKey = 'PreScoreTaintToleration';

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === 'Exists') return !t.key || t.key === taint.key;
  return (t.key ?? '') === taint.key && (t.value ?? '') === (taint.value ?? '');
}

export const taintToleration: FilterPlugin & PreScorePlugin & ScorePlugin = {
  name: 'TaintToleration',
  filter(_state, pod, { node }) {
    const taint = (node.spec?.taints ?? []).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute')
      && !(pod.spec.tolerations ?? []).some((tol) => tolerates(tol, t)));
    return taint ? { reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`], unresolvable: true } : pass;
  },
  // The pod's tolerations that can tolerate a PreferNoSchedule taint.
  preScore(state, pod) {
    state.write(preScoreStateKey, (pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule'));
    return true;
  },
  score(state: CycleState, _pod, { node }) {
    const tols = state.read<readonly Toleration[]>(preScoreStateKey);
    return (node.spec?.taints ?? []).filter((t) => t.effect === 'PreferNoSchedule' && !tols.some((tol) => tolerates(tol, t))).length;
  },
  normalizeScore: (_state, raw) => normalizeByMax(raw, true),
};
