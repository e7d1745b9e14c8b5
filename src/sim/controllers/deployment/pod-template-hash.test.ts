import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Encode } from '../../etcd/bytes.ts';
import { canonicalDump, computePodTemplateHash, fnv1a32Bytes, safeEncodeString } from './pod-template-hash.ts';

const template = {
  metadata: { labels: { app: 'nginx' }, creationTimestamp: null },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80, protocol: 'TCP' }] }] },
};

describe('pod-template-hash', () => {
  it('maps decimal digits into the safe alphabet as SafeEncodeString does', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });

  it('computes FNV-1a-32 (test vectors of the FNV reference)', () => {
    expect(fnv1a32Bytes(new Uint8Array())).toBe(0x811c9dc5);
    expect(fnv1a32Bytes(utf8Encode('a'))).toBe(0xe40c292c);
    expect(fnv1a32Bytes(utf8Encode('foobar'))).toBe(0xbf9cf968);
  });

  it('gives a hash of the real shape, stable under key order, different for another template or collision count', () => {
    const hash = computePodTemplateHash(template);
    expect(hash).toMatch(/^[456789bcdf]{1,10}$/);
    const reordered = { spec: template.spec, metadata: { creationTimestamp: null, labels: { app: 'nginx' } } };
    expect(computePodTemplateHash(reordered)).toBe(hash);
    const changed = { ...template, spec: { containers: [{ ...template.spec.containers[0], image: 'nginx:1.16' }] } };
    expect(computePodTemplateHash(changed)).not.toBe(hash);
    expect(computePodTemplateHash(template, 1)).not.toBe(hash);
    expect(computePodTemplateHash(template, 1)).toBe(computePodTemplateHash(template, 1));
  });

  it('dumps any JSON value canonically (sorted keys, same value → same text)', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => canonicalDump(JSON.parse(JSON.stringify(v))) === canonicalDump(v)));
  });
});
