// One click to a cluster with 1, 3 or 5 etcd members: the graph's corner holds a small switch that resets
// the cluster (same seed and nodes) with that many members. Hidden while the page shows a server's cluster.

import { Panel } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { etcdMemberCounts } from '../../protocol/index.ts';
import { useAttached } from '../live/LiveControls.tsx';
import { useSim, useSimActions } from '../store/sim-context.ts';

export function EtcdMembersSwitch() {
  const { t } = useTranslation('graph');
  const members = useSim((state) => state.cluster?.etcdMembers ?? 1);
  const actions = useSimActions();
  if (useAttached()) return null;
  return (
    <Panel position="top-left" className="etcd-members-switch">
      <div role="group" aria-label={t('member.switch')} title={t('member.switchHint')} data-testid="etcd-members-switch">
        <span aria-hidden="true">{t('member.switch')}</span>
        {etcdMemberCounts.map((n) => (
          <button key={n} type="button" aria-pressed={n === members} aria-label={t('member.switchOption', { count: n })}
            onClick={() => { if (n !== members) actions.reset(undefined, undefined, n); }}>
            {n}
          </button>
        ))}
      </div>
    </Panel>
  );
}
