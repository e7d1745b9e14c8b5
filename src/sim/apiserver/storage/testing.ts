// A test bench for the storage layer: an engine with a real EtcdServer and one client component (named
// kube-apiserver) that runs storage coroutines to completion.

import { Component, Engine, type Co, type Message } from '../../engine/index.ts';
import { EtcdServer, type EtcdReply } from '../../etcd/index.ts';
import { etcdClientOver, type EtcdClient } from './etcd-client.ts';

export class StorageBench extends Component {
  readonly sim: Engine;
  readonly etcdServer: EtcdServer;
  readonly etcd: EtcdClient;

  constructor(seed: string | number = 'storage') {
    super('kube-apiserver');
    this.sim = new Engine({ seed });
    this.etcdServer = this.sim.add(new EtcdServer('etcd'));
    this.sim.add(this);
    this.sim.link('kube-apiserver', 'etcd', { latency: 1 });
    this.etcd = etcdClientOver(<R>(kind: string, payload: unknown) => this.call<EtcdReply<R>>('etcd', kind, payload));
  }

  receive(_message: Message): void {}

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

  /** The request content of every etcd request-stats line so far, in order. */
  etcdLog(): string[] {
    return this.sim.trace.all()
      .filter((m) => m.from === 'etcd' && m.kind.startsWith('etcd.'))
      .map((m) => (m.payload as EtcdReply<unknown>).stats?.requestContent)
      .filter((l): l is string => l !== undefined);
  }
}
