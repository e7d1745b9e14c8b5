import { describe, expect, it } from 'vitest';
import type { ComponentView, Topology } from '../../protocol/index.ts';
import { layoutTopology } from './layout.ts';
import { kubeletBoxes, linksInView, viewOf } from './links-in-view.ts';

function topology(nodes: number): Topology {
  const kubelets = Array.from({ length: nodes }, (_, i): ComponentView => ({ name: `kubelet/node-${i + 1}`, role: 'kubelet', node: `node-${i + 1}`, modelled: true }));
  const fixed: ComponentView[] = (['user', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler'] as const).map((role) => ({ name: role, role, modelled: true }));
  return {
    components: [...fixed, ...kubelets],
    links: [
      { a: 'user', b: 'kube-apiserver', latency: 5, jitter: 0 }, { a: 'kube-apiserver', b: 'etcd', latency: 1, jitter: 0 },
      { a: 'kube-controller-manager', b: 'kube-apiserver', latency: 2, jitter: 0 }, { a: 'kube-scheduler', b: 'kube-apiserver', latency: 2, jitter: 0 },
      ...kubelets.map((k) => ({ a: k.name, b: 'kube-apiserver', latency: 2, jitter: 0 })),
    ],
  };
}

describe('linksInView', () => {
  const { nodes, edges } = layoutTopology(topology(5000));
  const kubelets = kubeletBoxes(nodes);
  const box = (name: string) => kubelets.get(name)!;

  it('draws the links between the fixed boxes, the first kubelet row\'s and the kubelets\' near the view, not every kubelet\'s', () => {
    // A 760 × 520 view at zoom 1 over kube-apiserver: the first kubelet row is far below (its fan into kube-apiserver).
    const apiserver = nodes.find((n) => n.id === 'kube-apiserver')!;
    const drawn = linksInView(edges, kubelets, { x: apiserver.position.x - 100, y: apiserver.position.y - 100, width: 760, height: 520 });
    const ids = new Set(drawn);
    for (const fixed of ['user--kube-apiserver', 'kube-apiserver--etcd', 'kube-controller-manager--kube-apiserver', 'kube-scheduler--kube-apiserver']) expect(ids).toContain(fixed);
    const kubeletLinks = drawn.filter((id) => id.startsWith('kubelet/'));
    // The first row's 71, not 5,000.
    expect(kubeletLinks).toEqual(Array.from({ length: 71 }, (_, i) => `kubelet/node-${i + 1}--kube-apiserver`));
    expect(ids).not.toContain('kubelet/node-5000--kube-apiserver');
  });

  it('draws a kubelet\'s link while its box is within one view of the view, and not past that', () => {
    const last = box('kubelet/node-5000');
    const view = { width: 760, height: 520 };
    const at = (x: number, y: number) => linksInView(edges, kubelets, { x, y, ...view }).includes('kubelet/node-5000--kube-apiserver');
    expect(at(last.x, last.y)).toBe(true);
    // The view a little less than one view's height below the box: still near; a little more: not.
    expect(at(last.x, last.y + last.height + view.height - 1)).toBe(true);
    expect(at(last.x, last.y + last.height + view.height + 1)).toBe(false);
    expect(at(last.x + last.width + view.width + 1, last.y)).toBe(false);
  });

  it('reads the view from React Flow\'s transform', () => {
    expect(viewOf([-200, -100, 2], 800, 600)).toEqual({ x: 100, y: 50, width: 400, height: 300 });
  });
});
