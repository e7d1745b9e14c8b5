// Over a real etcd (a server started with --etcd-servers), above the keyspace: what that etcd reported of
// itself as last read by the step shown (the member asked, its version, raft term and indexes, database
// size, compacted revision), when that read was, and, in a line of its own, what cannot be known from
// outside and why. Absent over the model's etcd and at a step before the server's first read.

import { useTranslation } from 'react-i18next';
import type { EtcdInsides, RealEtcdInsides } from '../../protocol/index.ts';
import type { SimState } from '../store/sim-store.ts';
import { useSim } from '../store/sim-context.ts';

type RealEtcd = EtcdInsides & { readonly real: RealEtcdInsides };

/** The answer per insides event: the store notifies many times a frame while playing, the insides change far less often. */
const realEtcds = new WeakMap<NonNullable<SimState['insides']>, RealEtcd | null>();

function realEtcdOf(state: SimState): RealEtcd | null {
  const all = state.insides;
  if (!all) return null;
  let found = realEtcds.get(all);
  if (found === undefined) {
    found = null;
    for (const insides of Object.values(all.components)) {
      if (insides.role === 'etcd' && insides.real !== undefined) {
        found = insides as RealEtcd;
        break;
      }
    }
    realEtcds.set(all, found);
  }
  return found;
}

function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}

/** `readAt` as a wall-clock time of day in the page's language (`14:03:07`). */
function timeOfDay(readAt: number, language: string): string {
  return new Date(readAt).toLocaleTimeString(language === 'zh' ? 'zh-CN' : 'en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

export function RealEtcdStatus() {
  const { t, i18n } = useTranslation('keyspace');
  const etcd = useSim(realEtcdOf);
  if (!etcd) return null;
  const { real } = etcd;
  const role = real.leader === real.memberId ? t('real.leader') : t('real.follower', { leader: real.leader });
  return (
    <div className="real-etcd" data-testid="real-etcd" data-revision={etcd.revision} data-raft-term={real.raftTerm} data-raft-index={real.raftIndex}>
      <p className="real-etcd-line">
        <strong>{t('real.title', { version: real.version, endpoint: real.endpoint })}</strong>
        {' · '}<span data-testid="real-etcd-read-at" data-read-at={real.readAt}>{t('real.readAt', { time: timeOfDay(real.readAt, i18n.language) })}</span>
        {' · '}{t('real.member', { id: real.memberId, role })}
        {' · '}<span data-testid="real-etcd-raft">{t('real.raft', { term: real.raftTerm, index: real.raftIndex, applied: real.raftAppliedIndex })}</span>
        {' · '}{t('real.db', { size: megabytes(real.dbSize), inUse: megabytes(real.dbSizeInUse) })}
        {' · '}<span data-testid="real-etcd-compacted">{t('real.compacted', { revision: etcd.compactRevision })}</span>
      </p>
      <p className="real-etcd-line hint" data-testid="real-etcd-unknown">
        {t('real.unknown')}{real.historyFrom > 1 ? ` ${t('real.history', { from: real.historyFrom })}` : ''}
      </p>
    </div>
  );
}
