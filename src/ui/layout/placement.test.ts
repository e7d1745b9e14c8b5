import { describe, expect, it } from 'vitest';
import { dockPlacement } from './placement.ts';

describe('dockPlacement', () => {
  it('puts the dock beside the graph on a 1280×720 laptop screen, where below it would squeeze the graph', () => {
    expect(dockPlacement(1280, 720)).toBe('beside');
  });
  it('puts it below on a 1440×900 screen, tall enough for both', () => {
    expect(dockPlacement(1440, 900)).toBe('below');
  });
  it('puts it beside on a wide screen', () => {
    expect(dockPlacement(2560, 1440)).toBe('beside');
  });
  it('stacks the panes in a window narrower than 1280 px, such as a column of the side-by-side page', () => {
    expect(dockPlacement(640, 700)).toBe('narrow');
    expect(dockPlacement(720, 870)).toBe('narrow');
    expect(dockPlacement(1279, 900)).toBe('narrow');
  });
});
