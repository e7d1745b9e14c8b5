// The apiserver's etcd compactor: every interval (default 5 min) one Txn on `compact_rev_key`, whose
// version is a logical clock shared by all apiservers; the one whose compare succeeds compacts etcd at
// the revision it saw on its previous turn (none on the first turn). Without it etcd keeps every
// revision; with it, watches and lists older than ~5 minutes get 410.
// Models k8s.io/apiserver/pkg/storage/etcd3/compact.go (compactor, compact).

import type { Co } from '../../engine/index.ts';
import type { EtcdClient } from './etcd-client.ts';

export const compactRevKey = 'compact_rev_key';

/** Default `--etcd-compaction-interval`. */
export const defaultCompactionInterval = 5 * 60 * 1000;

export class Compactor {
  /** The local copy of compact_rev_key's version (the compact time). */
  private compactTime = 0;
  /** The store revision seen on the previous turn: what the next successful turn compacts to. */
  private rev = 0;

  constructor(private readonly etcd: EtcdClient) {}

  /** One turn. Returns the revision compacted to, or null when this turn compacted nothing. */
  *compactOnce(): Co<number | null> {
    const reply = yield* this.etcd.txn({
      compare: [{ target: 'VERSION', key: compactRevKey, version: this.compactTime }],
      success: [{ requestPut: { key: compactRevKey, value: String(this.rev) } }],
      failure: [{ requestRange: { key: compactRevKey } }],
    });
    if (!reply.ok) return null;
    const response = reply.response;
    const curRev = response.header.revision;
    if (!response.succeeded) {
      this.compactTime = response.responses[0]?.responseRange?.kvs[0]?.version ?? this.compactTime;
      this.rev = curRev;
      return null;
    }
    this.compactTime++;
    const target = this.rev;
    this.rev = curRev;
    if (target === 0) return null;
    const compacted = yield* this.etcd.compact({ revision: target });
    return compacted.ok ? target : null;
  }
}
