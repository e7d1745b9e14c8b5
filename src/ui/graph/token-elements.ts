// The tokens' elements, written outside React: one `<g>` per message drawn, created when the message
// joins, updated only where its flight or the selection changed, and removed (kept for reuse) when it
// leaves. Thousands of Pods put a few hundred tokens on and off the page with every worker report; as
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

/** What the layer tells its owner: an element now draws `token` (place it), or draws nothing any more. */
export interface TokenElementEvents {
  added(element: SVGGElement, token: DrawnToken): void;
  removed(element: SVGGElement): void;
  select(id: number): void;
  /** The token under the pointer or focused (its element), or none (null). */
  hover(element: SVGGElement | null): void;
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
  readonly element: SVGGElement;
  token: DrawnToken;
  selected: boolean;
  /** The class and accessible name written (a flight's delivery or selection changes them). */
  className: string;
  name: string;
}

export class TokenElements {
  private readonly held = new Map<number, Held>();
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

  /** Draws exactly `tokens`, in their order (later ones on top), `selected` (a message id) marked. */
  sync(tokens: readonly DrawnToken[], selected: number | null): void {
    const wanted = new Set<number>();
    for (const token of tokens) wanted.add(token.flight.id);
    for (const [id, held] of this.held) {
      if (!wanted.has(id)) this.remove(id, held);
    }
    let cursor = this.root.firstChild;
    for (const token of tokens) {
      const element = this.draw(token, token.flight.id === selected);
      if (element === cursor) cursor = cursor.nextSibling;
      else this.root.insertBefore(element, cursor);
    }
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

  /** The element drawing `token`: held (updated where its flight or selection changed) or new. */
  private draw(token: DrawnToken, selected: boolean): SVGGElement {
    const { flight } = token;
    const held = this.held.get(flight.id);
    if (!held) {
      const element = this.spare.pop() ?? this.create();
      const entry: Held = { element, token, selected, className: '', name: '' };
      this.identify(element, flight);
      this.describe(entry, flight, selected);
      this.held.set(flight.id, entry);
      this.byElement.set(element, entry);
      this.events.added(element, token);
      return element;
    }
    if (held.token.flight !== flight || held.selected !== selected) this.describe(held, flight, selected);
    if (held.token.flight !== flight || held.token.segment !== token.segment) {
      // A delivery recorded, a payload shipped again or the layout changed: placed afresh.
      this.events.removed(held.element);
      held.token = token;
      this.events.added(held.element, token);
    }
    held.selected = selected;
    return held.element;
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
    element.setAttribute('data-kind', flight.kind);
    element.setAttribute('data-from', flight.from);
    element.setAttribute('data-to', flight.to);
    element.setAttribute('data-message-id', String(flight.id));
  }

  /** What a delivery, a payload shipped again or the selection changes, written where it did. */
  private describe(held: Held, flight: Flight, selected: boolean): void {
    const { element } = held;
    const fresh = held.className === '';
    const className = tokenClass(flight, selected);
    if (className !== held.className) {
      held.className = className;
      element.setAttribute('class', className);
      if (labelOf(flight).failed) element.setAttribute('data-failed', 'true');
      else element.removeAttribute('data-failed');
    }
    const name = tokenName(flight);
    if (name !== held.name) {
      held.name = name;
      element.setAttribute('aria-label', name);
      element.setAttribute('data-delivered', String(flight.step !== null));
    }
    if (fresh || selected !== held.selected) element.setAttribute('aria-pressed', String(selected));
  }

  private remove(id: number, held: Held): void {
    this.held.delete(id);
    this.byElement.delete(held.element);
    this.events.removed(held.element);
    if (this.hovered === held.element) this.setHovered(null);
    held.element.remove();
    // A reused element keeps its phase, visibility and transform until `added` places it, before it is
    // attached again.
    if (this.spare.length < spareLimit) this.spare.push(held.element);
  }

  /** The held token element `target` is in, if any. */
  private tokenOf(target: EventTarget | null): Held | undefined {
    const element = target instanceof Element ? target.closest('[data-testid="token"]') : null;
    return element ? this.byElement.get(element) : undefined;
  }

  private setHovered(element: SVGGElement | null): void {
    if (this.hovered === element) return;
    this.hovered = element;
    this.events.hover(element);
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
    if (held) this.setHovered(held.element);
  };

  private readonly onLeave = (event: Event) => {
    const held = this.tokenOf(event.target);
    if (!held) return;
    const next = (event as PointerEvent | FocusEvent).relatedTarget;
    if (this.tokenOf(next) !== held) this.setHovered(null);
  };
}
