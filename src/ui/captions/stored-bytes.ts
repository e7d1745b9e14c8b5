// Just enough of a stored value's Kubernetes protobuf for captions, read with src/protocol/protobuf-reader.ts
// (the UI does not import the model's codec). For a Pod, raw holds metadata = 1
// (deletionTimestamp = 9), spec = 2 (nodeName = 10) and status = 3 (phase = 1, conditions = 2 {type = 1,
// status = 2}): the facts a caption tells of a pod write, read into the same shape JSON gives.
// Field numbers from k8s.io/api core/v1 and apimachinery meta/v1 generated.proto.

import { firstBytes, protoFields, unknownFields, type ProtoFields } from '../../protocol/index.ts';

const utf8 = (s: string): string => {
  try {
    return new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
  } catch {
    return s;
  }
};
const str = (f: ProtoFields | null, n: number): string | undefined => {
  const v = firstBytes(f, n);
  return v === undefined ? undefined : utf8(v);
};

/** `{apiVersion, kind}` and the raw message of a protobuf value, or null. */
export function unknownOf(value: string): { readonly apiVersion: string; readonly kind: string; readonly raw: string } | null {
  const u = unknownFields(value);
  if (u === null || u.typeMeta === undefined) return null;
  const tm = protoFields(u.typeMeta);
  return { apiVersion: str(tm, 1) ?? '', kind: str(tm, 2) ?? '', raw: u.raw };
}

/** A Pod's caption facts from its protobuf value, shaped as its JSON would be; undefined if not a Pod. */
export function podFromProtobuf(value: string): unknown {
  const u = unknownOf(value);
  if (u === null || u.kind !== 'Pod') return undefined;
  const pod = protoFields(u.raw);
  const metadata = protoFields(firstBytes(pod, 1) ?? '');
  const spec = protoFields(firstBytes(pod, 2) ?? '');
  const status = protoFields(firstBytes(pod, 3) ?? '');
  const conditions = (status?.bytes.get(2) ?? []).map((c) => {
    const cf = protoFields(c);
    return { type: str(cf, 1), status: str(cf, 2) };
  });
  return {
    metadata: metadata?.bytes.has(9) ? { deletionTimestamp: 'set' } : {},
    spec: { nodeName: str(spec, 10) || undefined },
    status: { phase: str(status, 1), conditions },
  };
}
