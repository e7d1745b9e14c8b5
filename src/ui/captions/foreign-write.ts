// Who made the change an etcd watch event carries, when it was not the watcher's own kube-apiserver. Over a
// real etcd (`--etcd-servers`) a watch response caused by this server's own write is delivered in that
// write's place, its cause the Txn; one with no cause and events came from outside this server: another
// etcd client's write (a second kube-apiserver on the same etcd, etcdctl), or etcd deleting a key whose
// lease expired. A kube-apiserver's identity Lease (`kube-system/kube-apiserver-<hash>`) is written by that
// apiserver alone, so a change to it names its writer.

import type { TraceRecord, WatchResponse } from '../../protocol/index.ts';
import type { Both } from './plain.ts';

const identityLeaseKey = /\/leases\/kube-system\/(kube-apiserver-[a-z2-7]{26})$/;

/** Who wrote the first event of a watch response from outside this server, or null when it was this server. */
export function foreignWriter(record: Pick<TraceRecord, 'cause'>, response: Pick<WatchResponse, 'events'>): Both | null {
  const first = response.events[0];
  if (record.cause !== null || first === undefined) return null;
  const apiserver = identityLeaseKey.exec(first.kv.key)?.[1];
  if (apiserver !== undefined) return { en: `written by ${apiserver}, another kube-apiserver`, zh: `由另一个 kube-apiserver ${apiserver} 写入` };
  if (first.type === 'DELETE') return { en: 'deleted by another etcd client, or by etcd as its lease expired', zh: '由另一个 etcd 客户端删除，或因租约到期由 etcd 删除' };
  return { en: 'written by another etcd client, not through this kube-apiserver', zh: '由另一个 etcd 客户端写入，而非经由这个 kube-apiserver' };
}
