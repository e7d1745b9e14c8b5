// The request target as Go's net/http hands it to kube-apiserver: url.ParseRequestURI, then URL.Path with
// every %XX decoded (`%2e%2e` is `..`, `%2F` is `/`) and NO dot segment resolved: `/api/v1/namespaces/%2e%2e/
// configmaps` reaches the apiserver as namespace "..", never as `/api/v1/configmaps` (a WHATWG URL parser
// would resolve it, which is why this front does not use one). What the apiserver then does with a "." or
// ".." segment is the model's business (filters/path-segments.ts). An escape that is not %XX, or a control
// character, is Go's `400 Bad Request` before any handler runs.
// Models go/src/net/url/url.go (ParseRequestURI, unescape in encodePath mode, no path cleaning).

export type ParsedTarget =
  | { readonly ok: true; readonly path: string; readonly rawQuery: string }
  | { readonly ok: false };

const utf8 = new TextDecoder('utf-8', { fatal: false });

export function parseRequestTarget(raw: string): ParsedTarget {
  if (raw === '*') return { ok: true, path: '*', rawQuery: '' };
  // eslint-disable-next-line no-control-regex -- Go refuses control characters in a URL.
  if (/[\x00-\x20\x7f]/.test(raw)) return { ok: false };
  let rest = raw;
  if (!rest.startsWith('/')) {
    // Absolute form (`http://host/path`): scheme, authority, then the path.
    const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?]*/.exec(rest);
    if (!m) return { ok: false };
    rest = rest.slice(m[0].length);
    if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return { ok: false };
  }
  const q = rest.indexOf('?');
  const rawPath = q < 0 ? rest : rest.slice(0, q);
  const rawQuery = q < 0 ? '' : rest.slice(q + 1);
  const path = unescapePath(rawPath);
  if (path === null) return { ok: false };
  return { ok: true, path: path === '' ? '/' : path, rawQuery };
}

/** %XX decoding into bytes, then UTF-8 (invalid sequences become U+FFFD); null for a bad escape. */
function unescapePath(s: string): string | null {
  if (!s.includes('%')) return s;
  const parts: Buffer[] = [];
  for (const piece of s.split(/(%.{0,2})/s)) {
    if (piece.startsWith('%')) {
      if (!/^%[0-9A-Fa-f]{2}$/.test(piece)) return null;
      parts.push(Buffer.from([parseInt(piece.slice(1), 16)]));
    } else if (piece !== '') {
      parts.push(Buffer.from(piece, 'utf8'));
    }
  }
  return utf8.decode(Buffer.concat(parts));
}
