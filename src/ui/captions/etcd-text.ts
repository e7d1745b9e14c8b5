// etcd requests as etcd shows them: compares as `mod_revision(/key) == 0`, ranges as a key, a prefix or
// an interval, ops by name.

import { child, clip, count, fields, text, type Fields } from './payload.ts';

const targetNames: Readonly<Record<string, string>> = {
  VERSION: 'version', CREATE: 'create_revision', MOD: 'mod_revision', VALUE: 'value', LEASE: 'lease',
};
const targetFields: Readonly<Record<string, string>> = {
  VERSION: 'version', CREATE: 'createRevision', MOD: 'modRevision', VALUE: 'value', LEASE: 'lease',
};
const operators: Readonly<Record<string, string>> = { EQUAL: '==', NOT_EQUAL: '!=', GREATER: '>', LESS: '<' };

/** The smallest key after every key with prefix `key` (etcd's GetPrefixRangeEnd on code units). */
function prefixEnd(key: string): string {
  for (let i = key.length - 1; i >= 0; i--) {
    const code = key.charCodeAt(i);
    if (code < 0xffff) return key.slice(0, i) + String.fromCharCode(code + 1);
  }
  return '\0';
}

/** A key range: `/k`, `prefix /k`, `keys ≥ /k`, or `[/a, /b)`. */
export function rangeText(key: string | undefined, rangeEnd: string | undefined): string {
  const k = key === undefined || key === '' ? '\\0' : key;
  if (rangeEnd === undefined || rangeEnd === '') return k;
  if (rangeEnd === '\0') return k === '\\0' ? 'every key' : `keys ≥ ${k}`;
  if (key !== undefined && rangeEnd === prefixEnd(key)) return `prefix ${key}`;
  return `[${k}, ${rangeEnd})`;
}

/** One compare: `mod_revision(/registry/…) == 0`. */
export function compareText(compare: unknown): string {
  const c = fields(compare) ?? {};
  const target = typeof c.target === 'string' ? c.target : 'VERSION';
  const result = typeof c.result === 'string' ? c.result : 'EQUAL';
  const given = c[targetFields[target] ?? 'version'];
  const value = target === 'VALUE' ? JSON.stringify(clip(typeof given === 'string' ? given : '', 24)) : String(given ?? 0);
  return `${targetNames[target] ?? target.toLowerCase()}(${rangeText(text(c, 'key'), text(c, 'rangeEnd'))}) ${operators[result] ?? result} ${value}`;
}

export function comparesText(compares: readonly unknown[]): string {
  return compares.map(compareText).join(' && ');
}

/** The ops of a branch by name: `put`, `get`, `delete`, `txn`; `nothing` when empty. */
export function opsText(ops: readonly unknown[]): string {
  if (ops.length === 0) return 'nothing';
  return ops.map((op) => {
    const o: Fields = fields(op) ?? {};
    if (o.requestPut) return 'put';
    if (o.requestRange) return 'get';
    if (o.requestDeleteRange) return 'delete';
    if (o.requestTxn) return 'txn';
    return '?';
  }).join(', ');
}

/** The key the ops or compares are about, when they are all about one. */
export function txnKey(txn: unknown): string | undefined {
  const keys = new Set<string>();
  const compares = child(txn, 'compare');
  if (Array.isArray(compares)) for (const c of compares) { const k = text(c, 'key'); if (k !== undefined) keys.add(k); }
  for (const branch of ['success', 'failure']) {
    const ops = child(txn, branch);
    if (!Array.isArray(ops)) continue;
    for (const op of ops) {
      const o = fields(op) ?? {};
      const k = text(o.requestPut ?? o.requestRange ?? o.requestDeleteRange, 'key');
      if (k !== undefined) keys.add(k);
    }
  }
  return keys.size === 1 ? [...keys][0] : undefined;
}

/** The revision a reply's header reports. */
export function headerRevision(response: unknown): number | undefined {
  return count(child(response, 'header'), 'revision');
}
