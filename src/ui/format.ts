// How numbers read in the UI.

/** Virtual time: ms below a second, seconds below a minute, then minutes and seconds. */
export function formatVirtualTime(ms: number): string {
  if (ms < 1000) return `${ms.toFixed(3)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(3)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${((ms - minutes * 60_000) / 1000).toFixed(3)} s`;
}

export function formatSpeed(speed: number): string {
  return `${speed}×`;
}

const protobufMagic = 'k8s\u0000';

/**
 * An etcd value that holds Kubernetes protobuf (a byte string, one char per byte, starting `k8s\0`), for
 * reading in a payload: its size, then its bytes with the printable ASCII kept and every other byte shown
 * as `·`, so names, images and node names stand out (the keyspace tab decodes it field by field).
 */
export function printableProtobuf(value: string): string {
  let shown = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    shown += c >= 0x20 && c < 0x7f ? value[i] : '·';
  }
  return `k8s protobuf, ${value.length} bytes: ${shown}`;
}

/** A payload as indented JSON; `undefined` (no payload) as an em dash. Protobuf values read as printableProtobuf. */
export function formatPayload(payload: unknown): string {
  if (payload === undefined) return '—';
  return JSON.stringify(payload, (_key, v: unknown) => (typeof v === 'string' && v.startsWith(protobufMagic) ? printableProtobuf(v) : v), 2);
}
