// The guided tours on the page: the "Tour ▾" picker in the header and the stop card at the top of the
// right-hand column (the narrator's place, UX.md), so it never covers the graph it talks about. Picking a
// tour resets the cluster and runs the tour's commands (run.ts); the card then shows one stop at a time —
// "步骤 N / Step N" where the seed numbers it, the text, the exact messages of the stop — while the graph
// lights the components involved and the inspector shows the stop's message. The learner can leave the
// tour to explore freely and come back to the same stop.

import { useCallback, useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { tourById, tours, type LocatedStop, type Tour, type TraceRecord } from '../../protocol/index.ts';
import { describeStep, type Language } from '../captions/captions.ts';
import { milestoneText } from '../captions/milestones.ts';
import { usePrefs } from '../store/prefs.ts';
import { useSim, useSimActions, useSimStore } from '../store/sim-context.ts';
import { prepareTour, returnToStop, showStop } from './run.ts';
import { idleTour, tourStore, useTour } from './tour-store.ts';
import './tours.css';

/** Starts, moves through and ends the tour; one per page (the picker and the card share it). */
function useTourDriver() {
  const store = useSimStore();
  const actions = useSimActions();
  const start = useCallback((tour: Tour) => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    tourStore.setState({ ...idleTour, tourId: tour.id, phase: 'preparing' });
    prepareTour(store, actions, tour, controller.signal)
      .then(() => {
        if (controller.signal.aborted) return;
        tourStore.setState({ phase: 'touring' });
        return showStop(store, actions, tourStore, 0, controller.signal);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        tourStore.setState({ phase: 'failed', error: error instanceof Error ? error.message : String(error) });
      });
  }, [store, actions]);
  const go = useCallback((index: number) => {
    void showStop(store, actions, tourStore, index).catch(() => undefined);
  }, [store, actions]);
  const back = useCallback((tourId: string, index: number) => {
    void returnToStop(store, actions, tourStore, tourId, index).catch(() => tourStore.setState({ away: false }));
  }, [store, actions]);
  const end = useCallback(() => {
    running?.abort();
    running = null;
    tourStore.setState(idleTour);
  }, []);
  return { start, go, back, end };
}

let running: AbortController | null = null;

/** The header's "Tour ▾" button and its menu. */
export function TourPicker() {
  const { t } = useTranslation('tours');
  const language = usePrefs((p) => p.language);
  const { start } = useTourDriver();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !ref.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div className="tour-picker" ref={ref}>
      <button type="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="tour-picker">
        {t('picker')} ▾
      </button>
      {open && (
        <ul className="tour-menu" role="menu" aria-label={t('menuLabel')} onKeyDown={moveFocus}>
          {tours.map((tour) => (
            <li key={tour.id} role="none">
              <button type="button" role="menuitem" autoFocus={tour === tours[0]} onClick={() => { setOpen(false); start(tour); }} data-tour={tour.id}>
                <span className="tour-menu-title">{tour.title[language]}</span>
                <span className="tour-menu-description">{tour.description[language]}</span>
              </button>
            </li>
          ))}
          <li role="none" className="tour-menu-note">{t('resets')}</li>
        </ul>
      )}
    </div>
  );
}

/** ↑ / ↓ move between a menu's items. */
function moveFocus(event: ReactKeyboardEvent<HTMLElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next = items[(at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length];
  next?.focus();
  event.preventDefault();
}

/**
 * The stop card, in the right-hand column above the story; nothing when no tour runs (and then it reads
 * nothing of the simulation, so it does not re-render on every update while playing).
 */
export function TourCard() {
  const touring = useTour((s) => s.tourId !== null);
  return touring ? <Card /> : null;
}

function Card() {
  const { t } = useTranslation('tours');
  const language = usePrefs((p) => p.language);
  const state = useTour((s) => s);
  const located = useSim((s) => (s.tourStops?.tour === state.tourId ? s.tourStops : null));
  const headStep = useSim((s) => s.status.step);
  const { start, go, back, end } = useTourDriver();
  const [collapsed, setCollapsed] = useState(false);
  const position = useSim((s) => s.timeline?.position ?? null);
  const tour = state.tourId === null ? undefined : tourById(state.tourId);
  const shownStop = state.phase === 'touring' && !state.away ? located?.stops[state.stop] : undefined;
  const atStop = shownStop?.step != null && shownStop.step === position;
  const actions = useSimActions();
  const store = useSimStore();
  // The graph lights the stop's components only while the step shown is the stop's (the learner may step on).
  // Stepping on also lets go of the stop's message the tour selected, so the caption, the story and the
  // inspector follow the step shown rather than stay on the stop's.
  useEffect(() => {
    if (!shownStop) return;
    const highlight = atStop ? shownStop.components : [];
    if (tourStore.getState().highlight.join() !== highlight.join()) tourStore.setState({ highlight });
    const selection = store.getState().selection;
    if (!atStop && selection?.type === 'message' && shownStop.records.some((record) => record.id === selection.id)) actions.select(null);
  }, [shownStop, atStop, store, actions]);
  if (!tour) return null;

  if (state.away) {
    return (
      <aside className="tour-card tour-card--away" aria-label={t('cardLabel', { title: tour.title[language] })}>
        <button type="button" className="tour-primary" onClick={() => back(tour.id, state.stop)}>{t('back')}</button>
        <button type="button" onClick={end}>{t('end')}</button>
      </aside>
    );
  }

  const stops = tour.stops;
  const stop = stops[state.stop];
  const found: LocatedStop | undefined = located?.stops[state.stop];
  return (
    <aside className="tour-card" aria-label={t('cardLabel', { title: tour.title[language] })} data-testid="tour-card">
      <header className="tour-card-head">
        <span className="tour-card-tour">{tour.title[language]}</span>
        {state.phase === 'touring' && <span className="tour-progress">{t('stopOf', { n: state.stop + 1, total: stops.length })}</span>}
        <button type="button" className="tour-close" aria-expanded={!collapsed} aria-label={t(collapsed ? 'expand' : 'collapse')} title={t(collapsed ? 'expand' : 'collapse')}
          onClick={() => setCollapsed((c) => !c)}>{collapsed ? '▴' : '▾'}</button>
        <button type="button" className="tour-close" aria-label={t('end')} title={t('end')} onClick={end}>×</button>
      </header>
      {state.phase === 'preparing' && <p className="tour-status" role="status">{t('preparing', { step: headStep })}</p>}
      {state.phase === 'failed' && <p className="tour-status tour-status--failed" role="alert">{t('failed', { error: state.error ?? '' })}</p>}
      {state.phase === 'touring' && stop && (
        <>
          <div className="tour-body">
            <h2 className="tour-stop-title" data-testid="tour-stop-title">
              {stop.seedStep !== undefined && <span className="tour-seed-step" data-testid="tour-seed-step">{t('seedStep', { n: stop.seedStep })}</span>}
              {stop.title[language]}
            </h2>
            {found?.step != null && !atStop && position !== null && (
              <p className="tour-status" role="status">
                {t('elsewhere', { step: position, stop: found.step })}{' '}
                <button type="button" onClick={() => go(state.stop)}>{t('toStop')}</button>
              </p>
            )}
            {!collapsed && <p className="tour-text">{stop.text[language]}</p>}
            {found?.step == null
              ? (
                <p className="tour-status tour-status--failed">
                  {t(located === null ? 'clusterChanged' : 'notFound')}{' '}
                  <button type="button" onClick={() => start(tour)}>{t('restart')}</button>
                </p>
              )
              : !collapsed && <ExactMessages stop={found} language={language} />}
          </div>
          <nav className="tour-nav" aria-label={t('navLabel')}>
            <button type="button" onClick={() => go(state.stop - 1)} disabled={state.stop === 0}>{t('previous')}</button>
            <button type="button" className="tour-primary" onClick={() => go(state.stop + 1)} disabled={state.stop >= stops.length - 1}>{t('next')}</button>
            <button type="button" onClick={() => tourStore.setState({ away: true, highlight: [] })}>{t('leave')}</button>
          </nav>
        </>
      )}
    </aside>
  );
}

function ExactMessages({ stop, language }: { readonly stop: LocatedStop; readonly language: Language }) {
  const { t } = useTranslation('tours');
  const actions = useSimActions();
  const selected = useSim((s) => (s.selection?.type === 'message' ? s.selection.id : null));
  return (
    <section className="tour-exact" aria-label={t('exact')}>
      <h3>{t('exact')}</h3>
      <ol>
        {stop.records.map((record) => {
          const request = record.replyTo === null ? undefined : stop.requests.find((r) => r.id === record.replyTo);
          const text = describeStep(record, language, { request });
          // The query a response was asked with (resourceVersion); a request's own line shows it already.
          const query = record.kind === 'http.response' ? queryOf(request) : '';
          return (
            <li key={record.id} data-testid="tour-exact-line" data-kind={record.kind}>
              <button type="button" onClick={() => actions.select({ type: 'message', id: record.id })} aria-pressed={selected === record.id} title={t('show')}>
                <span className="tour-exact-step">{t('atStep', { step: record.step })}</span>
                <span className="tour-exact-plain">{record.milestone ? milestoneText(record.milestone, language).title : text.plain}</span>
                <code>{text.technical}</code>
                {query !== '' && <code className="tour-exact-query">?{query}</code>}
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** An HTTP request's query string (what resourceVersion it asked for), or ''. */
function queryOf(request: TraceRecord | undefined): string {
  const query = (request?.payload as { query?: unknown } | undefined)?.query;
  return typeof query === 'string' ? query : '';
}
