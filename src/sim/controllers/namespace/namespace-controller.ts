// The namespace controller of kube-controller-manager: once a Namespace is marked for deletion
// (Terminating), it discovers every namespaced resource that can be deleted, deletes each collection in
// the namespace (DeleteCollection with Background propagation), counts what remains, writes the
// deletion conditions on the Namespace, waits (requeue after estimate/2 + 1 s) while pods terminate on
// their kubelets, and finally removes its `kubernetes` finalizer through `/finalize`, whereupon
// kube-apiserver deletes the Namespace.
// Models k8s pkg/controller/namespace/namespace_controller.go (enqueueNamespace with the 5 s
// namespaceDeletionGracePeriod, worker with ResourcesRemainingError requeues, 10 workers from
// --concurrent-namespace-syncs); the deletion itself is namespaced-resources-deleter.ts
// (deletion/namespaced_resources_deleter.go), its conditions status-condition-utils.ts.

import type { Namespace } from '../../api/types/core.ts';
import {
  BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, RateLimitingQueue, runWorkers,
  type SharedIndexInformer, type TimerHandle,
} from '../../client/index.ts';
import { second, type Co } from '../../engine/index.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';
import { NamespacedResourcesDeleter, ResourcesRemainingError } from './namespaced-resources-deleter.ts';

/** namespaceDeletionGracePeriod: lets admission's caches see the deletion before content is removed. */
export const namespaceDeletionGracePeriod = 5 * second;

/** nsControllerRateLimiter: 5 ms to 60 s per item, 10 qps / 100 burst overall. */
function nsControllerRateLimiter() {
  return new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(5, 60 * second), new BucketRateLimiter(10, 100));
}

export class NamespaceController {
  readonly queue: RateLimitingQueue;
  readonly informer: SharedIndexInformer<Namespace>;
  private readonly rateLimiter = nsControllerRateLimiter();
  private readonly retries = new Map<string, TimerHandle>();

  private readonly deleter: NamespacedResourcesDeleter;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = new RateLimitingQueue(ctx.host, 'namespace', this.rateLimiter);
    this.informer = ctx.informers.informerFor<Namespace>('namespaces');
    this.deleter = new NamespacedResourcesDeleter(ctx);
    this.informer.addEventHandler({
      onAdd: (ns) => this.enqueueNamespace(ns),
      onUpdate: (_old, ns) => this.enqueueNamespace(ns),
    });
  }

  run(workers: number): void {
    runWorkers(this.ctx.host, this.queue, workers, (key) => this.worker(key));
  }

  /** Only namespaces being deleted, after the deletion grace period. */
  private enqueueNamespace(ns: Namespace): void {
    if (ns.metadata.deletionTimestamp === undefined || ns.metadata.deletionTimestamp === null) return;
    this.queue.addAfter(ns.metadata.name ?? '', namespaceDeletionGracePeriod);
  }

  private *worker(key: string): Co<void> {
    try {
      const ns = this.informer.get('', key);
      if (ns) yield* this.deleter.delete(key);
      this.queue.forget(key);
    } catch (err) {
      if (err instanceof ResourcesRemainingError) {
        const delay = (Math.floor(err.estimate / 2) + 1) * second;
        // While pods terminate the wait is part of the work (workqueue.AddAfter); content held only by
        // finalizers may wait forever, so that recheck is a background timer that leaves the engine idle.
        if (err.waiting) this.requeueInBackground(key, delay);
        else this.queue.addAfter(key, delay);
      } else {
        this.requeueInBackground(key, this.rateLimiter.when(key, this.ctx.host.now));
      }
    }
  }

  private requeueInBackground(key: string, delay: number): void {
    this.retries.get(key)?.cancel();
    this.retries.set(key, this.ctx.host.after(delay, 'namespace.recheck', () => {
      this.retries.delete(key);
      this.queue.add(key);
    }, { background: true }));
  }
}
