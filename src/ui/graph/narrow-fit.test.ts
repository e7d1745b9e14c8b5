import { describe, expect, it } from 'vitest';
import { narrowFitPadding } from './narrow-fit.ts';

const graph = { width: 720, height: 400 };
const corner = { right: 190, bottom: 44 };

describe('narrowFitPadding', () => {
  it('puts the boxes right of the etcd members switch in a short wide pane', () => {
    expect(narrowFitPadding({ width: 640, height: 180 }, graph, corner, 44)).toEqual({ top: '8px', right: '52px', bottom: '8px', left: '198px' });
  });
  it('puts them below the switch in a pane as tall as the graph is for its width', () => {
    expect(narrowFitPadding({ width: 720, height: 420 }, graph, corner, 44)).toEqual({ top: '52px', right: '52px', bottom: '8px', left: '8px' });
  });
});
