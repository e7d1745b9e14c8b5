import { describe, expect, it } from 'vitest';
import { formatPayload, formatSpeed, formatVirtualTime } from './format.ts';

describe('format', () => {
  it.each([
    [0, '0.000 ms'],
    [5.5, '5.500 ms'],
    [1500, '1.500 s'],
    [61_250, '1 min 1.250 s'],
  ])('shows virtual time %d as %s', (ms, text) => {
    expect(formatVirtualTime(ms)).toBe(text);
  });

  it('shows speeds and payloads', () => {
    expect(formatSpeed(0.01)).toBe('0.01×');
    expect(formatPayload({ key: 'a' })).toBe('{\n  "key": "a"\n}');
    expect(formatPayload(undefined)).toBe('—');
    // A protobuf etcd value: its size, then its printable bytes (others as ·).
    const value = 'k8s\u0000\n\u000b\n\u0002v1\u0012\u0003Pod\u0012\u0006node-1\u00ff';
    expect(formatPayload({ value })).toBe(`{\n  "value": "k8s protobuf, ${value.length} bytes: k8s·····v1··Pod··node-1·"\n}`);
    expect(formatPayload(null)).toBe('null');
  });
});
