import { describe, expect, it } from 'vitest';
import { orderedStrictErrors, scanKeys } from './strict-json.ts';

describe('the strict decoder\'s duplicate fields', () => {
  it('names each repeat by its path (dots for fields, [i] for list items), escaped keys compared decoded', () => {
    const scan = scanKeys(' { "a" : { "b\\u0063" : 1, "bc": [ {"x":1,"x":2}, {"x":3} ] }, "a": null, "s": "\\"a\\": 1" } ');
    expect(scan.duplicates.map((d) => d.path)).toEqual(['a.bc', 'a.bc[0].x', 'a']);
    expect([...scan.firstSeen.keys()]).toEqual(['a', 'a.bc', 'a.bc[0].x', 'a.bc[1].x', 's']);
  });

  it('orders unknown and duplicate fields as the decoder meets them, once each, skipping what lies under an unknown field', () => {
    const scan = scanKeys('{"spec":{"replicas":1,"foo":{"y":1,"y":2},"replicas":2,"foo":3},"zzz":1}');
    expect(orderedStrictErrors(scan, ['spec.foo', 'zzz'])).toEqual(['unknown field "spec.foo"', 'duplicate field "spec.replicas"', 'unknown field "zzz"']);
    expect(orderedStrictErrors(scanKeys('{"a":1}'), [])).toEqual([]);
  });
});
