import { describe, expect, it } from 'vitest';
import {
  base64Decode, base64Encode, byteStringToBytes, byteStringToUtf8, bytesToByteString, isUtf8, prefixEnd, terminalText, utf8ToByteString,
} from './bytes.ts';
import { KVServer } from './kv-server.ts';
import { KVStore } from './kv-store.ts';

describe('byte strings', () => {
  it('round-trip text and bytes', () => {
    const text = 'p😀 ü 中文';
    const bs = utf8ToByteString(text);
    expect(bs.length).toBe(15); // p 1, 😀 4, space 1, ü 2, space 1, 中文 6
    expect([...bs].every((c) => c.charCodeAt(0) < 256)).toBe(true);
    expect(byteStringToUtf8(bs)).toBe(text);
    const bytes = new Uint8Array([0x6b, 0x38, 0x73, 0, 0xff, 0x80, 0x0a]);
    expect(byteStringToBytes(bytesToByteString(bytes))).toEqual(bytes);
    expect(isUtf8(bs)).toBe(true);
    expect(isUtf8(bytesToByteString(bytes))).toBe(false);
  });

  it('base64 is of the bytes, as etcd -w json prints them', () => {
    expect(base64Encode('k8s\0')).toBe('azhzAA==');
    expect(base64Encode(utf8ToByteString('é'))).toBe('w6k=');
    expect(base64Decode('azhzAAoV')).toBe('k8s\0\n\x15');
    expect(base64Decode(base64Encode('\xff\xfe\x00'))).toBe('\xff\xfe\x00');
  });

  it('prefixEnd increments the last byte, dropping trailing 0xff', () => {
    expect(prefixEnd('/registry/pods/')).toBe('/registry/pods0');
    expect(prefixEnd('a\xff')).toBe('b');
    expect(prefixEnd('\xff\xff')).toBe('\0');
    expect(prefixEnd(utf8ToByteString('p😀'))).toBe('p\xf0\x9f\x98\x81');
  });

  it('shows bytes as a terminal shows etcdctl output: text as is, other bytes as \\xNN', () => {
    expect(terminalText('k8s\0\n\x15\n\x07apps/v1')).toBe('k8s\\x00\n\\x15\n\\x07apps/v1');
    expect(terminalText(utf8ToByteString('中文 é'))).toBe('中文 é');
    expect(terminalText('\xc3(')).toBe('\\xc3(');
    expect(terminalText('\xc2\x85')).toBe('\\xc2\\x85'); // a C1 control
  });
});

describe('key order', () => {
  it('is UTF-8 byte order, as etcd compares keys (issue 17: "p😀" after "p\\uFF5E")', () => {
    const kv = new KVServer(new KVStore());
    const emoji = utf8ToByteString('p😀');
    const fullwidth = utf8ToByteString('p\uFF5E');
    // In UTF-16 the emoji's surrogate (D83D) sorts before FF5E; in UTF-8 its F0 sorts after EF.
    expect('p😀' < 'p\uFF5E').toBe(true);
    kv.put({ key: emoji, value: '1' });
    kv.put({ key: fullwidth, value: '2' });
    const all = kv.range({ key: 'p', rangeEnd: 'q' });
    expect(all.kvs.map((k) => byteStringToUtf8(k.key))).toEqual(['p\uFF5E', 'p😀']);
    const fromFullwidth = kv.range({ key: fullwidth, rangeEnd: '\0' });
    expect(fromFullwidth.kvs.map((k) => byteStringToUtf8(k.key))).toEqual(['p\uFF5E', 'p😀']);
    const prefixed = kv.range({ key: emoji, rangeEnd: prefixEnd(emoji) });
    expect(prefixed.kvs.map((k) => k.value)).toEqual(['1']);
  });
});
