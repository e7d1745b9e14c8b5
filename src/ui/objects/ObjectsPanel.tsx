// Objects as `kubectl get` prints them (the server's Table cells, computed in the worker by the model's
// printers), one resource at a time: each object's resourceVersion beside its key's mod_revision (the
// apiserver reports the mod_revision as the resourceVersion), generation, owner and conditions, and the
// list's resourceVersion. Clicking an object selects its key (the keyspace shows the same key);
// clicking an owner reference goes to the owner. The table is virtualised twice over: only the rows
// scrolled into view (and a few either side) are in the DOM, and only a window of rows around them comes
// from the worker (the list's count sizes the scroll), so 150,000 Pods cost what a screenful does.

import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { objectsWindowLimit, type ObjectRow, type ObjectTable } from '../../protocol/index.ts';
import { WhyWrittenButton } from '../panels/WhyWrittenButton.tsx';
import { useSimActions } from '../store/sim-context.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { conditionSummary, generationText } from './objects.ts';
import { useInspection } from './use-inspection.ts';

/** A row's height before it is measured (12px monospace, 2px padding, 1px border). */
const estimatedRowHeight = 21;
/**
 * The window asked for moves in steps of this many rows; it starts a step above the first row in view and
 * holds three steps, more than a tall dock shows (each row costs the worker a decode, ~0.1 ms).
 */
const windowStep = 50;

export function ObjectsPanel() {
  const { t } = useTranslation('objects');
  const actions = useSimActions();
  const view = useSimSnapshot((state) => state.inspection?.objects);
  const selectedKey = useSimSnapshot((state) => state.keyspace.selectedKey);
  const [picked, setPicked] = useState('pods');
  // The first row in view, rounded down to the window's step: the window moves only past a step.
  const [first, setFirst] = useState(0);
  // An owner link (or a key picked in the keyspace) shows the selected object's resource.
  const selectedTable = selectedKey === null ? undefined : view?.tables.find((candidate) => selectedKey.startsWith(candidate.prefix));
  const resource = selectedTable?.resource ?? picked;
  useInspection('objects', 250, { objects: { resource, offset: Math.max(0, first - windowStep), limit: Math.min(3 * windowStep, objectsWindowLimit), key: selectedKey } });
  const table = view?.tables.find((candidate) => candidate.resource === resource) ?? view?.tables[0];
  if (view === undefined) return <p className="hint panel-empty" role="status">{t('loading')}</p>;
  if (view === null || !table) return <p className="hint panel-empty">{t('noEtcd')}</p>;
  const pick = (name: string) => {
    setPicked(name);
    setFirst(0);
    if (selectedTable && selectedTable.resource !== name) actions.selectKey(null);
  };
  const selected = view.selected?.row.key === selectedKey ? view.selected : null;
  return (
    <section className="objects" aria-label={t('label')} data-testid="objects">
      <div className="objects-toolbar">
        <div className="resource-picker" role="group" aria-label={t('resource')}>
          {view.tables.map((candidate) => (
            <button key={candidate.resource} type="button" aria-pressed={candidate.resource === table.resource} onClick={() => pick(candidate.resource)}>
              {candidate.resource} <span className="key-count">{candidate.count}</span>
            </button>
          ))}
        </div>
        <p className="hint" data-testid="list-resource-version">{t('listResourceVersion', { resourceVersion: view.listResourceVersion })}</p>
      </div>
      <div className="objects-body">
        <ObjectsTable
          key={table.resource}
          table={table}
          sent={view.resource === table.resource ? view : null}
          selectedKey={selectedKey}
          selectedIndex={selected?.resource === table.resource ? selected.index : -1}
          onFirst={(index) => setFirst(Math.floor(index / windowStep) * windowStep)}
        />
        {selected ? <ObjectDetails table={view.tables.find((candidate) => candidate.resource === selected.resource) ?? table} row={selected.row} /> : null}
      </div>
    </section>
  );
}

interface ObjectsTableProps {
  readonly table: ObjectTable;
  /** The rows the worker sent, from `offset` (null while the table's first window is on its way). */
  readonly sent: { readonly offset: number; readonly rows: readonly ObjectRow[] } | null;
  readonly selectedKey: string | null;
  /** The selected object's place in this table's list (-1: not in it). */
  readonly selectedIndex: number;
  /** Told the first row in view as the table scrolls. */
  readonly onFirst: (index: number) => void;
}

function ObjectsTable({ table, sent, selectedKey, selectedIndex, onFirst }: ObjectsTableProps) {
  const { t } = useTranslation('objects');
  const scroller = useRef<HTMLDivElement>(null);
  const rowAt = (index: number): ObjectRow | undefined => (sent ? sent.rows[index - sent.offset] : undefined);
  // eslint-disable-next-line react-hooks/incompatible-library -- rows render from the virtualizer's state on every scroll; nothing below memoises its functions
  const virtualizer = useVirtualizer({
    // Rows are keyed by their place (the default): a key function made anew at each render (each step's answer)
    // made the virtualizer lay out every row again, 150,000 calls a step at 150,000 Pods.
    count: table.count, getScrollElement: () => scroller.current, estimateSize: () => estimatedRowHeight, overscan: 12,
    onChange: (instance) => {
      const [top] = instance.getVirtualItems();
      if (top) onFirst(top.index);
    },
  });
  // A key selected elsewhere (the keyspace, an owner link) is scrolled into view once its place is known.
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedKey, selectedIndex, virtualizer]);
  const items = virtualizer.getVirtualItems();
  // Spacer rows above and below the drawn ones keep the scroll height of the whole list.
  const above = items[0]?.start ?? 0;
  const below = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const width = table.columns.length + (table.namespaced ? 5 : 4);
  return (
    <div className="objects-scroller" ref={scroller} tabIndex={0}>
      <table className="objects-table" aria-label={`${table.resource} (kubectl get ${table.resource})`} aria-rowcount={table.count + 1} data-rows={table.count}>
        <thead>
          <tr aria-rowindex={1}>
            {table.namespaced ? <th scope="col">{t('columns.namespace')}</th> : null}
            {table.columns.map((c) => <th key={c} scope="col">{c}</th>)}
            <th scope="col" title={t('columns.resourceVersionHint')}>resourceVersion</th>
            <th scope="col" title={t('columns.modRevisionHint')}>mod_revision</th>
            <th scope="col">{t('columns.generation')}</th>
            <th scope="col">{t('columns.owner')}</th>
          </tr>
        </thead>
        <tbody>
          {above > 0 ? <tr className="objects-spacer" aria-hidden="true"><td colSpan={width} style={{ height: above }} /></tr> : null}
          {items.map((item) => {
            const row = rowAt(item.index);
            return row ? (
              <ObjectTableRow
                key={item.key}
                index={item.index}
                measure={virtualizer.measureElement}
                row={row}
                columns={table.columns}
                namespaced={table.namespaced}
                selected={row.key === selectedKey}
              />
            ) : (
              <tr key={item.key} ref={virtualizer.measureElement} data-index={item.index} aria-rowindex={item.index + 2} className="object-row--loading" data-testid="object-row-loading">
                <td colSpan={width}>…</td>
              </tr>
            );
          })}
          {below > 0 ? <tr className="objects-spacer" aria-hidden="true"><td colSpan={width} style={{ height: below }} /></tr> : null}
        </tbody>
      </table>
      {table.count === 0 ? <p className="hint panel-empty">{t('none')}</p> : null}
    </div>
  );
}

interface ObjectTableRowProps {
  readonly index: number;
  readonly measure: (element: Element | null) => void;
  readonly row: ObjectRow;
  readonly columns: readonly string[];
  readonly namespaced: boolean;
  readonly selected: boolean;
}

/** One object; unchanged rows (the same row object from the worker) are not re-rendered. */
const ObjectTableRow = memo(function ObjectTableRow({ index, measure, row, columns, namespaced, selected }: ObjectTableRowProps) {
  const actions = useSimActions();
  const { t } = useTranslation('objects');
  // The first cell selects the object. A table whose first column is not Name (events: LAST SEEN first, as
  // kubectl prints them) names the object in the button's accessible name instead.
  const named = columns[0] === 'Name';
  return (
    <tr ref={measure} data-index={index} aria-rowindex={index + 2} data-testid="object-row" data-key={row.key} aria-selected={selected} className={selected ? 'object-row--selected' : undefined}>
      {namespaced ? <td>{row.namespace ?? ''}</td> : null}
      {row.cells.map((cell, i) => (
        <td key={i} data-column={columns[i]}>
          {i === 0
            ? <button type="button" className="link-button" onClick={() => actions.selectKey(row.key)} {...(named ? {} : { 'aria-label': t('select', { cell, name: row.name }), title: row.name })}>{cell}</button>
            : cell}
        </td>
      ))}
      <td data-testid="object-resource-version">{row.resourceVersion}</td>
      <td data-testid="object-mod-revision">{row.modRevision}</td>
      <td>{generationText(row)}</td>
      <td>{row.ownerReferences.map((o) => <OwnerLink key={`${o.kind}/${o.name}`} owner={o} />)}</td>
    </tr>
  );
});

function OwnerLink({ owner }: { readonly owner: ObjectRow['ownerReferences'][number] }) {
  const { t } = useTranslation('objects');
  const actions = useSimActions();
  const label = `${owner.kind}/${owner.name}`;
  if (owner.key === null) return <span>{label}</span>;
  return <button type="button" className="link-button" aria-label={t('goToOwner', { owner: label })} onClick={() => actions.selectKey(owner.key)}>{label}</button>;
}

function ObjectDetails({ table, row }: { readonly table: ObjectTable; readonly row: ObjectRow }) {
  const { t } = useTranslation('objects');
  const actions = useSimActions();
  return (
    <div className="object-details" data-testid="object-details" aria-label={`${table.kind} ${row.name}`} role="region">
      <h3 className="key-details-name"><code>{table.kind}/{row.name}</code>{row.deleting ? <span className="unavailable"> {t('terminating')}</span> : null}</h3>
      <dl className="message-facts key-facts">
        <div><dt>{t('details.key')}</dt><dd><code>{row.key}</code></dd></div>
        <div><dt>resourceVersion</dt><dd data-testid="detail-resource-version">{row.resourceVersion}</dd></div>
        <div><dt>mod_revision</dt><dd>{row.modRevision}</dd></div>
        <div><dt>uid</dt><dd>{row.uid}</dd></div>
        <div><dt>{t('details.generation')}</dt><dd>{generationText(row)}</dd></div>
        <div><dt>{t('details.owners')}</dt><dd>{row.ownerReferences.length === 0 ? t('details.noOwners') : row.ownerReferences.map((o) => <OwnerLink key={`${o.kind}/${o.name}`} owner={o} />)}</dd></div>
      </dl>
      <p className="hint">{t('details.resourceVersionNote')}</p>
      {row.conditions.length > 0 ? (
        <table className="objects-table conditions" aria-label={t('conditions.label')} title={conditionSummary(row.conditions)}>
          <thead><tr><th scope="col">{t('conditions.type')}</th><th scope="col">{t('conditions.status')}</th><th scope="col">{t('conditions.reason')}</th><th scope="col">{t('conditions.message')}</th></tr></thead>
          <tbody>
            {row.conditions.map((c) => <tr key={c.type}><td>{c.type}</td><td>{c.status}</td><td>{c.reason}</td><td>{c.message}</td></tr>)}
          </tbody>
        </table>
      ) : <p className="hint">{t('conditions.none')}</p>}
      <WhyWrittenButton keyName={row.key} />
      <button type="button" className="link-button" onClick={() => actions.selectKey(null)}>{t('details.close')}</button>
    </div>
  );
}
