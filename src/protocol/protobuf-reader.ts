// A reader of just enough of a stored value's Kubernetes protobuf to tell what a write did, without the
// codec (the UI may not import the model): etcd values are byte strings (one char per byte); a protobuf
// one is `k8s\0` + runtime.Unknown {typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2}, raw being the
// object's message. The UI's captions and the worker's story classifier read their few fields with it.
// Models the wire format of google.golang.org/protobuf/encoding/protowire (tags, varints, length-delimited
// fields) as k8s.io/apimachinery/pkg/runtime/serializer/protobuf writes it.

/** The fields of one message, read without a schema. */
export interface ProtoFields {
  /** Length-delimited payloads by field number, in order. */
  readonly bytes: Map<number, string[]>;
  /** Varints by field number (the last one). */
  readonly varints: Map<number, number>;
}

/** The fields of one message (fixed32/fixed64 skipped); null if malformed. */
export function protoFields(s: string): ProtoFields | null {
  const bytes = new Map<number, string[]>();
  const varints = new Map<number, number>();
  let i = 0;
  const varint = (): number | null => {
    let v = 0;
    let mul = 1;
    for (let n = 0; n < 10; n++) {
      if (i >= s.length) return null;
      const b = s.charCodeAt(i++);
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 128;
    }
    return null;
  };
  while (i < s.length) {
    const tag = varint();
    if (tag === null) return null;
    const wire = tag % 8;
    const number = Math.floor(tag / 8);
    if (wire === 0) {
      const v = varint();
      if (v === null) return null;
      varints.set(number, v);
    } else if (wire === 2) {
      const len = varint();
      if (len === null || i + len > s.length) return null;
      const list = bytes.get(number);
      if (list) list.push(s.slice(i, i + len));
      else bytes.set(number, [s.slice(i, i + len)]);
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else return null;
  }
  return { bytes, varints };
}

/** The first length-delimited payload of field `n`. */
export const firstBytes = (f: ProtoFields | null, n: number): string | undefined => f?.bytes.get(n)?.[0];

const magic = 'k8s\0';

export function isProtobuf(value: string): boolean {
  return value.startsWith(magic);
}

/** The runtime.Unknown of a protobuf value: its TypeMeta message (when present) and the raw object message; null if it has no raw. */
export function unknownFields(value: string): { readonly typeMeta: string | undefined; readonly raw: string } | null {
  if (!isProtobuf(value)) return null;
  const unknown = protoFields(value.slice(magic.length));
  const raw = firstBytes(unknown, 2);
  return raw === undefined ? null : { typeMeta: firstBytes(unknown, 1), raw };
}
