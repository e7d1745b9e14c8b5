// A component of the cluster as a graph node, showing what it holds inside at the step shown
// (Insides.tsx): etcd its revisions and the write it applied (a cluster member its raft role and term in
// the heading); kube-apiserver its request stages, lit as a
// request walks them (ApiserverStages.tsx), its requests in flight and watch caches; the controller
// manager a row per controller; kube-scheduler its queues, its newest decision and the pods waiting to be
// bound; a kubelet its container start in progress and its node's pods (PodChips.tsx). Components whose
// model does not exist yet are drawn dimmed with a badge: part of the picture, sending nothing. While the
// simulation plays, a box outside the graph's view keeps its insides as they were (OnScreen, snapshot.ts).

import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { unbound } from '../store/pods.ts';
import { OnScreen, SnapshotLane, useOnScreen } from '../store/snapshot.ts';
import type { ComponentNodeType } from './layout.ts';
import { ApiserverStages } from './ApiserverStages.tsx';
import {
  ApiserverInFlight, ApiserverInsidesView, ControllerManagerInsidesView, EtcdInsidesView, EtcdMemberHeading, KubeletInsidesView, SchedulerInsidesView,
} from './Insides.tsx';
import { PodChips } from './PodChips.tsx';
import { useTourHighlight } from '../tours/tour-store.ts';
import { useFoundNode } from './found-node.ts';
import './insides.css';

export const ComponentNode = memo(function ComponentNode({ data }: NodeProps<ComponentNodeType>) {
  const { component, title, subtitle } = data;
  const { t } = useTranslation('graph');
  const { role, name, modelled } = component;
  const toured = useTourHighlight(name);
  const found = useFoundNode(name);
  const pods = role === 'kubelet' ? (component.node ?? null) : role === 'kube-scheduler' ? unbound : null;
  const box = useRef<HTMLDivElement>(null);
  const onScreen = useOnScreen(box);
  // The boxes' insides and pods catch up in the graph's lane (snapshot.ts), apart from the panels.
  return (
    <SnapshotLane.Provider value="graph">
      <div
        ref={box}
        className={`component-node component-node--insides role-${role}${modelled ? '' : ' component-node--dormant'}${pods !== null ? ' component-node--pods' : ''}${toured ? ' component-node--tour' : ''}${found ? ' component-node--found' : ''}`}
        data-testid="component-node"
        data-component={name}
        data-modelled={modelled}
        data-tour-highlight={toured || undefined}
        data-found={found || undefined}
      >
        {/* Links are drawn border to border (floating); the handles only anchor them for React Flow. */}
        <Handle type="target" position={Position.Top} className="component-handle" isConnectable={false} />
        <Handle type="source" position={Position.Bottom} className="component-handle" isConnectable={false} />
        <span className="component-heading">
          <span className="component-title">{title}</span>
          {subtitle !== '' && <span className="component-subtitle">{subtitle}</span>}
          {role === 'kube-apiserver' && modelled && <ApiserverInFlight name={name} />}
          {role === 'etcd' && modelled && <EtcdMemberHeading name={name} />}
        </span>
        {!modelled && <span className="component-badge">{t('notModelled')}</span>}
        <OnScreen value={onScreen}>
          {modelled && role === 'etcd' && <EtcdInsidesView name={name} />}
          {modelled && role === 'kube-apiserver' && <ApiserverStages />}
          {modelled && role === 'kube-apiserver' && <ApiserverInsidesView name={name} />}
          {modelled && role === 'kube-controller-manager' && <ControllerManagerInsidesView name={name} />}
          {modelled && role === 'kube-scheduler' && <SchedulerInsidesView name={name} />}
          {modelled && role === 'kubelet' && <KubeletInsidesView name={name} />}
          {pods !== null && <PodChips group={pods} label={pods === unbound ? t('podsWaiting') : t('podsOn', { node: pods })} />}
        </OnScreen>
      </div>
    </SnapshotLane.Provider>
  );
});
