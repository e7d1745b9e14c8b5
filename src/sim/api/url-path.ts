// How client-go writes a name into a request path: url.URL's EscapedPath, in Go's encodePath mode.
// Letters, digits, `-_.~` and `$&+,/:;=@` stay as they are; everything else, `?` included, is %XX per
// UTF-8 byte. So `system:basic-user` travels as itself (encodeURIComponent would send
// `system%3Abasic-user`, which the model's apiserver, reading raw paths, refuses as a name with '%').
// Models go/src/net/url/url.go (shouldEscape with encodePath, escape).

const kept = /[A-Za-z0-9\-_.~$&+,/:;=@]/;

export function escapePath(s: string): string {
  let out = '';
  for (const ch of s) out += kept.test(ch) ? ch : encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return out;
}
