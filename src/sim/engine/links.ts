// The links between components. Every pair of components that talk is linked with a latency and an
// optional jitter, in both directions. Delivery on a directed link is FIFO (as on a TCP stream): jitter
// may delay a message but never lets it overtake an earlier one on the same link.

import type { Rng } from './rng.ts';
import { roundToMicros, type Duration, type Time } from './time.ts';

export interface LinkOptions {
  /** One-way latency, virtual ms. */
  readonly latency: Duration;
  /** Up to this much extra delay per message, drawn from the seeded RNG. */
  readonly jitter?: Duration;
}

interface DirectedLink {
  readonly latency: Duration;
  readonly jitter: Duration;
  lastDeliverAt: Time;
}

export class Links {
  private readonly byFrom = new Map<string, Map<string, DirectedLink>>();

  /** Links `a` and `b` in both directions (callers check that both exist). */
  link(a: string, b: string, options: LinkOptions): void {
    if (a === b) throw new Error(`link: a component is always linked to itself (${a})`);
    if (!(options.latency >= 0) || !((options.jitter ?? 0) >= 0)) throw new RangeError(`link ${a}<->${b}: negative latency`);
    this.directed(a).set(b, { latency: options.latency, jitter: options.jitter ?? 0, lastDeliverAt: 0 });
    this.directed(b).set(a, { latency: options.latency, jitter: options.jitter ?? 0, lastDeliverAt: 0 });
  }

  /** Changes a link's latency and jitter in both directions; messages already queued keep their times. */
  setLatency(a: string, b: string, options: LinkOptions): void {
    for (const [from, to] of [[a, b], [b, a]] as const) {
      const link = this.byFrom.get(from)?.get(to);
      if (!link) throw new Error(`no link from ${from} to ${to}`);
      this.directed(from).set(to, { latency: options.latency, jitter: options.jitter ?? 0, lastDeliverAt: link.lastDeliverAt });
    }
  }

  has(a: string, b: string): boolean {
    return this.byFrom.get(a)?.has(b) ?? false;
  }

  /** The longest one-way delay any link allows now (latency + jitter, virtual ms; 0 without links). */
  longest(): Duration {
    let longest = 0;
    for (const targets of this.byFrom.values()) for (const link of targets.values()) longest = Math.max(longest, link.latency + link.jitter);
    return longest;
  }

  /**
   * When a message `kind` sent from `from` to `to` at `now` after an extra `delay` is delivered: draws
   * the link's jitter from `rng` and keeps the link FIFO.
   */
  deliverAt(from: string, to: string, kind: string, now: Time, delay: Duration, rng: Rng): Time {
    const link = this.byFrom.get(from)?.get(to);
    if (!link) throw new Error(`no link from ${from} to ${to} (message ${kind})`);
    let at = now + link.latency + delay;
    if (link.jitter > 0) at += link.jitter * rng.float();
    at = roundToMicros(at);
    if (at < link.lastDeliverAt) at = link.lastDeliverAt;
    link.lastDeliverAt = at;
    return at;
  }

  private directed(from: string): Map<string, DirectedLink> {
    let targets = this.byFrom.get(from);
    if (!targets) {
      targets = new Map();
      this.byFrom.set(from, targets);
    }
    return targets;
  }
}
