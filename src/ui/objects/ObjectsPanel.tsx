// Objects as `kubectl get` prints them (the server's Table cells, computed in the worker by the model's
// printers), one resource at a time: each object's resourceVersion beside its key's mod_revision (the
// apiserver reports the mod_revision as the resourceVersion), generation, owner and conditions, and the
// list's resourceVersion. Clicking an object selects its key (the keyspace shows the same key);
// clicking an owner reference goes to the owner.

import { useState } from 'react';
import type { ObjectRow, ObjectTable } from '../../protocol/index.ts';
import { WhyWrittenButton } from '../panels/WhyWrittenButton.tsx';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { conditionSummary, findObject, generationText } from './objects.ts';
import { useInspection } from './use-inspection.ts';

/** Rows drawn per table at most; more are counted (the keyspace panel scrolls through any number). */
const rowLimit = 300;

export function ObjectsPanel() {
  useInspection('objects');
  const actions = useSimActions();
  const view = useSim((state) => state.inspection?.objects);
  const selectedKey = useSim((state) => state.keyspace.selectedKey);
  const [picked, setPicked] = useState('pods');
  const selected = findObject(view, selectedKey);
  // An owner link (or a key picked in the keyspace) shows the selected object's resource.
  const resource = selected?.table.resource ?? picked;
  const table = view?.tables.find((t) => t.resource === resource) ?? view?.tables[0];
  if (view === undefined) return <p className="hint panel-empty" role="status">Loading objects…</p>;
  if (view === null || !table) return <p className="hint panel-empty">This cluster has no etcd member to read objects from.</p>;
  const pick = (name: string) => {
    setPicked(name);
    if (selected && selected.table.resource !== name) actions.selectKey(null);
  };
  return (
    <section className="objects" aria-label="Objects" data-testid="objects">
      <div className="objects-toolbar">
        <div className="resource-picker" role="group" aria-label="Resource">
          {view.tables.map((t) => (
            <button key={t.resource} type="button" aria-pressed={t.resource === table.resource} onClick={() => pick(t.resource)}>
              {t.resource} <span className="key-count">{t.rows.length}</span>
            </button>
          ))}
        </div>
        <p className="hint" data-testid="list-resource-version">list resourceVersion {view.listResourceVersion}</p>
      </div>
      <div className="objects-body">
        <ObjectsTable table={table} selectedKey={selectedKey} />
        {selected ? <ObjectDetails table={selected.table} row={selected.row} /> : null}
      </div>
    </section>
  );
}

function ObjectsTable({ table, selectedKey }: { readonly table: ObjectTable; readonly selectedKey: string | null }) {
  const actions = useSimActions();
  const rows = table.rows.slice(0, rowLimit);
  const namespaced = table.rows.some((r) => r.namespace !== null);
  return (
    <div className="objects-scroller">
      <table className="objects-table" aria-label={`${table.resource} (kubectl get ${table.resource})`}>
        <thead>
          <tr>
            {namespaced ? <th scope="col">Namespace</th> : null}
            {table.columns.map((c) => <th key={c} scope="col">{c}</th>)}
            <th scope="col" title="metadata.resourceVersion as kube-apiserver reports it">resourceVersion</th>
            <th scope="col" title="the etcd key's mod_revision">mod_revision</th>
            <th scope="col">Generation</th>
            <th scope="col">Owner</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-testid="object-row" data-key={row.key} aria-selected={row.key === selectedKey} className={row.key === selectedKey ? 'object-row--selected' : undefined}>
              {namespaced ? <td>{row.namespace ?? ''}</td> : null}
              {row.cells.map((cell, i) => (
                <td key={i} data-column={table.columns[i]}>
                  {i === 0 && table.columns[0] === 'Name'
                    ? <button type="button" className="link-button" onClick={() => actions.selectKey(row.key)}>{cell}</button>
                    : cell}
                </td>
              ))}
              <td data-testid="object-resource-version">{row.resourceVersion}</td>
              <td data-testid="object-mod-revision">{row.modRevision}</td>
              <td>{generationText(row)}</td>
              <td>{row.ownerReferences.map((o) => <OwnerLink key={`${o.kind}/${o.name}`} owner={o} />)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {table.rows.length === 0 ? <p className="hint panel-empty">No resources found.</p> : null}
      {table.rows.length > rowLimit ? <p className="hint panel-empty">{table.rows.length - rowLimit} more not drawn; the keyspace panel lists every key.</p> : null}
    </div>
  );
}

function OwnerLink({ owner }: { readonly owner: ObjectRow['ownerReferences'][number] }) {
  const actions = useSimActions();
  const label = `${owner.kind}/${owner.name}`;
  if (owner.key === null) return <span>{label}</span>;
  return <button type="button" className="link-button" aria-label={`Go to owner ${label}`} onClick={() => actions.selectKey(owner.key)}>{label}</button>;
}

function ObjectDetails({ table, row }: { readonly table: ObjectTable; readonly row: ObjectRow }) {
  const actions = useSimActions();
  return (
    <div className="object-details" data-testid="object-details" aria-label={`${table.kind} ${row.name}`} role="region">
      <h3 className="key-details-name"><code>{table.kind}/{row.name}</code>{row.deleting ? <span className="unavailable"> (terminating)</span> : null}</h3>
      <dl className="message-facts key-facts">
        <div><dt>key</dt><dd><code>{row.key}</code></dd></div>
        <div><dt>resourceVersion</dt><dd data-testid="detail-resource-version">{row.resourceVersion}</dd></div>
        <div><dt>mod_revision</dt><dd>{row.modRevision}</dd></div>
        <div><dt>uid</dt><dd>{row.uid}</dd></div>
        <div><dt>generation</dt><dd>{generationText(row)}</dd></div>
        <div><dt>owners</dt><dd>{row.ownerReferences.length === 0 ? 'none' : row.ownerReferences.map((o) => <OwnerLink key={`${o.kind}/${o.name}`} owner={o} />)}</dd></div>
      </dl>
      <p className="hint">The stored bytes carry no resourceVersion: kube-apiserver sets it from the key&apos;s mod_revision when it reads the object.</p>
      {row.conditions.length > 0 ? (
        <table className="objects-table conditions" aria-label="Conditions" title={conditionSummary(row.conditions)}>
          <thead><tr><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Message</th></tr></thead>
          <tbody>
            {row.conditions.map((c) => <tr key={c.type}><td>{c.type}</td><td>{c.status}</td><td>{c.reason}</td><td>{c.message}</td></tr>)}
          </tbody>
        </table>
      ) : <p className="hint">No conditions.</p>}
      <WhyWrittenButton keyName={row.key} />
      <button type="button" className="link-button" onClick={() => actions.selectKey(null)}>Close object</button>
    </div>
  );
}
