// Strict JSON decoding's duplicate-field check: JSON.parse keeps the last of two equal keys without a
// word, where kube-apiserver's decoder (sigs.k8s.io/json with DisallowDuplicateFields) records
// `duplicate field "spec.replicas"` — an error under fieldValidation=Strict, a warning under Warn. This
// scans the text of an already valid JSON document for every key's path in document order, so the strict
// errors (duplicates and unknown fields) can be reported in the order the Go decoder meets them.
// Models sigs.k8s.io/json/internal/golang/encoding/json (decode.go object(): checkDuplicateField;
// kubernetes_patch.go: strictFieldStack paths `a.b[0].c`, strictError "duplicate field %q").

import { goQuote } from '../go/strconv.ts';

export interface KeyScan {
  /** Every key path with the position (in document order) of its first occurrence. */
  readonly firstSeen: ReadonlyMap<string, number>;
  /** Each repeated key (its path and position), in document order. */
  readonly duplicates: readonly { readonly path: string; readonly at: number }[];
}

/** Scans valid JSON text (call after JSON.parse succeeded). */
export function scanKeys(text: string): KeyScan {
  const firstSeen = new Map<string, number>();
  const duplicates: { path: string; at: number }[] = [];
  let i = 0;
  let order = 0;
  const skipSpace = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const readString = (): string => {
    // text[i] is the opening quote.
    const start = i;
    let escaped = false;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        escaped = true;
        i += 2;
      } else i++;
    }
    i++;
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const value = (path: string): void => {
    skipSpace();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      skipSpace();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        const key = readString();
        const keyPath = path === '' ? key : `${path}.${key}`;
        const at = order++;
        if (seen.has(key)) duplicates.push({ path: keyPath, at });
        else seen.add(key);
        if (!firstSeen.has(keyPath)) firstSeen.set(keyPath, at);
        skipSpace();
        i++; // ':'
        value(keyPath);
        skipSpace();
        if (text[i] === ',') {
          i++;
          continue;
        }
        i++; // '}'
        return;
      }
    }
    if (c === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        value(`${path}[${index}]`);
        skipSpace();
        if (text[i] === ',') {
          i++;
          continue;
        }
        i++; // ']'
        return;
      }
    }
    if (c === '"') {
      readString();
      return;
    }
    while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
  };
  value('');
  return { firstSeen, duplicates };
}

/** `duplicate field "spec.replicas"`, with Go's quoting. */
export function duplicateFieldMessage(path: string): string {
  return `duplicate field ${goQuote(path)}`;
}

/**
 * The strict decoding errors in the order the Go decoder meets them: each unknown field (given as
 * `unknown field "…"` messages with their paths) at its first occurrence, each duplicate at the repeated
 * key. Duplicates inside an unknown field's value are not reported (the decoder skips that value), nor is
 * a repeated unknown key (reported once, as unknown).
 */
export function orderedStrictErrors(scan: KeyScan, unknownPaths: readonly string[]): string[] {
  const unknown = new Set(unknownPaths);
  const insideUnknown = (path: string): boolean => {
    for (const u of unknownPaths) if (path === u || path.startsWith(`${u}.`) || path.startsWith(`${u}[`)) return true;
    return false;
  };
  const entries: { at: number; message: string }[] = [];
  unknownPaths.forEach((p, index) => {
    entries.push({ at: scan.firstSeen.get(p) ?? Number.MAX_SAFE_INTEGER - unknownPaths.length + index, message: `unknown field ${goQuote(p)}` });
  });
  for (const d of scan.duplicates) {
    if (unknown.has(d.path) || insideUnknown(d.path)) continue;
    entries.push({ at: d.at, message: duplicateFieldMessage(d.path) });
  }
  entries.sort((a, b) => a.at - b.at);
  // The decoder keeps each message once.
  return [...new Set(entries.map((e) => e.message))];
}
