// NodeAffinity (Filter, PreScore, Score): the pod's nodeSelector and required node affinity terms
// filter nodes; its preferred terms' weights add up to the node's score.
// Models pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go and
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity (term and requirement matching).
// Deviation: 1.28's PreScore skips a pod without preferred terms; here such a pod scores 0 on every
// node, which leaves the totals the same and keeps every plugin in the attempt records.

import type { Node, NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm } from '../../../api/types/core.ts';
import type { FilterPlugin, FilterResult, PreScorePlugin, ScorePlugin } from '../interface.ts';
import { normalizeByMax } from './helper.ts';

const pass: FilterResult = { reasons: [], unresolvable: false };
const preScoreStateKey = 'PreScoreNodeAffinity';

function matchRequirement(req: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In': return value !== undefined && values.includes(value);
    case 'NotIn': return value === undefined || !values.includes(value);
    case 'Exists': return value !== undefined;
    case 'DoesNotExist': return value === undefined;
    case 'Gt': return value !== undefined && Number(value) > Number(values[0]);
    case 'Lt': return value !== undefined && Number(value) < Number(values[0]);
    default: return false;
  }
}

function matchTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return exprs.every((r) => matchRequirement(r, labels[r.key]))
    && fields.every((r) => matchRequirement(r, r.key === 'metadata.name' ? node.metadata.name : undefined));
}

export const nodeAffinity: FilterPlugin & PreScorePlugin & ScorePlugin = {
  name: 'NodeAffinity',
  filter(_state, pod, { node }) {
    const labels = node.metadata.labels ?? {};
    const selectorOk = Object.entries(pod.spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v);
    const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    const affinityOk = !terms || terms.some((t) => matchTerm(t, node));
    return selectorOk && affinityOk ? pass : { reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true };
  },
  preScore(state, pod) {
    state.write(preScoreStateKey, pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []);
    return true;
  },
  // The sum of the weights of the preferred terms the node matches.
  score(state, _pod, { node }) {
    const preferred = state.read<readonly PreferredSchedulingTerm[]>(preScoreStateKey);
    return preferred.reduce((sum, p) => sum + (matchTerm(p.preference, node) ? p.weight : 0), 0);
  },
  normalizeScore: (_state, raw) => normalizeByMax(raw, false),
};
