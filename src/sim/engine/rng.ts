// The simulation's only source of randomness: a seeded xoshiro128** generator.
// Same seed, same sequence, on every JavaScript engine (all arithmetic is 32-bit integer math).
// Its four words of state are plain numbers, so a snapshot can save and restore it.

/** Alphabet of Kubernetes' generated name suffixes (apimachinery util/rand): no vowels, no 0/1/3. */
export const nameSuffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export type RngState = readonly [number, number, number, number];

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    // Expand the seed with splitmix32 over its FNV-1a hash, so similar seeds give unrelated streams.
    let h = typeof seed === 'number' ? seed >>> 0 : fnv1a32(seed);
    const next = (): number => {
      h = (h + 0x9e3779b9) | 0;
      let z = h;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.d = 1;
  }

  static fromState(state: RngState): Rng {
    const rng = new Rng(0);
    rng.restore(state);
    return rng;
  }

  state(): RngState {
    return [this.a, this.b, this.c, this.d];
  }

  restore(state: RngState): void {
    [this.a, this.b, this.c, this.d] = state;
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  uint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A float in [0, 1) with 32 bits of randomness. */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [0, n) without modulo bias. */
  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > 4294967296) throw new RangeError(`Rng.int: bad bound ${n}`);
    const limit = 4294967296 - (4294967296 % n);
    let x = this.uint32();
    while (x >= limit) x = this.uint32();
    return x % n;
  }

  /** A random (version 4, RFC 4122 variant) UUID, as Kubernetes assigns to metadata.uid. */
  uuid(): string {
    const w0 = this.uint32();
    const w1 = (this.uint32() & 0xffff0fff) | 0x00004000;
    const w2 = (this.uint32() & 0x3fffffff) | 0x80000000;
    const w3 = this.uint32();
    const h = hex8(w0) + hex8(w1 >>> 0) + hex8(w2 >>> 0) + hex8(w3);
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join('-');
  }

  /** A `generateName` suffix: `length` characters from Kubernetes' alphabet (5 by default). */
  nameSuffix(length = 5): string {
    let s = '';
    for (let i = 0; i < length; i++) s += nameSuffixAlphabet[this.int(nameSuffixAlphabet.length)];
    return s;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

function hex8(x: number): string {
  return x.toString(16).padStart(8, '0');
}

/** 32-bit FNV-1a over the UTF-16 code units of a string. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
