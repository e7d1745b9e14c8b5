// A test bench for the storage layer: an engine with a real EtcdServer and one client component (named
// kube-apiserver) that runs storage coroutines to completion and hosts watch caches the way the
// kube-apiserver component does (one etcd watch stream, cacher messages routed back by prefix).

import type { GroupResource } from '../../api/gvk.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { Component, Engine, type Co, type Message } from '../../engine/index.ts';
import { EtcdServer, type EtcdReply, type EtcdServerOptions } from '../../etcd/index.ts';
import { cacherResourcePrefixOf } from './bookmark-dispatcher.ts';
import { Cacher, type CacherFeatureGates, type CacherHost } from './cacher.ts';
import type { CacherTrigger } from './indexed-watchers.ts';
import { etcdClientOver, type EtcdClient } from './etcd-client.ts';
import { EtcdWatchRouter } from './etcd-watch-client.ts';
import { EtcdWatcher } from './etcd-watcher.ts';
import { Etcd3Store } from './etcd3-store.ts';

export interface BenchResource {
  readonly groupResource: GroupResource;
  /** `/registry/pods` */
  readonly resourcePrefix: string;
  readonly newFunc: () => KubeObject;
  readonly keyFunc: (obj: KubeObject) => string;
}

export class StorageBench extends Component {
  readonly sim: Engine;
  readonly etcdServer: EtcdServer;
  readonly etcd: EtcdClient;
  readonly watches: EtcdWatchRouter;
  private readonly cachers = new Map<string, Cacher>();

  constructor(seed: string | number = 'storage', etcdOptions: EtcdServerOptions = {}) {
    super('kube-apiserver');
    this.sim = new Engine({ seed });
    this.etcdServer = this.sim.add(new EtcdServer('etcd', etcdOptions));
    this.sim.add(this);
    this.sim.link('kube-apiserver', 'etcd', { latency: 1 });
    this.etcd = etcdClientOver((kind, payload) => this.call('etcd', kind, payload));
    this.watches = new EtcdWatchRouter('kube-apiserver', {
      call: (kind, payload) => this.call('etcd', kind, payload),
      send: (kind, payload) => {
        this.send('etcd', kind, payload);
      },
      spawn: (co) => {
        this.spawn(co);
      },
    });
  }

  receive(message: Message): void {
    if (this.watches.route(message)) return;
    const prefix = cacherResourcePrefixOf(message);
    const cacher = prefix === undefined ? undefined : this.cachers.get(prefix);
    if (cacher === undefined) throw new Error(`bench: unexpected message ${message.kind}`);
    cacher.receive(message);
  }

  /** An etcd store for `resource` that can also watch. */
  etcd3Store(resource: BenchResource): Etcd3Store {
    const watcher = new EtcdWatcher({ etcd: this.etcd, watches: this.watches, groupResource: resource.groupResource, newFunc: resource.newFunc });
    return new Etcd3Store(this.etcd, () => this.now, watcher);
  }

  /** A started watch cache for `resource` over its own etcd store (call `settle` to let it list and watch). */
  cacher(resource: BenchResource, featureGates: CacherFeatureGates = {}, trigger?: CacherTrigger): Cacher {
    const cacher = new Cacher({
      storage: this.etcd3Store(resource), resourcePrefix: resource.resourcePrefix, keyFunc: resource.keyFunc,
      newFunc: resource.newFunc, host: this.cacherHost(), featureGates, ...(trigger ? { trigger } : {}),
    });
    this.cachers.set(resource.resourcePrefix, cacher);
    cacher.start();
    return cacher;
  }

  /** Runs until only background work is left. */
  settle(): void {
    this.sim.runUntilIdle();
  }

  /** Delivers messages one by one until `condition` holds; throws if the queue runs dry or `maxSteps` pass first. */
  stepUntil(condition: () => boolean, maxSteps = 100_000): void {
    for (let i = 0; !condition(); i++) {
      if (i >= maxSteps || this.sim.stepOnce() === null) throw new Error(`bench: condition not reached after ${i} steps`);
    }
  }

  /** Runs a coroutine until it finishes; returns its result or throws what it threw. */
  run<T>(co: Co<T>): T {
    let outcome: { ok: true; value: T } | { ok: false; error: unknown } | null = null;
    this.spawn((function* () {
      try {
        outcome = { ok: true, value: yield* co };
      } catch (error) {
        outcome = { ok: false, error };
      }
    })());
    this.sim.runUntilIdle();
    const done = outcome as { ok: true; value: T } | { ok: false; error: unknown } | null;
    if (!done) throw new Error('storage coroutine did not finish');
    if (!done.ok) throw done.error;
    return done.value;
  }

  /** Starts a coroutine without running the engine; `result()` reads its outcome later. */
  begin<T>(co: Co<T>): { result(): T | undefined; error(): unknown } {
    let value: T | undefined;
    let error: unknown;
    this.spawn((function* () {
      try {
        value = yield* co;
      } catch (e) {
        error = e;
      }
    })());
    return { result: () => value, error: () => error };
  }

  /** The request content of every etcd request-stats line so far, in order. */
  etcdLog(): string[] {
    return this.sim.trace.all()
      .filter((m) => m.from === 'etcd' && m.kind.startsWith('etcd.'))
      .map((m) => (m.payload as EtcdReply<unknown>).stats?.requestContent)
      .filter((l): l is string => l !== undefined);
  }

  private cacherHost(): CacherHost {
    return {
      now: () => this.now,
      random: () => this.rng.float(),
      spawn: (co) => this.spawn(co),
      stage: (kind, payload) => this.stage(kind, payload),
      reply: (request, kind, payload) => {
        this.reply(request, kind, payload);
      },
      setTimer: (delay, name, data, options) => {
        this.setTimer(delay, name, data, options);
      },
    };
  }
}
