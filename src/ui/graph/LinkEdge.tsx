// A link between two components, drawn border to border on the line joining their centres (a floating
// edge on BaseEdge). Dormant links (an end is not modelled yet) are dashed. The messages travelling it
// are drawn by the token layer (TokenLayer.tsx), not here.

import { BaseEdge, getStraightPath, useInternalNode, type EdgeProps, type InternalNode } from '@xyflow/react';
import { memo } from 'react';
import { useSim } from '../store/sim-context.ts';
import { linkSegment, type Rect } from './geometry.ts';
import type { LinkEdgeType } from './layout.ts';

function rectOf(node: InternalNode): Rect {
  return {
    ...node.internals.positionAbsolute,
    width: node.measured.width ?? node.width ?? 0,
    height: node.measured.height ?? node.height ?? 0,
  };
}

export const LinkEdge = memo(function LinkEdge({ id, source, target, data }: EdgeProps<LinkEdgeType>) {
  const sourceNode = useInternalNode(source);
  const targetNode = useInternalNode(target);
  const linkSelected = useSim((state) => {
    const s = state.selection;
    return s?.type === 'link' && ((s.a === source && s.b === target) || (s.a === target && s.b === source));
  });
  if (!sourceNode || !targetNode) return null;

  const [a, b] = linkSegment(rectOf(sourceNode), rectOf(targetNode));
  const [path] = getStraightPath({ sourceX: a.x, sourceY: a.y, targetX: b.x, targetY: b.y });
  return (
    <BaseEdge
      id={id}
      path={path}
      interactionWidth={20}
      className={`link${data?.live ? '' : ' link--dormant'}${linkSelected ? ' link--selected' : ''}`}
    />
  );
});
