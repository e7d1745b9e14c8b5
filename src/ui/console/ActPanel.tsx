// The dock under the graph where the user acts on the cluster and reads what it logged: the YAML
// editor, the kubectl/etcdctl console and the request logs, one tab at a time (the hidden ones stay
// mounted, so a running command keeps its transcript and the editor its text).

import { useState } from 'react';
import { EditorPanel } from '../editor/EditorPanel.tsx';
import { LogsPanel } from '../logs/LogsPanel.tsx';
import { ConsolePanel } from './ConsolePanel.tsx';
import './act.css';

const tabs = [
  { id: 'editor', label: 'YAML editor' },
  { id: 'console', label: 'Console' },
  { id: 'logs', label: 'Logs' },
] as const;

type TabId = (typeof tabs)[number]['id'];

export function ActPanel() {
  const [tab, setTab] = useState<TabId>('console');
  const [open, setOpen] = useState(true);
  return (
    <section className={`act-panel${open ? '' : ' collapsed'}`} aria-label="Act on the cluster">
      <div className="act-tabs" role="tablist" aria-label="Act panels">
        {tabs.map((t) => (
          <button key={t.id} type="button" role="tab" id={`act-tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`act-${t.id}`}
            onClick={() => { setTab(t.id); setOpen(true); }}>
            {t.label}
          </button>
        ))}
        <button type="button" className="act-toggle" onClick={() => setOpen(!open)} aria-expanded={open}>{open ? 'Hide' : 'Show'}</button>
      </div>
      {tabs.map((t) => (
        <div key={t.id} id={`act-${t.id}`} role="tabpanel" aria-labelledby={`act-tab-${t.id}`} className="act-body" hidden={!open || tab !== t.id}>
          {t.id === 'editor' && <EditorPanel />}
          {t.id === 'console' && <ConsolePanel />}
          {t.id === 'logs' && <LogsPanel />}
        </div>
      ))}
    </section>
  );
}
