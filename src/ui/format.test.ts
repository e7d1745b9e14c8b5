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
    expect(formatPayload(null)).toBe('null');
  });
});
