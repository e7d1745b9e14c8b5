// One informer per resource and selector per component, shared by all its controllers, all started
// together. Models k8s.io/client-go/informers/factory.go (sharedInformerFactory: InformerFor, Start,
// WaitForCacheSync) and k8s cmd/kube-controller-manager/app/controllermanager.go (ResyncPeriod).
//
// WaitForCacheSync blocks a goroutine; here `onSynced` calls back once every started informer has synced.

import type { KubeObject } from '../api/types/meta.ts';
import { hour, type Duration, type Rng } from '../engine/index.ts';
import type { ClientHost } from './client-component.ts';
import type { RestClient } from './rest-client.ts';
import { SharedIndexInformer } from './shared-informer.ts';

export interface InformerSelectors {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export interface SharedInformerFactoryOptions {
  /** Resync period of every informer; 0 (the default) never resyncs. */
  readonly defaultResync?: Duration;
  /** Restrict every informer to one namespace. */
  readonly namespace?: string;
}

/** kube-controller-manager's informer resync: MinResyncPeriod (12 h) × [1, 2), drawn once. */
export function controllerManagerResyncPeriod(rng: Rng): Duration {
  return Math.floor(12 * hour * (rng.float() + 1));
}

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer<KubeObject>>();

  constructor(private readonly host: ClientHost, private readonly client: RestClient,
    private readonly options: SharedInformerFactoryOptions = {}) {}

  /** The informer of `resource` in `group` with these selectors, created on first use. */
  informerFor<T extends KubeObject>(resource: string, group = '', selectors: InformerSelectors = {}): SharedIndexInformer<T> {
    const key = `${group}/${resource}?${selectors.labelSelector ?? ''}&${selectors.fieldSelector ?? ''}`;
    let informer = this.informers.get(key);
    if (!informer) {
      informer = new SharedIndexInformer<KubeObject>(this.host, this.client.resource<KubeObject>(resource, group), {
        ...selectors,
        ...(this.options.namespace ? { namespace: this.options.namespace } : {}),
        resyncPeriod: this.options.defaultResync ?? 0,
      });
      this.informers.set(key, informer);
    }
    return informer as unknown as SharedIndexInformer<T>;
  }

  /** Runs every informer created so far that is not running yet. */
  start(): void {
    for (const informer of this.informers.values()) informer.run();
  }

  hasSynced(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced());
  }

  /** Calls `f` once every informer created so far has synced. */
  onSynced(f: () => void): void {
    const pending = [...this.informers.values()].filter((i) => !i.hasSynced());
    let left = pending.length;
    if (left === 0) {
      f();
      return;
    }
    for (const informer of pending) informer.onSynced(() => {
      if (--left === 0) f();
    });
  }
}
