import { describe, expect, it } from 'vitest';
import type { ComponentView, LinkView, Topology } from '../../protocol/index.ts';
import { center, linkSegment, lerp, type Point, type Rect } from './geometry.ts';
import { graphTarget, layoutTopology } from './layout.ts';
import { labelSpots } from './token-placement.ts';

/** The shape of src/sim/cluster.ts's topology for `nodes` kubelets, with etcd modelled. */
function clusterTopology(nodes: number): Topology {
  const kubelets = Array.from({ length: nodes }, (_, i): ComponentView => ({ name: `kubelet/node-${i + 1}`, role: 'kubelet', node: `node-${i + 1}`, modelled: false }));
  const link = (a: string, b: string, latency: number): LinkView => ({ a, b, latency, jitter: 0.5 });
  return {
    components: [
      { name: 'user', role: 'user', modelled: true },
      { name: 'kube-apiserver', role: 'kube-apiserver', modelled: false },
      { name: 'etcd', role: 'etcd', modelled: true },
      { name: 'kube-controller-manager', role: 'kube-controller-manager', modelled: false },
      { name: 'kube-scheduler', role: 'kube-scheduler', modelled: false },
      ...kubelets,
    ],
    links: [
      link('user', 'kube-apiserver', 5), link('user', 'etcd', 5), link('kube-apiserver', 'etcd', 1),
      link('kube-controller-manager', 'kube-apiserver', 2), link('kube-scheduler', 'kube-apiserver', 2),
      ...kubelets.map((k) => link(k.name, 'kube-apiserver', 2)),
    ],
  };
}

function boxes(topology: Topology): Map<string, Rect> {
  return new Map(layoutTopology(topology).nodes.map((n) => [n.id, { ...n.position, width: n.width!, height: n.height! }]));
}

function overlaps(a: Rect, b: Rect, margin = 0): boolean {
  return a.x < b.x + b.width + margin && b.x < a.x + a.width + margin && a.y < b.y + b.height + margin && b.y < a.y + a.height + margin;
}

function inside(p: Point, r: Rect): boolean {
  return p.x > r.x && p.x < r.x + r.width && p.y > r.y && p.y < r.y + r.height;
}

describe('layoutTopology', () => {
  it.each([1, 2, 3, 6, 12, 50])('places %d kubelet(s) without overlapping boxes or links crossing a third box', (nodes) => {
    const topology = clusterTopology(nodes);
    const rects = boxes(topology);
    const beneath = new Set(layoutTopology(topology).edges.filter((e) => e.zIndex === 0).map((e) => e.id));
    const names = [...rects.keys()];
    for (const a of names) for (const b of names) if (a < b) expect(overlaps(rects.get(a)!, rects.get(b)!, 10), `${a} / ${b}`).toBe(false);
    for (const link of topology.links) {
      const [from, to] = linkSegment(rects.get(link.a)!, rects.get(link.b)!);
      for (const [name, rect] of rects) {
        if (name === link.a || name === link.b) continue;
        // A wrapped kubelet row's link is drawn beneath the boxes: it may pass under other kubelets only.
        if (beneath.has(`${link.a}--${link.b}`) && name.startsWith('kubelet/')) continue;
        const grazes = Array.from({ length: 101 }, (_, i) => lerp(from, to, i / 100)).some((p) => inside(p, { x: rect.x - 10, y: rect.y - 10, width: rect.width + 20, height: rect.height + 20 }));
        expect(grazes, `${link.a}–${link.b} crosses ${name}`).toBe(false);
      }
    }
  });

  it.each([3, 5])('lays %d etcd members out as boxes that overlap nothing, with no link drawn over a box', (count) => {
    const base = clusterTopology(3);
    const members = Array.from({ length: count }, (_, i): ComponentView => ({ name: `etcd-${i + 1}`, role: 'etcd', modelled: true }));
    const link = (a: string, b: string): LinkView => ({ a, b, latency: 1, jitter: 0 });
    const topology: Topology = {
      components: [...base.components.filter((c) => c.role !== 'etcd'), ...members],
      links: [
        ...base.links.filter((l) => l.a !== 'etcd' && l.b !== 'etcd'),
        ...members.flatMap((m) => [link('user', m.name), link('kube-apiserver', m.name)]),
        ...members.flatMap((m, i) => members.slice(i + 1).map((o) => link(m.name, o.name))),
      ],
    };
    const { nodes, edges } = layoutTopology(topology);
    expect(nodes.filter((n) => n.data.component.role === 'etcd').map((n) => n.data.title)).toEqual(members.map((m) => m.name));
    const rects = boxes(topology);
    const names = [...rects.keys()];
    for (const a of names) for (const b of names) if (a < b) expect(overlaps(rects.get(a)!, rects.get(b)!, 10), `${a} / ${b}`).toBe(false);
    for (const edge of edges.filter((e) => e.zIndex === 1)) {
      const [from, to] = linkSegment(rects.get(edge.source)!, rects.get(edge.target)!);
      for (const [name, rect] of rects) {
        if (name === edge.source || name === edge.target) continue;
        const grazes = Array.from({ length: 101 }, (_, i) => lerp(from, to, i / 100)).some((p) => inside(p, rect));
        expect(grazes, `${edge.id} crosses ${name}`).toBe(false);
      }
    }
    // Every member's link to kube-apiserver and every peer link exists, to carry the tokens.
    expect(edges.filter((e) => e.target.startsWith('etcd-') && e.source.startsWith('etcd-'))).toHaveLength((count * (count - 1)) / 2);
  });

  it('fits the default 3-node graph in 720 × 400 at zoom 1', () => {
    const rects = [...boxes(clusterTopology(3)).values()];
    const left = Math.min(...rects.map((r) => r.x));
    const top = Math.min(...rects.map((r) => r.y));
    const right = Math.max(...rects.map((r) => r.x + r.width));
    const bottom = Math.max(...rects.map((r) => r.y + r.height));
    expect(right - left).toBeLessThanOrEqual(graphTarget.width);
    expect(bottom - top).toBeLessThanOrEqual(graphTarget.height);
  });

  it('fits a 3-member etcd with 3 nodes in the graph panes of 1280×720 (760 × 523) and 1440×900 (1040 × 410) at zoom 1, links drawn above the boxes clear of them by 10 px', () => {
    const base = clusterTopology(3);
    const members = ['etcd-1', 'etcd-2', 'etcd-3'];
    const link = (a: string, b: string): LinkView => ({ a, b, latency: 1, jitter: 0 });
    const topology: Topology = {
      components: [...base.components.filter((c) => c.role !== 'etcd'), ...members.map((name): ComponentView => ({ name, role: 'etcd', modelled: true }))],
      links: [...base.links.filter((l) => l.a !== 'etcd' && l.b !== 'etcd'), ...members.map((m) => link('kube-apiserver', m))],
    };
    const rects = boxes(topology);
    const all = [...rects.values()];
    expect(Math.max(...all.map((r) => r.x + r.width)) - Math.min(...all.map((r) => r.x))).toBeLessThanOrEqual(730);
    // Each peer link leans right going down: a token label's first spot, its upper side, is its right, inside the graph.
    for (const [upper, lower] of [['etcd-1', 'etcd-2'], ['etcd-2', 'etcd-3'], ['etcd-1', 'etcd-3']] as const) {
      const [from, to] = linkSegment(rects.get(upper)!, rects.get(lower)!);
      expect(to.x - from.x, `${upper}--${lower} leans right`).toBeGreaterThan(0);
      expect(labelSpots({ segment: [from, to], width: 160, height: 16 })[0]!.x, `${upper}--${lower}'s first label spot`).toBeGreaterThan(from.x);
    }
    expect(Math.max(...all.map((r) => r.y + r.height)) - Math.min(...all.map((r) => r.y))).toBeLessThanOrEqual(graphTarget.height);
    const { edges } = layoutTopology(topology);
    for (const edge of edges.filter((e) => e.zIndex === 1)) {
      const [from, to] = linkSegment(rects.get(edge.source)!, rects.get(edge.target)!);
      for (const [name, rect] of rects) {
        if (name === edge.source || name === edge.target) continue;
        const grazes = Array.from({ length: 101 }, (_, i) => lerp(from, to, i / 100)).some((p) => inside(p, { x: rect.x - 10, y: rect.y - 10, width: rect.width + 20, height: rect.height + 20 }));
        expect(grazes, `${edge.id} crosses ${name}`).toBe(false);
      }
    }
    expect(edges.filter((e) => e.source === 'kube-apiserver' && e.zIndex === 1).map((e) => e.target)).toEqual(['etcd-1', 'etcd-2']);
  });

  it('wraps kubelets into rows of three, centred, and more per row in large clusters', () => {
    const rows = (nodes: number) => new Set([...boxes(clusterTopology(nodes))].filter(([n]) => n.startsWith('kubelet/')).map(([, r]) => r.y)).size;
    expect(rows(3)).toBe(1);
    expect(rows(4)).toBe(2);
    expect(rows(9)).toBe(3);
    expect(rows(50)).toBe(7);
    const rects = boxes(clusterTopology(3));
    expect(center(rects.get('kubelet/node-2')!).x).toBe(graphTarget.width / 2);
  });

  it('describes components and links for the graph and for screen readers', () => {
    const { nodes, edges } = layoutTopology(clusterTopology(1));
    expect(nodes.find((n) => n.id === 'kubelet/node-1')).toMatchObject({
      type: 'component', ariaLabel: 'kubelet/node-1, not modelled yet', data: { title: 'kubelet', subtitle: 'node-1' },
    });
    expect(nodes.find((n) => n.id === 'etcd')?.ariaLabel).toBe('etcd');
    expect(edges.find((e) => e.id === 'user--etcd')).toMatchObject({
      source: 'user', target: 'etcd', type: 'link', ariaLabel: 'link between user and etcd, 5 ms', data: { latency: 5, jitter: 0.5, live: true },
    });
    expect(edges.find((e) => e.id === 'user--kube-apiserver')?.data?.live).toBe(false);
  });
});

describe('geometry', () => {
  it('joins two boxes border to border along the line between their centres', () => {
    const [from, to] = linkSegment({ x: 0, y: 0, width: 100, height: 50 }, { x: 300, y: 0, width: 100, height: 50 });
    expect(from).toEqual({ x: 100, y: 25 });
    expect(to).toEqual({ x: 300, y: 25 });
    const [down] = linkSegment({ x: 0, y: 0, width: 100, height: 50 }, { x: 0, y: 200, width: 100, height: 50 });
    expect(down).toEqual({ x: 50, y: 50 });
    expect(lerp(from, to, 0.25)).toEqual({ x: 150, y: 25 });
  });
});
