// A JSON value as an edit of another (issue 20): what a light record keeps of a component's request body
// beside the stored object the body's answer carries (trace-payloads-bodies.ts). `delta(value, base)`
// walks both; `applyDelta(delta, base')` gives a value whose JSON text is `value`'s, byte for byte, for
// any `base'` whose JSON text is `base`'s. A delta is JSON data itself:
// - a string, number, boolean or null: that value (a literal);
// - `{ $v: value }`: that object or array (a literal);
// - any other object: an edit of the base at the same place, which is an object or an array:
//   - of an object: the keys `$k` in that order (absent: the base's keys, in the base's order), each the
//     base's value under that key unless the edit has the key (then that key's delta applies to it);
//   - of an array: `$n` items (absent: the base's length), item `i` the base's unless the edit has `i`;
//     an item's edit with `$f: j` applies to the base's item `j` instead (an item that moved, as a
//     strategic merge patch lists only the conditions that changed).
// Objects with a key spelled as one of these (`$k`, `$n`, `$v`, `$f`) are kept as literals. A literal
// stands for its JSON text: applying copies it through JSON.

/** An edit of an object or array (see above). */
type Edit = { readonly [key: string]: Delta | readonly string[] | number | undefined };
export type Delta = string | number | boolean | null | { readonly $v: unknown } | Edit;

const metaKeys = new Set(['$k', '$n', '$v', '$f']);

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/** An object JSON writes as its fields. */
const walkable = (value: unknown): value is Record<string, unknown> => isPlainObject(value) && typeof value.toJSON !== 'function';

/** The keys JSON.stringify writes of `object`, in its order (undefined and function values are skipped). */
function jsonKeys(object: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const key in object) {
    const value = object[key];
    if (value !== undefined && typeof value !== 'function') keys.push(key);
  }
  return keys;
}

const sameKeys = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((key, i) => key === b[i]);

/** The key an array item is matched by when it moved: a strategic merge patch's usual merge keys. */
function identity(item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  for (const key of ['type', 'name', 'ip', 'key'] as const) if (typeof item[key] === 'string') return `${key}=${item[key]}`;
  return undefined;
}

/**
 * `value` as an edit of `base`; undefined when both are the same JSON. What is not plain data (a class
 * instance, an object with its own toJSON) is a literal, which stands for its JSON text.
 */
export function delta(value: unknown, base: unknown): Delta | undefined {
  if (value === base && (value === null || typeof value !== 'object')) return undefined;
  if (value === undefined || typeof value === 'function') return null;
  if (value === null || typeof value !== 'object') return value as Delta;
  if (Array.isArray(value)) return Array.isArray(base) ? arrayEdit(value, base) : { $v: value };
  return walkable(value) && walkable(base) ? objectEdit(value, base) : { $v: value };
}

function objectEdit(value: Record<string, unknown>, base: Record<string, unknown>): Delta | undefined {
  const keys = jsonKeys(value);
  if (keys.some((key) => metaKeys.has(key))) return { $v: value };
  const edit: Record<string, Delta | readonly string[]> = {};
  let changed = false;
  for (const key of keys) {
    const d = delta(value[key], Object.hasOwn(base, key) ? base[key] : undefined);
    if (d === undefined) continue;
    edit[key] = d;
    changed = true;
  }
  if (!sameKeys(keys, jsonKeys(base))) {
    edit.$k = keys;
    changed = true;
  }
  return changed ? edit : undefined;
}

const isEdit = (d: Delta | undefined): d is Edit => d !== null && typeof d === 'object' && !('$v' in d);

function arrayEdit(value: readonly unknown[], base: readonly unknown[]): Delta | undefined {
  const edit: Record<string, Delta | number> = {};
  let changed = value.length !== base.length;
  if (changed) edit.$n = value.length;
  for (const [i, item] of value.entries()) {
    let from = i;
    const id = identity(item);
    if (id !== undefined && identity(base[i]) !== id) {
      const j = base.findIndex((b) => identity(b) === id);
      if (j >= 0) from = j;
    }
    const d = from < base.length ? delta(item, base[from]) : delta(item, undefined);
    if (d === undefined && from === i) continue;
    edit[i] = from === i || !(d === undefined || isEdit(d)) ? d! : { ...d, $f: from };
    changed = true;
  }
  return changed ? edit : undefined;
}

/** The value `d` (from `delta(value, base)`) stands for, over `base` (or a value of the same JSON). */
export function applyDelta(d: Delta | undefined, base: unknown): unknown {
  if (d === undefined) return base;
  if (d === null || typeof d !== 'object') return d;
  if ('$v' in d) return JSON.parse(JSON.stringify(d.$v)) as unknown;
  if (Array.isArray(base)) {
    const length = typeof d.$n === 'number' ? d.$n : base.length;
    const items: unknown[] = [];
    for (let i = 0; i < length; i++) {
      const item = d[i] as Delta | undefined;
      items.push(isEdit(item) && typeof item.$f === 'number' ? applyDelta(item, base[item.$f]) : applyDelta(item, base[i]));
    }
    return items;
  }
  const object = base as Record<string, unknown>;
  const keys = (d.$k as readonly string[] | undefined) ?? jsonKeys(object);
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = Object.hasOwn(d, key) ? applyDelta(d[key] as Delta, object[key]) : object[key];
  return out;
}
