// The sequence diagram: one lane per component, every delivered message an arrow from its sender's lane
// to its receiver's, one row per step in causal (step) order. At the request level kube-apiserver's
// filter-chain stages and the timers are folded into the row before them (a "+N" button shows them);
// milestones are emphasised with their words in the right-hand column; failures are red. The list is
// virtualised and reads the trace from the worker a window at a time (`traceRange`), so a trace of
// 100,000 messages scrolls as one of 100. Synced with the playhead both ways: clicking an arrow seeks to
// its step, and, while "follow" is on, the step shown is kept in the middle of the view.
// Loaded lazily (SequencePanel.tsx): it is not part of the page's first JavaScript.

import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ComponentView, Milestone, TraceRecord } from '../../protocol/index.ts';
import { isFailureMilestone, traceRangeLimit } from '../../protocol/index.ts';
import { isResponse, messageFamily } from '../graph/message-kind.ts';
import { tokenLabel, type TokenLabel } from '../graph/token-label.ts';
import { useSim, useSimActions, useSimStore } from '../store/sim-context.ts';
import { milestoneLabel } from './milestone-label.ts';
import { indexOf, itemAt, itemCount, RowCache, sortedExpansions, type Expansion, type SequenceItem, type SequenceRow } from './rows.ts';
import './sequence.css';

const rowHeight = 26;
const stepColumn = 64;
const milestoneColumn = 270;
const minLane = 104;
/** Rows asked for at once beyond what is visible. */
const chunk = 120;
/** A question unanswered this long (real ms) no longer holds back the next one. */
const staleQueryMs = 2_000;

type ViewLevel = 'milestone' | 'request' | 'internal';

const roleOrder: Record<ComponentView['role'], number> = {
  user: 0, 'etcd-client': 0, 'kube-apiserver': 1, etcd: 2, 'kube-controller-manager': 3, 'kube-scheduler': 4, kubelet: 5,
};

/** The lanes, left to right: kubectl/etcdctl, kube-apiserver, etcd, the controllers, the kubelets. */
export function laneOrder(components: readonly ComponentView[]): ComponentView[] {
  return [...components].sort((a, b) => roleOrder[a.role] - roleOrder[b.role] || a.name.localeCompare(b.name, 'en', { numeric: true }));
}

const labels = new WeakMap<TraceRecord, TokenLabel>();
function labelOf(record: TraceRecord): TokenLabel {
  let label = labels.get(record);
  if (!label) {
    label = tokenLabel(record);
    labels.set(record, label);
  }
  return label;
}

interface Query {
  readonly at: number;
  readonly cache: RowCache;
}

export default function SequenceView() {
  const { t } = useTranslation('sequence');
  const store = useSimStore();
  const actions = useSimActions();
  const cluster = useSim((state) => state.cluster);
  const position = useSim((state) => state.status.step);
  const storyMilestones = useSim((state) => state.milestones);
  const [level, setLevel] = useState<ViewLevel>('request');
  const [follow, setFollow] = useState(true);
  const [, redraw] = useReducer((x: number) => x + 1, 0);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());

  // One cache for the view's level and one for the folded steps shown expanded (the same at level internal).
  const caches = useMemo(() => {
    const main = new RowCache(level);
    return { main, internal: level === 'internal' ? main : new RowCache('internal'), version: cluster?.version };
  }, [level, cluster?.version]);
  useEffect(() => setExpanded(new Set()), [caches]);

  const lanes = useMemo(() => laneOrder(cluster?.topology.components ?? []), [cluster]);
  const laneIndex = useMemo(() => new Map(lanes.map((lane, i) => [lane.name, i])), [lanes]);
  const milestonesByStep = useMemo(() => new Map(storyMilestones.map((m) => [m.step, m])), [storyMilestones]);

  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(960);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);
  const laneWidth = Math.max(minLane, Math.floor((width - stepColumn - milestoneColumn) / Math.max(1, lanes.length)));
  const lanesWidth = laneWidth * lanes.length;
  const laneX = useCallback((name: string) => stepColumn + ((laneIndex.get(name) ?? 0) + 0.5) * laneWidth, [laneIndex, laneWidth]);

  const { main, internal } = caches;
  const expansions: Expansion[] = sortedExpansions(
    [...expanded].flatMap((row) => {
      const held = main.get(row);
      return held && held.folded > 0 ? [{ row, step: held.record.step, count: held.folded }] : [];
    }),
    main.firstRow,
  );
  const count = itemCount(main.firstRow, main.rows, expansions);

  // eslint-disable-next-line react-hooks/incompatible-library -- rows render from the virtualizer's state on every scroll; nothing below memoises its functions
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 5 });

  // ── Questions to the worker, and their answers ──
  const queries = useRef({ next: 1, pending: new Map<number, Query>(), locate: { id: -1, step: 0 }, scrollTo: null as { row: number; step: number } | null });
  const ask = useCallback((cache: RowCache, query: { fromRow?: number; fromStep?: number; count: number }) => {
    const q = queries.current;
    const id = q.next++;
    q.pending.set(id, { at: performance.now(), cache });
    // Slim payloads: a row needs only its label; clicking it seeks, and the step's own panels show it whole.
    actions.traceRange({ id, level: cache.level, payloads: 'slim', ...query });
    return id;
  }, [actions]);
  const busy = useCallback((cache: RowCache) => {
    const now = performance.now();
    for (const [id, query] of queries.current.pending) {
      if (now - query.at > staleQueryMs) queries.current.pending.delete(id);
      else if (query.cache === cache) return true;
    }
    return false;
  }, []);

  const pinned = useRef(expanded);
  useEffect(() => {
    pinned.current = expanded;
  }, [expanded]);

  // What the view wants to know next about the playhead: the row holding a step (to scroll there), or
  // only the totals. One question at a time, so while playing the newest position wins and nothing piles up.
  const wanted = useRef<{ step: number | null; totals: boolean }>({ step: null, totals: false });
  const pump = useCallback(() => {
    const want = wanted.current;
    if (busy(main)) return;
    if (want.step !== null) {
      const step = want.step;
      queries.current.locate = { id: ask(main, { fromStep: Math.max(1, step), count: 0 }), step };
    } else if (want.totals) {
      ask(main, { fromRow: Math.max(main.firstRow, main.rows - 1), count: 0 });
    }
    want.step = null;
    want.totals = false;
  }, [main, ask, busy]);

  useEffect(() => {
    const q = queries.current;
    q.pending.clear();
    return store.subscribe((state, previous) => {
      const answer = state.traceRange;
      if (!answer || answer === previous.traceRange) return;
      const query = q.pending.get(answer.id);
      if (!query) return;
      q.pending.delete(answer.id);
      // A new epoch (new cluster, fork, restore): the rows expanded before mean nothing now.
      if (query.cache === main && answer.epoch !== main.epoch && pinned.current.size > 0) setExpanded(new Set());
      let changed = query.cache.apply(answer, query.cache === main ? pinned.current : undefined);
      if (answer.id === q.locate.id) {
        q.scrollTo = { row: answer.fromRow, step: q.locate.step };
        changed = true;
      }
      pump();
      if (changed) redraw();
    });
  }, [store, main, internal, pump]);

  // The playhead moved: find its row (and the totals), then scroll there; or only the totals.
  useEffect(() => {
    if (follow) wanted.current.step = position;
    else wanted.current.totals = true;
    pump();
  }, [position, follow, pump]);

  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;

  useLayoutEffect(() => {
    const q = queries.current;
    if (!q.scrollTo) return;
    const { row, step } = q.scrollTo;
    q.scrollTo = null;
    if (row < main.firstRow || row >= main.rows) return;
    virtualizer.scrollToIndex(indexOf(row, main.firstRow, expansions, step), { align: 'center' });
  });

  // Rows the window shows but the caches lack: ask for them, one question per cache at a time.
  useEffect(() => {
    if (last < first) return;
    let lowRow = Number.POSITIVE_INFINITY;
    let highRow = -1;
    let lowStep = Number.POSITIVE_INFINITY;
    let highStep = -1;
    for (let i = first; i <= last; i++) {
      const item = itemAt(i, main.firstRow, expansions);
      if (item.type === 'row') {
        lowRow = Math.min(lowRow, item.row);
        highRow = Math.max(highRow, item.row);
      } else {
        lowStep = Math.min(lowStep, item.step);
        highStep = Math.max(highStep, item.step);
      }
    }
    const gap = highRow >= 0 ? main.missing(lowRow, highRow) : null;
    if (gap && !busy(main)) {
      const from = Math.max(main.firstRow, gap[0] - (gap[0] === lowRow ? Math.floor(chunk / 4) : 0));
      ask(main, { fromRow: from, count: Math.min(traceRangeLimit, Math.max(chunk, gap[1] - from + 1)) });
    }
    if (main !== internal && highStep >= 0) {
      const folded = internal.missing(lowStep - 1, highStep - 1);
      if (folded && !busy(internal)) ask(internal, { fromRow: folded[0], count: Math.min(traceRangeLimit, Math.max(chunk, folded[1] - folded[0] + 1)) });
    }
  });

  const toggle = useCallback((row: number) => setExpanded((held) => {
    const next = new Set(held);
    if (!next.delete(row)) next.add(row);
    return next;
  }), []);
  const seek = useCallback((step: number) => actions.seek(step), [actions]);

  // The row holding the step shown, among those in view.
  let currentRow = -1;
  for (const virtual of items) {
    const it = itemAt(virtual.index, main.firstRow, expansions);
    if (it.type !== 'row') continue;
    const held = main.get(it.row);
    if (held && held.record.step <= position && position <= held.record.step + held.folded) currentRow = it.row;
  }

  const milestoneOf = (record: TraceRecord): Milestone | undefined => record.milestone ?? milestonesByStep.get(record.step);
  const firstStep = main.get(main.firstRow)?.record.step;

  return (
    <section className="sequence-view" aria-label={t('region')} data-testid="sequence-view" data-level={level}>
      <div className="sequence-toolbar">
        <strong>{t('title')}</strong>
        <label>
          {t('level.label')}{' '}
          <select value={level} onChange={(event) => setLevel(event.target.value as ViewLevel)} aria-label={t('level.label')}>
            <option value="milestone">{t('level.milestone')}</option>
            <option value="request">{t('level.request')}</option>
            <option value="internal">{t('level.internal')}</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} /> {t('follow')}
        </label>
        <span className="muted" data-testid="sequence-summary">
          {main.rows > main.firstRow
            ? t('summary', { rows: (main.rows - main.firstRow).toLocaleString(), first: (firstStep ?? main.firstRow + 1).toLocaleString(), last: main.lastStep.toLocaleString() })
            : t('summaryEmpty')}
        </span>
        {main.payloadsFrom > (firstStep ?? 1) && (
          <span className="muted" data-testid="sequence-payloads">{t('payloadsFrom', { step: main.payloadsFrom.toLocaleString(), count: (main.lastStep - main.payloadsFrom + 1).toLocaleString() })}</span>
        )}
        <span className="muted sequence-hint">{t('seekHint')}</span>
      </div>
      <div className="sequence-lanes" ref={header} aria-hidden="true">
        <div className="sequence-lanes-inner" style={{ width: stepColumn + lanesWidth + milestoneColumn }}>
          <span className="sequence-lane-title sequence-lane-title--step" style={{ width: stepColumn }}>{t('stepColumn')}</span>
          {lanes.map((lane) => (
            <span key={lane.name} className="sequence-lane-title" style={{ width: laneWidth }} title={lane.name} data-testid="sequence-lane">
              {lane.role === 'user' ? t('user') : lane.name}
            </span>
          ))}
          <span className="sequence-lane-title sequence-lane-title--milestone" style={{ width: milestoneColumn }}>{t('milestoneColumn')}</span>
        </div>
      </div>
      <div
        className="sequence-scroller"
        ref={scroller}
        data-testid="sequence-scroller"
        onScroll={(event) => {
          if (header.current) header.current.scrollLeft = event.currentTarget.scrollLeft;
        }}
      >
        <div
          className="sequence-body"
          style={{
            height: virtualizer.getTotalSize(),
            width: stepColumn + lanesWidth + milestoneColumn,
            backgroundSize: `${lanesWidth}px 100%`,
            backgroundPosition: `${stepColumn}px 0`,
            backgroundImage: `repeating-linear-gradient(to right, transparent 0 ${laneWidth / 2 - 0.5}px, var(--seq-lifeline) ${laneWidth / 2 - 0.5}px ${laneWidth / 2 + 0.5}px, transparent ${laneWidth / 2 + 0.5}px ${laneWidth}px)`,
          }}
        >
          {items.map((virtual) => {
            const item = itemAt(virtual.index, main.firstRow, expansions);
            const held = item.type === 'row' ? main.get(item.row) : internal.get(item.step - 1);
            return (
              <SequenceItemRow
                key={item.type === 'row' ? `r${item.row}` : `f${item.step}`}
                item={item}
                held={held}
                top={virtual.start}
                position={position}
                current={item.type === 'row' ? item.row === currentRow && !(expanded.has(item.row) && held?.record.step !== position) : item.step === position}
                expanded={item.type === 'row' && expanded.has(item.row)}
                milestone={held ? milestoneOf(held.record) : undefined}
                laneX={laneX}
                laneWidth={laneWidth}
                right={stepColumn + lanesWidth}
                onSeek={seek}
                onToggle={toggle}
                t={t}
              />
            );
          })}
        </div>
      </div>
    </section>
  );
}

interface ItemProps {
  readonly item: SequenceItem;
  readonly held: SequenceRow | undefined;
  readonly top: number;
  readonly position: number;
  readonly current: boolean;
  readonly expanded: boolean;
  readonly milestone: Milestone | undefined;
  readonly laneX: (name: string) => number;
  readonly laneWidth: number;
  /** Where the milestone column starts. */
  readonly right: number;
  readonly onSeek: (step: number) => void;
  readonly onToggle: (row: number) => void;
  /** The parent's translator: rows do not subscribe to i18n one by one. */
  readonly t: TFunction<'sequence'>;
}

const SequenceItemRow = memo(function SequenceItemRow({ item, held, top, position, current, expanded, milestone, laneX, laneWidth, right, onSeek, onToggle, t }: ItemProps) {
  const style = { transform: `translateY(${top}px)`, height: rowHeight };
  if (!held) {
    return (
      <div className="sequence-row sequence-row--pending" style={style} data-testid="sequence-row-pending">
        <span className="sequence-step">{item.type === 'folded' ? item.step : ''}</span>
        <span className="muted sequence-pending">{t('pendingRow')}</span>
      </div>
    );
  }
  const { record, folded } = held;
  const label = labelOf(record);
  const failed = label.failed || (milestone !== undefined && isFailureMilestone(milestone));
  const milestoneText = milestone ? milestoneLabel(milestone, t) : null;
  const milestoneShort = milestone ? milestoneLabel(milestone, t, true) : null;
  const x1 = laneX(record.from);
  const x2 = laneX(record.to);
  const self = record.from === record.to;
  const left = self ? x1 : Math.min(x1, x2);
  const span = self ? laneWidth * 0.9 : Math.abs(x2 - x1);
  const future = record.step > position;
  const description = [
    t('row', { step: record.step, label: label.text, from: record.from, to: record.to }),
    failed ? t('rowFailed') : null,
    milestoneText ? t('rowMilestone', { milestone: milestoneText }) : null,
    current ? t('rowCurrent') : null,
    future ? t('rowFuture') : null,
  ].filter(Boolean).join(', ');
  const classes = [
    'sequence-row',
    `sequence-row--${messageFamily(record.kind)}`,
    item.type === 'folded' ? 'sequence-row--folded' : '',
    isResponse(record) ? 'sequence-row--response' : '',
    failed ? 'sequence-row--failed' : '',
    milestone ? 'sequence-row--milestone' : '',
    current ? 'sequence-row--current' : '',
    future ? 'sequence-row--future' : '',
  ].filter(Boolean).join(' ');
  return (
    <div
      className={classes}
      style={style}
      data-testid="sequence-row"
      data-step={record.step}
      data-kind={record.kind}
      data-current={current ? 'true' : undefined}
      data-failed={failed ? 'true' : undefined}
    >
      <span className="sequence-step">{record.step}</span>
      <button
        type="button"
        className={`sequence-arrow${self ? ' sequence-arrow--self' : x2 < x1 ? ' sequence-arrow--left' : ' sequence-arrow--right'}`}
        style={{ left: left - 6, width: span + 12 }}
        data-testid="sequence-arrow"
        data-step={record.step}
        data-from={record.from}
        data-to={record.to}
        aria-label={description}
        aria-current={current ? 'step' : undefined}
        title={label.text}
        onClick={() => onSeek(record.step)}
      >
        <span className="sequence-line" />
        <span className={`sequence-label${self ? ' sequence-label--self' : ''}`} style={self ? undefined : { width: Math.max(span, Math.min(2 * laneWidth, 220)) }}>
          {label.text}
        </span>
      </button>
      {item.type === 'row' && folded > 0 && (
        <button
          type="button"
          className="sequence-fold"
          style={{ left: Math.max(x1, x2) + (self ? laneWidth * 0.9 : 0) + 10 }}
          aria-expanded={expanded}
          aria-label={t(expanded ? 'foldedHide' : 'foldedShow', { count: folded })}
          data-testid="sequence-fold"
          onClick={() => onToggle(item.row)}
        >
          {t('foldedBadge', { count: folded })}
        </button>
      )}
      {milestoneText !== null && (
        <span className="sequence-milestone" style={{ left: right }} data-testid="sequence-milestone" data-kind={milestone!.kind} data-step={record.step} title={milestoneText ?? undefined}>
          {milestoneShort}
        </span>
      )}
    </div>
  );
});
