import { describe, expect, it } from 'vitest';
import { jsonDiff } from './stored-value.ts';

describe('stored values', () => {
  it('diffs the decoded versions line by line', () => {
    const pretty = (v: unknown) => JSON.stringify(v, null, 2);
    expect(jsonDiff(pretty({ a: 1, b: 2 }), pretty({ a: 1, b: 3 }))).toEqual([
      { type: 'same', text: '{' },
      { type: 'same', text: '  "a": 1,' },
      { type: 'removed', text: '  "b": 2' },
      { type: 'added', text: '  "b": 3' },
      { type: 'same', text: '}' },
    ]);
  });
});
