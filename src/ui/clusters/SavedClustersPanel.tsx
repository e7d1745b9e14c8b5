// Saved clusters: the list (open, rename, duplicate, delete, export with a share link), a form for a new
// cluster and a file import. Everything is a command to the worker; the list is its `clusters` event.
// A `#cluster=…` share link in the page URL is imported once on load.

import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { sharedClusterFragment, shareUrl } from './share-link.ts';
import './clusters.css';

export function SavedClustersPanel() {
  const saved = useSim((state) => state.savedClusters);
  const lastExport = useSim((state) => state.lastExport);
  const cluster = useSim((state) => state.cluster);
  const actions = useSimActions();
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);

  useEffect(() => {
    const fragment = sharedClusterFragment(window.location.hash);
    if (!fragment) return;
    actions.importCluster('link', fragment);
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }, [actions]);

  const download = useMemo(() => (lastExport ? URL.createObjectURL(new Blob([lastExport.json], { type: 'application/json' })) : null), [lastExport]);
  useEffect(() => () => {
    if (download) URL.revokeObjectURL(download);
  }, [download]);

  const create = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '' || !cluster) return;
    actions.createCluster(trimmed, cluster.seed, cluster.nodes);
    setName('');
  };

  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (renaming && renaming.name.trim() !== '') actions.renameCluster(renaming.id, renaming.name.trim());
    setRenaming(null);
  };

  const importFile = async (file: File | undefined) => {
    if (file) actions.importCluster('file', await file.text());
  };

  return (
    <section className="panel-section saved-clusters" aria-label="Saved clusters">
      <h2>Saved clusters</h2>
      {saved === null ? <p className="cluster-meta">Opening saved clusters…</p> : saved.clusters.length === 0 ? (
        <p className="cluster-meta">No saved clusters: this cluster lives in memory only.</p>
      ) : (
        <ul>
          {saved.clusters.map((c) => (
            <li key={c.id} aria-current={c.id === saved.openId} data-testid="saved-cluster" data-name={c.name}>
              {renaming?.id === c.id ? (
                <form onSubmit={rename} aria-label={`Rename ${c.name}`}>
                  <input aria-label="New name" value={renaming.name} onChange={(e) => setRenaming({ id: c.id, name: e.target.value })} autoFocus />
                  <button type="submit">Rename</button>
                </form>
              ) : (
                <button type="button" className="link-button cluster-open" onClick={() => actions.openCluster(c.id)} disabled={c.id === saved.openId}>
                  {c.name}
                </button>
              )}
              <span className="cluster-meta">step {c.headStep.toLocaleString('en-US')} · {c.commands} {c.commands === 1 ? 'command' : 'commands'} · seed {String(c.seed)}</span>
              <span className="cluster-actions">
                <button type="button" className="link-button" onClick={() => setRenaming({ id: c.id, name: c.name })}>Rename</button>
                <button type="button" className="link-button" onClick={() => actions.duplicateCluster(c.id, `${c.name} copy`)}>Duplicate</button>
                <button type="button" className="link-button" onClick={() => actions.exportCluster(c.id)}>Export</button>
                <button type="button" className="link-button" onClick={() => window.confirm(`Delete "${c.name}"?`) && actions.deleteCluster(c.id)}>Delete</button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {lastExport && download && (
        <div data-testid="cluster-export">
          <a href={download} download={lastExport.fileName}>Download {lastExport.fileName}</a>
          {lastExport.shareFragment ? (
            <input className="share-link" readOnly aria-label="Share link" value={shareUrl(window.location, lastExport.shareFragment)} onFocus={(e) => e.currentTarget.select()} />
          ) : (
            <p className="cluster-meta">Too big for a share link: share the file.</p>
          )}
        </div>
      )}
      <form onSubmit={create} aria-label="New cluster">
        <input aria-label="Cluster name" placeholder="New cluster name" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" disabled={name.trim() === ''}>New</button>
      </form>
      <label className="cluster-meta">
        Import a cluster file{' '}
        <input type="file" accept=".json,application/json" onChange={(e) => void importFile(e.target.files?.[0])} />
      </label>
    </section>
  );
}
