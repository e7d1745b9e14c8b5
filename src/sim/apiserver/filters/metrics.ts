// kube-apiserver's request metrics and the etcd3 storage layer's, in the Prometheus text format /metrics
// serves (0.0.4). The model produces the text itself (it also runs in the browser worker, where no exposition
// library runs); durations are virtual time, so the same cluster gives the same text.
// - apiserver_request_total{code,component,dry_run,group,resource,scope,subresource,verb,version}: every
//   answered request (a watch when it starts streaming; upstream counts it when it ends);
// - apiserver_request_duration_seconds (histogram, upstream's buckets; WATCH and CONNECT are not observed);
// - etcd_requests_total and etcd_request_duration_seconds{operation,type}: every etcd request the storage layer
//   sends, by operation (get, list, create, update, delete) and resource (`pods`, `deployments.apps`).
// Models k8s.io/apiserver/pkg/endpoints/metrics/metrics.go (MonitorRequest, CleanVerb, CleanScope, buckets)
// and pkg/storage/etcd3/metrics/metrics.go (RecordEtcdRequest).

import type { RequestInfo } from '../../api/request-info.ts';
import { servedResources } from '../../api/resources.ts';
import type { RangeRequest, TxnRequest } from '../../etcd/rpc.ts';

/** apiserver_request_duration_seconds' buckets in 1.28. */
export const requestDurationBuckets: readonly number[] = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** etcd_request_duration_seconds' buckets in 1.28. */
export const etcdDurationBuckets: readonly number[] = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

type Labels = ReadonlyArray<readonly [string, string]>;

class Histogram {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly buckets: readonly number[]) {
    this.counts = buckets.map(() => 0);
  }

  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < this.buckets.length; i++) if (seconds <= this.buckets[i]!) this.counts[i]!++;
  }
}

interface Family<T> {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly series: Map<string, { labels: Labels; value: T }>;
}

function family<T>(name: string, help: string, type: 'counter' | 'histogram'): Family<T> {
  return { name, help, type, series: new Map() };
}

function labelKey(labels: Labels): string {
  return labels.map(([k, v]) => `${k}=${v}`).join('\u0000');
}

/** Prometheus' label value escaping: backslash, double quote and newline. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatLabels(labels: Labels): string {
  return labels.length === 0 ? '' : `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

/** A sample value as Go's strconv.FormatFloat(v, 'g', -1, 64) writes the usual ones. */
function formatValue(v: number): string {
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (Number.isInteger(v)) return String(v);
  return String(v);
}

export class ApiserverMetrics {
  private readonly requestTotal = family<number>('apiserver_request_total', '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.', 'counter');
  private readonly requestDuration = family<Histogram>('apiserver_request_duration_seconds', '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.', 'histogram');
  private readonly etcdTotal = family<number>('etcd_requests_total', '[ALPHA] Etcd request counts for each operation and object type.', 'counter');
  private readonly etcdDuration = family<Histogram>('etcd_request_duration_seconds', '[ALPHA] Etcd request latency in seconds for each operation and object type.', 'histogram');
  private typeByStoragePrefix: Map<string, string> | null = null;

  /** One answered request; `durationMs` is virtual time from receipt to answer. */
  observeRequest(info: RequestInfo, method: string, contentType: string, dryRun: boolean, code: number, durationMs: number): void {
    const verb = cleanVerb(info, method, contentType);
    const resource = info.isResourceRequest ? info.resource : '';
    const subresource = info.isResourceRequest ? info.subresource : info.path;
    const base: Labels = [
      ['component', 'apiserver'], ['dry_run', dryRun ? 'All' : ''], ['group', info.apiGroup], ['resource', resource],
      ['scope', cleanScope(info)], ['subresource', subresource], ['verb', verb], ['version', info.apiVersion],
    ];
    increment(this.requestTotal, [['code', String(code)], ...base]);
    if (verb !== 'WATCH' && verb !== 'CONNECT') observe(this.requestDuration, base, requestDurationBuckets, durationMs / 1000);
  }

  /** One etcd request of the storage layer (RPC kind `etcd.Range`, `etcd.Txn`…) and its virtual duration. */
  observeEtcd(kind: string, payload: unknown, durationMs: number): void {
    const classified = this.classifyEtcd(kind, payload);
    if (!classified) return;
    const labels: Labels = [['operation', classified.operation], ['type', classified.type]];
    increment(this.etcdTotal, labels);
    observe(this.etcdDuration, labels, etcdDurationBuckets, durationMs / 1000);
  }

  /** The exposition text (`text/plain; version=0.0.4`), families and series in a stable order. */
  render(): string {
    const out: string[] = [];
    for (const f of [this.requestTotal, this.requestDuration, this.etcdTotal, this.etcdDuration] as Array<Family<number | Histogram>>) {
      if (f.series.size === 0) continue;
      out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
      const series = [...f.series.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [, { labels, value }] of series) {
        if (typeof value === 'number') {
          out.push(`${f.name}${formatLabels(labels)} ${formatValue(value)}`);
          continue;
        }
        value.buckets.forEach((le, i) => out.push(`${f.name}_bucket${formatLabels([...labels, ['le', formatValue(le)]])} ${value.counts[i]}`));
        out.push(`${f.name}_bucket${formatLabels([...labels, ['le', '+Inf']])} ${value.count}`);
        out.push(`${f.name}_sum${formatLabels(labels)} ${formatValue(value.sum)}`);
        out.push(`${f.name}_count${formatLabels(labels)} ${value.count}`);
      }
    }
    return out.length === 0 ? '' : `${out.join('\n')}\n`;
  }

  private classifyEtcd(kind: string, payload: unknown): { operation: string; type: string } | null {
    if (kind === 'etcd.Range') {
      const r = payload as RangeRequest;
      const type = this.typeOf(r.key);
      return type === null ? null : { operation: r.rangeEnd ? 'list' : 'get', type };
    }
    if (kind === 'etcd.Txn') {
      const t = payload as TxnRequest;
      const op = t.success?.[0];
      const key = op?.requestPut?.key ?? op?.requestDeleteRange?.key ?? op?.requestRange?.key ?? t.compare?.[0]?.key;
      const type = key === undefined ? null : this.typeOf(key);
      if (type === null) return null;
      if (op?.requestDeleteRange) return { operation: 'delete', type };
      const creates = t.compare?.some((c) => c.target === 'MOD' && c.modRevision === 0 && (c.result ?? 'EQUAL') === 'EQUAL') ?? false;
      return { operation: op?.requestPut ? (creates ? 'create' : 'update') : 'get', type };
    }
    return null;
  }

  /** The resource a storage key belongs to, as upstream's groupResource.String(): `pods`, `deployments.apps`. */
  private typeOf(key: string): string | null {
    if (!this.typeByStoragePrefix) {
      this.typeByStoragePrefix = new Map(servedResources.map((r) => [r.storageResource, r.group === '' ? r.resource : `${r.resource}.${r.group}`]));
    }
    const m = /^\/[^/]+\/([^/]+)/.exec(key);
    return m ? this.typeByStoragePrefix.get(m[1]!) ?? null : null;
  }
}

function increment(f: Family<number>, labels: Labels): void {
  const key = labelKey(labels);
  const s = f.series.get(key);
  if (s) s.value++;
  else f.series.set(key, { labels, value: 1 });
}

function observe(f: Family<Histogram>, labels: Labels, buckets: readonly number[], seconds: number): void {
  const key = labelKey(labels);
  let s = f.series.get(key);
  if (!s) {
    s = { labels, value: new Histogram(buckets) };
    f.series.set(key, s);
  }
  s.value.observe(seconds);
}

/** Upstream's CleanVerb: the method, LIST and WATCH for collection reads, APPLY for server-side apply. */
function cleanVerb(info: RequestInfo, method: string, contentType: string): string {
  if (info.verb === 'list') return 'LIST';
  if (info.verb === 'watch') return 'WATCH';
  if (method === 'PATCH' && contentType.split(';')[0]!.trim() === 'application/apply-patch+yaml') return 'APPLY';
  return method;
}

/** Upstream's CleanScope. */
function cleanScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  if (info.isResourceRequest) return 'cluster';
  return '';
}
