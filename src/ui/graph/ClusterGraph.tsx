// The component graph: the cluster's topology laid out once per cluster, with the pods on their nodes
// and messages animated on its links (one token layer). A new cluster (reset) mounts a new flow, fitted
// to the view. Every fit (the first, after a reset, the fit button, a resize of the pane) keeps the zoom
// at or above the level where the smallest text in the boxes is 11 px on screen (readable-zoom.ts); what
// does not fit then is reached by panning. In a narrow window (layout/placement.ts) the whole graph is
// fitted to the pane instead, whatever its zoom: every box on screen, zoom in to read. Components and links are described to screen readers but are
// not tab stops; the tokens and pod chips are, and every message is also reachable from the side panel's lists.
// The zoom buttons stand at the pane's right edge, half-way down: beside kube-apiserver, right of every box
// of the graph with 1, 3 or 5 etcd members (layout.ts), where no box is at any fit. Past `drawAllUpTo` boxes
// a "Go to node" form (GoToNode.tsx) in the bottom-left corner centres the view on a kubelet by its name.

import { Background, Controls, Panel, ReactFlow, useNodesInitialized, useReactFlow, useStore, type EdgeMouseHandler, type EdgeTypes, type FitViewOptions, type NodeTypes, type ReactFlowState } from '@xyflow/react';
import { useReducedMotion } from 'motion/react';
import { shallow } from 'zustand/shallow';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDockPlacement } from '../layout/placement.ts';
import { usePrefs } from '../store/prefs.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { ComponentNode } from './ComponentNode.tsx';
import { EtcdMembersSwitch } from './EtcdMembersSwitch.tsx';
import { foundNodeStore, goToNode } from './found-node.ts';
import { GoToNode } from './GoToNode.tsx';
import { layoutTopology, type LinkEdgeType } from './layout.ts';
import { kubeletBoxes, linksInView, viewOf } from './links-in-view.ts';
import { LinkEdge } from './LinkEdge.tsx';
import { narrowFitPadding } from './narrow-fit.ts';
import { readableMinZoom, smallestTextPx } from './readable-zoom.ts';
import { linkSegments, TokenLayer } from './TokenLayer.tsx';

const nodeTypes = { component: ComponentNode } satisfies NodeTypes;
const edgeTypes = { link: LinkEdge } satisfies EdgeTypes;
const padding = 0.04;
const maxZoom = 2;
/** How far a narrow window's fit may zoom out. */
const narrowMinZoom = 0.2;
/**
 * Up to this many boxes every box is drawn (find-in-page and screen readers reach them all); past it (a
 * cluster of hundreds or thousands of nodes) only the boxes in view are, and the links of links-in-view.ts, so a step or a frame
 * costs what the view shows, not what the cluster holds.
 */
export const drawAllUpTo = 256;

export function ClusterGraph() {
  const { t } = useTranslation('canvas');
  const cluster = useSim((state) => state.cluster);
  const actions = useSimActions();
  const theme = usePrefs((prefs) => prefs.theme);
  const [minZoom, setMinZoom] = useState(1);
  const [fitPadding, setFitPadding] = useState<FitViewOptions['padding']>(padding);
  const narrow = useDockPlacement() === 'narrow';
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
  const onPaneClick = useCallback(() => {
    actions.select(null);
    if (foundNodeStore.getState().name !== null) goToNode(null);
  }, [actions]);
  const ariaLabelConfig = useMemo(() => ({
    'controls.ariaLabel': t('controls'),
    'controls.zoomIn.ariaLabel': t('zoomIn'),
    'controls.zoomOut.ariaLabel': t('zoomOut'),
    'controls.fitView.ariaLabel': t('fitView'),
  }), [t]);
  const inViewOnly = layout !== null && layout.nodes.length > drawAllUpTo;
  // A graph past `drawAllUpTo` boxes is fitted to its control plane (every box but the kubelets'): at a
  // readable zoom the whole does not fit, and a fit to its middle would show a few kubelets and nothing else.
  const fitNodes = useMemo(() => (inViewOnly ? layout.nodes.filter((n) => n.data.component.role !== 'kubelet').map((n) => ({ id: n.id })) : undefined), [inViewOnly, layout]);
  const fitViewOptions = useMemo<FitViewOptions>(() => ({ padding: fitPadding, minZoom, maxZoom: Math.max(1, minZoom), nodes: fitNodes }), [minZoom, fitPadding, fitNodes]);

  if (!cluster || !layout) return <p className="graph-status" role="status">{t('starting')}</p>;
  return (
    <ReactFlow
      // A new cluster, or one that gained components (etcd clients connecting), is drawn afresh.
      key={`${cluster.version}/${cluster.topology.components.length}`}
      defaultNodes={layout.nodes}
      defaultEdges={inViewOnly ? [] : layout.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onlyRenderVisibleElements={inViewOnly}
      fitView
      fitViewOptions={fitViewOptions}
      minZoom={minZoom}
      maxZoom={Math.max(maxZoom, minZoom)}
      colorMode={theme}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      // A drag that starts on a link does not pan (React Flow's links are "nopan"). Past `drawAllUpTo`
      // boxes the kubelets' links fan into kube-apiserver by the dozen and cover most of the pane, so there
      // links take no clicks (React Flow draws a link without a click handler "inactive", passing the
      // pointer through) and a drag anywhere pans; a link's messages are in the side panel's lists as ever.
      onEdgeClick={inViewOnly ? undefined : onEdgeClick}
      onPaneClick={onPaneClick}
      ariaLabelConfig={ariaLabelConfig}
      aria-label={t('graph')}
    >
      <Background gap={24} size={1} />
      <TokenLayer segments={segments} />
      <Controls position="center-right" showInteractive={false} fitViewOptions={fitViewOptions} />
      <EtcdMembersSwitch />
      <PodsForgotten />
      {inViewOnly && <LinksInView layout={layout} />}
      {inViewOnly && <GoToNode layout={layout} />}
      <GoToFound layout={layout} />
      <ReadableFit onMinZoom={setMinZoom} onPadding={setFitPadding} narrow={narrow} nodes={fitNodes} />
    </ReactFlow>
  );
}

/** Keeps the flow's links to those `linksInView` draws for the view shown (a graph past `drawAllUpTo` boxes). */
function LinksInView({ layout }: { readonly layout: ReturnType<typeof layoutTopology> }) {
  const flow = useReactFlow();
  const kubelets = useMemo(() => kubeletBoxes(layout.nodes), [layout]);
  const drawn = useStore(
    useCallback((s: ReactFlowState) => linksInView(layout.edges, kubelets, viewOf(s.transform, s.width, s.height)), [layout, kubelets]),
    shallow,
  );
  useEffect(() => {
    const ids = new Set(drawn);
    flow.setEdges(layout.edges.filter((edge) => ids.has(edge.id)));
  }, [drawn, flow, layout]);
  return null;
}

/** Centres the view on the box asked for (found-node.ts), at the zoom shown, once per request. */
function GoToFound({ layout }: { readonly layout: ReturnType<typeof layoutTopology> }) {
  const flow = useReactFlow();
  const reducedMotion = useReducedMotion() ?? false;
  const boxes = useMemo(() => new Map(layout.nodes.map((n) => [n.id, n])), [layout]);
  // A new cluster (or layout) outlines nothing until asked.
  useEffect(() => foundNodeStore.setState({ name: null }), [layout]);
  useEffect(() => foundNodeStore.subscribe((state, previous) => {
    const box = state.name === null || state.asked === previous.asked ? undefined : boxes.get(state.name);
    if (box) void flow.setCenter(box.position.x + (box.width ?? 0) / 2, box.position.y + (box.height ?? 0) / 2, { zoom: flow.getZoom(), duration: reducedMotion ? 0 : 400 });
  }), [boxes, flow, reducedMotion]);
  return null;
}

/** Says so when the step shown is older than the pods the worker keeps (its pods are not drawn). */
function PodsForgotten() {
  const { t } = useTranslation('canvas');
  const keptFrom = useSim((state) => state.pods.keptFrom);
  if (keptFrom === null) return null;
  return (
    <Panel position="bottom-center" className="pods-forgotten" data-testid="pods-forgotten">
      <p role="status">{t('podsForgotten', { revision: keptFrom })}</p>
    </Panel>
  );
}

/**
 * Measures the smallest text in the boxes once they are drawn, sets the zoom floor from it (in a narrow
 * window, `narrowMinZoom`, with the padding of narrow-fit.ts), and fits the view again whenever the pane
 * changes size (a dock opened, a pane dragged, the window resized).
 */
function ReadableFit({ onMinZoom, onPadding, narrow, nodes: fitted }: {
  readonly onMinZoom: (zoom: number) => void;
  readonly onPadding: (padding: FitViewOptions['padding']) => void;
  readonly narrow: boolean;
  /** The boxes fitted (all when undefined). */
  readonly nodes: FitViewOptions['nodes'];
}) {
  const flow = useReactFlow();
  const initialized = useNodesInitialized();
  const domNode = useStore((state) => state.domNode);
  useEffect(() => {
    if (!initialized || !domNode) return;
    let frame = 0;
    const fit = () => {
      const nodes = domNode.querySelector('.react-flow__nodes');
      const zoom = narrow ? narrowMinZoom : readableMinZoom(nodes ? smallestTextPx(nodes) : null);
      const fitPadding = narrow ? narrowPaddingIn(domNode, flow.getNodesBounds(flow.getNodes())) : padding;
      onMinZoom(zoom);
      onPadding(fitPadding);
      void flow.fitView({ padding: fitPadding, minZoom: zoom, maxZoom: Math.max(1, zoom), nodes: fitted });
    };
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(fit);
    });
    observer.observe(domNode);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [initialized, domNode, flow, onMinZoom, onPadding, narrow, fitted]);
  return null;
}

/** The narrow fit's padding for the pane `domNode` as it is drawn now (its etcd members switch and zoom buttons measured). */
function narrowPaddingIn(domNode: HTMLElement, graph: { width: number; height: number }) {
  const pane = domNode.getBoundingClientRect();
  const members = domNode.querySelector('[data-testid="etcd-members-switch"]')?.getBoundingClientRect();
  const controls = domNode.querySelector('.react-flow__controls')?.getBoundingClientRect();
  const corner = members ? { right: members.right - pane.left, bottom: members.bottom - pane.top } : { right: 0, bottom: 0 };
  return narrowFitPadding(pane, graph, corner, controls ? pane.right - controls.left : 0);
}
