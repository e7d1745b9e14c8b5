// kube-apiserver's request pipeline as stages inside its box: the filter chain (authentication, audit,
// impersonation, max-in-flight, authorization), then admission and the registry strategy. The stage the
// step shown delivered (an `apiserver.*` message kube-apiserver sends itself) lights up, so a request
// is seen walking the chain one step at a time.

import { memo } from 'react';
import type { SimState } from '../store/sim-store.ts';
import { useSim } from '../store/sim-context.ts';

export const apiserverStages: ReadonlyArray<{ readonly kind: string; readonly label: string; readonly name: string }> = [
  { kind: 'apiserver.authentication', label: 'authn', name: 'authentication' },
  { kind: 'apiserver.audit', label: 'audit', name: 'audit' },
  { kind: 'apiserver.impersonation', label: 'imp', name: 'impersonation' },
  { kind: 'apiserver.max-in-flight', label: 'flight', name: 'max-in-flight' },
  { kind: 'apiserver.authorization', label: 'authz', name: 'authorization' },
  { kind: 'apiserver.admission.mutating', label: 'mut', name: 'mutating admission' },
  { kind: 'apiserver.registry.strategy', label: 'strat', name: 'registry strategy' },
  { kind: 'apiserver.admission.validating', label: 'val', name: 'validating admission' },
];

/** The stage kube-apiserver ran at the newest step delivered, if that step was one. */
export function activeStage(state: Pick<SimState, 'recent'>): string | null {
  const last = state.recent.at(-1);
  return last && last.from === 'kube-apiserver' && last.to === 'kube-apiserver' && last.kind.startsWith('apiserver.') ? last.kind : null;
}

export const ApiserverStages = memo(function ApiserverStages() {
  const active = useSim(activeStage);
  return (
    <ol className="apiserver-stages" aria-label="kube-apiserver request stages">
      {apiserverStages.map((stage) => (
        <li
          key={stage.kind}
          className={`apiserver-stage${stage.kind === active ? ' apiserver-stage--active' : ''}`}
          data-testid="apiserver-stage"
          data-stage={stage.kind}
          data-active={stage.kind === active}
          aria-current={stage.kind === active ? 'step' : undefined}
          aria-label={stage.name}
          title={stage.name}
        >
          {stage.label}
        </li>
      ))}
    </ol>
  );
});
