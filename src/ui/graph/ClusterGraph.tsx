// The component graph: the cluster's topology laid out once per cluster, with the pods on their nodes
// and messages animated on its links (one token layer). A new cluster (reset) mounts a new flow, fitted
// to the view. Components and links are described to screen readers but are not tab stops; the tokens
// and pod chips are, and every message is also reachable from the side panel's lists.

import { Background, Controls, ReactFlow, type EdgeMouseHandler, type EdgeTypes, type NodeTypes } from '@xyflow/react';
import { useCallback, useMemo } from 'react';
import { usePrefs } from '../store/prefs.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { ComponentNode } from './ComponentNode.tsx';
import { layoutTopology, type LinkEdgeType } from './layout.ts';
import { LinkEdge } from './LinkEdge.tsx';
import { linkSegments, TokenLayer } from './TokenLayer.tsx';

const nodeTypes = { component: ComponentNode } satisfies NodeTypes;
const edgeTypes = { link: LinkEdge } satisfies EdgeTypes;

export function ClusterGraph() {
  const cluster = useSim((state) => state.cluster);
  const actions = useSimActions();
  const theme = usePrefs((prefs) => prefs.theme);
  const layout = useMemo(() => (cluster ? layoutTopology(cluster.topology) : null), [cluster]);
  const segments = useMemo(() => {
    if (!cluster || !layout) return new Map();
    const boxes = new Map(layout.nodes.map((n) => [n.id, { ...n.position, width: n.width ?? 0, height: n.height ?? 0 }]));
    return linkSegments(boxes, cluster.topology.links);
  }, [cluster, layout]);
  const onEdgeClick = useCallback<EdgeMouseHandler<LinkEdgeType>>(
    (_, edge) => actions.select({ type: 'link', a: edge.source, b: edge.target }),
    [actions],
  );
  const onPaneClick = useCallback(() => actions.select(null), [actions]);

  if (!cluster || !layout) return <p className="graph-status" role="status">Starting the simulation…</p>;
  return (
    <ReactFlow
      key={cluster.version}
      defaultNodes={layout.nodes}
      defaultEdges={layout.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      fitView
      fitViewOptions={{ padding: 0.1 }}
      minZoom={0.2}
      maxZoom={2}
      colorMode={theme}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      onEdgeClick={onEdgeClick}
      onPaneClick={onPaneClick}
      aria-label="Cluster components and the messages between them"
    >
      <Background gap={24} size={1} />
      <TokenLayer segments={segments} />
      <Controls showInteractive={false} />
    </ReactFlow>
  );
}
