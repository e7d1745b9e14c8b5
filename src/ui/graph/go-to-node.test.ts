import { describe, expect, it } from 'vitest';
import { nodeNamed, nodeRange } from './go-to-node.ts';

const names = new Set(['node-1', 'node-2', 'node-10', 'node-5000', 'Worker-A']);

describe('the node a learner means in "Go to node"', () => {
  it('takes the node\'s name, its kubelet\'s name, or its number, in any case, spaces trimmed', () => {
    expect(nodeNamed('node-10', names)).toBe('node-10');
    expect(nodeNamed('  NODE-2 ', names)).toBe('node-2');
    expect(nodeNamed('kubelet/node-5000', names)).toBe('node-5000');
    expect(nodeNamed('10', names)).toBe('node-10');
    // A number with leading zeros still names its node; a name not spelled node-N is matched as written.
    expect(nodeNamed('0010', names)).toBe('node-10');
    expect(nodeNamed('worker-a', names)).toBe('Worker-A');
  });

  it('names no node for what the cluster does not have', () => {
    expect(nodeNamed('', names)).toBeNull();
    expect(nodeNamed('   ', names)).toBeNull();
    expect(nodeNamed('node-3', names)).toBeNull();
    expect(nodeNamed('5001', names)).toBeNull();
    expect(nodeNamed('node-1x', names)).toBeNull();
    expect(nodeNamed('kube-apiserver', names)).toBeNull();
  });

  it('gives the first and last node for the hint', () => {
    expect(nodeRange(['node-1', 'node-2', 'node-3'])).toEqual({ first: 'node-1', last: 'node-3' });
    expect(nodeRange([])).toBeNull();
  });
});
