// A milestone in a few words, for the sequence view's milestone column. The captions' `milestoneText`
// (src/ui/captions/milestones.ts, `short`) says it better once that lands; until then these plain labels
// name the object and what happened to it, in English and 中文 (namespace `sequence`).

import type { TFunction } from 'i18next';
import type { Milestone } from '../../protocol/index.ts';

/** `nginx-deployment-7f4d79f7d7-fxzwz` → `nginx-…-fxzwz`: the owner's first word and the random suffix. */
export function shortName(name: string): string {
  if (name.length <= 18) return name;
  const parts = name.split('-');
  return parts.length > 2 ? `${parts[0]}-…-${parts.at(-1)}` : `${name.slice(0, 16)}…`;
}

/** The milestone's words; `short` names objects by `shortName` (the full text goes in a tooltip). */
export function milestoneLabel(milestone: Milestone, t: TFunction<'sequence'>, short = false): string {
  const m = short ? shorten(milestone) : milestone;
  switch (m.kind) {
    case 'userAction': return t('milestone.userAction', { summary: m.summary });
    case 'objectCreated': return t('milestone.objectCreated', { kind: m.object.kind, name: m.object.name });
    case 'podCreated': return t('milestone.podCreated', { name: m.object.name });
    case 'specChanged': return t('milestone.specChanged', { kind: m.object.kind, name: m.object.name });
    case 'watchSeen': return t('milestone.watchSeen', { watcher: m.watcher, name: m.object.name });
    case 'podBound': return t('milestone.podBound', { name: m.object.name, node: m.node });
    case 'containerStep': return t('milestone.containerStep', { name: m.object.name, step: m.action });
    case 'podPhase': return t('milestone.podPhase', { name: m.object.name, phase: m.phase });
    case 'deploymentAvailable': return t(m.available ? 'milestone.deploymentAvailable' : 'milestone.deploymentUnavailable', { name: m.object.name });
    case 'objectDeleted': return t('milestone.objectDeleted', { kind: m.object.kind, name: m.object.name });
    case 'terminating': return t('milestone.terminating', { name: m.object.name });
    case 'failedScheduling': return t('milestone.failedScheduling', { name: m.object.name });
    case 'imagePullBackOff': return t('milestone.imagePullBackOff', { name: m.object.name });
    case 'crashLoopBackOff': return t('milestone.crashLoopBackOff', { name: m.object.name });
    case 'conflict': return t('milestone.conflict');
    case 'relist': return t('milestone.relist', { client: m.client, resource: m.resource });
    case 'eviction': return t('milestone.eviction', { name: m.object.name });
    case 'requestFailed': return t('milestone.requestFailed', { status: m.status, reason: m.reason });
  }
}

function shorten(m: Milestone): Milestone {
  return 'object' in m && m.object ? { ...m, object: { ...m.object, name: shortName(m.object.name) } } as Milestone : m;
}
