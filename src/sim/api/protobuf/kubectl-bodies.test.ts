// Real kubectl's protobuf request bodies (Go's gogo-protobuf encoding): each decodes to the object
// kubectl built and encodes back to exactly the same bytes.

import { describe, expect, it } from 'vitest';
import { structs, type FieldSpec } from '../schema-data.ts';
import { kubectlProtobufBodies } from './fixtures/kubectl-bodies.ts';
import { pendingStructs } from './fixtures/pending-structs.ts';
import { decodeProtobuf, encodeProtobuf } from './index.ts';
import { base64FromBytes, bytesFromBase64 } from './wire.ts';

for (const [name, specs] of Object.entries(pendingStructs)) {
  if (structs[name] === undefined) (structs as Record<string, readonly FieldSpec[]>)[name] = specs;
}

describe("real kubectl's protobuf bodies", () => {
  for (const { command, request, kind, body } of kubectlProtobufBodies) {
    it(`${command} (${request}) round-trips byte for byte`, () => {
      const r = decodeProtobuf(bytesFromBase64(body)!);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.object.kind).toBe(kind);
      expect(base64FromBytes(encodeProtobuf(r.object))).toBe(body);
    });
  }

  it('decode to the objects kubectl built', () => {
    const decoded = (kind: string): unknown => {
      const r = decodeProtobuf(bytesFromBase64(kubectlProtobufBodies.find((b) => b.kind === kind)!.body)!);
      return r.ok ? r.object : r.error;
    };
    expect(decoded('Deployment')).toEqual({
      kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'x', creationTimestamp: null, labels: { app: 'x' } },
      spec: { replicas: 3, selector: { matchLabels: { app: 'x' } }, template: { metadata: { creationTimestamp: null, labels: { app: 'x' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } }, strategy: {} },
      status: {},
    });
    expect(decoded('ConfigMap')).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cfg', creationTimestamp: null }, data: { a: '1', b: '2' } });
    expect(decoded('Secret')).toEqual({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 's1', creationTimestamp: null }, data: { k: 'dg==' } });
    expect(decoded('DeleteOptions')).toEqual({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
  });
});
