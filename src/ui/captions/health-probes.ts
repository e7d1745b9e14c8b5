// Plain captions for a read of componentstatuses (`kubectl get cs`): kube-apiserver stores none, so it
// probes kube-scheduler's and kube-controller-manager's /healthz and reads etcd's `health` key there and
// then. Returns null for every other message, so plain.ts falls through to its own captions.

import { typedRecord, type TraceRecord, type TypedMessageView } from '../../protocol/index.ts';
import { componentText } from './milestones.ts';
import { cap, clip } from './payload.ts';

type Message = Omit<TraceRecord, 'step'>;

interface Both {
  readonly en: string;
  readonly zh: string;
}

/** kube-apiserver's GET of a component's /healthz (its address in the Host header, as the probe sends it). */
function isProbe(record: TypedMessageView<'http.request'>): boolean {
  return record.from === 'kube-apiserver' && record.to !== 'kube-apiserver' && record.payload.method === 'GET' && record.payload.path === '/healthz';
}

/** The user's (or a client's) read of componentstatuses: nothing stored, each component probed now. */
export function componentStatusesRead(record: TypedMessageView<'http.request'>): Both | null {
  const { method, path } = record.payload;
  const one = /^\/api\/v1\/componentstatuses(?:\/([^/]+))?$/.exec(path);
  if (method !== 'GET' || !one) return null;
  const sender = componentText(record.from);
  const what = one[1] ? { en: `the health of ${decodeURIComponent(one[1])}`, zh: ` ${decodeURIComponent(one[1])} 的健康状况` } : { en: 'the health of the control plane (componentstatuses)', zh: '控制平面的健康状况（componentstatuses）' };
  return {
    en: `${cap(sender.en)} asks kube-apiserver for ${what.en}: nothing of it is stored in etcd, so kube-apiserver probes the scheduler, the controller-manager and etcd now (a deprecated API: the answer carries a warning)`,
    zh: `${sender.zh}向 kube-apiserver 询问${what.zh}：etcd 里没有存这些，kube-apiserver 现在去探测 scheduler、controller-manager 和 etcd（这是已废弃的 API：回答会附带警告）`,
  };
}

export function healthProbeRequest(record: TypedMessageView<'http.request'>): Both | null {
  if (!isProbe(record)) return null;
  const to = componentText(record.to);
  const url = `https://${record.payload.headers.host ?? record.to}/healthz`;
  return {
    en: `kube-apiserver probes ${to.en}: GET ${url}, its health endpoint, for the componentstatuses read`,
    zh: `kube-apiserver 探测${to.zh}：GET ${url}（它的健康检查端点），为 componentstatuses 的读取`,
  };
}

export function healthProbeResponse(record: TypedMessageView<'http.response'>, request: Message | undefined): Both | null {
  const asked = request && typedRecord(request);
  if (asked?.kind !== 'http.request' || !isProbe(asked)) return null;
  const from = componentText(record.from);
  const { status, body } = record.payload;
  const said = typeof body === 'string' ? clip(body, 40) : '';
  const healthy = status < 400;
  return {
    en: `${cap(from.en)} answers kube-apiserver's probe: ${status} ${said}, so it is listed ${healthy ? 'Healthy' : 'Unhealthy'}`,
    zh: `${from.zh}回答 kube-apiserver 的探测：${status} ${said}，因此被列为${healthy ? '健康（Healthy）' : '不健康（Unhealthy）'}`,
  };
}

/** etcd's probe: the etcd3 prober's Get of `health` (a key outside /registry). */
export function etcdHealthRead(record: TypedMessageView<'etcd.Range'>): Both | null {
  if (record.from !== 'kube-apiserver' || record.payload.key !== 'health' || record.payload.rangeEnd) return null;
  return {
    en: 'kube-apiserver probes etcd for componentstatuses (etcd-0): a read of the key health, outside /registry; any answer means etcd is Healthy',
    zh: 'kube-apiserver 为 componentstatuses（etcd-0）探测 etcd：读取 /registry 之外的键 health；只要有回答就说明 etcd 健康',
  };
}
