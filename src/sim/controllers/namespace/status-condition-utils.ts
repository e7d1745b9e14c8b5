// The five deletion conditions the namespace controller writes on a Namespace it deletes: each True with
// what failed or remains, else False with its all-clear reason and message.
// Models k8s pkg/controller/namespace/deletion/status_condition_utils.go (namespaceConditionUpdater).

import type { Namespace, NamespaceCondition } from '../../api/types/core.ts';
import type { GVR } from './namespaced-resources-deleter.ts';

type ConditionType = 'NamespaceDeletionDiscoveryFailure' | 'NamespaceDeletionGroupVersionParsingFailure' | 'NamespaceDeletionContentFailure'
  | 'NamespaceContentRemaining' | 'NamespaceFinalizersRemaining';

const conditionTypes: readonly ConditionType[] = [
  'NamespaceDeletionDiscoveryFailure', 'NamespaceDeletionGroupVersionParsingFailure', 'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining', 'NamespaceFinalizersRemaining',
];

const okMessages: Record<ConditionType, string> = {
  NamespaceDeletionDiscoveryFailure: 'All resources successfully discovered',
  NamespaceDeletionGroupVersionParsingFailure: 'All legacy kube types successfully parsed',
  NamespaceDeletionContentFailure: 'All content successfully deleted, may be waiting on finalization',
  NamespaceContentRemaining: 'All content successfully removed',
  NamespaceFinalizersRemaining: 'All content-preserving finalizers finished',
};

const okReasons: Record<ConditionType, string> = {
  NamespaceDeletionDiscoveryFailure: 'ResourcesDiscovered',
  NamespaceDeletionGroupVersionParsingFailure: 'ParsedGroupVersions',
  NamespaceDeletionContentFailure: 'ContentDeleted',
  NamespaceContentRemaining: 'ContentRemoved',
  NamespaceFinalizersRemaining: 'ContentHasNoFinalizers',
};

/** namespaceConditionUpdater: failures seen during one sync, turned into the five conditions. */
export class ConditionUpdater {
  private readonly newConditions: NamespaceCondition[] = [];
  private readonly deleteContentErrors: string[] = [];

  constructor(private readonly now: string) {}

  discoveryFailed(message: string): void {
    this.newConditions.push({ type: 'NamespaceDeletionDiscoveryFailure', status: 'True', lastTransitionTime: this.now, reason: 'DiscoveryFailed', message });
  }

  deleteContentFailed(message: string): void {
    this.deleteContentErrors.push(message);
  }

  contentTotals(gvrToNumRemaining: ReadonlyMap<GVR, number>, finalizersToNumRemaining: ReadonlyMap<string, number>): void {
    if (gvrToNumRemaining.size > 0) {
      const remaining = [...gvrToNumRemaining].filter(([, n]) => n > 0).map(([g, n]) => `${g.resource}.${g.group} has ${n} resource instances`).sort();
      this.newConditions.push({
        type: 'NamespaceContentRemaining', status: 'True', lastTransitionTime: this.now, reason: 'SomeResourcesRemain',
        message: `Some resources are remaining: ${remaining.join(', ')}`,
      });
    }
    if (finalizersToNumRemaining.size > 0) {
      const remaining = [...finalizersToNumRemaining].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
      this.newConditions.push({
        type: 'NamespaceFinalizersRemaining', status: 'True', lastTransitionTime: this.now, reason: 'SomeFinalizersRemain',
        message: `Some content in the namespace has finalizers remaining: ${remaining.join(', ')}`,
      });
    }
  }

  /** Update: the conditions of `ns` brought up to date (in place); true when something changed. */
  update(ns: Namespace): boolean {
    if (this.deleteContentErrors.length > 0 && !this.newConditions.some((c) => c.type === 'NamespaceDeletionContentFailure')) {
      const msgs = [...this.deleteContentErrors].sort();
      this.newConditions.push({
        type: 'NamespaceDeletionContentFailure', status: 'True', lastTransitionTime: this.now, reason: 'ContentDeletionFailed',
        message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
      });
    }
    ns.status ??= {};
    const conditions = ns.status.conditions ?? [];
    let changed = false;
    for (const type of conditionTypes) {
      const next = this.newConditions.find((c) => c.type === type)
        ?? { type, status: 'False' as const, lastTransitionTime: this.now, reason: okReasons[type], message: okMessages[type] };
      const old = conditions.find((c) => c.type === type);
      if (!old) {
        conditions.push(next);
        changed = true;
      } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
        if (old.status !== next.status) old.lastTransitionTime = this.now;
        old.status = next.status;
        old.reason = next.reason;
        old.message = next.message;
        changed = true;
      }
    }
    ns.status.conditions = conditions;
    return changed;
  }
}
