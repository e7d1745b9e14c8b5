// The tokens' elements, written outside React: one `<g>` per message drawn, created when its owner first
// shows it (while playing, when it is first drawn; most messages a report carries are already gone at
// the playhead and never are), updated only where its flight or the selection changed, and removed (kept
// for reuse) when the message leaves. Thousands of Pods put a few hundred tokens on and off the page with every worker report; as
// React components each was a render, a fiber and a dozen attribute commits, in the same long task as
// every panel. Its attributes, role and accessible name are those specs and benches look tokens up by
// (`data-testid="token"`, `data-kind`, `data-from`, `data-to`, `data-message-id`, `data-delivered`,
// `data-failed`, `data-phase`, which the token layer's per-frame pass writes). Clicks, keys, hovering
// and focus are listened to once, on the layer.

import type { Flight } from '../../protocol/index.ts';
import type { Point } from './geometry.ts';
import { describeMessage, isResponse, messageFamily } from './message-kind.ts';
import { labelOf } from './token-labels.ts';

const svg = 'http://www.w3.org/2000/svg';
/** Detached elements kept for the next tokens to join (more would only hold memory). */
const spareLimit = 256;

/** A message to draw, on its link's segment (first point at its sender). */
export interface DrawnToken {
  readonly flight: Flight;
  readonly segment: readonly [Point, Point];
}

/**
 * What the layer tells its owner: a message joined (`element` is its element, null until shown), its
 * token changed (a delivery recorded, its payload shipped again, the layout changed or shown now: placed
 * again where it is, keeping what it was shown as) or left. While playing, a message leaving that the
 * owner is not done with (still to come at its playhead, in flight or resting at its arrival) `lingers`:
 * it stays held (its element, once shown) until the owner `drop`s it.
 */
export interface TokenElementEvents {
  added(token: DrawnToken, element: SVGGElement | null): void;
  changed(token: DrawnToken, element: SVGGElement | null): void;
  removed(id: number): void;
  lingers(id: number): boolean;
  select(id: number): void;
  /** The token under the pointer or focused (its message id), or none (null). */
  hover(id: number | null): void;
}

/**
 * Sets (null: removes) an attribute only when it differs: an element reused, or handed from a message to
 * the next on the same link, keeps most of what it says.
 */
function write(element: Element, name: string, value: string | null): void {
  if (element.getAttribute(name) === value) return;
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}

/** A token's class: its message family, reply, failure and selection. */
function tokenClass(flight: Flight, selected: boolean): string {
  const failed = labelOf(flight).failed;
  return `token token--${messageFamily(flight.kind)}${isResponse(flight) ? ' token--response' : ''}${failed ? ' token--failed' : ''}${selected ? ' token--selected' : ''}`;
}

/** A token's accessible name: the message, its label, whether it failed and whether it is still in flight. */
function tokenName(flight: Flight): string {
  const label = labelOf(flight);
  return `${describeMessage(flight)}: ${label.text}${label.failed ? ' (failed)' : ''}${flight.step === null ? ', in flight' : ''}`;
}

interface Held {
  /** Null until shown. */
  element: SVGGElement | null;
  token: DrawnToken;
  selected: boolean;
  /** The class and accessible name written (a flight's delivery or selection changes them). */
  className: string;
  name: string;
  /** No longer held by the store, kept while its owner is not done with it (`lingers`). */
  leaving: boolean;
}

export class TokenElements {
  private readonly held = new Map<number, Held>();
  /** The message ids in drawing order, as last synced (where an element shown later goes). */
  private order: number[] = [];
  private readonly spare: SVGGElement[] = [];
  private readonly byElement = new WeakMap<Element, Held>();
  private hovered: SVGGElement | null = null;

  constructor(private readonly root: SVGGElement, private readonly events: TokenElementEvents) {
    root.addEventListener('click', this.onClick);
    root.addEventListener('keydown', this.onKeyDown);
    root.addEventListener('pointerover', this.onEnter);
    root.addEventListener('focusin', this.onEnter);
    root.addEventListener('pointerout', this.onLeave);
    root.addEventListener('focusout', this.onLeave);
  }

  /**
   * Holds exactly `tokens`, in their order (later ones on top), `selected` (a message id) marked; each
   * gets its element now when `showAll`, else when `show` is called for it. Unless `showAll` (paused: the
   * page shows what the step shows), a token leaving that its owner is not done with lingers until dropped.
   */
  sync(tokens: readonly DrawnToken[], selected: number | null, showAll: boolean): void {
    const wanted = new Set<number>();
    for (const token of tokens) wanted.add(token.flight.id);
    for (const [id, held] of this.held) {
      if (wanted.has(id)) held.leaving = false;
      else if (held.leaving && !showAll) continue;
      else if (!showAll && this.events.lingers(id)) held.leaving = true;
      else this.remove(id, held);
    }
    this.order = tokens.map((token) => token.flight.id);
    let cursor = this.root.firstChild;
    for (const token of tokens) {
      const { element } = this.draw(token, token.flight.id === selected, showAll);
      if (element === null) continue;
      if (element === cursor) cursor = cursor.nextSibling;
      else this.root.insertBefore(element, cursor);
    }
  }

  /** The element of message `id` (held), created and put in its drawing place if it had none. */
  show(id: number): SVGGElement | null {
    const held = this.held.get(id);
    if (!held) return null;
    if (held.element) return held.element;
    const element = this.attach(held);
    const at = this.order.indexOf(id);
    let before: SVGGElement | null = null;
    for (let i = at + 1; i < this.order.length && before === null; i++) before = this.held.get(this.order[i]!)?.element ?? null;
    this.root.insertBefore(element, before);
    return element;
  }

  /**
   * Gives message `to` (held, not shown) the element of message `from` (held, shown), which is left
   * without one: a token taking the place of another drawn at the same point. Its attributes are
   * rewritten; it is neither moved in the layer nor made anew. Null when either cannot.
   */
  handover(from: number, to: number): SVGGElement | null {
    const giver = this.held.get(from);
    const taker = this.held.get(to);
    const element = giver?.element;
    if (!giver || !element || !taker || taker.element) return null;
    giver.element = null;
    if (this.hovered === element) this.setHovered(null);
    return this.dress(taker, element);
  }

  /** Takes message `id`'s element off the page (kept for reuse) while the message stays held; `show` gives it one again. */
  release(id: number): void {
    const held = this.held.get(id);
    const element = held?.element;
    if (!held || !element) return;
    held.element = null;
    this.detach(element);
  }

  /** Removes a lingering token (its owner is done with it); false when it is held again (it stays). */
  drop(id: number): boolean {
    const held = this.held.get(id);
    if (!held?.leaving) return false;
    this.remove(id, held);
    return true;
  }

  /** Removes every element and listener (the layer unmounts). */
  dispose(): void {
    for (const [id, held] of this.held) this.remove(id, held);
    this.spare.length = 0;
    this.root.removeEventListener('click', this.onClick);
    this.root.removeEventListener('keydown', this.onKeyDown);
    this.root.removeEventListener('pointerover', this.onEnter);
    this.root.removeEventListener('focusin', this.onEnter);
    this.root.removeEventListener('pointerout', this.onLeave);
    this.root.removeEventListener('focusout', this.onLeave);
  }

  /** The message `token` held: as before (updated where its flight or selection changed) or new. */
  private draw(token: DrawnToken, selected: boolean, show: boolean): Held {
    const { flight } = token;
    const held = this.held.get(flight.id);
    if (!held) {
      const entry: Held = { element: null, token, selected, className: '', name: '', leaving: false };
      this.held.set(flight.id, entry);
      if (show) this.attach(entry);
      this.events.added(token, entry.element);
      return entry;
    }
    const { element } = held;
    if (element && (held.token.flight !== flight || held.selected !== selected)) this.describe(held, element, flight, selected);
    held.selected = selected;
    const attach = show && !element;
    if (attach || held.token.flight !== flight || held.token.segment !== token.segment) {
      // A delivery recorded, a payload shipped again, the layout changed or shown now: placed again.
      held.token = token;
      if (attach) this.attach(held);
      this.events.changed(token, held.element);
    }
    return held;
  }

  /** Gives `held` an element (detached) describing its message. */
  private attach(held: Held): SVGGElement {
    return this.dress(held, this.spare.pop() ?? this.create());
  }

  /** Makes `element` (reused, made or handed over) `held`'s, saying what its message is. */
  private dress(held: Held, element: SVGGElement): SVGGElement {
    held.element = element;
    held.className = '';
    held.name = '';
    this.identify(element, held.token.flight);
    this.describe(held, element, held.token.flight, held.selected);
    this.byElement.set(element, held);
    return element;
  }

  private create(): SVGGElement {
    const element = document.createElementNS(svg, 'g');
    element.setAttribute('data-testid', 'token');
    element.setAttribute('role', 'button');
    element.setAttribute('tabindex', '0');
    const dot = document.createElementNS(svg, 'circle');
    dot.setAttribute('class', 'token-dot');
    dot.setAttribute('r', '7');
    element.append(dot);
    return element;
  }

  /** What never changes for a message: its kind, its link and its id. */
  private identify(element: SVGGElement, flight: Flight): void {
    write(element, 'data-kind', flight.kind);
    write(element, 'data-from', flight.from);
    write(element, 'data-to', flight.to);
    write(element, 'data-message-id', String(flight.id));
  }

  /** What a delivery, a payload shipped again or the selection changes, written where it did. */
  private describe(held: Held, element: SVGGElement, flight: Flight, selected: boolean): void {
    const className = tokenClass(flight, selected);
    if (className !== held.className) {
      held.className = className;
      write(element, 'class', className);
      write(element, 'data-failed', labelOf(flight).failed ? 'true' : null);
    }
    const name = tokenName(flight);
    if (name !== held.name) {
      held.name = name;
      write(element, 'aria-label', name);
      write(element, 'data-delivered', String(flight.step !== null));
    }
    write(element, 'aria-pressed', String(selected));
  }

  private remove(id: number, held: Held): void {
    this.held.delete(id);
    this.events.removed(id);
    if (held.element) this.detach(held.element);
  }

  /** Takes `element` off the page, kept for the next token shown. */
  private detach(element: SVGGElement): void {
    this.byElement.delete(element);
    if (this.hovered === element) this.setHovered(null);
    element.remove();
    // A reused element keeps its phase, visibility and transform until its owner places it, before it is
    // attached again.
    if (this.spare.length < spareLimit) this.spare.push(element);
  }

  /** The held token element `target` is in, if any. */
  private tokenOf(target: EventTarget | null): Held | undefined {
    const element = target instanceof Element ? target.closest('[data-testid="token"]') : null;
    return element ? this.byElement.get(element) : undefined;
  }

  private setHovered(held: Held | null): void {
    const element = held?.element ?? null;
    if (this.hovered === element) return;
    this.hovered = element;
    this.events.hover(held ? held.token.flight.id : null);
  }

  private readonly onClick = (event: Event) => {
    const held = this.tokenOf(event.target);
    if (!held) return;
    event.stopPropagation();
    this.events.select(held.token.flight.id);
  };

  private readonly onKeyDown = (event: KeyboardEvent) => {
    const held = this.tokenOf(event.target);
    if (!held || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    event.stopPropagation();
    this.events.select(held.token.flight.id);
  };

  private readonly onEnter = (event: Event) => {
    const held = this.tokenOf(event.target);
    if (held) this.setHovered(held);
  };

  private readonly onLeave = (event: Event) => {
    const held = this.tokenOf(event.target);
    if (!held) return;
    const next = (event as PointerEvent | FocusEvent).relatedTarget;
    if (this.tokenOf(next) !== held) this.setHovered(null);
  };
}
