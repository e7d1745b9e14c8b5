import { describe, expect, it } from 'vitest';
import { minReadableTextPx, readableMinZoom } from './readable-zoom.ts';

describe('readableMinZoom', () => {
  it('keeps the smallest text at 11 px on screen', () => {
    expect(readableMinZoom(11)).toBe(1);
    expect(readableMinZoom(9) * 9).toBeCloseTo(minReadableTextPx);
    expect(readableMinZoom(13) * 13).toBeCloseTo(minReadableTextPx);
  });
  it('allows zooming out below 1 when every text is larger than 11 px', () => {
    expect(readableMinZoom(13)).toBeLessThan(1);
  });
  it('falls back to zoom 1 when nothing was measured', () => {
    expect(readableMinZoom(null)).toBe(1);
    expect(readableMinZoom(0)).toBe(1);
  });
});
