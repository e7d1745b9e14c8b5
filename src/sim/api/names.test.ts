import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameSuffixAlphabet, Rng } from '../engine/rng.ts';
import { generateName, maxGeneratedNameLength } from './names.ts';
import { isDNS1123Subdomain } from './validation/names.ts';

describe('generateName', () => {
  it('appends five suffix characters from the seeded RNG', () => {
    const name = generateName('nginx-7c5ddbdf54-', new Rng('gen'));
    expect(name).toMatch(new RegExp(`^nginx-7c5ddbdf54-[${nameSuffixAlphabet}]{5}$`));
    expect(generateName('nginx-7c5ddbdf54-', new Rng('gen'))).toBe(name);
  });

  it('cuts the base to 58 characters, so the result is at most 63', () => {
    const base = 'a'.repeat(70);
    const name = generateName(base, new Rng(1));
    expect(maxGeneratedNameLength).toBe(58);
    expect(name).toHaveLength(63);
    expect(name.startsWith('a'.repeat(58))).toBe(true);
  });

  it('keeps valid DNS-1123 bases valid', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,80}-)?$/), fc.integer(), (base, seed) => {
      const name = generateName(base, new Rng(seed));
      expect(isDNS1123Subdomain(name)).toEqual([]);
    }));
  });
});
