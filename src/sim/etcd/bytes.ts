// Keys and values are byte strings, as etcd has them: a JavaScript string with one char per byte
// (every char code 0–255). Sizes are `.length`; order is the native string comparison, which over byte
// strings is etcd's byte-wise comparison (`bytes.Compare`); `prefixEnd` increments the last byte as
// clientv3 does. Text enters and leaves through `utf8ToByteString` / `byteStringToUtf8` (etcdctl's
// arguments and printing, registry keys, JSON values); binary values (Kubernetes protobuf) through
// `bytesToByteString` / `byteStringToBytes`. Registry keys are ASCII, so a registry key is its own byte
// string.

/** Byte-order comparison of two byte strings (etcd's bytes.Compare). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const nonAscii = /[\u0080-\uffff]/;

/** Number of bytes of the UTF-8 encoding of the text `s`. */
export function utf8Length(s: string): number {
  // The regex scan is several times faster than a charCodeAt loop, and most values are ASCII.
  if (!nonAscii.test(s)) return s.length;
  const n = s.length;
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      // A surrogate pair: two code units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** The UTF-8 encoding of `s` (lone surrogates become U+FFFD, as TextEncoder does). */
export function utf8Encode(s: string): Uint8Array {
  const out = new Uint8Array(utf8Length(s));
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else c = 0xfffd;
    } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out[o++] = c;
    else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
    } else if (c < 0x10000) {
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    } else {
      out[o++] = 0xf0 | (c >> 18);
      out[o++] = 0x80 | ((c >> 12) & 0x3f);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    }
  }
  return o === out.length ? out : out.subarray(0, o);
}

/** Decodes UTF-8 bytes (invalid sequences become U+FFFD). */
export function utf8Decode(bytes: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    let c: number;
    let extra: number;
    if (b < 0x80) { c = b; extra = 0; }
    else if (b >= 0xc2 && b < 0xe0) { c = b & 0x1f; extra = 1; }
    else if (b >= 0xe0 && b < 0xf0) { c = b & 0x0f; extra = 2; }
    else if (b >= 0xf0 && b < 0xf5) { c = b & 0x07; extra = 3; }
    else { s += '\ufffd'; i++; continue; }
    let ok = i + extra < bytes.length;
    for (let k = 1; ok && k <= extra; k++) {
      const cont = bytes[i + k];
      if (cont === undefined || (cont & 0xc0) !== 0x80) ok = false;
      else c = (c << 6) | (cont & 0x3f);
    }
    // Overlong encodings and surrogates are invalid UTF-8 too.
    if (ok && ((extra === 2 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) || (extra === 3 && (c < 0x10000 || c > 0x10ffff)))) ok = false;
    if (!ok) { s += '\ufffd'; i++; continue; }
    s += String.fromCodePoint(c);
    i += extra + 1;
  }
  return s;
}

/** A byte string holding `bytes`. */
export function bytesToByteString(bytes: Uint8Array): string {
  let s = '';
  // apply takes the typed array as it is; a spread would first copy it through the iterator (6× slower).
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  return s;
}

/** The bytes of a byte string (char codes above 255 are a caller's bug; they keep their low byte). */
export function byteStringToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** The byte string of the UTF-8 encoding of the text `s` (ASCII text is its own byte string). */
export function utf8ToByteString(s: string): string {
  if (!nonAscii.test(s)) return s;
  return bytesToByteString(utf8Encode(s));
}

/** The text a byte string holds as UTF-8 (invalid sequences become U+FFFD). */
export function byteStringToUtf8(s: string): string {
  if (!nonAscii.test(s)) return s;
  return utf8Decode(byteStringToBytes(s));
}

/** Whether a byte string is valid UTF-8. */
export function isUtf8(s: string): boolean {
  if (!nonAscii.test(s)) return true;
  return utf8ToByteString(byteStringToUtf8(s)) === s;
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding of a byte string, as the gateway and etcdctl print bytes. */
export function base64Encode(s: string): string {
  let out = '';
  let i = 0;
  const n = s.length;
  for (; i + 2 < n; i += 3) {
    const v = ((s.charCodeAt(i) & 255) << 16) | ((s.charCodeAt(i + 1) & 255) << 8) | (s.charCodeAt(i + 2) & 255);
    out += base64Alphabet[v >> 18]! + base64Alphabet[(v >> 12) & 63]! + base64Alphabet[(v >> 6) & 63]! + base64Alphabet[v & 63]!;
  }
  if (i < n) {
    const v = ((s.charCodeAt(i) & 255) << 16) | (i + 1 < n ? (s.charCodeAt(i + 1) & 255) << 8 : 0);
    out += base64Alphabet[v >> 18]! + base64Alphabet[(v >> 12) & 63]!;
    out += i + 1 < n ? base64Alphabet[(v >> 6) & 63]! + '=' : '==';
  }
  return out;
}

/** Decodes standard base64 (padding optional) to a byte string. Throws on bad input. */
export function base64Decode(b64: string): string {
  const clean = b64.replace(/=+$/, '');
  let out = '';
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < clean.length; i++) {
    const v = base64Alphabet.indexOf(clean[i]!);
    if (v < 0) throw new Error(`illegal base64 data at input byte ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return out;
}

/**
 * The end of the range of all keys with prefix `key` (clientv3 `GetPrefixRangeEnd`): the byte string
 * with its last byte incremented after dropping trailing 0xff bytes; `\0` (every key ≥ `key`) when
 * nothing is left. `/registry/pods/` → `/registry/pods0`.
 */
export function prefixEnd(key: string): string {
  for (let i = key.length - 1; i >= 0; i--) {
    const c = key.charCodeAt(i);
    if (c < 0xff) return key.slice(0, i) + String.fromCharCode(c + 1);
  }
  return '\0';
}

/**
 * A byte string as a terminal shows what etcdctl's simple printer writes (etcdctl 3.4 writes the raw
 * bytes: `fmt.Println(string(kv.Value))`): valid UTF-8 text as it is, newlines and tabs as they are, and
 * every other byte a terminal would not show (controls, DEL, bytes of invalid UTF-8) as `\xNN`, so that
 * binary values such as Kubernetes protobuf are readable.
 */
export function terminalText(s: string): string {
  let out = '';
  let i = 0;
  const n = s.length;
  while (i < n) {
    const b = s.charCodeAt(i);
    if (b >= 0x20 && b < 0x7f) {
      let j = i + 1;
      while (j < n) {
        const c = s.charCodeAt(j);
        if (c < 0x20 || c >= 0x7f) break;
        j++;
      }
      out += s.slice(i, j);
      i = j;
      continue;
    }
    if (b === 0x0a || b === 0x09) { out += s[i]; i++; continue; }
    const extra = b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : 0;
    if (extra > 0 && i + extra < n) {
      const text = byteStringToUtf8(s.slice(i, i + 1 + extra));
      const cp = text.codePointAt(0)!;
      // One valid character, not a C1 control.
      if (text.length <= 2 && cp !== 0xfffd && cp >= 0xa0) {
        out += text;
        i += extra + 1;
        continue;
      }
    }
    out += '\\x' + b.toString(16).padStart(2, '0');
    i++;
  }
  return out;
}
