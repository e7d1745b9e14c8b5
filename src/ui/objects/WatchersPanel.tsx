// Every open watch: at kube-apiserver (who opened it, on which resource path and selectors, from which
// resourceVersion, and how many events it has had) and inside etcd's store (the watcher's key range,
// the next revision it needs, synced or catching up), and kube-apiserver's watch cache per resource: the
// window of recent events a watch can start from (older resourceVersions get 410 Expired).

import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { EtcdWatch } from '../../protocol/index.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { useInspection } from './use-inspection.ts';

function rangeText(w: EtcdWatch, t: TFunction<'objects'>): string {
  if (w.rangeEnd === null) return w.key;
  if (w.rangeEnd === '') return t('watches.from', { key: w.key });
  return w.key.endsWith('/') && w.rangeEnd === w.key.slice(0, -1) + '0' ? t('watches.prefix', { key: w.key }) : `[${w.key}, ${w.rangeEnd})`;
}

export function WatchersPanel() {
  const { t } = useTranslation('objects');
  useInspection('watchers');
  const view = useSimSnapshot((state) => state.inspection?.watchers);
  if (view === undefined) return <p className="hint panel-empty" role="status">{t('watches.loading')}</p>;
  if (view === null) return <p className="hint panel-empty">{t('watches.none')}</p>;
  return (
    <section className="watchers objects-scroller" tabIndex={0} aria-label={t('watches.label')} data-testid="watchers">
      <table className="objects-table" aria-label={t('watches.apiserverTable', { count: view.apiserver.length })}>
        <caption className="table-caption">{t('watches.apiserverCaption', { count: view.apiserver.length })}{view.partial ? t('watches.partial') : ''}</caption>
        <thead>
          <tr>
            <th scope="col">{t('watches.who')}</th><th scope="col">{t('watches.resource')}</th><th scope="col">{t('watches.selector')}</th>
            <th scope="col">{t('watches.fromResourceVersion')}</th><th scope="col">{t('watches.openedAt')}</th><th scope="col">{t('watches.events')}</th><th scope="col">{t('watches.lastResourceVersion')}</th>
          </tr>
        </thead>
        <tbody>
          {view.apiserver.map((w) => (
            <tr key={w.requestId} data-testid="apiserver-watch" data-who={w.who}>
              <td>{w.who}</td><td>{w.path}</td>
              <td>{[w.labelSelector, w.fieldSelector].filter((s) => s !== '').join(', ') || '—'}</td>
              <td>{w.resourceVersion === '' ? t('watches.mostRecent') : w.resourceVersion}</td>
              <td>{w.openedAt}</td><td>{w.events}</td><td>{w.lastResourceVersion || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="objects-table" aria-label={t('watches.cachesTable', { count: view.caches.length })}>
        <caption className="table-caption">{t('watches.cachesCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('watches.resource')}</th><th scope="col">{t('watches.objects')}</th><th scope="col">{t('watches.buffered')}</th>
            <th scope="col">{t('watches.oldest')}</th><th scope="col">{t('watches.current')}</th>
          </tr>
        </thead>
        <tbody>
          {view.caches.map((c) => (
            <tr key={c.resourcePrefix} data-testid="watch-cache" data-resource={c.resourcePrefix}>
              <td>{c.resourcePrefix}</td><td>{c.objects}</td><td>{c.bufferedEvents} / {c.capacity}</td>
              <td data-testid="watch-cache-oldest">{c.oldestServable ?? '—'}</td><td>{c.resourceVersion}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="objects-table" aria-label={t('watches.etcdTable', { count: view.etcd.length })}>
        <caption className="table-caption">{t('watches.etcdCaption', { count: view.etcd.length })}</caption>
        <thead>
          <tr><th scope="col">{t('watches.watchId')}</th><th scope="col">{t('watches.keys')}</th><th scope="col">{t('watches.nextRevision')}</th><th scope="col">{t('watches.state')}</th></tr>
        </thead>
        <tbody>
          {view.etcd.map((w) => (
            <tr key={w.id} data-testid="etcd-watch">
              <td>{w.id}</td><td>{rangeText(w, t)}</td><td>{w.nextRevision}</td><td>{w.synced ? t('watches.synced') : t('watches.catchingUp')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
