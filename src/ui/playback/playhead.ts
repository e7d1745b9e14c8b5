// The playhead: the virtual time the UI shows, following the engine's clock. Everything drawn in motion
// is a pure function of it (a token's position is its message's flight progress at the playhead), so
// pausing freezes every token consistently and nothing is animated on its own.
//
// How the playhead follows the engine (`target` = the engine's virtual now from the last status):
//   paused      it stays put; when a status brings a new target (a step, a run), it travels there over
//               `transitionMs` of real time with an ease-in-out, so a stepped message visibly flies;
//   playing     it advances at `speed` virtual ms per real ms, but stays `lag` behind the engine. The UI
//               learns of a message when it is delivered, so it can show the whole flight only of
//               messages delivered by the time the playhead reaches their send time: `lag` is the
//               longest flight a link allows. Behind by more than half `maxBehindMs` of real time (reports
//               that came late, in a burst), it plays at twice the speed until it is not; behind by more
//               than `maxBehindMs`, it skips. Nor does it trail the previous clock it followed (less
//               `lag`): the worker ships the flights of about one report back, so a playhead further
//               behind (the rest of a stepped transition when Play is pressed, a catch-up) would reach
//               flights the page no longer holds and draw none. The flights it skips over were held
//               unsent, so each rests at its arrival (TokenLayer's shownPhase) instead.
//               A new cluster's first clock while playing (a page attaching to a server's running
//               cluster) puts it `lag` behind that clock at once: nothing before it was shown to play through.
//   reduced motion  it jumps to the target: delivered messages sit at their end position.

import { easeInOut } from 'motion';
import { playheadMaxBehindMs, type Topology, type VirtualTime } from '../../protocol/index.ts';

export interface PlayheadOptions {
  /** Real ms a paused playhead takes to reach a new target. */
  readonly transitionMs: number;
  /** Real ms of playback the playhead may trail by before it skips ahead. */
  readonly maxBehindMs: number;
}

export interface PlaybackFrame {
  /** Real ms since the previous frame. */
  readonly dtMs: number;
  readonly playing: boolean;
  /** Virtual ms per real ms. */
  readonly speed: number;
  readonly reducedMotion: boolean;
}

export const defaultPlayheadOptions: PlayheadOptions = { transitionMs: 600, maxBehindMs: playheadMaxBehindMs };

export class Playhead {
  private t: VirtualTime = 0;
  private target: VirtualTime = 0;
  private transition: { from: VirtualTime; to: VirtualTime; elapsedMs: number } | null = null;
  private lag: VirtualTime = 0;
  /** Nothing of the cluster shown since the last reset: every clock followed since was 0. */
  private fresh = true;
  /** While playing, the least time shown: the clock followed before the last one, less `lag`. */
  private floor = 0;
  private playing = false;

  constructor(private readonly options: PlayheadOptions = defaultPlayheadOptions) {}

  /** The virtual time shown. */
  get time(): VirtualTime {
    return this.t;
  }

  /** A new cluster: back to virtual 0; while playing, stay `lag` virtual ms behind the engine. */
  reset(lag: VirtualTime): void {
    this.lag = lag;
    this.t = 0;
    this.target = 0;
    this.transition = null;
    this.fresh = true;
    this.floor = 0;
  }

  /** The engine reported its clock. */
  follow(now: VirtualTime, playing: boolean): void {
    if (this.fresh && playing) this.t = Math.max(0, now - this.lag);
    if (now !== this.target) this.fresh = false;
    if (!playing && now !== this.target) this.transition = { from: this.t, to: now, elapsedMs: 0 };
    // Play pressed: from the step shown (a stepped transition still under way is cut short); a new clock
    // while playing: no further back than the one before it.
    if (playing && (!this.playing || now !== this.target)) this.floor = this.target - this.lag;
    this.playing = playing;
    this.target = now;
  }

  /** Moves the playhead by one frame; returns the new time. */
  advance(frame: PlaybackFrame): VirtualTime {
    if (frame.reducedMotion) {
      this.transition = null;
      this.t = this.target;
    } else if (frame.playing) {
      this.transition = null;
      const ahead = this.target - this.lag;
      const rate = ahead - this.t > (frame.speed * this.options.maxBehindMs) / 2 ? 2 * frame.speed : frame.speed;
      const next = Math.max(Math.min(this.t + frame.dtMs * rate, ahead), ahead - frame.speed * this.options.maxBehindMs, this.floor);
      this.t = Math.max(this.t, next);
    } else if (this.transition) {
      const { from, to } = this.transition;
      const elapsedMs = this.transition.elapsedMs + frame.dtMs;
      const u = Math.min(1, elapsedMs / this.options.transitionMs);
      this.t = u === 1 ? to : from + (to - from) * easeInOut(u);
      this.transition = u === 1 ? null : { from, to, elapsedMs };
    }
    return this.t;
  }
}

/** The longest flight any link allows (latency + jitter), in virtual ms. */
export function presentationLag(topology: Topology | null): VirtualTime {
  return Math.max(0, ...(topology?.links ?? []).map((link) => link.latency + link.jitter));
}
