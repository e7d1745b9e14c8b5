// Protobuf wire primitives: a writer that fills its buffer from the end (as gogo-protobuf's generated
// MarshalToSizedBuffer does, so a message's length is known when its prefix is written: one pass, no
// size pre-computation), a reader whose errors are the texts Go's generated Unmarshal returns, UTF-8
// and base64 without host globals.
// Models github.com/gogo/protobuf's generated marshalling (encodeVarintGenerated, skipGenerated) as
// k8s.io/api's generated.pb.go files use it.

export const wireVarint = 0;
export const wireFixed64 = 1;
export const wireBytes = 2;
export const wireStartGroup = 3;
export const wireEndGroup = 4;
export const wireFixed32 = 5;

/** Writes backwards: the last byte of the message is written first. */
export class BackWriter {
  buf: Uint8Array;
  /** The first written byte; everything from here to the end is output. */
  pos: number;

  constructor(initial = 1024) {
    this.buf = new Uint8Array(initial);
    this.pos = initial;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.buf.length - this.pos;
  }

  private ensure(n: number): void {
    if (this.pos >= n) return;
    const used = this.buf.length - this.pos;
    const size = Math.max(this.buf.length * 2, used + n + 64);
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(this.pos), size - used);
    this.buf = next;
    this.pos = size - used;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[--this.pos] = b;
  }

  /** An unsigned varint of a non-negative integer below 2^53. */
  uvarint(v: number): void {
    const n = uvarintSize(v);
    this.ensure(n);
    let p = (this.pos -= n);
    while (v >= 0x80) {
      this.buf[p++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[p] = v;
  }

  /** A signed integer as Go's `uint64(int64(v))` varint: negatives take ten bytes. */
  varint(v: number): void {
    if (v >= 0) { this.uvarint(v); return; }
    this.ensure(10);
    let x = BigInt.asUintN(64, BigInt(Math.trunc(v)));
    let p = (this.pos -= 10);
    for (let i = 0; i < 9; i++) {
      this.buf[p++] = Number(x & 0x7fn) | 0x80;
      x >>= 7n;
    }
    this.buf[p] = Number(x);
  }

  /** A tag: field number and wire type. */
  tag(field: number, wire: number): void {
    const key = field * 8 + wire;
    if (key < 0x80) this.byte(key);
    else this.uvarint(key);
  }

  /** A little-endian IEEE 754 double (wire type 1). */
  double(v: number): void {
    this.ensure(8);
    this.pos -= 8;
    new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).setFloat64(0, v, true);
  }

  /** A string's UTF-8 bytes (without length); whether it was all ASCII. */
  utf8(s: string): boolean {
    // ASCII (nearly every Kubernetes string): one pass.
    const len = s.length;
    this.ensure(len);
    const start = this.pos - len;
    let i = 0;
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      this.buf[start + i] = c;
    }
    if (i === len) {
      this.pos = start;
      return true;
    }
    const n = utf8Size(s);
    this.ensure(n);
    this.pos -= n;
    writeUtf8(s, this.buf, this.pos);
    return false;
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.pos -= bytes.length;
    this.buf.set(bytes, this.pos);
  }

  /** The output (a copy). */
  finish(): Uint8Array {
    return this.buf.slice(this.pos);
  }
}

export function uvarintSize(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 0x80);
    n++;
  }
  return n;
}

export function utf8Size(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function writeUtf8(s: string, out: Uint8Array, p: number): void {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 63);
    } else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[p++] = 0xf0 | (c >> 18);
      out[p++] = 0x80 | ((c >> 12) & 63);
      out[p++] = 0x80 | ((c >> 6) & 63);
      out[p++] = 0x80 | (c & 63);
    } else {
      if (c >= 0xd800 && c < 0xe000) c = 0xfffd; // a lone surrogate: Go writes U+FFFD
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 63);
      out[p++] = 0x80 | (c & 63);
    }
  }
}

export function utf8Encode(s: string): Uint8Array {
  const out = new Uint8Array(utf8Size(s));
  writeUtf8(s, out, 0);
  return out;
}

// The host's UTF-8 decoder (browsers, workers and Node all have one; it is deterministic), strict: it
// replaces an invalid sequence as a whole where Go replaces each invalid byte, so invalid input takes
// the slow path. `ignoreBOM` keeps a leading U+FEFF in the string (by default the decoder drops it; Go
// keeps it). src/sim's type libraries leave it out, so it is declared here.
declare const TextDecoder: (new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => { decode(input: Uint8Array): string }) | undefined;
const hostDecoder = typeof TextDecoder === 'function' ? new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }) : undefined;

/**
 * UTF-8 bytes to a string; each byte of an invalid sequence becomes U+FFFD (as Go's encoding/json
 * prints a string holding invalid UTF-8).
 */
export function utf8Decode(b: Uint8Array, start = 0, end = b.length): string {
  if (end - start < 32) {
    let s = '';
    let i = start;
    for (; i < end; i++) {
      const c = b[i]!;
      if (c >= 0x80) break;
      s += String.fromCharCode(c);
    }
    if (i === end) return s;
  }
  if (hostDecoder !== undefined) {
    try {
      return hostDecoder.decode(b.subarray(start, end));
    } catch {
      // Invalid UTF-8: replaced byte by byte below.
    }
  }
  return utf8DecodeSlow(b, start, end);
}

/** UTF-8 decoding with Go's replacement of invalid bytes (exported for tests). */
export function utf8DecodeSlow(b: Uint8Array, start: number, end: number): string {
  const parts: number[] = [];
  let i = start;
  while (i < end) {
    const c = b[i]!;
    let cp = 0xfffd;
    let n = 1;
    if (c < 0x80) cp = c;
    else if (c >= 0xc2 && c < 0xe0 && i + 1 < end && (b[i + 1]! & 0xc0) === 0x80) {
      cp = ((c & 31) << 6) | (b[i + 1]! & 63);
      n = 2;
    } else if (c >= 0xe0 && c < 0xf0 && i + 2 < end && (b[i + 1]! & 0xc0) === 0x80 && (b[i + 2]! & 0xc0) === 0x80) {
      const v = ((c & 15) << 12) | ((b[i + 1]! & 63) << 6) | (b[i + 2]! & 63);
      if (v >= 0x800 && (v < 0xd800 || v >= 0xe000)) { cp = v; n = 3; }
    } else if (c >= 0xf0 && c < 0xf5 && i + 3 < end && (b[i + 1]! & 0xc0) === 0x80 && (b[i + 2]! & 0xc0) === 0x80 && (b[i + 3]! & 0xc0) === 0x80) {
      const v = ((c & 7) << 18) | ((b[i + 1]! & 63) << 12) | ((b[i + 2]! & 63) << 6) | (b[i + 3]! & 63);
      if (v >= 0x10000 && v < 0x110000) { cp = v; n = 4; }
    }
    parts.push(cp);
    i += n;
  }
  let s = '';
  for (let k = 0; k < parts.length; k += 4096) s += String.fromCodePoint(...parts.slice(k, k + 4096));
  return s;
}

const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64Index = new Int16Array(128).fill(-1);
for (let i = 0; i < b64.length; i++) b64Index[b64.charCodeAt(i)] = i;

/** Standard base64 with padding (Go's base64.StdEncoding, as encoding/json writes []byte). */
export function base64FromBytes(b: Uint8Array, start = 0, end = b.length): string {
  let s = '';
  let i = start;
  for (; i + 2 < end; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    s += b64[n >> 18]! + b64[(n >> 12) & 63]! + b64[(n >> 6) & 63]! + b64[n & 63]!;
  }
  if (end - i === 1) {
    const n = b[i]! << 16;
    s += b64[n >> 18]! + b64[(n >> 12) & 63]! + '==';
  } else if (end - i === 2) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8);
    s += b64[n >> 18]! + b64[(n >> 12) & 63]! + b64[(n >> 6) & 63]! + '=';
  }
  return s;
}

/** Standard base64 to bytes; undefined when it is not valid base64. */
export function bytesFromBase64(s: string): Uint8Array | undefined {
  if (s.length % 4 !== 0) return undefined;
  let pad = 0;
  if (s.endsWith('==')) pad = 2;
  else if (s.endsWith('=')) pad = 1;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const c = s.charCodeAt(i + k);
      let v: number;
      if (c === 61 && i + k >= s.length - pad) v = 0;
      else {
        v = c < 128 ? b64Index[c]! : -1;
        if (v < 0) return undefined;
      }
      n = (n << 6) | v;
    }
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

/** A decoding failure with Go's message text. */
export class ProtoError extends Error {}

export const errUnexpectedEOF = 'unexpected EOF';
export const errIntOverflow = 'proto: integer overflow';
export const errInvalidLength = 'proto: negative length found during unmarshaling';

/** Reads forward over [pos, end). Every read checks bounds and throws ProtoError with Go's text. */
export class Reader {
  constructor(readonly buf: Uint8Array, public pos: number, public end: number) {}

  /** A varint as a number (exact below 2^53; larger values lose low bits, as a JS number must). */
  uvarint(): number {
    let result = 0;
    let mul = 1;
    for (let shift = 0; ; shift += 7) {
      if (shift >= 64) throw new ProtoError(errIntOverflow);
      if (this.pos >= this.end) throw new ProtoError(errUnexpectedEOF);
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      mul *= 128;
      if (b < 0x80) return result;
    }
  }

  /** A varint read as Go's int64/int32 conversion of the uint64 (two's complement). */
  int64(): number {
    const start = this.pos;
    const v = this.uvarint();
    if (v < 2 ** 63) return v;
    // Negative: re-read exactly with BigInt.
    let x = 0n;
    let shift = 0n;
    for (let p = start; p < this.pos; p++, shift += 7n) x |= BigInt(this.buf[p]! & 0x7f) << shift;
    return Number(BigInt.asIntN(64, x));
  }

  int32(): number {
    const v = this.int64();
    if (v >= 0 && v < 2 ** 31) return v;
    return Number(BigInt.asIntN(32, BigInt(v)));
  }

  /** The bounds of a length-delimited payload. */
  lengthDelimited(): [number, number] {
    const n = this.uvarint();
    if (n < 0 || n >= 2 ** 63) throw new ProtoError(errInvalidLength);
    const end = this.pos + n;
    if (end > this.end) throw new ProtoError(errUnexpectedEOF);
    const start = this.pos;
    this.pos = end;
    return [start, end];
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new ProtoError(errUnexpectedEOF);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return v;
  }

  /** Skips a field's value of this wire type (skipGenerated), groups included. */
  skip(wire: number, depth = 0): void {
    switch (wire) {
      case wireVarint: this.uvarint(); return;
      case wireFixed64:
        if (this.pos + 8 > this.end) throw new ProtoError(errUnexpectedEOF);
        this.pos += 8;
        return;
      case wireBytes: this.lengthDelimited(); return;
      case wireFixed32:
        if (this.pos + 4 > this.end) throw new ProtoError(errUnexpectedEOF);
        this.pos += 4;
        return;
      case wireStartGroup: {
        if (depth > 100) throw new ProtoError('proto: unexpected end of group');
        for (;;) {
          const key = this.uvarint();
          const w = key % 8;
          if (w === wireEndGroup) return;
          this.skip(w, depth + 1);
        }
      }
      case wireEndGroup: throw new ProtoError('proto: unexpected end of group');
      default: throw new ProtoError(`proto: illegal wireType ${wire}`);
    }
  }
}
