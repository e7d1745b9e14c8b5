import { describe, expect, it } from 'vitest';
import { chipSlots } from '../store/pods.ts';
import { detailZoom, dotSlots, podsView } from './PodChips.tsx';

describe('how a node draws its pods', () => {
  it('a chip each while they fit, else aggregated; zoomed in, a dot each while the dots fit', () => {
    expect(podsView(chipSlots, 1)).toBe('chips');
    expect(podsView(chipSlots, detailZoom)).toBe('chips');
    expect(podsView(chipSlots + 1, 1)).toBe('summary');
    expect(podsView(chipSlots + 1, detailZoom)).toBe('dots');
    expect(podsView(dotSlots, detailZoom * 2)).toBe('dots');
    expect(podsView(dotSlots + 1, detailZoom * 2)).toBe('summary');
  });
});
