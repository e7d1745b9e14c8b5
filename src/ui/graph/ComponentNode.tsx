// A component of the cluster as a graph node. Components whose model does not exist yet are drawn
// dimmed with a badge: they are part of the picture but send and receive nothing.

import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { ComponentNodeType } from './layout.ts';

export const ComponentNode = memo(function ComponentNode({ data }: NodeProps<ComponentNodeType>) {
  const { component, title, subtitle } = data;
  return (
    <div
      className={`component-node role-${component.role}${component.modelled ? '' : ' component-node--dormant'}`}
      data-testid="component-node"
      data-component={component.name}
      data-modelled={component.modelled}
    >
      {/* Links are drawn border to border (floating); the handles only anchor them for React Flow. */}
      <Handle type="target" position={Position.Top} className="component-handle" isConnectable={false} />
      <Handle type="source" position={Position.Bottom} className="component-handle" isConnectable={false} />
      <span className="component-title">{title}</span>
      {subtitle !== '' && <span className="component-subtitle">{subtitle}</span>}
      {!component.modelled && <span className="component-badge">not modelled yet</span>}
    </div>
  );
});
