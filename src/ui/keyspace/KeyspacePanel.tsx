// The etcd keyspace: every key grouped by resource and namespace (virtualised: only visible rows are in
// the DOM), with create_revision, mod_revision, version and lease; keys written by the current step are
// highlighted; a revision picker shows the keyspace at a past revision (from etcd's own MVCC history,
// so compacted revisions are unavailable); the selected key's decoded value and its change.

import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { shallow, useShallow } from 'zustand/shallow';
import { useSimActions } from '../store/sim-context.ts';
import { SnapshotLane, useSimSnapshot } from '../store/snapshot.ts';
import type { SimState } from '../store/sim-store.ts';
import { KeyDetails } from './KeyDetails.tsx';
import { RealEtcdStatus } from './RealEtcdStatus.tsx';
import { KeyTree, type KeyspaceRow } from './key-tree.ts';
import { shownKeys } from './selectors.ts';
import { heldRecord } from '../panels/why.ts';

const rowHeight = 24;

/** The keyspace catches up in a lane of its own while playing (snapshot.ts), apart from the graph and the other panels. */
export function KeyspacePanel() {
  return <SnapshotLane.Provider value="keyspace"><Keyspace /></SnapshotLane.Provider>;
}

function Keyspace() {
  const { t } = useTranslation('keyspace');
  const mediaType = useSimSnapshot((state) => state.cluster?.storageMediaType ?? 'protobuf');
  return (
    <section className="keyspace" aria-labelledby="keyspace-heading" data-testid="keyspace">
      <div className="keyspace-toolbar">
        <h2 id="keyspace-heading">{t('heading')}</h2>
        <RevisionPicker />
      </div>
      <RealEtcdStatus />
      <div className="keyspace-body">
        <KeyList />
        <div className="keyspace-values">
          <span className="keyspace-media hint" data-testid="keyspace-media-type">{t(`storedAs.${mediaType}`)}</span>
          <KeyDetails />
        </div>
      </div>
    </section>
  );
}

function RevisionPicker() {
  const { t } = useTranslation('keyspace');
  const actions = useSimActions();
  const live = useSimSnapshot((state) => state.keyspace.live.revision);
  const compact = useSimSnapshot((state) => state.keyspace.live.compactRevision);
  const past = useSimSnapshot(useShallow((state) => (state.keyspace.past ? { revision: state.keyspace.past.revision, status: state.keyspace.past.status } : null)));
  const [draft, setDraft] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const revision = Number(draft);
    if (Number.isInteger(revision) && revision >= 1 && revision <= live) actions.viewRevision(revision === live ? null : revision);
  };
  const shown = past?.revision ?? live;
  const go = (revision: number) => {
    setDraft(revision >= live ? '' : String(revision));
    actions.viewRevision(revision >= live ? null : revision);
  };
  return (
    <form className="revision-picker" aria-label={t('picker')} onSubmit={onSubmit}>
      <label>
        {t('revision')}
        <input type="number" min={1} max={live} value={draft} placeholder={String(live)} onChange={(event) => setDraft(event.target.value)} />
      </label>
      <button type="submit">{t('view')}</button>
      <button type="button" aria-label={t('previous')} title={t('previous')} onClick={() => go(shown - 1)} disabled={shown <= 1}>◀</button>
      <button type="button" aria-label={t('next')} title={t('next')} onClick={() => go(shown + 1)} disabled={past === null}>▶</button>
      <button type="button" onClick={() => { setDraft(''); actions.viewRevision(null); }} disabled={!past}>{t('latest')}</button>
      <p className="revision-status" data-testid="keyspace-revision" aria-live="polite">
        {past === null ? t('status.latest', { revision: live })
          : past.status === 'loading' ? t('status.loading', { revision: past.revision })
            : past.status === 'compacted' ? <span className="unavailable">{t('status.compacted', { revision: past.revision, compact })}</span>
              : t('status.past', { revision: past.revision, live })}
        {compact > 0 && past === null ? t('status.compactedBelow', { compact }) : null}
      </p>
    </form>
  );
}

/** The step whose writes are highlighted: the selected message's, else the last one delivered. */
function highlightedStepOf(state: SimState): number {
  const { selection, status } = state;
  if (selection?.type === 'message') return heldRecord(state, selection.id)?.step ?? status.step;
  return status.step;
}

function KeyList() {
  const { t } = useTranslation('keyspace');
  const keys = useSimSnapshot(shownKeys);
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const deferredKeys = useDeferredValue(keys);
  const deferredFilter = useDeferredValue(filter);
  const shown = useMemo(() => (deferredFilter === '' ? deferredKeys : deferredKeys.filter((key) => key.includes(deferredFilter))), [deferredKeys, deferredFilter]);
  const tree = useMemo(() => new KeyTree(shown, collapsed), [shown, collapsed]);
  const toggle = useCallback((id: string) => setCollapsed((old) => {
    const next = new Set(old);
    if (!next.delete(id)) next.add(id);
    return next;
  }), []);
  const scroller = useRef<HTMLDivElement>(null);
  const pastStatus = useSimSnapshot((state) => state.keyspace.past?.status ?? null);
  const lastChanged = useSimSnapshot((state) => (state.keyspace.past ? null : state.keyspace.live.lastChanged));
  const followed = useRef<readonly string[] | null>(null);
  // While playing, the writes are not followed (scrolling on every tick costs a layout each time and
  // moves the list under the reader); on pause the list goes to the newest write.
  const playing = useSimSnapshot((state) => state.status.mode !== 'paused');
  // The revision columns are as wide as the newest revision's digits (7 at 150,000 Pods), no narrower than 4.
  const revisionDigits = useSimSnapshot((state) => Math.max(4, String(state.keyspace.live.revision).length));
  // eslint-disable-next-line react-hooks/incompatible-library -- rows render from the virtualizer's state on every scroll; nothing below memoises its functions
  const virtualizer = useVirtualizer({ count: tree.rowCount, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 12 });
  // Follow the writes: bring the newest step's first changed key into view once (if it is not already).
  useEffect(() => {
    if (playing || !lastChanged || lastChanged === followed.current || lastChanged.length === 0) return;
    const row = tree.rowOf(lastChanged[0]!);
    if (row < 0) return;
    followed.current = lastChanged;
    virtualizer.scrollToIndex(row, { align: 'auto' });
  }, [playing, lastChanged, tree, virtualizer]);
  return (
    <div className="key-tree" style={{ '--revision-digits': `${revisionDigits}ch` } as CSSProperties}>
      <input className="key-filter" type="search" aria-label={t('filter')} placeholder={t('filterPlaceholder')} value={filter} onChange={(event) => setFilter(event.target.value)} />
      <div className="key-columns" aria-hidden="true">
        <span>{t('columns.key')}</span><span title="create_revision">{t('columns.create')}</span><span title="mod_revision">{t('columns.mod')}</span><span title="version">{t('columns.version')}</span><span>{t('columns.lease')}</span>
      </div>
      <div className="key-scroller" ref={scroller} role="list" aria-label={t('keys', { count: keys.length })}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = tree.row(item.index);
            return (
              <div key={row.id} role="listitem" className="key-slot" style={{ transform: `translateY(${item.start}px)`, height: rowHeight }}>
                <TreeRow row={row} onToggle={toggle} />
              </div>
            );
          })}
        </div>
        {tree.rowCount === 0 ? <p className="hint key-empty" data-testid="keyspace-empty">{t(emptyText(pastStatus, keys.length))}</p> : null}
      </div>
    </div>
  );
}

/** The key (in the keyspace namespace) of what an empty list says. */
function emptyText(pastStatus: 'loading' | 'compacted' | 'ready' | null, keys: number): 'empty.loading' | 'empty.compacted' | 'empty.none' | 'empty.filtered' {
  if (pastStatus === 'loading') return 'empty.loading';
  if (pastStatus === 'compacted') return 'empty.compacted';
  return keys === 0 ? 'empty.none' : 'empty.filtered';
}

interface TreeRowProps {
  readonly row: KeyspaceRow;
  readonly onToggle: (id: string) => void;
}

/** Rows are equal when every field is (a new tree, with keys added elsewhere, hands out new row objects). */
function sameRowProps(a: TreeRowProps, b: TreeRowProps): boolean {
  return a.onToggle === b.onToggle && shallow(a.row, b.row);
}

const TreeRow = memo(function TreeRow({ row, onToggle }: TreeRowProps) {
  const { t } = useTranslation('keyspace');
  if (row.type === 'key') return <KeyRow keyName={row.key} name={row.name} nested={row.nested} />;
  return (
    <button type="button" className={`key-group key-group--${row.type}`} aria-expanded={!row.collapsed} onClick={() => onToggle(row.id)}>
      <span aria-hidden="true">{row.collapsed ? '▸' : '▾'}</span> {row.type === 'namespace' ? t('namespace', { name: row.label }) : row.label} <span className="key-count">{row.count}</span>
    </button>
  );
}, sameRowProps);

interface KeyRowProps {
  readonly keyName: string;
  readonly name: string;
  readonly nested: boolean;
}

/** A key last written by the highlighted step (highlightedStepOf) is highlighted. */
const KeyRow = memo(function KeyRow({ keyName, name, nested }: KeyRowProps) {
  const actions = useSimActions();
  const entry = useSimSnapshot((state) => (state.keyspace.past ? state.keyspace.past.entries.get(keyName) : state.keyspace.live.entries.get(keyName)));
  const changedNow = useSimSnapshot((state) => {
    if (state.keyspace.past) return false;
    const step = state.keyspace.live.entries.get(keyName)?.step;
    return step !== null && step !== undefined && step === highlightedStepOf(state);
  });
  const selected = useSimSnapshot((state) => state.keyspace.selectedKey === keyName);
  if (!entry) return null;
  return (
    <button
      type="button"
      className={`key-row${nested ? ' key-row--nested' : ''}${changedNow ? ' key-row--changed' : ''}`}
      data-testid="key-row"
      data-key={keyName}
      data-changed={changedNow || undefined}
      aria-pressed={selected}
      title={keyName}
      onClick={() => actions.selectKey(keyName)}
    >
      <span className="key-name">{name}</span>
      <span data-testid="key-create-revision">{entry.createRevision}</span>
      <span data-testid="key-mod-revision">{entry.modRevision}</span>
      <span data-testid="key-version">{entry.version}</span>
      {/* A lease ID has up to 19 digits: cut to the column, whole in its tooltip. */}
      <span className="key-lease" data-testid="key-lease" title={entry.lease === '0' ? undefined : entry.lease}>{entry.lease === '0' ? '—' : entry.lease}</span>
    </button>
  );
});
