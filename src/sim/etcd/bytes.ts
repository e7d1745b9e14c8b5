// Keys and values. etcd keys and values are byte strings; here they are JavaScript strings whose bytes
// are their UTF-8 encoding. That is what every caller in the simulation has in hand (registry keys,
// JSON-encoded objects), and for the ASCII keys Kubernetes uses it is exact:
//
// - Order: keys are compared with the native string comparison (UTF-16 code units). That equals
//   etcd's byte-wise comparison of the UTF-8 encodings except between a character in U+E000–U+FFFF and
//   a supplementary-plane character, which sort the other way round. Kubernetes keys are ASCII.
// - Sizes (value_size, request and response sizes) are UTF-8 byte counts, as etcd counts bytes.
// - Byte strings that are not valid UTF-8 cannot be represented; the gateway and etcdctl renderings
//   encode to UTF-8 on the way out.
// - `prefixEnd` increments the last code point instead of the last byte; over valid UTF-8 keys the
//   resulting range holds exactly the keys etcd's byte-wise prefix end selects.

/** Byte-order comparison of two keys (see the module header for the one caveat). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const nonAscii = /[\u0080-\uffff]/;

/** Number of bytes of the UTF-8 encoding of `s`. */
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
export function utf8Decode(bytes: Uint8Array): string {
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
    if (!ok) { s += '\ufffd'; i++; continue; }
    s += String.fromCodePoint(c);
    i += extra + 1;
  }
  return s;
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding of the UTF-8 bytes of `s`, as the gateway and etcdctl print bytes. */
export function base64Encode(s: string): string {
  const bytes = utf8Encode(s);
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += base64Alphabet[n >> 18]! + base64Alphabet[(n >> 12) & 63]! + base64Alphabet[(n >> 6) & 63]! + base64Alphabet[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += base64Alphabet[n >> 18]! + base64Alphabet[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? base64Alphabet[(n >> 6) & 63]! + '=' : '==';
  }
  return out;
}

/** Decodes standard base64 (padding optional) to a string via UTF-8. Throws on bad input. */
export function base64Decode(b64: string): string {
  const clean = b64.replace(/=+$/, '');
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < clean.length; i++) {
    const v = base64Alphabet.indexOf(clean[i]!);
    if (v < 0) throw new Error(`illegal base64 data at input byte ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[o++] = (acc >> bits) & 0xff;
    }
  }
  return utf8Decode(bytes.subarray(0, o));
}

/**
 * The end of the range of all keys with prefix `key` (clientv3 `GetPrefixRangeEnd`): the key with its
 * last code point incremented after dropping trailing maximal code points; `\0` (every key ≥ `key`)
 * when nothing is left. `/registry/pods/` → `/registry/pods0`.
 */
export function prefixEnd(key: string): string {
  const points = Array.from(key);
  while (points.length > 0) {
    const last = points[points.length - 1]!.codePointAt(0)!;
    if (last < 0x10ffff) {
      let next = last + 1;
      if (next === 0xd800) next = 0xe000;
      points[points.length - 1] = String.fromCodePoint(next);
      return points.join('');
    }
    points.pop();
  }
  return '\0';
}
