import { describe, expect, it } from 'vitest';
import { checkKvLinearizable, type KvOperation } from './linearizability.ts';

const put = (key: string, value: string, called: number, returned: number): KvOperation => ({ key, kind: 'put', value, called, returned });
const get = (key: string, value: string, called: number, returned: number): KvOperation => ({ key, kind: 'get', value, called, returned });

describe('checkKvLinearizable', () => {
  it('accepts a sequential history and reads of concurrent writes in either order', () => {
    expect(checkKvLinearizable([put('a', '1', 0, 1), get('a', '1', 2, 3), put('a', '2', 4, 5), get('a', '2', 6, 7)]).ok).toBe(true);
    expect(checkKvLinearizable([put('a', '1', 0, 10), put('a', '2', 1, 9), get('a', '1', 11, 12)]).ok).toBe(true);
    expect(checkKvLinearizable([put('a', '1', 0, 10), put('a', '2', 1, 9), get('a', '2', 11, 12)]).ok).toBe(true);
  });

  it('rejects a stale read: the value read was overwritten before the read began', () => {
    const result = checkKvLinearizable([put('a', '1', 0, 1), put('a', '2', 2, 3), get('a', '1', 4, 5)]);
    expect(result).toEqual({ ok: false, key: 'a' });
  });

  it('rejects a read of the initial value after a completed write, and reads that go back in time', () => {
    expect(checkKvLinearizable([put('k', 'x', 0, 1), get('k', '', 2, 3)]).ok).toBe(false);
    // Two sequential reads see 2 then 1 while the writes 1 → 2 are ordered: no order explains it.
    expect(checkKvLinearizable([
      put('k', '1', 0, 1), put('k', '2', 2, 10), get('k', '2', 3, 4), get('k', '1', 5, 6),
    ]).ok).toBe(false);
  });

  it('a write without an answer may have happened at any time after its call, or never', () => {
    expect(checkKvLinearizable([put('a', '1', 0, Infinity), get('a', '', 1, 2), get('a', '1', 3, 4)]).ok).toBe(true);
    expect(checkKvLinearizable([put('a', '1', 0, Infinity), get('a', '', 1, 2)]).ok).toBe(true);
    // ... but not before its call.
    expect(checkKvLinearizable([get('a', '1', 0, 1), put('a', '1', 2, Infinity)]).ok).toBe(false);
  });

  it('checks keys independently', () => {
    expect(checkKvLinearizable([put('a', '1', 0, 1), put('b', '1', 0, 1), get('b', '1', 2, 3), get('a', '', 2, 3)]))
      .toEqual({ ok: false, key: 'a' });
  });
});
