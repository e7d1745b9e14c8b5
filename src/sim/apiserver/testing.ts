// Test support for kube-apiserver's tests: a booted cluster, a request as a user (the admin by default)
// run until idle with its response, the messages a request caused, and the seeds' nginx Deployment.

import type { Status } from '../api/types/meta.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import type { Message } from '../engine/index.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpRequest, type HttpResponse } from '../wire/http.ts';

// The seeds' Deployment (seeds/000: `kubectl create -f nginx.yaml`).
export const nginxDeployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'nginx' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] } },
  },
};

export function bootedCluster(seed = 'apiserver', apiserver: Parameters<typeof createCluster>[0]['apiserver'] = {}): Cluster {
  const cluster = createCluster({ seed, apiserver });
  cluster.engine.runUntilIdle();
  if (!cluster.apiserver.ready) throw new Error('kube-apiserver did not become ready');
  return cluster;
}

export interface Call {
  readonly request: Message<HttpRequest>;
  readonly response: HttpResponse;
}

export function call(cluster: Cluster, method: HttpMethod, path: string, options: { token?: string; body?: unknown; query?: string; headers?: Record<string, string> } = {}): Call {
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method,
    path,
    query: options.query ?? '',
    headers: {
      authorization: `Bearer ${options.token ?? builtinTokens.admin}`,
      accept: 'application/json',
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  cluster.engine.runUntilIdle();
  const reply = cluster.user.received().find((r) => r.requestId === request.id);
  if (!reply) throw new Error(`no response to ${method} ${path}`);
  return { request, response: reply.message.payload as HttpResponse };
}

/** Every message caused, directly or not, by `root`, in delivery order. */
export function causedBy(cluster: Cluster, root: Message): Message[] {
  const ids = new Set([root.id]);
  const out: Message[] = [];
  for (const m of cluster.engine.trace.all()) {
    if (m.cause !== null && ids.has(m.cause)) {
      ids.add(m.id);
      out.push(m);
    }
  }
  return out;
}

export function status(c: Call): Status {
  return c.response.body as Status;
}
