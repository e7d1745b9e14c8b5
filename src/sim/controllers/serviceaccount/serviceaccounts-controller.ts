// The serviceaccount controller: every active namespace has a `default` ServiceAccount. A new namespace
// gets one; a deleted `default` is created again.
// Models k8s pkg/controller/serviceaccount/serviceaccounts_controller.go (serviceAccountAdded/Deleted,
// namespaceAdded/Updated, syncNamespace; DefaultServiceAccountsControllerOptions: one account named
// "default"; one worker).

import { isStatusError } from '../../api/errors.ts';
import type { Namespace, ServiceAccount } from '../../api/types/core.ts';
import { DeletedFinalStateUnknown, RateLimitingQueue, runWorkers, syncOrRequeue, type ResourceClient, type SharedIndexInformer } from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';

export const defaultServiceAccountNames: readonly string[] = ['default'];

export class ServiceAccountsController {
  readonly saInformer: SharedIndexInformer<ServiceAccount>;
  readonly nsInformer: SharedIndexInformer<Namespace>;
  readonly queue: RateLimitingQueue;
  private readonly serviceAccounts: ResourceClient<ServiceAccount>;

  constructor(private readonly ctx: ControllerContext) {
    this.saInformer = ctx.informers.informerFor<ServiceAccount>('serviceaccounts');
    this.nsInformer = ctx.informers.informerFor<Namespace>('namespaces');
    this.serviceAccounts = ctx.client.resource<ServiceAccount>('serviceaccounts');
    this.queue = new RateLimitingQueue(ctx.host, 'serviceaccount');
    this.saInformer.addEventHandler({
      onDelete: (obj) => {
        const sa = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        if (defaultServiceAccountNames.includes(sa.metadata.name ?? '')) this.queue.add(sa.metadata.namespace ?? '');
      },
    });
    this.nsInformer.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name ?? ''),
      onUpdate: (_old, ns) => this.queue.add(ns.metadata.name ?? ''),
    });
  }

  run(workers: number): void {
    runWorkers(this.ctx.host, this.queue, workers, (ns) => syncOrRequeue(this.queue, ns, (n) => this.syncNamespace(n)));
  }

  /** syncNamespace: create the missing default accounts of an active namespace. */
  private *syncNamespace(namespace: string): Co<void> {
    const ns = this.nsInformer.get('', namespace);
    if (!ns || ns.status?.phase !== 'Active') return;
    for (const name of defaultServiceAccountNames) {
      if (this.saInformer.get(namespace, name)) continue;
      try {
        yield* this.serviceAccounts.create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
      } catch (err) {
        // AlreadyExists: the informer has not seen it yet. Forbidden: the namespace is terminating.
        if (!isStatusError(err) || (err.status.code !== 409 && err.status.code !== 403)) throw err;
      }
    }
  }
}
