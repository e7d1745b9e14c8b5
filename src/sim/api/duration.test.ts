import { describe, expect, it } from 'vitest';
import { humanDuration, shortHumanDuration } from './duration.ts';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  // Table from apimachinery util/duration/duration_test.go TestHumanDuration.
  it.each([
    [1 * s, '1s'], [70 * s, '70s'], [190 * s, '3m10s'], [70 * m, '70m'], [47 * h, '47h'], [49 * h, '2d1h'],
    [(8 * 24 + 2) * h, '8d'], [367 * d, '367d'], [365 * 2 * d + 25 * h, '2y1d'], [365 * 8 * d + 10 * h, '8y'],
    [2 * m, '2m'], [5 * m + 7 * s, '5m7s'], [10 * m + 59 * s, '10m'], [3 * h, '3h'], [3 * h + 1 * m, '3h1m'], [8 * h + 30 * m, '8h'],
    [-1500, '0s'], [-2000, '<invalid>'], [0, '0s'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it.each([[59 * s, '59s'], [90 * s, '1m'], [25 * h, '1d'], [400 * d, '1y'], [-3 * s, '<invalid>']])('short %d ms → %s', (ms, text) => {
    expect(shortHumanDuration(ms)).toBe(text);
  });
});
