// Just enough of a stored value's Kubernetes protobuf for captions, without the codec (the UI does not
// import the model): etcd values are byte strings (one char per byte); a protobuf one is `k8s\0` and a
// runtime.Unknown {typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2}. For a Pod, raw holds metadata = 1
// (deletionTimestamp = 9), spec = 2 (nodeName = 10) and status = 3 (phase = 1, conditions = 2 {type = 1,
// status = 2}): the facts a caption tells of a pod write, read into the same shape JSON gives.
// Field numbers from k8s.io/api core/v1 and apimachinery meta/v1 generated.proto.

const magic = 'k8s\0';

type Fields = Map<number, string[]>;

/** The length-delimited fields of one message (numbers → their payloads); varints are skipped. Null if malformed. */
function fields(s: string): Fields | null {
  const out: Fields = new Map();
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
      if (varint() === null) return null;
    } else if (wire === 2) {
      const len = varint();
      if (len === null || i + len > s.length) return null;
      const list = out.get(number) ?? [];
      list.push(s.slice(i, i + len));
      out.set(number, list);
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else return null;
  }
  return out;
}

const utf8 = (s: string): string => {
  try {
    return new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
  } catch {
    return s;
  }
};
const str = (f: Fields | null, n: number): string | undefined => {
  const v = f?.get(n)?.[0];
  return v === undefined ? undefined : utf8(v);
};

export function isProtobuf(value: string): boolean {
  return value.startsWith(magic);
}

/** `{apiVersion, kind}` and the raw message of a protobuf value, or null. */
export function unknownOf(value: string): { readonly apiVersion: string; readonly kind: string; readonly raw: string } | null {
  if (!isProtobuf(value)) return null;
  const unknown = fields(value.slice(magic.length));
  const typeMeta = unknown?.get(1)?.[0];
  const raw = unknown?.get(2)?.[0];
  if (typeMeta === undefined || raw === undefined) return null;
  const tm = fields(typeMeta);
  return { apiVersion: str(tm, 1) ?? '', kind: str(tm, 2) ?? '', raw };
}

/** A Pod's caption facts from its protobuf value, shaped as its JSON would be; undefined if not a Pod. */
export function podFromProtobuf(value: string): unknown {
  const u = unknownOf(value);
  if (u === null || u.kind !== 'Pod') return undefined;
  const pod = fields(u.raw);
  const metadata = fields(pod?.get(1)?.[0] ?? '');
  const spec = fields(pod?.get(2)?.[0] ?? '');
  const status = fields(pod?.get(3)?.[0] ?? '');
  const conditions = (status?.get(2) ?? []).map((c) => {
    const cf = fields(c);
    return { type: str(cf, 1), status: str(cf, 2) };
  });
  return {
    metadata: metadata?.has(9) ? { deletionTimestamp: 'set' } : {},
    spec: { nodeName: str(spec, 10) || undefined },
    status: { phase: str(status, 1), conditions },
  };
}
