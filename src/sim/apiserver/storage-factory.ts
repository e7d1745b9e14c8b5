// The storage and the registry of every served resource, made on first use: an etcd3 store (with its
// etcd watcher) under `--etcd-prefix`, behind a watch cache except for events, which 1.28 does not cache
// (watch-cache size 0); and over it the resource's generic registry store with its strategy.
// Models k8s.io/apiserver/pkg/server/storage/storage_factory.go (the etcd prefix and media type),
// k8s.io/apiserver/pkg/registry/generic/registry/storage_factory.go (StorageWithCacher) and the
// REST storage map pkg/controlplane/instance.go (InstallAPIs) builds.

import { apiVersionOf, lookupResource, storageKey, type ResourceInfo } from '../api/resources.ts';
import type { KubeObject } from '../api/types/meta.ts';
import type { Time } from '../engine/index.ts';
import { GenericStore, type CommitObserver, type StoreHooks } from './registry/generic-store.ts';
import { strategyFor } from './registry/strategies.ts';
import { Cacher, podNodeNameTrigger, type CacherHost } from './storage/cacher.ts';
import type { StorageMediaType } from './storage/codec.ts';
import type { EtcdClient } from './storage/etcd-client.ts';
import type { EtcdWatchRouter } from './storage/etcd-watch-client.ts';
import { EtcdWatcher } from './storage/etcd-watcher.ts';
import { Etcd3Store } from './storage/etcd3-store.ts';
import type { Storage } from './storage/interface.ts';
import type { WatchCacheWindow } from './storage/watch-cache.ts';

export interface StorageFactoryConfig {
  readonly etcd: EtcdClient;
  readonly watches: EtcdWatchRouter;
  readonly now: () => Time;
  /** `--etcd-prefix`. */
  readonly prefix: string;
  readonly mediaType: StorageMediaType;
  readonly cacherHost: CacherHost;
  /** Told of every committed write (kube-apiserver's namespace and RBAC views). */
  readonly onCommit: CommitObserver;
  /** The registry hooks of one resource (`group/resource`): the Service allocators for `/services`. */
  readonly hooksOf: (key: string) => StoreHooks;
}

export class StorageFactory {
  private readonly cachers = new Map<string, Cacher>();
  private readonly storages = new Map<string, Storage>();
  private readonly stores = new Map<string, GenericStore>();

  constructor(private readonly config: StorageFactoryConfig) {}

  /** The generic registry store of a served resource. */
  storeFor(group: string, resource: string): GenericStore {
    const key = `${group}/${resource}`;
    let store = this.stores.get(key);
    if (!store) {
      const info = lookupResource(group, resource);
      if (!info) throw new Error(`no served resource ${key}`);
      store = new GenericStore(strategyFor(info), this.storageOf(info), this.config.prefix, this.config.onCommit, this.config.hooksOf(key));
      this.stores.set(key, store);
    }
    return store;
  }

  /** The storage of a resource: its own etcd3 store, behind a watch cache unless it is events. */
  storageOf(r: ResourceInfo): Storage {
    const { etcd, watches, prefix } = this.config;
    const key = `${r.group}/${r.resource}`;
    const existing = this.storages.get(key);
    if (existing) return existing;
    const groupResource = { group: r.group, resource: r.resource };
    const newFunc = (): KubeObject => ({ kind: r.kind, apiVersion: apiVersionOf(r), metadata: {} });
    const etcd3 = new Etcd3Store(etcd, this.config.now, new EtcdWatcher({ etcd, watches, groupResource, newFunc }), this.config.mediaType);
    let storage: Storage = etcd3;
    if (!(r.group === '' && r.resource === 'events')) {
      const resourcePrefix = storageKey(prefix, r, undefined).replace(/\/$/, '');
      const cacher = new Cacher({
        storage: etcd3,
        resourcePrefix,
        keyFunc: (obj) => storageKey(prefix, r, obj.metadata.namespace, obj.metadata.name ?? ''),
        newFunc,
        host: this.config.cacherHost,
        // Models pkg/registry/core/pod/storage/storage.go: TriggerFunc spec.nodeName (pod.NodeNameTriggerFunc).
        ...(r.group === '' && r.resource === 'pods' ? { trigger: podNodeNameTrigger } : {}),
      });
      this.cachers.set(resourcePrefix, cacher);
      storage = cacher;
    }
    this.storages.set(key, storage);
    return storage;
  }

  /** The watch cache of one resource by storage prefix (`/registry/pods`), if it has one yet. */
  cacherOf(resourcePrefix: string): Cacher | undefined {
    return this.cachers.get(resourcePrefix);
  }

  /** Starts every watch cache (each lists once, at the revision of now). */
  startCachers(): void {
    for (const cacher of this.cachers.values()) cacher.start();
  }

  /** Every resource's watch cache window, by storage prefix (`/registry/pods`), in prefix order. */
  watchCacheWindows(): Array<{ readonly resourcePrefix: string } & WatchCacheWindow> {
    return [...this.cachers.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([resourcePrefix, cacher]) => ({ resourcePrefix, ...cacher.watchCache.window() }));
  }
}
