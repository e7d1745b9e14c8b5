// Attaching the page to a server (`npm run apiserver`) and back. In the header: "Connect to a server…"
// (a form with the server's address, for a server started with --token its token, and optionally a second
// server on the same etcd to show beside it on the side-by-side page) while the page runs
// its own cluster; once attached, a badge saying which server, whether the view is live or paused (or
// connecting, or refused, with why), whether the run is not deterministic (a server on a real etcd: the
// server's reason in its tooltip), what is off while attached, and "Back to my cluster".
// `useAttached` tells other parts of the page to hide what would rebuild the cluster.

import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { sideBySideUrl } from '../../protocol/side-by-side.ts';
import { serverOrigin } from '../sim-socket.ts';
import { useSim, useSimLink } from '../store/sim-context.ts';
import type { ServerLink } from '../store/sim-store.ts';
import { pageUrlOf } from './page-url.ts';
import './live.css';

/** True while the page shows a server's cluster. */
export function useAttached(): boolean {
  return useSim((state) => state.server !== null);
}

export function LiveControls() {
  const server = useSim((state) => state.server);
  const link = useSimLink();
  if (!link) return null;
  return server ? <AttachedBadge server={server} /> : <ConnectButton />;
}

function ConnectButton() {
  const { t } = useTranslation('live');
  const [open, setOpen] = useState(false);
  return (
    <div className="live-connect">
      <button type="button" className="header-button" data-testid="connect-server" aria-expanded={open} title={t('connectHint')} onClick={() => setOpen(!open)}>
        {t('connect')}
      </button>
      {open ? <ConnectForm onDone={() => setOpen(false)} /> : null}
    </div>
  );
}

function ConnectForm({ onDone, initialUrl }: { readonly onDone: () => void; readonly initialUrl?: string }) {
  const { t } = useTranslation('live');
  const link = useSimLink();
  const id = useId();
  const [url, setUrl] = useState(initialUrl ?? 'http://127.0.0.1:6443');
  const [token, setToken] = useState('');
  const [peer, setPeer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let origin: string;
    try {
      origin = serverOrigin(url, location.href);
    } catch {
      setError(t('badUrl', { input: url }));
      return;
    }
    if (peer.trim() !== '') {
      // Two servers: the side-by-side page on the first, each column attached to its own server.
      const peerPage = pageUrlOf(peer);
      if (peerPage === null) {
        setError(t('badUrl', { input: peer }));
        return;
      }
      location.assign(sideBySideUrl(origin, `${origin}/podflow/${token === '' ? '' : `#token=${encodeURIComponent(token)}`}`, peerPage));
      return;
    }
    link?.attach(url, token === '' ? null : token);
    onDone();
  };
  return (
    <form className="live-form" aria-labelledby={`${id}-title`} onSubmit={submit} data-testid="connect-form">
      <h2 id={`${id}-title`}>{t('dialogTitle')}</h2>
      <label>
        {t('url')}
        <input value={url} onChange={(event) => setUrl(event.target.value)} spellCheck={false} required data-testid="server-url" />
      </label>
      <label>
        {t('token')}
        <input type="password" value={token} onChange={(event) => setToken(event.target.value)} autoComplete="off" data-testid="server-token" />
      </label>
      <label title={t('peerFieldHint')}>
        {t('peerField')}
        <input value={peer} onChange={(event) => setPeer(event.target.value)} spellCheck={false} placeholder="http://127.0.0.1:6444" data-testid="peer-server-url" />
      </label>
      {error ? <p className="live-error" role="alert">{error}</p> : null}
      <div className="live-form-buttons">
        <button type="submit" data-testid="connect-submit">{t('connectButton')}</button>
        <button type="button" onClick={onDone}>{t('cancel')}</button>
      </div>
    </form>
  );
}

function AttachedBadge({ server }: { readonly server: ServerLink }) {
  const { t } = useTranslation('live');
  const link = useSimLink();
  const mode = useSim((state) => state.status.mode);
  const nondeterministic = useSim((state) => state.cluster?.nondeterministic);
  const state = server.state === 'open' ? (mode === 'playing' ? 'live' : 'paused') : server.state;
  const hint = state === 'live' ? t('liveHint') : state === 'paused' ? t('pausedHint') : '';
  const host = server.url.replace(/^https?:\/\//, '');
  return (
    <div className="live-badge" data-state={state} data-testid="live-badge" role="status" title={`${hint} ${t('offHint')}`.trim()}>
      <span className="live-dot" aria-hidden="true" />
      <strong data-testid="live-state">{t(`state.${state}`)}</strong>
      <span className="live-url">{t('attachedTo', { url: host })}</span>
      {nondeterministic !== undefined ? (
        <span className="live-nondeterministic" data-testid="live-nondeterministic" title={nondeterministic}>{t('nondeterministic')}</span>
      ) : null}
      <button type="button" className="header-button" data-testid="detach-server" title={t('detachHint')} onClick={() => link?.detach()}>
        {t('detach')}
      </button>
      {state === 'refused' ? <RefusedForm server={server} /> : null}
    </div>
  );
}

/** Why the server refused the page, and a token field to try again. */
function RefusedForm({ server }: { readonly server: ServerLink }) {
  const { t } = useTranslation('live');
  const link = useSimLink();
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    link?.attach(server.url, token === '' ? null : token);
  };
  return (
    <form className="live-form live-refused" onSubmit={submit} data-testid="refused-form">
      <p className="live-error" role="alert" data-testid="live-refusal">{server.reason === 'token missing' ? t('tokenMissing') : t('tokenWrong')}</p>
      <label>
        {t('token')}
        <input type="password" value={token} onChange={(event) => setToken(event.target.value)} autoComplete="off" data-testid="refused-token" />
      </label>
      <div className="live-form-buttons">
        <button type="submit">{t('tryAgain')}</button>
      </div>
    </form>
  );
}

/** Stands in for a view that would rebuild the cluster, while the page is attached to a server. */
export function OffWhileAttached({ children, reason }: { readonly children: React.ReactNode; readonly reason: 'scenarios' }) {
  const { t } = useTranslation('live');
  const attached = useAttached();
  if (!attached) return children;
  return <p className="hint live-off" data-testid={`${reason}-off`}>{t(`${reason}Off`)}</p>;
}
