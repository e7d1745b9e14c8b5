import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../cluster.ts';
import { adminCall } from '../../testing/http.ts';
import { builtinTokens } from '../../wire/credentials.ts';
import { httpKinds, type HttpResponse } from '../../wire/http.ts';

function get(cluster: Cluster, path: string, query: string): HttpResponse {
  const request = cluster.user.request('kube-apiserver', httpKinds.request, { method: 'GET', path, query, headers: { authorization: `Bearer ${builtinTokens.admin}` } });
  cluster.engine.runUntilIdle();
  return cluster.user.received().find((r) => r.requestId === request.id)!.message.payload as HttpResponse;
}

function booted(seed = 'metrics'): Cluster {
  const cluster = createCluster({ seed });
  cluster.engine.runUntilIdle();
  return cluster;
}

/** Parses Prometheus text (0.0.4): every line is a comment or `name{labels} value`; returns the samples. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (\S+)$/.exec(line);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const value = m![3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m![3]);
    expect(Number.isNaN(value)).toBe(false);
    samples.set(`${m![1]}${m![2] ?? ''}`, value);
  }
  return samples;
}

function metrics(cluster: Cluster): Map<string, number> {
  const response = adminCall(cluster, 'GET', '/metrics');
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parse(response.body as string);
}

const createLabels = 'component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"';

describe('/metrics', () => {
  it('counts requests by verb, resource, scope and code, with latency histograms, and the etcd requests behind them', () => {
    const cluster = booted();
    const before = metrics(cluster);
    for (const name of ['a', 'b', 'c']) expect(adminCall(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name }, data: { k: 'v' } }).status).toBe(201);
    expect(adminCall(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'a' } }).status).toBe(409);
    const after = metrics(cluster);
    const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(delta(`apiserver_request_total{code="201",${createLabels}}`)).toBe(3);
    expect(delta(`apiserver_request_total{code="409",${createLabels}}`)).toBe(1);
    // The histogram: cumulative buckets, +Inf equals the count, the sum is virtual time.
    const count = after.get(`apiserver_request_duration_seconds_count{${createLabels}}`)!;
    expect(count).toBe(4);
    expect(after.get(`apiserver_request_duration_seconds_bucket{${createLabels},le="+Inf"}`)).toBe(count);
    const buckets = [...after.entries()].filter(([k]) => k.startsWith(`apiserver_request_duration_seconds_bucket{${createLabels},le=`)).map(([, v]) => v);
    expect(buckets.length).toBe(24);
    expect(buckets).toEqual([...buckets].sort((x, y) => x - y));
    expect(after.get(`apiserver_request_duration_seconds_sum{${createLabels}}`)).toBeGreaterThan(0);
    // Each create is one etcd Txn creating the key; the refused one too (its compare fails).
    expect(delta('etcd_requests_total{operation="create",type="configmaps"}')).toBe(4);
    expect(after.get('etcd_request_duration_seconds_count{operation="create",type="configmaps"}')).toBe(after.get('etcd_requests_total{operation="create",type="configmaps"}'));
    // The /metrics request itself is counted.
    expect(delta('apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="",scope="",subresource="/metrics",verb="GET",version=""}')).toBe(1);
  });

  it('is the same text for the same cluster (virtual time only)', () => {
    const run = () => {
      const cluster = booted('same');
      adminCall(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } });
      return adminCall(cluster, 'GET', '/metrics').body;
    };
    expect(run()).toBe(run());
  });
});

describe('/readyz, /livez, /healthz', () => {
  it('list their checks with ?verbose as kube-apiserver 1.28 does, exclude checks, and answer one check by path', () => {
    const cluster = booted();
    const readyz = get(cluster, '/readyz', 'verbose');
    expect(readyz.status).toBe(200);
    const lines = (readyz.body as string).split('\n');
    expect(lines.slice(0, 5)).toEqual(['[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]etcd-readiness ok', '[+]informer-sync ok']);
    expect(lines).toContain('[+]poststarthook/rbac/bootstrap-roles ok');
    expect(lines.slice(-3)).toEqual(['[+]shutdown ok', 'readyz check passed', '']);
    expect(adminCall(cluster, 'GET', '/readyz').body).toBe('ok');
    expect(adminCall(cluster, 'GET', '/livez/ping').body).toBe('ok');
    expect(adminCall(cluster, 'GET', '/livez/nope').status).toBe(404);
    const livez = (get(cluster, '/livez', 'verbose&exclude=etcd&exclude=nope').body as string).split('\n');
    expect(livez).toContain('[+]etcd excluded: ok');
    expect(livez).not.toContain('[+]etcd-readiness ok');
    expect(livez.slice(-3)).toEqual(['warn: some health checks cannot be excluded: no matches for "nope"', 'livez check passed', '']);
    expect(get(cluster, '/healthz', 'verbose').body).toMatch(/\[\+\]ping ok\n[\s\S]*healthz check passed\n$/);
  });
});
