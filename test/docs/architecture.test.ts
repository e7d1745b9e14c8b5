// docs/architecture.md stays true: every repository path it names (in backticks, under src/, test/,
// bench/, e2e/ or docs/) exists, and its table walks all of seed 004's steps 0–12.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const page = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
const paths = [...new Set([...page.matchAll(/`((?:src|test|bench|e2e|docs)\/[^`\s]+)`/g)].map((m) => m[1]!))];

describe('docs/architecture.md', () => {
  it('names paths', () => {
    expect(paths.length).toBeGreaterThan(40);
  });

  it.each(paths)('%s exists', (path) => {
    expect(existsSync(join(root, path))).toBe(true);
  });

  it('has a row for each of seed 004\'s steps 0–12', () => {
    const steps = [...page.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
    expect(steps).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });
});
