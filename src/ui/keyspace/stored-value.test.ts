import { describe, expect, it } from 'vitest';
import { decodeValue, valueDiff } from './stored-value.ts';

describe('stored values', () => {
  it('pretty-prints JSON and leaves other text as stored', () => {
    expect(decodeValue('{"a":1}')).toEqual({ text: '{\n  "a": 1\n}', json: true });
    expect(decodeValue('hello')).toEqual({ text: 'hello', json: false });
  });

  it('diffs the decoded versions line by line', () => {
    expect(valueDiff('{"a":1,"b":2}', '{"a":1,"b":3}')).toEqual([
      { type: 'same', text: '{' },
      { type: 'same', text: '  "a": 1,' },
      { type: 'removed', text: '  "b": 2' },
      { type: 'added', text: '  "b": 3' },
      { type: 'same', text: '}' },
    ]);
  });
});
