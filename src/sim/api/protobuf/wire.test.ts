import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BackWriter, base64FromBytes, bytesFromBase64, Reader, utf8Decode, utf8DecodeSlow, utf8Encode, utf8Size } from './wire.ts';

describe('UTF-8', () => {
  it('round-trips any string of whole code points, on both paths', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (s) => {
      const bytes = utf8Encode(s);
      expect(bytes.length).toBe(utf8Size(s));
      expect(utf8Decode(bytes)).toBe(s);
      expect(utf8DecodeSlow(bytes, 0, bytes.length)).toBe(s);
    }));
  });

  it('keeps a leading U+FEFF (a byte order mark is text to Go), on the host decoder\'s path too', () => {
    expect(utf8Decode(utf8Encode('\ufeff'))).toBe('\ufeff');
    expect(utf8Decode(utf8Encode(`\ufeff${'\u00e9'.repeat(40)}`))).toBe(`\ufeff${'\u00e9'.repeat(40)}`);
  });

  it("replaces each invalid byte with U+FFFD, as Go's encoding/json does", () => {
    // A truncated 3-byte sequence (E2 82) is two invalid bytes in Go, one maximal subpart in WHATWG.
    expect(utf8Decode(new Uint8Array([0x61, 0xe2, 0x82, 0x62]), 0, 4)).toBe('a\ufffd\ufffdb');
    expect(utf8Decode(new Uint8Array([0xed, 0xa0, 0x80]))).toBe('\ufffd\ufffd\ufffd'); // a surrogate's encoding
    expect(utf8Decode(new Uint8Array([0xc0, 0xaf]))).toBe('\ufffd\ufffd'); // overlong
    const long = new Uint8Array([...utf8Encode('x'.repeat(40)), 0xff]);
    expect(utf8Decode(long)).toBe(`${'x'.repeat(40)}\ufffd`);
  });

  it('writes a lone surrogate as U+FFFD', () => {
    expect(utf8Decode(utf8Encode('a\ud800b'))).toBe('a\ufffdb');
  });
});

describe('varints', () => {
  it('round-trip signed 64-bit values and take ten bytes when negative', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (v) => {
      const w = new BackWriter(4);
      w.varint(v);
      const bytes = w.finish();
      if (v < 0) expect(bytes.length).toBe(10);
      expect(new Reader(bytes, 0, bytes.length).int64()).toBe(v);
    }));
  });

  it('read int32 as Go converts: the low 32 bits, signed', () => {
    const w = new BackWriter(4);
    w.varint(2 ** 32 + 5);
    const bytes = w.finish();
    expect(new Reader(bytes, 0, bytes.length).int32()).toBe(5);
  });
});

describe('base64', () => {
  it('round-trips and rejects what Go rejects', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
      const text = base64FromBytes(b);
      expect(Array.from(bytesFromBase64(text)!)).toEqual(Array.from(b));
    }));
    expect(bytesFromBase64('abc')).toBeUndefined();
    expect(bytesFromBase64('ab$=')).toBeUndefined();
    expect(bytesFromBase64('a=bc')).toBeUndefined();
  });
});
