// Saved clusters: the list (open, rename, duplicate, delete, export with a share link), a form for a new
// cluster and a file import. Everything is a command to the worker; the list is its `clusters` event.
// A `#cluster=…` share link in the page URL is imported once on load.

import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultNewClusterEtcdMembers, etcdMemberCounts, type EtcdMemberCount } from '../../protocol/index.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { sharedClusterFragment, shareUrl } from './share-link.ts';
import './clusters.css';

export function SavedClustersPanel() {
  const { t } = useTranslation('clusters');
  const saved = useSim((state) => state.savedClusters);
  const lastExport = useSim((state) => state.lastExport);
  const cluster = useSim((state) => state.cluster);
  const actions = useSimActions();
  const [name, setName] = useState('');
  const [mediaType, setMediaType] = useState<'protobuf' | 'json'>('protobuf');
  const [members, setMembers] = useState<EtcdMemberCount>(defaultNewClusterEtcdMembers);
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
    actions.createCluster(trimmed, cluster.seed, cluster.nodes, mediaType, members);
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
    <section className="panel-section saved-clusters" aria-labelledby="saved-clusters-heading">
      <h2 id="saved-clusters-heading">{t('heading')}</h2>
      {saved === null ? <p className="cluster-meta">{t('opening')}</p> : saved.clusters.length === 0 ? (
        <p className="cluster-meta">{t('none')}</p>
      ) : (
        <ul>
          {saved.clusters.map((c) => (
            <li key={c.id} aria-current={c.id === saved.openId} data-testid="saved-cluster" data-name={c.name}>
              {renaming?.id === c.id ? (
                <form onSubmit={rename} aria-label={t('renameForm', { name: c.name })}>
                  <input aria-label={t('newName')} value={renaming.name} onChange={(e) => setRenaming({ id: c.id, name: e.target.value })} autoFocus />
                  <button type="submit">{t('rename')}</button>
                </form>
              ) : (
                <button type="button" className="link-button cluster-open" onClick={() => actions.openCluster(c.id)} disabled={c.id === saved.openId}>
                  {c.name}
                </button>
              )}
              <span className="cluster-meta">
                {t('meta', { step: c.headStep.toLocaleString('en-US'), count: c.commands, seed: String(c.seed) })}
                {c.storageMediaType === 'json' ? ` · ${t('storedJson')}` : ''}
                {c.etcdMembers !== undefined && c.etcdMembers > 1 ? ` · ${t('etcdMembersMeta', { count: c.etcdMembers })}` : ''}
              </span>
              <span className="cluster-actions">
                <button type="button" className="link-button" onClick={() => setRenaming({ id: c.id, name: c.name })}>{t('rename')}</button>
                <button type="button" className="link-button" onClick={() => actions.duplicateCluster(c.id, t('copyName', { name: c.name }))}>{t('duplicate')}</button>
                <button type="button" className="link-button" onClick={() => actions.exportCluster(c.id)}>{t('export')}</button>
                <button type="button" className="link-button" onClick={() => window.confirm(t('confirmDelete', { name: c.name })) && actions.deleteCluster(c.id)}>{t('delete')}</button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {lastExport && download && (
        <div data-testid="cluster-export">
          <a href={download} download={lastExport.fileName}>{t('download', { file: lastExport.fileName })}</a>
          {lastExport.shareFragment ? (
            <input className="share-link" readOnly aria-label={t('shareLink')} value={shareUrl(window.location, lastExport.shareFragment)} onFocus={(e) => e.currentTarget.select()} />
          ) : (
            <p className="cluster-meta">{t('tooBig')}</p>
          )}
        </div>
      )}
      <form onSubmit={create} aria-label={t('newForm')}>
        <input aria-label={t('clusterName')} placeholder={t('clusterNamePlaceholder')} value={name} onChange={(e) => setName(e.target.value)} />
        <select aria-label={t('storage')} title={t('storageHint')} value={mediaType} data-testid="storage-media-type"
          onChange={(e) => setMediaType(e.target.value === 'json' ? 'json' : 'protobuf')}>
          <option value="protobuf">{t('storageProtobuf')}</option>
          <option value="json">{t('storageJson')}</option>
        </select>
        <select aria-label={t('etcdMembers')} title={t('etcdMembersHint')} value={members} data-testid="etcd-members"
          onChange={(e) => setMembers(etcdMemberCounts.find((n) => n === Number(e.target.value)) ?? defaultNewClusterEtcdMembers)}>
          {etcdMemberCounts.map((n) => <option key={n} value={n}>{t('etcdMembersOption', { count: n })}</option>)}
        </select>
        <button type="submit" disabled={name.trim() === ''}>{t('new')}</button>
      </form>
      <label className="cluster-meta">
        {t('import')}{' '}
        <input type="file" accept=".json,application/json" onChange={(e) => void importFile(e.target.files?.[0])} />
      </label>
    </section>
  );
}
