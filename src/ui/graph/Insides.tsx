// What a component holds inside, drawn in its box at the step shown (the worker's `insides` event, see
// protocol/insides.ts): etcd's revisions, keys, watchers, leases and the write it applied; kube-apiserver's
// requests in flight and watch-cache windows; one row per controller with its workqueue depth and the
// object it syncs; kube-scheduler's queues and its newest decision; a kubelet's container start in
// progress. Each line has a fixed height, so values changing never move anything; every line's full
// text is its accessible name and tooltip.

import { memo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/shallow';
import type { ApiserverInsides, ComponentInsides, ControllerManagerInsides, EtcdInsides, EtcdMemberInsides, SchedulerInsides } from '../../protocol/index.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { shortKey, shortPod } from './insides-text.ts';

function useInsides<R extends ComponentInsides['role']>(name: string, role: R): Extract<ComponentInsides, { role: R }> | null {
  return useSimSnapshot((state) => {
    const insides = state.insides?.components[name];
    return insides?.role === role ? insides as Extract<ComponentInsides, { role: R }> : null;
  });
}

export const EtcdInsidesView = memo(function EtcdInsidesView({ name }: { readonly name: string }) {
  const insides = useInsides(name, 'etcd');
  const { t } = useTranslation('graph');
  if (!insides) return <NotShown />;
  if (insides.member) return <EtcdMemberView insides={insides} member={insides.member} />;
  const { revision, compactRevision, keys, watchers, leases } = insides;
  return (
    <div className="insides" data-testid="insides" data-role="etcd">
      <p className="insides-line" aria-label={t('etcd.stateName', { revision, compacted: compactRevision, keys, watchers, leases })}>
        <span data-testid="etcd-revision" data-value={revision}>{t('etcd.revision', { revision })}</span>
        {' · '}<span data-testid="etcd-compacted" data-value={compactRevision}>{t('etcd.compacted', { revision: compactRevision })}</span>
      </p>
      <p className="insides-line insides-line--muted" aria-hidden="true">
        <span data-testid="etcd-keys" data-value={keys}>{t('etcd.keys', { count: keys })}</span>
        {' · '}{t('etcd.watchers', { count: watchers })}
        {' · '}{t('etcd.leases', { count: leases })}
      </p>
      <EtcdWrite insides={insides} />
    </div>
  );
});

/** A cluster member's raft role (the leader starred) and term, for the heading line of its box; nothing for a single etcd. */
export const EtcdMemberHeading = memo(function EtcdMemberHeading({ name }: { readonly name: string }) {
  const member = useInsides(name, 'etcd')?.member ?? null;
  const { t } = useTranslation('graph');
  if (!member) return null;
  const role = t(`member.roles.${member.state}`);
  return (
    <span className="insides-aside etcd-member-heading" aria-hidden="true">
      <span className="etcd-member-role">{member.state === 'leader' ? `★ ${role}` : role}</span>
      {member.state !== 'stopped' && <>{' · '}<span data-testid="member-term">{t('member.term', { term: member.term })}</span></>}
    </span>
  );
});

/**
 * A member of a 3- or 5-member etcd (its role and term are in the heading, EtcdMemberHeading): its commit
 * and applied index, the newest write it applied to its store (key and revision, highlighted on the step it
 * applies it, so one write is seen reaching each member in turn), and the fault it is under (stopped,
 * partitioned away, slow disk) or else the leader it follows.
 */
function EtcdMemberView({ insides, member }: { readonly insides: EtcdInsides; readonly member: EtcdMemberInsides }) {
  const { t } = useTranslation('graph');
  const { state, term, commit, applied, lead, unreachable, fsyncMs, appliedWrite } = member;
  const now = useSimSnapshot((s) => appliedWrite !== null && s.status.step === appliedWrite.step);
  const fault = state === 'stopped' ? t('member.stopped')
    : unreachable.length > 0 ? t('member.partitioned', { members: unreachable.join(', ') })
      : fsyncMs > 0 ? t('member.slowDisk', { ms: fsyncMs }) : null;
  const role = t(`member.roles.${state}`);
  const leader = lead ?? t('member.noLeader');
  const wrote = appliedWrite === null ? ''
    : `; ${t('member.appliedWriteName', { key: appliedWrite.key, revision: appliedWrite.revision, step: appliedWrite.step })} (${t(now ? 'etcd.writeNow' : 'etcd.writeEarlier')})`;
  const snapshot = member.snapshot > 0 ? `; ${t('member.snapshotName', { snapshot: member.snapshot, first: member.firstIndex })}` : '';
  const label = state === 'stopped' ? t('member.stoppedName')
    : `${t('member.stateName', { role, term, commit, applied, lead: leader, revision: insides.revision })}${snapshot}${wrote}`;
  return (
    <div className={`insides etcd-member etcd-member--${state}`} data-testid="etcd-member" data-state={state} data-term={term} data-commit={commit}
      data-applied={applied} data-snapshot={member.snapshot} data-lead={lead ?? ''} data-fault={fault !== null} role="note" aria-label={fault ? `${label}; ${fault}` : label} title={fault ? `${label}; ${fault}` : label}>
      <p className="insides-line" aria-hidden="true">
        {state === 'stopped' ? '—' : `${t('member.commit', { index: commit })} · ${t('member.applied', { index: applied })}`}
      </p>
      <p className={`insides-line etcd-member-write${now ? ' etcd-member-write--now' : ''}${appliedWrite === null ? ' insides-line--muted' : ''}`}
        data-testid="member-write" data-step={appliedWrite?.step ?? ''} data-now={now} data-key={appliedWrite?.key ?? ''}
        data-revision={appliedWrite?.revision ?? ''} aria-hidden="true">
        {state === 'stopped' ? '' : appliedWrite === null ? t('etcd.revision', { revision: insides.revision })
          : t('member.appliedWrite', { revision: appliedWrite.revision, key: shortKey(appliedWrite.key, 16) })}
      </p>
      <p className={`insides-line${fault ? ' insides-line--failed' : ' insides-line--muted'}`} data-testid="member-fault" aria-hidden="true">
        {fault ?? t('member.lead', { lead: leader })}
      </p>
    </div>
  );
}

const EtcdWrite = memo(function EtcdWrite({ insides }: { readonly insides: EtcdInsides }) {
  const { t } = useTranslation('graph');
  const now = useSimSnapshot((state) => insides.write !== null && state.status.step === insides.write.step);
  const write = insides.write;
  if (!write) return <p className="insides-write insides-line--muted">{t('etcd.noWrite')}</p>;
  const outcome = write.branch === 'success' ? ' ✓' : write.branch === 'failure' ? ' ✗' : '';
  const label = `${t('etcd.writeName', { rpc: write.rpc, key: write.key, compare: write.compare || '—', ops: write.ops, revision: write.revision, step: write.step })}${write.branch ? `, ${t(write.branch === 'success' ? 'etcd.succeeded' : 'etcd.failed')}` : ''} (${t(now ? 'etcd.writeNow' : 'etcd.writeEarlier')})`;
  return (
    <div
      className={`insides-write${now ? ' insides-write--now' : ''}${write.branch === 'failure' ? ' insides-write--failed' : ''}`}
      data-testid="etcd-write" data-step={write.step} data-now={now} data-key={write.key}
      role="note" aria-label={label} title={label}
    >
      <span className="insides-line insides-mono">{write.rpc}{write.compare ? ` ${write.compare}` : ''}{write.moreCompares > 0 ? ` +${write.moreCompares}` : ''} → {write.ops}{outcome}</span>
      <span className="insides-line insides-mono">{shortKey(write.key)}</span>
    </div>
  );
});

export const ApiserverInsidesView = memo(function ApiserverInsidesView({ name }: { readonly name: string }) {
  const insides = useInsides(name, 'kube-apiserver');
  const { t } = useTranslation('graph');
  if (!insides) return <NotShown />;
  return (
    <p className="insides-line insides-line--muted" data-testid="apiserver-watch-cache" aria-label={t('apiserver.watchCacheName')}>
      {t('apiserver.watchCache')}{' '}
      {insides.watchCaches.map((cache, i) => (
        <span key={cache.resource} data-resource={cache.resource} data-events={cache.events} title={t('apiserver.cacheEntryName', { ...cache })}>
          {i > 0 ? ' · ' : ''}{t(`apiserver.resources.${cache.resource}`, { defaultValue: cache.resource })} {cache.events}
        </span>
      ))}
    </p>
  );
});

/** The in-flight counts, for the heading line of kube-apiserver's box. */
export const ApiserverInFlight = memo(function ApiserverInFlight({ name }: { readonly name: string }) {
  const insides: ApiserverInsides | null = useInsides(name, 'kube-apiserver');
  const { t } = useTranslation('graph');
  if (!insides) return null;
  const { readOnly, mutating } = insides;
  return (
    <span className="insides-aside" data-testid="apiserver-in-flight" data-read-only={readOnly} data-mutating={mutating}
      aria-label={t('apiserver.inFlightName', { readOnly, mutating })} title={t('apiserver.inFlightName', { readOnly, mutating })}>
      {t('apiserver.inFlight', { readOnly, mutating })}
    </span>
  );
});

export const ControllerManagerInsidesView = memo(function ControllerManagerInsidesView({ name }: { readonly name: string }) {
  const insides: ControllerManagerInsides | null = useInsides(name, 'kube-controller-manager');
  const { t } = useTranslation('graph');
  if (!insides) return <NotShown />;
  return (
    <ul className="insides insides-controllers" data-testid="insides" data-role="kube-controller-manager" aria-label={t('kcm.label')}>
      {insides.controllers.map((c) => {
        const controller = t(`kcm.controllers.${c.name}`);
        const syncing = c.syncing ? t('kcm.syncingName', { object: c.syncing }) : t('kcm.idleName');
        const label = t('kcm.rowName', { controller, depth: c.depth, syncing });
        return (
          <li key={c.name} className={`insides-controller${c.syncing ? ' insides-controller--busy' : ''}`} data-testid="controller-row"
            data-controller={c.name} data-depth={c.depth} data-syncing={c.syncing ?? ''} aria-label={label} title={label}>
            <span className="insides-controller-name">{controller}</span>
            <span className="insides-controller-depth">{t('kcm.depth', { depth: c.depth })}</span>
            <span className="insides-controller-object">{c.syncing ? shortPod(c.syncing, 16) : t('kcm.idle')}</span>
          </li>
        );
      })}
    </ul>
  );
});

export const SchedulerInsidesView = memo(function SchedulerInsidesView({ name }: { readonly name: string }) {
  const insides: SchedulerInsides | null = useInsides(name, 'kube-scheduler');
  const { t } = useTranslation('graph');
  if (!insides) return <NotShown />;
  const { active, backoff, unschedulable, scheduling, last } = insides;
  const decision = schedulerDecision(insides);
  return (
    <div className="insides" data-testid="insides" data-role="kube-scheduler">
      <p className="insides-line insides-line--muted" data-testid="scheduler-queues" data-active={active} data-backoff={backoff} data-unschedulable={unschedulable}
        aria-label={t('scheduler.queuesName', { active, backoff, unschedulable })} title={t('scheduler.queuesName', { active, backoff, unschedulable })}>
        {t('scheduler.queues', { active, backoff, unschedulable })}
      </p>
      <p className={`insides-line insides-mono${decision.kind === 'noFit' ? ' insides-line--failed' : ''}`} data-testid="scheduler-decision"
        data-kind={decision.kind} data-pod={scheduling ?? last?.pod ?? ''} data-node={decision.kind === 'scheduling' ? '' : (last?.node ?? '')}
        aria-label={t(decision.nameKey, decision.values)} title={t(decision.nameKey, decision.values)}>
        {t(decision.textKey, decision.short)}
      </p>
    </div>
  );
});

type Decision = { kind: 'none' | 'scheduling' | 'bound' | 'binding' | 'noFit'; textKey: string; nameKey: string; values: Record<string, string>; short: Record<string, string> };

/** What the scheduler's second line says: the pod being scheduled now, else its newest decision. */
function schedulerDecision({ scheduling, last }: SchedulerInsides): Decision {
  if (scheduling !== null && (last === null || last.pod !== scheduling || last.node === null)) {
    return { kind: 'scheduling', textKey: 'scheduler.scheduling', nameKey: 'scheduler.scheduling', values: { pod: scheduling }, short: { pod: shortPod(scheduling) } };
  }
  if (last === null) return { kind: 'none', textKey: 'scheduler.none', nameKey: 'scheduler.none', values: {}, short: {} };
  if (last.node === null) return { kind: 'noFit', textKey: 'scheduler.noFit', nameKey: 'scheduler.noFitName', values: { pod: last.pod }, short: { pod: shortPod(last.pod) } };
  const kind = last.bound ? 'bound' : 'binding';
  return {
    kind, textKey: `scheduler.${kind}`, nameKey: `scheduler.${kind}Name`,
    values: { pod: last.pod, node: last.node }, short: { pod: shortPod(last.pod, 20), node: last.node },
  };
}

/** Container steps a kubelet's accessible name spells out; the rest are counted. */
const labelledSteps = 5;

/**
 * What a kubelet's box draws, as primitives (so that a store update that leaves them equal does not
 * re-render the box): whether the step has insides, how many container steps, then pod, container and
 * step of the first `labelledSteps`. Null: nothing retained for it.
 */
function kubeletShown(insides: ComponentInsides | undefined): readonly (string | number)[] | null {
  if (insides?.role !== 'kubelet') return null;
  const shown: (string | number)[] = [insides.steps.length];
  for (const s of insides.steps.slice(0, labelledSteps)) shown.push(s.pod, s.container, s.step);
  return shown;
}

/** A container step's phrase in the language of `t`, translated once per language (hundreds of boxes ask on every update while playing). */
const stepPhrases = new WeakMap<TFunction<'graph'>, Map<string, string>>();
function stepPhrase(t: TFunction<'graph'>, step: string): string {
  let phrases = stepPhrases.get(t);
  if (!phrases) stepPhrases.set(t, phrases = new Map());
  let phrase = phrases.get(step);
  if (phrase === undefined) phrases.set(step, phrase = t(`kubelet.steps.${step}`, { defaultValue: step }));
  return phrase;
}

export const KubeletInsidesView = memo(function KubeletInsidesView({ name }: { readonly name: string }) {
  const shown = useSimSnapshot(useShallow((state) => kubeletShown(state.insides?.components[name])));
  const { t } = useTranslation('graph');
  if (!shown) return <NotShown />;
  const count = shown[0] as number;
  const spelled: { pod: string; container: string; step: string }[] = [];
  for (let i = 1; i < shown.length; i += 3) spelled.push({ pod: shown[i] as string, container: shown[i + 1] as string, step: shown[i + 2] as string });
  const first = spelled[0];
  if (!first) return <p className="insides-line insides-line--muted" data-testid="kubelet-step" data-step="">{t('kubelet.none')}</p>;
  const stepText = (step: string) => stepPhrase(t, step);
  // The accessible name spells out the first few steps (a kubelet starting a hundred pods would
  // otherwise translate a hundred phrases on every tick), then how many more there are.
  const rest = count - spelled.length;
  const label = spelled.map((s) => t('kubelet.stepName', { step: stepText(s.step), pod: s.pod, container: s.container })).join('; ')
    + (rest > 0 ? ` ${t('kubelet.more', { count: rest })}` : '');
  const more = count - 1;
  return (
    <p className={`insides-line insides-step insides-step--${first.step}`} data-testid="kubelet-step" data-step={first.step} data-pod={first.pod}
      aria-label={label} title={label}>
      {t('kubelet.step', { step: stepText(first.step), pod: shortPod(first.pod, 16) })}{more > 0 ? ` ${t('kubelet.more', { count: more })}` : ''}
    </p>
  );
});

function NotShown() {
  const { t } = useTranslation('graph');
  const retained = useSimSnapshot((state) => state.insides?.retained ?? true);
  return retained ? null : <p className="insides-line insides-line--muted">{t('notRetained')}</p>;
}
