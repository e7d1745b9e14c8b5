// Every open watch: at kube-apiserver (who opened it, on which resource path and selectors, from which
// resourceVersion, and how many events it has had) and inside etcd's store (the watcher's key range,
// the next revision it needs, synced or catching up), and kube-apiserver's watch cache per resource: the
// window of recent events a watch can start from (older resourceVersions get 410 Expired).

import type { EtcdWatch } from '../../protocol/index.ts';
import { useSim } from '../store/sim-context.ts';
import { useInspection } from './use-inspection.ts';

function rangeText(w: EtcdWatch): string {
  if (w.rangeEnd === null) return w.key;
  if (w.rangeEnd === '') return `keys ≥ ${w.key}`;
  return w.key.endsWith('/') && w.rangeEnd === w.key.slice(0, -1) + '0' ? `prefix ${w.key}` : `[${w.key}, ${w.rangeEnd})`;
}

export function WatchersPanel() {
  useInspection('watchers');
  const view = useSim((state) => state.inspection?.watchers);
  if (view === undefined) return <p className="hint panel-empty" role="status">Loading watches…</p>;
  if (view === null) return <p className="hint panel-empty">No watches.</p>;
  return (
    <section className="watchers objects-scroller" aria-label="Watches" data-testid="watchers">
      <table className="objects-table" aria-label={`kube-apiserver watches (${view.apiserver.length})`}>
        <caption className="table-caption">kube-apiserver: {view.apiserver.length} watches served from its watch cache{view.partial ? ' (older watches may be missing: the trace was trimmed)' : ''}</caption>
        <thead>
          <tr>
            <th scope="col">Who</th><th scope="col">Resource</th><th scope="col">Selector</th>
            <th scope="col">From resourceVersion</th><th scope="col">Opened at step</th><th scope="col">Events</th><th scope="col">Last resourceVersion</th>
          </tr>
        </thead>
        <tbody>
          {view.apiserver.map((w) => (
            <tr key={w.requestId} data-testid="apiserver-watch" data-who={w.who}>
              <td>{w.who}</td><td>{w.path}</td>
              <td>{[w.labelSelector, w.fieldSelector].filter((s) => s !== '').join(', ') || '—'}</td>
              <td>{w.resourceVersion === '' ? 'most recent' : w.resourceVersion}</td>
              <td>{w.openedAt}</td><td>{w.events}</td><td>{w.lastResourceVersion || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="objects-table" aria-label={`kube-apiserver watch caches (${view.caches.length})`}>
        <caption className="table-caption">kube-apiserver: watch cache per resource (a watch from an older resourceVersion gets 410 Expired)</caption>
        <thead>
          <tr>
            <th scope="col">Resource</th><th scope="col">Objects</th><th scope="col">Events buffered / capacity</th>
            <th scope="col">Oldest servable resourceVersion</th><th scope="col">Current resourceVersion</th>
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
      <table className="objects-table" aria-label={`etcd watchers (${view.etcd.length})`}>
        <caption className="table-caption">etcd: {view.etcd.length} watchers in the MVCC store</caption>
        <thead>
          <tr><th scope="col">Watch ID</th><th scope="col">Keys</th><th scope="col">Next revision</th><th scope="col">State</th></tr>
        </thead>
        <tbody>
          {view.etcd.map((w) => (
            <tr key={w.id} data-testid="etcd-watch">
              <td>{w.id}</td><td>{rangeText(w)}</td><td>{w.nextRevision}</td><td>{w.synced ? 'synced' : 'catching up'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
