// The first screen: what Podflow is in one line, the playback bar, the component graph, and the side
// panel with what the user can send and the messages the engine delivered.

import { useTranslation } from 'react-i18next';
import { StepCaption } from './captions/StepCaption.tsx';
import { ActPanel } from './console/ActPanel.tsx';
import { SavedClustersPanel } from './clusters/SavedClustersPanel.tsx';
import { StorageStatus } from './clusters/StorageStatus.tsx';
import { PlaybackBar } from './controls/PlaybackBar.tsx';
import { usePlaybackShortcuts } from './controls/shortcuts.ts';
import { ThemeSwitch } from './controls/ThemeSwitch.tsx';
import { Timeline } from './controls/Timeline.tsx';
import { TrafficActions } from './controls/TrafficActions.tsx';
import { ClusterGraph } from './graph/ClusterGraph.tsx';
import { MessageInspector } from './panels/MessageInspector.tsx';
import { Notices } from './panels/Notices.tsx';
import { StatePanels } from './panels/StatePanels.tsx';
import { PlayheadProvider } from './playback/PlayheadProvider.tsx';
import { useSim } from './store/sim-context.ts';
import { TourControls } from './tours/TourControls.tsx';
import { StoryPanel } from './story/StoryPanel.tsx';

function ClusterLabel() {
  const cluster = useSim((state) => state.cluster);
  if (!cluster) return null;
  return <p className="cluster-label">seed <code>{String(cluster.seed)}</code> · {cluster.nodes} {cluster.nodes === 1 ? 'node' : 'nodes'}</p>;
}

export function App() {
  const { t } = useTranslation();
  usePlaybackShortcuts();
  return (
    <PlayheadProvider>
      <div className="app">
        <header className="app-header">
          <h1>Podflow</h1>
          <p className="tagline">{t('tagline')}</p>
          <TourControls />
          <ClusterLabel />
          <ThemeSwitch />
        </header>
        <PlaybackBar />
        <Timeline />
        <StepCaption />
        <Notices />
        <StorageStatus />
        <main className="workspace">
          <div className="main-column">
            <section className="graph-pane" aria-label="Component graph">
              <ClusterGraph />
            </section>
            <StatePanels />
          </div>
          <aside className="side-panel" aria-label="Requests and messages">
            <StoryPanel />
            <TrafficActions />
            <MessageInspector />
            <SavedClustersPanel />
          </aside>
        </main>
        <ActPanel />
      </div>
    </PlayheadProvider>
  );
}
