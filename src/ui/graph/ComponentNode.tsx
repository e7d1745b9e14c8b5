// A component of the cluster as a graph node. Components whose model does not exist yet are drawn
// dimmed with a badge: they are part of the picture but send and receive nothing. A kubelet's box holds
// the pods bound to its node, kube-scheduler's the pods waiting to be bound (PodChips.tsx);
// kube-apiserver's its request stages, lit as a request walks them (ApiserverStages.tsx).

import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { unbound } from '../store/pods.ts';
import type { ComponentNodeType } from './layout.ts';
import { ApiserverStages } from './ApiserverStages.tsx';
import { PodChips } from './PodChips.tsx';
import { useTourHighlight } from '../tours/tour-store.ts';

export const ComponentNode = memo(function ComponentNode({ data }: NodeProps<ComponentNodeType>) {
  const { component, title, subtitle } = data;
  const toured = useTourHighlight(component.name);
  const pods = component.role === 'kubelet' ? (component.node ?? null) : component.role === 'kube-scheduler' ? unbound : null;
  return (
    <div
      className={`component-node role-${component.role}${component.modelled ? '' : ' component-node--dormant'}${pods !== null ? ' component-node--pods' : ''}${toured ? ' component-node--tour' : ''}`}
      data-testid="component-node"
      data-component={component.name}
      data-modelled={component.modelled}
      data-tour-highlight={toured || undefined}
    >
      {/* Links are drawn border to border (floating); the handles only anchor them for React Flow. */}
      <Handle type="target" position={Position.Top} className="component-handle" isConnectable={false} />
      <Handle type="source" position={Position.Bottom} className="component-handle" isConnectable={false} />
      <span className="component-heading">
        <span className="component-title">{title}</span>
        {subtitle !== '' && <span className="component-subtitle">{subtitle}</span>}
      </span>
      {!component.modelled && <span className="component-badge">not modelled yet</span>}
      {component.role === 'kube-apiserver' && component.modelled && <ApiserverStages />}
      {pods !== null && <PodChips group={pods} label={pods === unbound ? 'pods waiting to be scheduled' : `pods on ${pods}`} />}
    </div>
  );
});
