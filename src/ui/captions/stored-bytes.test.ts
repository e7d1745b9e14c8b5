import { describe, expect, it } from 'vitest';
import { podFromProtobuf, unknownOf } from './stored-bytes.ts';

/** A length-delimited field (short payloads: one-byte tag and length). */
const ld = (n: number, payload: string) => String.fromCharCode(n * 8 + 2, payload.length) + payload;

describe('the protobuf facts captions read', () => {
  const typeMeta = ld(1, ld(1, 'v1') + ld(2, 'Pod'));
  const metadata = ld(1, ld(1, 'web') + String.fromCharCode(7 * 8, 1) /* generation varint */);
  const spec = ld(2, ld(10, 'node-2'));
  const status = ld(3, ld(1, 'Running') + ld(2, ld(1, 'Ready') + ld(2, 'True')));
  const value = 'k8s\0' + typeMeta + ld(2, metadata + spec + status) + ld(3, '') + ld(4, '');

  it('reads the kind and a pod\'s phase, node and conditions', () => {
    expect(unknownOf(value)).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
    expect(podFromProtobuf(value)).toEqual({
      metadata: {}, spec: { nodeName: 'node-2' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
  });

  it('gives up cleanly on JSON, other kinds and truncated bytes', () => {
    expect(unknownOf('{"kind":"Pod"}')).toBeNull();
    expect(podFromProtobuf('k8s\0' + ld(1, ld(2, 'Node')) + ld(2, ''))).toBeUndefined();
    expect(unknownOf(value.slice(0, 12))).toBeNull();
  });
});
