// The token labels, drawn apart from the tokens: on each link at most one readable label at a time — the
// selected message's, else the step shown's, else the newest drawn — with the count of the link's other
// tokens (`+3`), placed by token-placement.ts so that no label covers another or a component's title.
// Hovering or focusing a token shows its own label beside it (`token-hover-label`). The layer is DOM
// written directly, from the token layer's per-frame pass: it changes only when a link's chosen message,
// its text or its count changes, so a frame where nothing changed costs one pass over the tokens.

import type { Flight } from '../../protocol/index.ts';
import { isDrawn, type FlightPhase } from '../playback/flight.ts';
import type { Point, Rect } from './geometry.ts';
import { messageFamily } from './message-kind.ts';
import { tokenLabel, type TokenLabel } from './token-label.ts';
import { placeLabels, type LabelPlacement, type LabelRequest } from './token-placement.ts';

const svg = 'http://www.w3.org/2000/svg';
const fontSize = 11;
const labelHeight = 16;
const padding = 4;

/** A token as the layer sees it: its flight and where the token layer last put it. */
export interface LabelledToken {
  readonly flight: Flight;
  readonly phase: FlightPhase | null;
  readonly x: number;
  readonly y: number;
}

/** The component boxes and their titles (heading) in flow coordinates. */
export interface Obstacles {
  readonly titles: readonly Rect[];
  readonly boxes: readonly Rect[];
}

const texts = new WeakMap<Flight, TokenLabel>();
/** What a token's label says (a flight shipped while playing carries the fields its label reads). */
export function labelOf(flight: Flight): TokenLabel {
  let label = texts.get(flight);
  if (!label) {
    label = tokenLabel(flight);
    texts.set(flight, label);
  }
  return label;
}

/** The link a message travels, the same key both ways. */
export function linkKey(flight: Pick<Flight, 'from' | 'to'>): string {
  return flight.from < flight.to ? `${flight.from}--${flight.to}` : `${flight.to}--${flight.from}`;
}

let context: CanvasRenderingContext2D | null | undefined;
/** Each character's advance at the labels' font, measured once: a label's width is their sum (the labels' text has no kerning worth a pixel). */
const advances = new Map<string, number>();
function advance(ch: string): number {
  let width = advances.get(ch);
  if (width !== undefined) return width;
  if (context === undefined) {
    context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (context) context.font = `600 ${fontSize}px ${getComputedStyle(document.body).fontFamily}`;
  }
  width = context ? context.measureText(ch).width : 6.6;
  advances.set(ch, width);
  return width;
}
function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += advance(ch);
  return width;
}

/**
 * Widths are reserved for the labels in steps of this many flow units, so that a label's text changing
 * (the next revision, the count of the others) seldom makes the labels be placed again.
 */
export const widthStep = 16;

/**
 * Where each link's label goes, placed again (placeLabels) only when the labelled links, their reserved
 * widths, which are important, the links or the obstacles changed; `placements` is each link's last spot,
 * which placing again prefers.
 */
export class LabelLayout {
  private signature = '';
  private obstacles: Obstacles | null = null;
  private segments: ReadonlyMap<string, readonly [Point, Point]> | null = null;
  private result: ReadonlyMap<string, LabelPlacement | null> = new Map();
  private readonly placements = new Map<string, LabelPlacement>();

  /** The placements of `requests` (widths as reserved: multiples of `widthStep`), by link key. */
  place(requests: readonly LabelRequest[], segments: ReadonlyMap<string, readonly [Point, Point]>, obstacles: Obstacles): ReadonlyMap<string, LabelPlacement | null> {
    const signature = requests.map((r) => `${r.key}:${r.width}:${r.important ? 1 : 0}`).join('|');
    if (signature === this.signature && segments === this.segments && obstacles === this.obstacles) return this.result;
    // Spots on other links (a new layout) are no one's last spot.
    if (segments !== this.segments) this.placements.clear();
    this.signature = signature;
    this.segments = segments;
    this.obstacles = obstacles;
    this.result = placeLabels(requests, obstacles.titles, obstacles.boxes, this.placements);
    this.placements.clear();
    for (const [key, placement] of this.result) if (placement) this.placements.set(key, placement);
    return this.result;
  }
}

interface LinkLabel {
  readonly g: SVGGElement;
  readonly rect: SVGRectElement;
  readonly text: SVGTextElement;
  readonly main: SVGTSpanElement;
  readonly count: SVGTSpanElement;
  shown: string;
  placement: LabelPlacement | null;
  /** The pill's width (its text's), within the placement's reserved width. */
  width: number;
}

/** A link's labelled message and how many other tokens the link has drawn. */
export interface Choice {
  readonly key: string;
  readonly flight: Flight;
  readonly others: number;
  readonly rank: number;
}

/**
 * Each link's labelled token among those drawn: the selected message's, else the step shown's, else the
 * newest (highest id); most important first (that order, then newest), as the labels are placed.
 */
export function chooseLabels(tokens: Iterable<Pick<LabelledToken, 'flight' | 'phase'>>, step: number, selected: number | null): Choice[] {
  const byLink = new Map<string, { best: Flight; rank: number; count: number }>();
  for (const { flight, phase } of tokens) {
    if (phase === null || !isDrawn(phase)) continue;
    const key = linkKey(flight);
    const rank = flight.id === selected ? 3 : flight.step === step ? 2 : 1;
    const held = byLink.get(key);
    if (!held) byLink.set(key, { best: flight, rank, count: 1 });
    else {
      held.count++;
      if (rank > held.rank || (rank === held.rank && flight.id > held.best.id)) {
        held.best = flight;
        held.rank = rank;
      }
    }
  }
  const choices: Choice[] = [];
  for (const [key, { best, rank, count }] of byLink) choices.push({ key, flight: best, others: count - 1, rank });
  return choices.sort((a, b) => b.rank - a.rank || b.flight.id - a.flight.id);
}

/** A label's group: its background and its text, not yet in the layer. */
function labelShape(testId: string): { g: SVGGElement; rect: SVGRectElement; text: SVGTextElement } {
  const g = document.createElementNS(svg, 'g');
  g.setAttribute('data-testid', testId);
  g.setAttribute('aria-hidden', 'true');
  const rect = document.createElementNS(svg, 'rect');
  rect.setAttribute('class', 'token-label-bg');
  rect.setAttribute('rx', '3');
  rect.setAttribute('height', String(labelHeight));
  const text = document.createElementNS(svg, 'text');
  text.setAttribute('x', String(padding));
  text.setAttribute('y', String(labelHeight - 4));
  g.append(rect, text);
  return { g, rect, text };
}

export class TokenLabels {
  private readonly labels = new Map<string, LinkLabel>();
  private readonly layout = new LabelLayout();
  private signature = '';
  private hover: { g: SVGGElement; rect: SVGRectElement; text: SVGTextElement } | null = null;

  constructor(private readonly root: SVGGElement) {}

  /**
   * Picks each link's labelled token and places the labels. `segments` by link key (canonical order),
   * `step` the step shown, `selected` the selected message's id.
   */
  update(tokens: Iterable<LabelledToken>, segments: ReadonlyMap<string, readonly [Point, Point]>, obstacles: Obstacles, step: number, selected: number | null): void {
    const choices = chooseLabels(tokens, step, selected).filter((c) => segments.has(c.key));
    const shown = choices.map((c) => `${c.key}:${labelOf(c.flight).text}:${c.others}:${c.rank > 1}`).join('|');
    if (shown === this.signature) return;
    this.signature = shown;

    const widths = choices.map((c) => this.widthOf(c));
    const requests: LabelRequest[] = choices.map((c, i) => ({
      key: c.key, segment: segments.get(c.key)!, width: Math.ceil(widths[i]! / widthStep) * widthStep, height: labelHeight, important: c.rank > 1,
    }));
    const placed = this.layout.place(requests, segments, obstacles);
    const keep = new Set<string>();
    choices.forEach((choice, i) => {
      const placement = placed.get(choice.key) ?? null;
      if (!placement) return;
      keep.add(choice.key);
      this.draw(choice, placement, widths[i]!);
    });
    for (const [key, label] of this.labels) {
      if (keep.has(key)) continue;
      label.g.remove();
      this.labels.delete(key);
    }
  }

  /** Shows `flight`'s own label beside its token at (x, y), or hides it (null). */
  showHover(flight: Flight | null, at?: Point): void {
    if (!flight || !at) {
      this.hover?.g.remove();
      this.hover = null;
      return;
    }
    this.hover ??= labelShape('token-hover-label');
    const label = labelOf(flight);
    const width = textWidth(label.text) + 2 * padding;
    const { g, rect, text } = this.hover;
    g.setAttribute('class', `token-label token-label--hover token--${messageFamily(flight.kind)}${label.failed ? ' token--failed' : ''}`);
    text.textContent = label.text;
    rect.setAttribute('width', String(width));
    g.setAttribute('transform', `translate(${at.x - width / 2}, ${at.y - 12 - labelHeight})`);
    this.root.append(g);
  }

  private widthOf(choice: Choice): number {
    return textWidth(labelOf(choice.flight).text + (choice.others > 0 ? ` +${choice.others}` : '')) + 2 * padding;
  }

  private draw(choice: Choice, placement: LabelPlacement, width: number): void {
    let label = this.labels.get(choice.key);
    if (!label) {
      const { g, rect, text } = labelShape('token-label');
      const main = document.createElementNS(svg, 'tspan');
      const count = document.createElementNS(svg, 'tspan');
      count.setAttribute('class', 'token-label-count');
      text.append(main, count);
      this.root.append(g);
      label = { g, rect, text, main, count, shown: '', placement: null, width: 0 };
      this.labels.set(choice.key, label);
    }
    const { text: words, failed } = labelOf(choice.flight);
    const shown = `${choice.flight.id}:${words}:${choice.others}`;
    if (label.shown !== shown) {
      label.shown = shown;
      label.g.setAttribute('class', `token-label token--${messageFamily(choice.flight.kind)}${failed ? ' token--failed' : ''}`);
      label.g.dataset.messageId = String(choice.flight.id);
      label.g.dataset.link = choice.key;
      label.main.textContent = words;
      label.count.textContent = choice.others > 0 ? ` +${choice.others}` : '';
    }
    // The selected message's or the step shown's: the only labels that may lie over a component's body.
    const important = String(choice.rank > 1);
    if (label.g.dataset.important !== important) label.g.dataset.important = important;
    // The pill is as wide as its text, centred in the width reserved.
    if (label.placement?.rect !== placement.rect || label.width !== width) {
      label.placement = placement;
      label.width = width;
      label.rect.setAttribute('width', String(width));
      label.g.setAttribute('transform', `translate(${placement.rect.x + (placement.rect.width - width) / 2}, ${placement.rect.y})`);
    }
  }
}
