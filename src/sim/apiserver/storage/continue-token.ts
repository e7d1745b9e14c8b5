// List continue tokens: base64url (no padding) of `{"v":"meta.k8s.io/v1","rv":<rv>,"start":"<key>"}`,
// where start is the next key relative to the list's key prefix.
// Models k8s.io/apiserver/pkg/storage/continue.go (EncodeContinue, DecodeContinue).

import { base64Decode, base64Encode, byteStringToUtf8, utf8ToByteString } from '../../etcd/bytes.ts';

export interface ContinuePosition {
  /** The full etcd key to resume from. */
  readonly fromKey: string;
  /** The revision the list is pinned at; -1 means "latest" (an inconsistent continue). */
  readonly rv: number;
}

export function encodeContinue(nextKey: string, keyPrefix: string, rv: number): string {
  if (!nextKey.startsWith(keyPrefix)) throw new Error(`continue key ${nextKey} is outside ${keyPrefix}`);
  const json = `{"v":"meta.k8s.io/v1","rv":${rv},"start":${goJsonString(nextKey.slice(keyPrefix.length))}}`;
  return base64UrlEncode(json);
}

/** The error texts are the apiserver's; the registry answers them as 400 BadRequest. */
export function decodeContinue(token: string, keyPrefix: string): { ok: true; value: ContinuePosition } | { ok: false; error: string } {
  const bad = (why: string) => ({ ok: false as const, error: `invalid continue token: ${why}` });
  const json = base64UrlDecode(token);
  if (json === null) return bad('illegal base64 data');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return bad('invalid character in continue token');
  }
  if (typeof parsed !== 'object' || parsed === null) return bad('continue key is not valid');
  const c = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (c.v !== 'meta.k8s.io/v1') return bad('continue key is not valid: server does not recognize this encoded key');
  if (typeof c.rv !== 'number' || !Number.isInteger(c.rv) || c.rv === 0) return bad('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof c.start !== 'string' || c.start.length === 0) return bad('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  const key = c.start.startsWith('/') ? c.start.slice(1) : c.start;
  if (!isCleanPath(key)) return bad(`continue key is not valid: ${c.start}`);
  return { ok: true, value: { fromKey: keyPrefix + key, rv: c.rv } };
}

/** Go's path.Clean would change nothing (no `..`, `.`, `//`), ignoring the trailing NUL of a start key. */
function isCleanPath(key: string): boolean {
  const k = key.endsWith('\u0000') ? key.slice(0, -1) : key;
  return !k.split('/').some((part, i, parts) => part === '..' || part === '.' || (part === '' && i < parts.length - 1));
}

/** JSON string as Go's encoding/json writes it (escapes <, >, & and control characters). */
function goJsonString(s: string): string {
  return JSON.stringify(s)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Go's base64.RawURLEncoding of the UTF-8 bytes of `s`. */
export function base64UrlEncode(s: string): string {
  return base64Encode(utf8ToByteString(s)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes RawURLEncoding (no padding) into a UTF-8 string; null when the input is not valid. */
export function base64UrlDecode(token: string): string | null {
  if (token.length % 4 === 1 || /[^A-Za-z0-9_-]/.test(token)) return null;
  try {
    return byteStringToUtf8(base64Decode(token.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return null;
  }
}
