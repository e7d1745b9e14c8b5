// Go's strconv.Quote, which Kubernetes reaches through `%q` in nearly every error message it prints
// (`pods "x" not found`, `Invalid value: "Foo"`). Printable characters pass through; `"` and `\` are
// backslash-escaped; control and other non-printable characters get Go's escapes.
// Models go/src/strconv/quote.go (appendQuotedWith, appendEscapedRune).

const namedEscapes: Readonly<Record<string, string>> = {
  '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v',
  '"': '\\"', '\\': '\\\\',
};

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** `strconv.Quote(s)`: a double-quoted Go string literal. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const named = namedEscapes[ch];
    if (named !== undefined) out += named;
    else if (printable.test(ch)) out += ch;
    else out += escapeRune(ch.codePointAt(0) ?? 0);
  }
  return out + '"';
}

function escapeRune(cp: number): string {
  if (cp < 0x80) return '\\x' + cp.toString(16).padStart(2, '0');
  // A lone UTF-16 surrogate is not valid UTF-8; Go would have decoded it as U+FFFD.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\uFFFD';
  if (cp < 0x10000) return '\\u' + cp.toString(16).padStart(4, '0');
  return '\\U' + cp.toString(16).padStart(8, '0');
}

/** Go's `len(s)`: the length of the string in UTF-8 bytes, which is what Kubernetes' size limits count. */
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}
