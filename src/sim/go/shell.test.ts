import { describe, expect, it } from 'vitest';
import { splitArgs } from './shell.ts';

describe('splitArgs', () => {
  it('splits a command line like a shell', () => {
    expect(splitArgs(`put k "a b" --lease=1f ''`)).toEqual(['put', 'k', 'a b', '--lease=1f', '']);
  });
});
