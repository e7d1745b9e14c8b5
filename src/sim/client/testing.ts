// Test support: a booted cluster with one client component linked to kube-apiserver, and a way to run
// a coroutine on that component to completion. Used by the client library's tests only.

import { builtinTokens } from '../wire/credentials.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import type { Co, Message } from '../engine/index.ts';
import { ClientComponent } from './client-component.ts';
import { apiserverName, RestClient } from './rest-client.ts';

/** A component that only hosts client-library objects; other messages are recorded. */
export class ClientTestComponent extends ClientComponent {
  readonly other: Message[] = [];

  protected handle(message: Message): void {
    this.other.push(message);
  }

  /** Starts `co` on this component (as if a delivery to it had started it). */
  start(co: Co<unknown>): void {
    this.host.spawn(co);
  }
}

export interface ClientTestCluster {
  readonly cluster: Cluster;
  readonly component: ClientTestComponent;
  readonly client: RestClient;
  /** Runs `co` on the component until idle; returns its result or rethrows its error. */
  run<T>(co: () => Co<T>): T;
}

export function clientTestCluster(seed = 'client', name = 'kube-controller-manager', token: string = builtinTokens.controllerManager): ClientTestCluster {
  const cluster = createCluster({ seed, components: { controllerManager: false, scheduler: false, kubelets: false } });
  cluster.engine.runUntilIdle();
  const component = new ClientTestComponent(name);
  cluster.engine.add(component);
  cluster.engine.link(name, apiserverName, { latency: 2 });
  const client = new RestClient(component.host, token);
  return {
    cluster, component, client,
    run<T>(co: () => Co<T>): T {
      let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
      component.start((function* () {
        try {
          outcome = { ok: true, value: yield* co() };
        } catch (error) {
          outcome = { ok: false, error };
        }
      })());
      cluster.engine.runUntilIdle();
      if (!outcome) throw new Error('coroutine did not finish');
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    },
  };
}
