// Requests as the cluster's admin, for tests: send one, run until idle, return kube-apiserver's answer.

import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpResponse } from '../wire/http.ts';
import type { Cluster } from '../cluster.ts';

export function adminCall(cluster: Cluster, method: HttpMethod, path: string, body?: unknown): HttpResponse {
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query: '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  cluster.engine.runUntilIdle();
  const reply = cluster.user.received().find((r) => r.requestId === request.id);
  if (!reply) throw new Error(`no response to ${method} ${path}`);
  return reply.message.payload as HttpResponse;
}
