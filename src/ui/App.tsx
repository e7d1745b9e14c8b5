// The page: the header (what Podflow is, the cluster and whether it is saved, the language and theme,
// the layout reset), the playback bar, timeline and caption, then the panes (layout/Workspace.tsx): the
// component graph, the right-hand column (what the user can send, why a step happened, the messages
// delivered, saved clusters) and the dock.

import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { StepCaption } from './captions/StepCaption.tsx';
import { SavedClustersPanel } from './clusters/SavedClustersPanel.tsx';
import { StorageStatus } from './clusters/StorageStatus.tsx';
import { PlaybackBar } from './controls/PlaybackBar.tsx';
import { usePlaybackShortcuts } from './controls/shortcuts.ts';
import { ThemeSwitch } from './controls/ThemeSwitch.tsx';
import { Timeline } from './controls/Timeline.tsx';
import { TrafficActions } from './controls/TrafficActions.tsx';
import { ClusterGraph } from './graph/ClusterGraph.tsx';
import { Dock } from './layout/Dock.tsx';
import { LanguageSwitch } from './layout/LanguageSwitch.tsx';
import { LiveControls, useAttached } from './live/LiveControls.tsx';
import { ResetLayoutButton } from './layout/ResetLayoutButton.tsx';
import { Workspace } from './layout/Workspace.tsx';
import { MessageInspector } from './panels/MessageInspector.tsx';
import { Notices } from './panels/Notices.tsx';
import { PlayheadProvider } from './playback/PlayheadProvider.tsx';
import { useSim } from './store/sim-context.ts';
import { StoryPanel } from './story/StoryPanel.tsx';

// The tour picker and its catalog load after the first paint (their own chunk).
const TourPicker = lazy(() => import('./tours/TourControls.tsx').then((m) => ({ default: m.TourPicker })));
const TourCard = lazy(() => import('./tours/TourControls.tsx').then((m) => ({ default: m.TourCard })));

/** The picker's button, disabled, while its chunk loads: the header keeps its size. */
function TourPickerPlaceholder() {
  const { t } = useTranslation('tours');
  return <div className="tour-picker"><button type="button" disabled>{t('picker')} ▾</button></div>;
}

function ClusterLabel() {
  const { t } = useTranslation('layout');
  const cluster = useSim((state) => state.cluster);
  if (!cluster) return null;
  return <p className="cluster-label">{t('cluster', { seed: String(cluster.seed), count: cluster.nodes })}</p>;
}

export function App() {
  const { t } = useTranslation();
  usePlaybackShortcuts();
  // Attached to a server, what would rebuild the cluster (tours, saved clusters) is hidden (live/).
  const attached = useAttached();
  return (
    <PlayheadProvider>
      <div className="app">
        <header className="app-header">
          <h1>{t('appName')}</h1>
          <p className="tagline" title={t('tagline')}>{t('tagline')}</p>
          <ClusterLabel />
          <LiveControls />
          {attached ? null : <StorageStatus />}
          {attached ? null : <Suspense fallback={<TourPickerPlaceholder />}><TourPicker /></Suspense>}
          <LanguageSwitch />
          <ThemeSwitch />
          <ResetLayoutButton />
        </header>
        <PlaybackBar />
        <Timeline />
        <StepCaption />
        <Notices />
        <Workspace
          graph={<ClusterGraph />}
          side={(
            <>
              {attached ? null : <Suspense fallback={null}><TourCard /></Suspense>}
              <StoryPanel />
              <TrafficActions />
              <MessageInspector />
              {attached ? null : <SavedClustersPanel />}
            </>
          )}
          dock={<Dock />}
        />
      </div>
    </PlayheadProvider>
  );
}
