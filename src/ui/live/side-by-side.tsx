// Two kube-apiservers on one etcd, side by side (`npm run apiserver -- --peer-apiserver=URL` prints this
// page's address; the lead server serves it at /podflow/side-by-side.html). Each column is the full page
// of one server, loaded from that server's own origin, so it attaches over its own /podflow/live socket and
// passes its own Origin and token doors. The two page URLs (with their `#token=` fragments) travel in this
// page's fragment as `a` and `b`; without `b`, a form asks for the second server's page.

import '../app.css';
import '../i18n/index.ts';
import './side-by-side.css';
import { StrictMode, useEffect, useId, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { sideBySidePages, sideBySideUrl } from '../../protocol/side-by-side.ts';
import { pageUrlOf } from './page-url.ts';

/** The two pages shown: `a` defaults to the page of the server serving this one. */
function pagesFromHash(): { readonly a: string; readonly b: string | null } {
  const { a, b } = sideBySidePages(location.hash);
  return { a: a ?? new URL('/podflow/', location.href).href, b };
}

function SideBySide() {
  const { t } = useTranslation('live');
  const [pages, setPages] = useState(pagesFromHash);
  useEffect(() => {
    const onHash = () => setPages(pagesFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    document.title = t('sideBySideTitle');
  }, [t]);
  return (
    <main className="side-by-side">
      <Column side="a" url={pages.a} />
      {pages.b === null ? <PeerForm a={pages.a} /> : <Column side="b" url={pages.b} />}
    </main>
  );
}

function Column({ side, url }: { readonly side: 'a' | 'b'; readonly url: string }) {
  const { t } = useTranslation('live');
  const host = new URL(url).host;
  return (
    <section className="side-column" aria-label={t('sideLabel', { side: side.toUpperCase(), host })} data-testid={`side-${side}`}>
      <header className="side-header">
        <strong>{t('sideName', { side: side.toUpperCase() })}</strong>
        <span className="side-host" title={host}>{host}</span>
        <a href={url} target="_blank" rel="noopener" data-testid={`side-${side}-open`}>{t('openInNewTab')}</a>
      </header>
      <iframe className="side-frame" src={url} name={`side-${side}`} title={t('sideLabel', { side: side.toUpperCase(), host })} data-testid={`side-${side}-frame`} />
    </section>
  );
}

/** Asks for the second server's page (its address, as `npm run apiserver` printed it). */
function PeerForm({ a }: { readonly a: string }) {
  const { t } = useTranslation('live');
  const id = useId();
  const [input, setInput] = useState('http://127.0.0.1:6444/podflow/');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const b = pageUrlOf(input);
    if (b === null) {
      setError(t('badUrl', { input }));
      return;
    }
    location.assign(sideBySideUrl(location.origin, a, b));
  };
  return (
    <section className="side-column side-ask" data-testid="side-b">
      <form className="side-form" aria-labelledby={`${id}-title`} onSubmit={submit} data-testid="peer-form">
        <h2 id={`${id}-title`}>{t('peerTitle')}</h2>
        <p className="hint">{t('peerHint')}</p>
        <label>
          {t('peerUrl')}
          <input value={input} onChange={(event) => setInput(event.target.value)} spellCheck={false} required data-testid="peer-url" />
        </label>
        {error ? <p className="live-error" role="alert">{error}</p> : null}
        <div className="live-form-buttons">
          <button type="submit" data-testid="peer-submit">{t('peerShow')}</button>
        </div>
      </form>
    </section>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('side-by-side.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <SideBySide />
  </StrictMode>,
);
