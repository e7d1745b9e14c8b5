// etcd requests as etcd shows them: compares as `mod_revision(/key) == 0`, ranges as a key, a prefix or
// an interval, ops by name.

import type { Compare, RequestOp, ResponseHeader, TxnRequest } from '../../protocol/index.ts';
import { clip } from './payload.ts';

const targetNames: Readonly<Record<string, string>> = {
  VERSION: 'version', CREATE: 'create_revision', MOD: 'mod_revision', VALUE: 'value', LEASE: 'lease',
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

/** The value a compare compares against, by its target. */
function compared(c: Compare): string | number | undefined {
  switch (c.target ?? 'VERSION') {
    case 'VERSION': return c.version;
    case 'CREATE': return c.createRevision;
    case 'MOD': return c.modRevision;
    case 'VALUE': return c.value;
    case 'LEASE': return c.lease;
  }
}

/** One compare: `mod_revision(/registry/…) == 0`. */
export function compareText(c: Compare): string {
  const target = c.target ?? 'VERSION';
  const result = c.result ?? 'EQUAL';
  const given = compared(c);
  const value = target === 'VALUE' ? JSON.stringify(clip(typeof given === 'string' ? given : '', 24)) : String(given ?? 0);
  return `${targetNames[target] ?? target.toLowerCase()}(${rangeText(c.key, c.rangeEnd)}) ${operators[result] ?? result} ${value}`;
}

export function comparesText(compares: readonly Compare[]): string {
  return compares.map(compareText).join(' && ');
}

/** The ops of a branch by name: `put`, `get`, `delete`, `txn`; `nothing` when empty. */
export function opsText(ops: readonly RequestOp[]): string {
  if (ops.length === 0) return 'nothing';
  return ops.map((o) => {
    if (o.requestPut) return 'put';
    if (o.requestRange) return 'get';
    if (o.requestDeleteRange) return 'delete';
    if (o.requestTxn) return 'txn';
    return '?';
  }).join(', ');
}

/** The key the ops or compares are about, when they are all about one. */
export function txnKey(txn: TxnRequest): string | undefined {
  const keys = new Set<string>();
  for (const c of txn.compare ?? []) keys.add(c.key);
  for (const o of [...txn.success ?? [], ...txn.failure ?? []]) {
    const k = (o.requestPut ?? o.requestRange ?? o.requestDeleteRange)?.key;
    if (k !== undefined) keys.add(k);
  }
  return keys.size === 1 ? [...keys][0] : undefined;
}

/** The revision a reply's header reports. */
export function headerRevision(response: { readonly header: Pick<ResponseHeader, 'revision'> } | undefined): number | undefined {
  return response?.header.revision;
}
