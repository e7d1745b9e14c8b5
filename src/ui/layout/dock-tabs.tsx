// The dock's tabs: ONE list, in the order shown. A feature adds its view with one line here, e.g.
//   { id: 'sequence', title: 'sequence:tab', render: () => <SequenceView /> },
// `title` is an i18next key with its namespace (`<namespace>:<key>`), so the feature keeps its tab's
// name in its own locale files. Views that hold work the user would lose (a console transcript, the
// editor's text) or that must keep listening while hidden are `keepMounted`; the others mount while shown
// (the state views ask the worker for their data only then).

import { Activity, lazy, type ReactNode } from 'react';
import { OffWhileAttached } from '../live/LiveControls.tsx';

// Each view is its own chunk, loaded when its tab first mounts (the Dock wraps them in Suspense): the
// page's first JavaScript stays small, and the views arrive while the graph is already drawn.
const EditorPanel = lazy(() => import('../editor/EditorPanel.tsx').then((m) => ({ default: m.EditorPanel })));
const FaultsPanel = lazy(() => import('../faults/FaultsPanel.tsx').then((m) => ({ default: m.FaultsPanel })));
const KeyspacePanel = lazy(() => import('../keyspace/KeyspacePanel.tsx').then((m) => ({ default: m.KeyspacePanel })));
const LogsPanel = lazy(() => import('../logs/LogsPanel.tsx').then((m) => ({ default: m.LogsPanel })));
const ObjectsPanel = lazy(() => import('../objects/ObjectsPanel.tsx').then((m) => ({ default: m.ObjectsPanel })));
const SchedulerPanel = lazy(() => import('../objects/SchedulerPanel.tsx').then((m) => ({ default: m.SchedulerPanel })));
const WatchersPanel = lazy(() => import('../objects/WatchersPanel.tsx').then((m) => ({ default: m.WatchersPanel })));
const ScenariosPanel = lazy(() => import('../scenarios/ScenariosPanel.tsx').then((m) => ({ default: m.ScenariosPanel })));
const ConsolePanel = lazy(() => import('../console/ConsolePanel.tsx').then((m) => ({ default: m.ConsolePanel })));
const SequencePanel = lazy(() => import('../sequence/SequencePanel.tsx').then((m) => ({ default: m.SequencePanel })));

export interface DockTab {
  readonly id: string;
  /** i18next key of the tab's name, with its namespace. */
  readonly title: string;
  /** The view; `shown` says whether its tab is the one on show (for views kept mounted while hidden). */
  readonly render: (shown: boolean) => ReactNode;
  readonly keepMounted?: boolean;
}

export const dockTabs: readonly DockTab[] = [
  { id: 'keyspace', title: 'dock:tabs.keyspace', render: () => <KeyspacePanel /> },
  { id: 'objects', title: 'dock:tabs.objects', render: () => <ObjectsPanel /> },
  { id: 'watchers', title: 'dock:tabs.watchers', render: () => <WatchersPanel /> },
  { id: 'scheduler', title: 'dock:tabs.scheduler', render: () => <SchedulerPanel /> },
  { id: 'editor', title: 'dock:tabs.editor', render: () => <EditorPanel />, keepMounted: true },
  { id: 'console', title: 'dock:tabs.console', render: () => <ConsolePanel />, keepMounted: true },
  // The logs grow with every delivery: while their tab is hidden, React renders them only when idle.
  { id: 'logs', title: 'dock:tabs.logs', render: (shown) => <Activity mode={shown ? 'visible' : 'hidden'}><LogsPanel /></Activity>, keepMounted: true },
  { id: 'faults', title: 'dock:tabs.faults', render: () => <FaultsPanel />, keepMounted: true },
  { id: 'scenarios', title: 'dock:tabs.scenarios', render: () => <OffWhileAttached reason="scenarios"><ScenariosPanel /></OffWhileAttached>, keepMounted: true },
  // The sequence diagram loads lazily and keeps its scroll place and fetched rows while hidden.
  { id: 'sequence', title: 'sequence:tab', render: (shown) => <Activity mode={shown ? 'visible' : 'hidden'}><SequencePanel /></Activity>, keepMounted: true },
];
