// kube-apiserver's request pipeline as stages inside its box, in two rows of readable labels: the filter
// chain (authentication, audit, impersonation, max-in-flight, authorization), then mutating admission,
// the registry strategy (with validation) and validating admission. The stage the step shown delivered
// (an `apiserver.*` message kube-apiserver sends itself) lights up, so a request is seen walking the
// chain one step at a time.

import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SimState } from '../store/sim-store.ts';
import { useSim } from '../store/sim-context.ts';

/** Each stage: the message kind that runs it, and its `graph:stages.*` label key (`<key>Name` is its full name). */
export const apiserverStages: ReadonlyArray<{ readonly kind: string; readonly key: string }> = [
  { kind: 'apiserver.authentication', key: 'authentication' },
  { kind: 'apiserver.audit', key: 'audit' },
  { kind: 'apiserver.impersonation', key: 'impersonation' },
  { kind: 'apiserver.max-in-flight', key: 'maxInFlight' },
  { kind: 'apiserver.authorization', key: 'authorization' },
  { kind: 'apiserver.admission.mutating', key: 'admission' },
  { kind: 'apiserver.registry.strategy', key: 'strategy' },
  { kind: 'apiserver.admission.validating', key: 'validation' },
];

/** The stage kube-apiserver ran at the newest step delivered, if that step was one. */
export function activeStage(state: Pick<SimState, 'recent'>): string | null {
  const last = state.recent.at(-1);
  return last && last.from === 'kube-apiserver' && last.to === 'kube-apiserver' && last.kind.startsWith('apiserver.') ? last.kind : null;
}

export const ApiserverStages = memo(function ApiserverStages() {
  const active = useSim(activeStage);
  const { t } = useTranslation('graph');
  return (
    <ol className="apiserver-stages" aria-label={t('stages.label')}>
      {apiserverStages.map((stage) => (
        <li
          key={stage.kind}
          className={`apiserver-stage${stage.kind === active ? ' apiserver-stage--active' : ''}`}
          data-testid="apiserver-stage"
          data-stage={stage.kind}
          data-active={stage.kind === active}
          aria-current={stage.kind === active ? 'step' : undefined}
          aria-label={t(`stages.${stage.key}Name`)}
          title={t(`stages.${stage.key}Name`)}
        >
          {t(`stages.${stage.key}`)}
        </li>
      ))}
    </ol>
  );
});
