// The protocol over a WebSocket (the page attached to `npm run apiserver`, src/server/live.ts): the same
// commands and events as over postMessage, as JSON text. What structured clone carries and JSON does not
// is tagged on the way: byte strings (Uint8Array: protobuf bodies, etcd keys and values in payloads), the
// other typed arrays (a keyspace move's columns: key-columns.ts), `undefined` inside arrays and the
// non-finite numbers. Anything else of the protocol is JSON already.

/** The WebSocket path the server serves the protocol on, and the subprotocol both ends speak. */
export const livePath = '/podflow/live';
export const liveSubprotocol = 'podflow-live.v1';
/** The subprotocol prefix that carries the page's token (base64url), since a browser WebSocket sends no headers. */
export const liveTokenPrefix = 'podflow-token.';

/** Close codes the server ends a page's connection with, and the page explains. */
export const liveCloseCodes = {
  /** `--token` mode and the page's token is missing (reason `token missing`) or wrong (`token refused`). */
  badToken: 4401,
  /** The page fell too far behind (its socket buffered too much); it reconnects and starts afresh. */
  tooSlow: 4408,
} as const;

const tag = '$podflow';

/** The typed arrays besides Uint8Array that the protocol carries, by name (little-endian bytes on the wire). */
const typedArrays = { Uint32Array, Float64Array } as const;
type TypedName = keyof typeof typedArrays;

type Tagged =
  | { readonly [tag]: 'bytes'; readonly base64: string }
  | { readonly [tag]: 'typed'; readonly name: TypedName; readonly base64: string }
  | { readonly [tag]: 'number'; readonly value: 'NaN' | 'Infinity' | '-Infinity' }
  | { readonly [tag]: 'undefined' };

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function tagged(value: unknown): Tagged | undefined {
  if (value instanceof Uint8Array) return { [tag]: 'bytes', base64: toBase64(value) };
  for (const name of Object.keys(typedArrays) as TypedName[]) {
    if (value instanceof typedArrays[name]) return { [tag]: 'typed', name, base64: toBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return { [tag]: 'number', value: String(value) as 'NaN' | 'Infinity' | '-Infinity' };
  return undefined;
}

/** One protocol message (a command, an event or a turn's events) as text. */
export function encodeWire(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key, item: unknown) {
    // `item` is after toJSON: a Uint8Array has none, so it arrives whole.
    const special = tagged(item);
    if (special) return special;
    if (item === undefined && Array.isArray(this)) return { [tag]: 'undefined' };
    return item;
  });
}

/** The message `encodeWire` made (objects' undefined properties stay absent, as JSON leaves them). */
export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || !(tag in item)) return item;
    const special = item as Tagged;
    switch (special[tag]) {
      case 'bytes':
        return fromBase64(special.base64);
      case 'typed': {
        // fromBase64's array owns its whole buffer (byteOffset 0).
        const { buffer } = fromBase64(special.base64);
        return new typedArrays[special.name](buffer as ArrayBuffer);
      }
      case 'number':
        return Number(special.value);
      case 'undefined':
        return undefined;
      default:
        return item;
    }
  });
}
