// The lower half of the main column: the model's state, one view at a time behind tabs (the ARIA tabs
// pattern: arrow keys move between tabs). The etcd keyspace, the objects as kubectl prints them, the open
// watches (kube-apiserver's and etcd's), and kube-scheduler's per-attempt records. Views other than the keyspace ask the worker for their data
// while they are shown.

import { useRef, useState, type KeyboardEvent } from 'react';
import { KeyspacePanel } from '../keyspace/KeyspacePanel.tsx';
import { ObjectsPanel } from '../objects/ObjectsPanel.tsx';
import { SchedulerPanel } from '../objects/SchedulerPanel.tsx';
import { WatchersPanel } from '../objects/WatchersPanel.tsx';

const tabs = [
  { id: 'keyspace', label: 'etcd keyspace' },
  { id: 'objects', label: 'Objects' },
  { id: 'watchers', label: 'Watches' },
  { id: 'scheduler', label: 'Scheduler' },
] as const;

export type StateTab = (typeof tabs)[number]['id'];

export function StatePanels() {
  const [tab, setTab] = useState<StateTab>('keyspace');
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    event.stopPropagation();
    const next = (index + delta + tabs.length) % tabs.length;
    setTab(tabs[next]!.id);
    refs.current[next]?.focus();
  };
  return (
    <div className="state-panels">
      <div className="state-tabs" role="tablist" aria-label="Model state">
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => { refs.current[i] = el; }}
            type="button"
            role="tab"
            id={`state-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`state-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={(event) => onKeyDown(event, i)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="state-panel" role="tabpanel" id={`state-panel-${tab}`} aria-labelledby={`state-tab-${tab}`}>
        {tab === 'keyspace' ? <KeyspacePanel /> : tab === 'objects' ? <ObjectsPanel /> : tab === 'watchers' ? <WatchersPanel /> : <SchedulerPanel />}
      </div>
    </div>
  );
}
