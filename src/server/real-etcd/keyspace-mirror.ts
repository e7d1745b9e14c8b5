// The /registry keyspace of a real etcd, mirrored for the page (src/worker/keyspace.ts reads it as it
// reads the model etcd's store): a Range over `/registry/` at the revision etcd is at, then a watch from
// the next revision, kept as etcd's backend keeps revisions: one record per change in revision order, a
// deletion as a tombstone (createRevision 0). Past revisions are answered from those records.
//
// What it cannot know: revisions before the first Range (it begins there: `historyFrom`, and the page is
// told those are not available, as if compacted) and changes to keys outside /registry (they make the
// revision jump). After the watch broke it watches again from the next revision; when etcd compacted past
// that meanwhile (the watch is cancelled with ErrCompacted), it reads the keyspace at the compacted revision
// (the oldest etcd still answers), records what changed as puts at their revisions and deletions at that
// revision, and watches from the next one: every revision from the compacted one on is then as etcd
// holds it, and the ones before it are unavailable, as on etcd. Records below etcd's compacted revision
// are folded (`compact`), as etcd's compaction drops them: the mirror's memory follows etcd's history.

import type { ClientDuplexStream } from '@grpc/grpc-js';
import type { KeyValue, RangeRequest, RangeResponse } from '../../sim/etcd/index.ts';
import { metaOf, type KeyspaceSource } from '../../worker/keyspace.ts';
import { rangeRequestToWire, rangeResponseFromWire, watchRequestToWire, watchResponseFromWire, type Wire } from '../etcd-proto/convert.ts';
import type { EtcdGrpcClient } from './grpc-client.ts';

/** The keys kube-apiserver stores under (its default `--etcd-prefix`), as a range. */
const registry = { key: '/registry/', rangeEnd: '/registry0' } as const;
/** Wall ms before a broken watch is opened again. */
const rewatchMs = 500;

function tombstone(key: string, modRevision: number): KeyValue {
  return { key, createRevision: 0, modRevision, version: 0, value: '', lease: '0' };
}

function inRange(key: string, request: RangeRequest): boolean {
  const end = request.rangeEnd ?? '';
  if (end === '') return key === request.key;
  if (end === '\0') return key >= request.key;
  return key >= request.key && key < end;
}

export class RealEtcdKeyspace implements KeyspaceSource {
  /** Every change since `historyFrom` (and the keys then), by modRevision. */
  private records: KeyValue[] = [];
  private revision = 1;
  /** The revision of the first read; -1 before it (or when it found etcd at revision 1: nothing before). */
  private from = -1;
  private compacted = -1;
  /** The first read is done. */
  private loaded = false;
  private call: ClientDuplexStream<Wire, Wire> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Called after the mirror took in changes. */
  onChange: (() => void) | null = null;

  readonly store: KeyspaceSource['store'];
  readonly kv = { range: (request: RangeRequest): RangeResponse => this.range(request) };

  constructor(private readonly client: EtcdGrpcClient) {
    const revision = (): number => this.revision;
    const compactMainRev = (): number => Math.max(this.compacted, this.from);
    this.store = {
      get currentRev() {
        return revision();
      },
      get compactMainRev() {
        return compactMainRev();
      },
      backend: { rangeRevisions: (min, max, f, wants) => this.rangeRevisions(min, max, f, wants) },
      // The mirror keeps every value whole: its keys without values are its Range's.
      forEachMeta: (key, end, rev, f) => {
        for (const kv of this.range({ key, ...(end === undefined ? {} : { rangeEnd: end === '' ? '\0' : end }), revision: rev }).kvs) f(metaOf(kv));
      },
    };
  }

  /** The first revision the mirror holds (null before its first read). */
  get historyFrom(): number | null {
    return this.loaded ? Math.max(1, this.from) : null;
  }

  /** Reads the keyspace and follows it. */
  start(): void {
    void this.read();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.call?.cancel();
  }

  /** etcd compacted at `revision`: records older than it that a newer one of their key supersedes are dropped. */
  compact(revision: number): void {
    if (revision <= this.compacted) return;
    this.compacted = revision;
    this.fold(revision);
  }

  /** Drops the records at or below `revision` that a newer one of their key at or below it supersedes, and its tombstones. */
  private fold(revision: number): void {
    const latest = new Map<string, number>();
    this.records.forEach((kv, i) => {
      if (kv.modRevision <= revision) latest.set(kv.key, i);
    });
    this.records = this.records.filter((kv, i) => kv.modRevision > revision || (latest.get(kv.key) === i && kv.createRevision !== 0));
  }

  /** As the model's backend: each record of a revision in [min, max), those `wants` declines left out. */
  private rangeRevisions(min: number, max: number, f: (kv: KeyValue) => void, wants?: (key: string) => boolean): void {
    let lo = 0;
    let hi = this.records.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.records[mid]!.modRevision < min) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.records.length && this.records[i]!.modRevision < max; i++) {
      const kv = this.records[i]!;
      if (wants === undefined || wants(kv.key)) f(kv);
    }
  }

  private range(request: RangeRequest): RangeResponse {
    const at = request.revision !== undefined && request.revision > 0 ? request.revision : this.revision;
    const state = this.stateAt(at);
    const kvs = [...state.values()].filter((kv) => inRange(kv.key, request)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const header = { clusterId: '0', memberId: '0', revision: this.revision, raftTerm: 0 };
    return { header, kvs, more: false, count: kvs.length };
  }

  private stateAt(revision: number): Map<string, KeyValue> {
    const state = new Map<string, KeyValue>();
    this.rangeRevisions(0, revision + 1, (kv) => {
      if (kv.createRevision === 0) state.delete(kv.key);
      else state.set(kv.key, kv);
    });
    return state;
  }

  /**
   * Ranges /registry at `revision` (now when 0) and records what differs from what the mirror holds; then
   * watches from the next revision. A read that fails (etcd unreachable, or compacted past `revision`
   * meanwhile) is tried again by watching again, which etcd cancels with its new compacted revision.
   */
  private async read(revision = 0): Promise<void> {
    let response: RangeResponse;
    try {
      response = rangeResponseFromWire(await this.client.unary('KV', 'range', rangeRequestToWire({ ...registry, ...(revision > 0 ? { revision } : {}) })));
    } catch {
      this.again();
      return;
    }
    if (this.closed) return;
    const at = revision > 0 ? revision : response.header.revision;
    if (!this.loaded) {
      this.loaded = true;
      this.from = at > 1 ? at : -1;
      this.records = [...response.kvs].sort((a, b) => a.modRevision - b.modRevision);
    } else {
      const held = this.stateAt(this.revision);
      const changes: KeyValue[] = response.kvs.filter((kv) => held.get(kv.key)?.modRevision !== kv.modRevision);
      const read = new Set(response.kvs.map((kv) => kv.key));
      for (const key of held.keys()) if (!read.has(key)) changes.push(tombstone(key, at));
      this.records.push(...changes.sort((a, b) => a.modRevision - b.modRevision));
      if (this.compacted >= at) this.fold(this.compacted);
    }
    this.revision = Math.max(this.revision, at);
    this.onChange?.();
    this.watch(at + 1);
  }

  private watch(startRevision: number): void {
    const { call } = this.client.stream('Watch', 'watch');
    this.call = call;
    call.on('data', (data: Wire) => {
      if (this.call !== call || this.closed) return;
      const response = watchResponseFromWire(data);
      if (response.canceled) {
        this.call = null;
        call.cancel();
        if (response.compactRevision === 0) return this.again();
        // Compacted past where it was to start: read the keyspace again, at the compacted revision.
        this.compact(response.compactRevision);
        return void this.read(response.compactRevision);
      }
      if (response.events.length === 0) return;
      for (const event of response.events) {
        this.records.push(event.type === 'DELETE' ? tombstone(event.kv.key, event.kv.modRevision) : event.kv);
      }
      this.revision = Math.max(this.revision, response.events.at(-1)!.kv.modRevision);
      this.onChange?.();
    });
    call.on('error', () => {
      if (this.call !== call) return;
      this.call = null;
      this.again();
    });
    call.write(watchRequestToWire({ createRequest: { ...registry, startRevision } }));
  }

  /** Watches again, from the next revision, after a pause (etcd unreachable, the stream broken). */
  private again(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.loaded) void this.read();
      else this.watch(this.revision + 1);
    }, rewatchMs);
  }
}
