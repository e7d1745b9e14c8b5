// The panes under the playback bar, resizable (react-resizable-panels) and remembered (localStorage):
// the graph, the right-hand column, and the dock, below the graph when the window is tall enough and
// stacked under the right-hand column otherwise (placement.ts). The graph pane has a floor of 720 × 400
// CSS px in either placement; the dock collapses to its tab strip. In a narrow window the three are
// stacked instead, full width, the graph on top and the dock's tab strip always on screen.

import { useEffect, type ReactNode } from 'react';
import { Group, Panel, Separator, useDefaultLayout, usePanelRef, type PanelImperativeHandle, type PanelSize } from 'react-resizable-panels';
import { useTranslation } from 'react-i18next';
import { dockStore, useDock } from './dock-store.ts';
import { graphFloor, useDockPlacement } from './placement.ts';

export interface WorkspaceProps {
  readonly graph: ReactNode;
  readonly side: ReactNode;
  readonly dock: ReactNode;
}

/** Prefix of the layout library's localStorage keys for Podflow's panes (its keys are `react-resizable-panels:<group id>`). */
export const layoutStoragePrefix = 'react-resizable-panels:podflow-layout';

const sizes = {
  sideWidth: 360,
  /** The right-hand column when the dock is stacked in it. */
  columnWidth: 520,
  dockBelow: '36%',
  dockBeside: '46%',
  /** The tab strip: one row below the graph, up to two in the narrower column. */
  collapsedBelow: 40,
  collapsedBeside: 72,
  /** The stacked panes of a narrow window: graph, side column, dock (shares of the workspace's height). */
  narrowGraph: '48%',
  narrowSide: '18%',
  narrowDock: '34%',
} as const;

function useRemembered(id: string) {
  return useDefaultLayout({ id: `podflow-layout-${id}`, onlySaveAfterUserInteractions: true, storage: localStorage });
}

/** Keeps the dock panel's collapsed state and the dock store's `open` in step, both ways. */
function useDockPanel(dock: React.RefObject<PanelImperativeHandle | null>) {
  const open = useDock((d) => d.open);
  useEffect(() => {
    const panel = dock.current;
    if (!panel) return;
    if (open && panel.isCollapsed()) panel.expand();
    else if (!open && !panel.isCollapsed()) panel.collapse();
  }, [dock, open]);
  return (_size: PanelSize, _id: string | number | undefined, previous: PanelSize | undefined) => {
    const collapsed = dock.current?.isCollapsed();
    if (previous === undefined || collapsed === undefined) return;
    if (collapsed === dockStore.getState().open) dockStore.getState().setOpen(!collapsed);
  };
}

function useLayoutResets(reset: () => void) {
  const epoch = useDock((d) => d.layoutEpoch);
  useEffect(() => {
    if (epoch > 0) reset();
    // Only a new epoch resets; `reset` is rebuilt every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [epoch]);
}

export function Workspace(props: WorkspaceProps) {
  const placement = useDockPlacement();
  if (placement === 'narrow') return <Stacked {...props} />;
  return placement === 'below' ? <DockBelow {...props} /> : <DockBeside {...props} />;
}

function GraphPanel({ children, ...rest }: { readonly children: ReactNode; readonly panelRef?: React.Ref<PanelImperativeHandle | null>; readonly defaultSize?: string; readonly minSize?: number }) {
  const { t } = useTranslation('layout');
  return (
    <Panel id="graph" minSize={graphFloor.width} {...rest} className="pane graph-pane" role="region" aria-label={t('graphPane')} data-testid="graph-pane">
      {children}
    </Panel>
  );
}

function SidePanel({ children, ...rest }: { readonly children: ReactNode; readonly panelRef?: React.Ref<PanelImperativeHandle | null>; readonly defaultSize?: number | string; readonly minSize?: number; readonly maxSize?: number }) {
  const { t } = useTranslation('layout');
  return (
    <Panel id="side" className="pane side-panel" {...rest}>
      <aside aria-label={t('sidePane')} data-testid="side-pane">{children}</aside>
    </Panel>
  );
}

/** A handle between two panes, named after what it resizes. */
function ResizeHandle({ between }: { readonly between: 'side' | 'dock' | 'column' }) {
  const { t } = useTranslation('layout');
  return <Separator className="resize-handle" aria-label={t(`resize.${between}`)} />;
}

function DockBelow({ graph, side, dock }: WorkspaceProps) {
  const outer = useRemembered('below');
  const top = useRemembered('below-top');
  const dockRef = usePanelRef();
  const sideRef = usePanelRef();
  const onDockResize = useDockPanel(dockRef);
  useLayoutResets(() => {
    sideRef.current?.resize(sizes.sideWidth);
    dockRef.current?.resize(sizes.dockBelow);
  });
  return (
    <Group orientation="vertical" id="podflow-layout-below" className="workspace" data-placement="below" {...outer}>
      <Panel id="top" minSize={graphFloor.height}>
        <Group orientation="horizontal" id="podflow-layout-below-top" {...top}>
          <GraphPanel>{graph}</GraphPanel>
          <ResizeHandle between="side" />
          <SidePanel panelRef={sideRef} defaultSize={sizes.sideWidth} minSize={280} maxSize={640}>{side}</SidePanel>
        </Group>
      </Panel>
      <ResizeHandle between="dock" />
      <Panel id="dock-pane" panelRef={dockRef} className="pane dock-pane" collapsible collapsedSize={sizes.collapsedBelow} minSize={200} defaultSize={sizes.dockBelow} onResize={onDockResize}>
        {dock}
      </Panel>
    </Group>
  );
}

function DockBeside({ graph, side, dock }: WorkspaceProps) {
  const outer = useRemembered('beside');
  const column = useRemembered('beside-column');
  const dockRef = usePanelRef();
  const columnRef = usePanelRef();
  const onDockResize = useDockPanel(dockRef);
  useLayoutResets(() => {
    columnRef.current?.resize(sizes.columnWidth);
    dockRef.current?.resize(sizes.dockBeside);
  });
  return (
    <Group orientation="horizontal" id="podflow-layout-beside" className="workspace" data-placement="beside" {...outer}>
      <GraphPanel>{graph}</GraphPanel>
      <ResizeHandle between="column" />
      <Panel id="column" panelRef={columnRef} defaultSize={sizes.columnWidth} minSize={380}>
        <Group orientation="vertical" id="podflow-layout-beside-column" {...column}>
          <SidePanel minSize={96}>{side}</SidePanel>
          <ResizeHandle between="dock" />
          <Panel id="dock-pane" panelRef={dockRef} className="pane dock-pane" collapsible collapsedSize={sizes.collapsedBeside} minSize={220} defaultSize={sizes.dockBeside} onResize={onDockResize}>
            {dock}
          </Panel>
        </Group>
      </Panel>
    </Group>
  );
}

function Stacked({ graph, side, dock }: WorkspaceProps) {
  const stack = useRemembered('narrow');
  const graphRef = usePanelRef();
  const sideRef = usePanelRef();
  const dockRef = usePanelRef();
  const onDockResize = useDockPanel(dockRef);
  useLayoutResets(() => {
    graphRef.current?.resize(sizes.narrowGraph);
    sideRef.current?.resize(sizes.narrowSide);
    dockRef.current?.resize(sizes.narrowDock);
  });
  return (
    <Group orientation="vertical" id="podflow-layout-narrow" className="workspace" data-placement="narrow" {...stack}>
      <GraphPanel panelRef={graphRef} defaultSize={sizes.narrowGraph} minSize={160}>{graph}</GraphPanel>
      <ResizeHandle between="side" />
      <SidePanel panelRef={sideRef} defaultSize={sizes.narrowSide} minSize={64}>{side}</SidePanel>
      <ResizeHandle between="dock" />
      <Panel id="dock-pane" panelRef={dockRef} className="pane dock-pane" collapsible collapsedSize={sizes.collapsedBelow} minSize={120} defaultSize={sizes.narrowDock} onResize={onDockResize}>
        {dock}
      </Panel>
    </Group>
  );
}

/** Forgets the remembered pane sizes (the panes return to their defaults now and on the next load). */
export function forgetLayout(): void {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (key?.startsWith(layoutStoragePrefix)) localStorage.removeItem(key);
  }
}
