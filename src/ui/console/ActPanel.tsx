// The dock under the graph where the user acts on the cluster and reads what it logged: the YAML
// editor, the kubectl/etcdctl console, the request logs, the faults and the scenarios, one tab at a time (the hidden ones stay
// mounted, so a running command keeps its transcript and the editor its text). It starts closed.

import { Activity, useState } from 'react';
import { EditorPanel } from '../editor/EditorPanel.tsx';
import { FaultsPanel } from '../faults/FaultsPanel.tsx';
import { LogsPanel } from '../logs/LogsPanel.tsx';
import { ScenariosPanel } from '../scenarios/ScenariosPanel.tsx';
import { SequencePanel } from '../sequence/SequencePanel.tsx';
import { ConsolePanel } from './ConsolePanel.tsx';
import './act.css';

const tabs = [
  { id: 'editor', label: 'YAML editor' },
  { id: 'console', label: 'Console' },
  { id: 'logs', label: 'Logs' },
  { id: 'faults', label: 'Faults' },
  { id: 'scenarios', label: 'Scenarios' },
  { id: 'sequence', label: 'Sequence' },
] as const;

type TabId = (typeof tabs)[number]['id'];

export function ActPanel() {
  const [tab, setTab] = useState<TabId>('console');
  // Closed at first, so the graph and keyspace keep the first screen; a tab opens it.
  const [open, setOpen] = useState(false);
  return (
    <section className={`act-panel${open ? '' : ' collapsed'}`} aria-label="Act on the cluster">
      <div className="act-tabs" role="tablist" aria-label="Act panels">
        {tabs.map((t) => (
          <button key={t.id} type="button" role="tab" id={`act-tab-${t.id}`} aria-selected={open && tab === t.id} aria-controls={`act-${t.id}`}
            onClick={() => { setTab(t.id); setOpen(true); }} data-open={open && tab === t.id ? 'true' : undefined}>
            {t.label}
          </button>
        ))}
        <button type="button" className="act-toggle" onClick={() => setOpen(!open)} aria-expanded={open}>{open ? 'Hide' : 'Show'}</button>
      </div>
      {tabs.map((t) => (
        <div key={t.id} id={`act-${t.id}`} role="tabpanel" aria-labelledby={`act-tab-${t.id}`} className="act-body" hidden={!open || tab !== t.id}>
          {t.id === 'editor' && <EditorPanel />}
          {t.id === 'console' && <ConsolePanel />}
          {/* The logs grow with every delivery: while their tab is hidden, React renders them only when idle. */}
          {t.id === 'logs' && <Activity mode={open && tab === 'logs' ? 'visible' : 'hidden'}><LogsPanel /></Activity>}
          {t.id === 'faults' && <FaultsPanel />}
          {t.id === 'scenarios' && <ScenariosPanel />}
          {t.id === 'sequence' && <Activity mode={open && tab === 'sequence' ? 'visible' : 'hidden'}><SequencePanel /></Activity>}
        </div>
      ))}
    </section>
  );
}
