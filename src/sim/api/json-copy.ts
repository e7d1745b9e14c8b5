// A deep copy of JSON-shaped data that gives exactly what `JSON.parse(JSON.stringify(value))` gives,
// about five times faster: object keys in the same order, undefined, function and symbol members
// dropped (null in arrays), non-finite numbers as null, -0 as 0. Anything that is not plain data (class
// instances, objects with toJSON, bigints) goes through JSON itself, so it fails or converts the same.
// Objects are copied on every write path of the model (the storage's update, the registry's desired
// object, controllers' copies of cached objects), which made the JSON round trip a tenth of the CPU.

/** `JSON.parse(JSON.stringify(value))` for JSON-shaped `value` (not undefined at the top). */
export function copyJson<T>(value: T): T {
  inheritedKeys = hasInheritedKeys();
  return copyValue(value) as T;
}

/**
 * Whether `for…in` over a plain object also yields inherited keys (something enumerable was added to
 * Object.prototype), checked once per copy: objects are walked with `for…in` (a quarter faster than
 * Object.keys, which allocates an array per object), which then yields own keys only, in Object.keys's order.
 */
let inheritedKeys = false;
function hasInheritedKeys(): boolean {
  for (const _ in {}) return true;
  return false;
}

function copyValue(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'object':
      break;
    default:
      return JSON.parse(JSON.stringify(v)) as unknown;
  }
  if (v === null) return null;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      out[i] = e === undefined || typeof e === 'function' || typeof e === 'symbol' ? null : copyValue(e);
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in v) return JSON.parse(JSON.stringify(v)) as unknown;
  const source = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k in source) {
    if (inheritedKeys && !Object.hasOwn(source, k)) continue;
    const e = source[k];
    if (e === undefined || typeof e === 'function' || typeof e === 'symbol') continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: copyValue(e), enumerable: true, writable: true, configurable: true });
    else out[k] = copyValue(e);
  }
  return out;
}
