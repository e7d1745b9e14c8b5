// The Service ClusterIP and NodePort allocators: a bitmap per range, kept in etcd as a RangeAllocation
// under /registry/ranges/serviceips and /registry/ranges/servicenodeports. Every allocation and release
// is a GuaranteedUpdate of that key: read the stored bitmap (restoring it when another writer changed it),
// set or clear the bit, write it back.
// Models k8s pkg/registry/core/service/ipallocator/bitmap.go (New: base = network + 1, max = size - 2 for
// IPv4; calculateRangeOffset), pkg/registry/core/service/portallocator/allocator.go,
// pkg/registry/core/service/allocator/bitmap.go (AllocationBitmap, randomScanStrategyWithOffset,
// Snapshot as big.Int.Bytes()) and pkg/registry/core/service/allocator/storage/storage.go (Etcd:
// tryUpdate, Restore when the resourceVersion moved). Deviation: the random scan draws from the engine's
// seeded RNG, not math/rand.

import { canonicalize } from '../api/decode.ts';
import { base64FromBytes } from '../api/protobuf/wire.ts';
import type { RangeAllocation } from '../api/types/service.ts';
import type { KubeObject } from '../api/types/meta.ts';
import type { Co, Rng } from '../engine/index.ts';
import type { Storage } from './storage/interface.ts';

/** `--service-cluster-ip-range` (kubeadm's default) and `--service-node-port-range`. */
export const serviceClusterIPRange = '10.96.0.0/12';
export const serviceNodePortRange = { base: 30000, size: 2768 } as const;

export const rangeKeys = { serviceIPs: '/ranges/serviceips', nodePorts: '/ranges/servicenodeports' } as const;

/** A bitmap over [0, max) with allocations preferred in [offset, max) (allocator.AllocationBitmap). */
export class AllocationBitmap {
  /** Bit i is bit (i % 8) of bits[i >> 3]. */
  private bits: Uint8Array;
  private count = 0;

  constructor(readonly max: number, readonly rangeSpec: string, readonly offset: number) {
    this.bits = new Uint8Array(Math.ceil(max / 8));
  }

  has(i: number): boolean {
    return i >= 0 && i < this.max && (this.bits[i >> 3]! & (1 << (i & 7))) !== 0;
  }

  /** Allocate: false when taken. */
  allocate(i: number): boolean {
    if (i < 0 || i >= this.max || this.has(i)) return false;
    this.bits[i >> 3]! |= 1 << (i & 7);
    this.count++;
    return true;
  }

  release(i: number): void {
    if (!this.has(i)) return;
    this.bits[i >> 3]! &= ~(1 << (i & 7));
    this.count--;
  }

  get used(): number {
    return this.count;
  }

  /** randomScanStrategyWithOffset.AllocateBit: a random start in the upper subrange, then the lower one. */
  allocateNext(rng: Rng): number | null {
    if (this.count >= this.max) return null;
    const upper = this.max - this.offset;
    let start = rng.int(upper);
    for (let i = 0; i < upper; i++) {
      const at = this.offset + ((start + i) % upper);
      if (!this.has(at)) return this.allocate(at) ? at : null;
    }
    if (this.offset === 0) return null;
    start = rng.int(this.offset);
    for (let i = 0; i < this.offset; i++) {
      const at = (start + i) % this.offset;
      if (!this.has(at)) return this.allocate(at) ? at : null;
    }
    return null;
  }

  /** Snapshot: the range and the bitmap as big.Int.Bytes() (big-endian, no leading zeros; empty for 0), base64. */
  snapshot(): { range: string; data: string } {
    let top = this.bits.length - 1;
    while (top >= 0 && this.bits[top] === 0) top--;
    const bytes: number[] = [];
    for (let i = top; i >= 0; i--) bytes.push(this.bits[i]!);
    return { range: this.rangeSpec, data: base64FromBytes(Uint8Array.from(bytes)) };
  }

  restore(data: string): void {
    const bytes = base64ToBytes(data);
    this.bits = new Uint8Array(Math.ceil(this.max / 8));
    this.count = 0;
    for (let k = 0; k < bytes.length; k++) {
      const index = bytes.length - 1 - k;
      if (index >= this.bits.length) continue;
      this.bits[index] = bytes[k]!;
      for (let v = bytes[k]!; v !== 0; v &= v - 1) this.count++;
    }
  }
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64ToBytes(data: string): number[] {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of data.replace(/=+$/, '')) {
    acc = ((acc << 6) | alphabet.indexOf(ch)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 255);
    }
  }
  return out;
}

/** big.Int.Bytes() of `n` as standard base64, the JSON form of []byte. */
export function bigIntToBase64(n: bigint): string {
  const hex = n === 0n ? '' : n.toString(16);
  const padded = hex.length % 2 ? `0${hex}` : hex;
  const bytes: number[] = [];
  for (let i = 0; i < padded.length; i += 2) bytes.push(parseInt(padded.slice(i, i + 2), 16));
  return base64FromBytes(Uint8Array.from(bytes));
}

export function base64ToBigInt(data: string): bigint {
  const hex = base64ToBytes(data).map((b) => b.toString(16).padStart(2, '0')).join('');
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

/** calculateRangeOffset: min(max(min, size/step), max) — ips: 16, 256, 16; ports: 16, 128, 32. */
function rangeOffset(size: number, min: number, max: number, step: number): number {
  if (size <= min) return 0;
  return Math.min(Math.max(min, Math.floor(size / step)), max);
}

function parseIPv4(ip: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** An allocator whose state lives in etcd (allocator/storage.Etcd over a bitmap). */
export class StoredRangeAllocator {
  private lastResourceVersion = '';

  constructor(
    readonly bitmap: AllocationBitmap,
    private readonly storage: Storage,
    /** The full etcd key, `/registry/ranges/serviceips`. */
    readonly key: string,
  ) {}

  /** The stored object a repair pass creates when the key is missing. */
  rangeObject(): RangeAllocation {
    return canonicalize('RangeAllocation', { kind: 'RangeAllocation', apiVersion: 'v1', metadata: {}, ...this.bitmap.snapshot() } as RangeAllocation);
  }

  /** Creates the RangeAllocation (the repair controller's first run on a fresh etcd). */
  *ensure(): Co<void> {
    const existing = yield* this.storage.get(this.key, { resourceVersion: '', ignoreNotFound: true });
    if (existing) {
      this.bitmap.restore((existing as RangeAllocation).data);
      this.lastResourceVersion = existing.metadata.resourceVersion ?? '';
      return;
    }
    const created = yield* this.storage.create(this.key, this.rangeObject(), 0);
    this.lastResourceVersion = created.metadata.resourceVersion ?? '';
  }

  /** Runs `change` on the bitmap as stored, and stores the result (Etcd.tryUpdate). Returns change's result. */
  *update<T>(change: (bitmap: AllocationBitmap) => T, keep: (result: T) => boolean): Co<T> {
    let result!: T;
    const bitmap = this.bitmap;
    try {
      const stored = yield* this.storage.guaranteedUpdate(this.key, { ignoreNotFound: false }, function* (current: KubeObject) {
        const existing = current as RangeAllocation;
        // The stored bitmap is the truth (another writer, or an earlier try of this update, may have changed it).
        bitmap.restore(existing.data ?? '');
        result = change(bitmap);
        if (!keep(result)) throw new NoChange();
        return canonicalize('RangeAllocation', { ...existing, ...bitmap.snapshot() } as RangeAllocation);
      });
      this.lastResourceVersion = stored.metadata.resourceVersion ?? '';
    } catch (err) {
      if (!(err instanceof NoChange)) throw err;
    }
    return result;
  }
}

/** Thrown inside the update function when there is nothing to write (a bit already taken or already free). */
class NoChange extends Error {}

/** The ClusterIP allocator over `--service-cluster-ip-range`. */
export class ClusterIPAllocator {
  readonly base: number;
  readonly max: number;

  constructor(readonly cidr: string, readonly store: StoredRangeAllocator) {
    const { base, max } = ipRange(cidr);
    this.base = base;
    this.max = max;
  }

  ipAt(offset: number): string {
    return formatIPv4(this.base + offset);
  }

  offsetOf(ip: string): number | null {
    const n = parseIPv4(ip);
    if (n === null) return null;
    const off = n - this.base;
    return off >= 0 && off < this.max ? off : null;
  }
}

/** ipallocator.New for IPv4: base skips the network address; max leaves out network and broadcast. */
export function ipRange(cidr: string): { base: number; max: number; offset: number } {
  const [ip, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return { base: (parseIPv4(ip!) ?? 0) + 1, max: size - 2, offset: rangeOffset(size, 16, 256, 16) };
}

export function newServiceIPBitmap(cidr = serviceClusterIPRange): AllocationBitmap {
  const { max, offset } = ipRange(cidr);
  return new AllocationBitmap(max, cidr, offset);
}

export function newNodePortBitmap(): AllocationBitmap {
  const { base, size } = serviceNodePortRange;
  return new AllocationBitmap(size, `${base}-${base + size - 1}`, rangeOffset(size, 16, 128, 32));
}
