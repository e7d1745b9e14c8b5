// The `pod-template-hash` label a Deployment's ReplicaSets and Pods carry: FNV-1a-32 over a dump of the
// pod template (plus the collision count, when set), printed in decimal, then every character mapped
// into Kubernetes' safe alphabet. Real clusters dump the Go struct with go-spew, which TypeScript cannot
// reproduce byte for byte; Podflow dumps the canonical JSON with sorted keys instead, so hashes have the
// real shape (1–10 characters of `456789bcdf`) and the real properties (same template, same hash; any
// change, a new hash) but not a real cluster's values.
// Models k8s pkg/controller/controller_utils.go (ComputeHash) and apimachinery pkg/util/rand/rand.go
// (SafeEncodeString).

import { nameSuffixAlphabet } from '../../engine/index.ts';
import { utf8Encode } from '../../etcd/bytes.ts';

/** SafeEncodeString: each character c becomes alphabet[c mod 27] (digits: 0→4 … 5→9, 6→b, 7→c, 8→d, 9→f). */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += nameSuffixAlphabet[s.charCodeAt(i) % nameSuffixAlphabet.length];
  return out;
}

/** FNV-1a, 32 bits, over bytes. */
export function fnv1a32Bytes(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** JSON with object keys sorted at every level (the stand-in for go-spew's `%#v` with sorted map keys). */
export function canonicalDump(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalDump).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalDump(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** ComputeHash(template, collisionCount). */
export function computePodTemplateHash(template: unknown, collisionCount?: number): string {
  const dump = utf8Encode(canonicalDump(template));
  let h = fnv1a32Bytes(dump);
  if (collisionCount !== undefined) {
    // The collision count is written as a uint32, little-endian, then four zero bytes.
    const extra = new Uint8Array(8);
    extra[0] = collisionCount & 0xff;
    extra[1] = (collisionCount >>> 8) & 0xff;
    extra[2] = (collisionCount >>> 16) & 0xff;
    extra[3] = (collisionCount >>> 24) & 0xff;
    h = fnv1a32Bytes(extra, h);
  }
  return safeEncodeString(String(h));
}
