// Query strings as Go's net/url reads and writes them (kube-apiserver parses with url.ParseQuery, client-go
// encodes with url.Values.Encode).

/** Decodes a query string the way Go's url.ParseQuery does for the parameters Kubernetes reads. */
export function parseQuery(query: string): Map<string, string> {
  const params = new Map<string, string>();
  if (query === '') return params;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const key = decodeQueryComponent(rawKey);
    if (key === null || params.has(key)) continue;
    const value = decodeQueryComponent(rawValue);
    if (value !== null) params.set(key, value);
  }
  return params;
}

function decodeQueryComponent(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * Encodes parameters as Go's url.Values.Encode does for client-go: sorted by key, spaces as `+`, and
 * everything but letters, digits and `-_.~` percent-encoded (`labelSelector=app%3Dnginx%2Ctier%21%3Ddb&limit=500`).
 */
// Models go/src/net/url/url.go (Values.Encode, QueryEscape)
export function formatQuery(params: ReadonlyArray<readonly [string, string]>): string {
  return [...params]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${queryEscape(k)}=${queryEscape(v)}`)
    .join('&');
}

function queryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}
