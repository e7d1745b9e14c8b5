// A link between two components, drawn border to border on the line joining their centres (a floating
// edge on BaseEdge), with the tokens of the recent deliveries that travelled it. Dormant links (an end
// is not modelled yet) are dashed.

import { BaseEdge, getStraightPath, useInternalNode, type EdgeProps, type InternalNode } from '@xyflow/react';
import { memo, useCallback } from 'react';
import { useShallow } from 'zustand/shallow';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { onLink } from '../store/sim-store.ts';
import { linkSegment, type Rect } from './geometry.ts';
import type { LinkEdgeType } from './layout.ts';
import { MessageToken } from './MessageToken.tsx';

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
  const tokens = useSim(useShallow((state) => state.tokens.filter((record) => onLink(record, source, target))));
  const selection = useSim((state) => state.selection);
  const actions = useSimActions();
  const selectMessage = useCallback((messageId: number) => actions.select({ type: 'message', id: messageId }), [actions]);
  if (!sourceNode || !targetNode) return null;

  const [a, b] = linkSegment(rectOf(sourceNode), rectOf(targetNode));
  const [path] = getStraightPath({ sourceX: a.x, sourceY: a.y, targetX: b.x, targetY: b.y });
  const linkSelected = selection?.type === 'link' && ((selection.a === source && selection.b === target) || (selection.a === target && selection.b === source));
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        interactionWidth={20}
        className={`link${data?.live ? '' : ' link--dormant'}${linkSelected ? ' link--selected' : ''}`}
      />
      {tokens.map((record) => {
        const [from, to] = record.from === source ? [a, b] : [b, a];
        return (
          <MessageToken
            key={record.id}
            record={record}
            fromX={from.x}
            fromY={from.y}
            toX={to.x}
            toY={to.y}
            selected={selection?.type === 'message' && selection.id === record.id}
            onSelect={selectMessage}
          />
        );
      })}
    </>
  );
});
