import { describe, expect, it } from 'vitest';
import { flightPhase, flightProgress } from './flight.ts';
import { Playhead, presentationLag, type PlaybackFrame, type PlayheadOptions } from './playhead.ts';

const paused: PlaybackFrame = { dtMs: 100, playing: false, speed: 0.01, reducedMotion: false };
const playing: PlaybackFrame = { dtMs: 100, playing: true, speed: 0.01, reducedMotion: false };

/** A playhead for a cluster whose longest flight is 5 virtual ms. */
function playheadFor(options?: PlayheadOptions): Playhead {
  const playhead = new Playhead(options);
  playhead.reset(5);
  return playhead;
}

function frames(playhead: Playhead, frame: PlaybackFrame, count: number): number[] {
  return Array.from({ length: count }, () => playhead.advance(frame));
}

describe('Playhead', () => {
  it('travels to a stepped target over the transition time, easing in and out, then rests', () => {
    const playhead = playheadFor({ transitionMs: 400, maxBehindMs: 500 });
    playhead.follow(10, false);
    const times = frames(playhead, paused, 5);
    expect(times[0]).toBeLessThan(2.5);
    expect(times[1]).toBe(5);
    expect(times[2]).toBeGreaterThan(7.5);
    expect(times.slice(3)).toEqual([10, 10]);
  });

  it('does not move when the engine reports the clock it already followed (pause freezes)', () => {
    const playhead = playheadFor();
    playhead.follow(20, true);
    frames(playhead, playing, 10);
    const frozen = playhead.time;
    playhead.follow(20, false);
    expect(frames(playhead, paused, 3)).toEqual([frozen, frozen, frozen]);
  });

  it('plays at speed, staying lag behind the engine', () => {
    const playhead = playheadFor();
    // A first clock under the lag: it starts at 0.
    playhead.follow(1, true);
    playhead.advance(playing);
    playhead.follow(7, true);
    expect(frames(playhead, playing, 4)).toEqual([1, 2, 2, 2]);
    playhead.follow(9, true);
    expect(frames(playhead, playing, 3)).toEqual([3, 4, 4]);
  });

  it('plays at twice the speed while behind by more than half maxBehindMs of playback', () => {
    const playhead = playheadFor({ transitionMs: 600, maxBehindMs: 500 });
    // A first clock under the lag: it starts at 0.
    playhead.follow(1, true);
    playhead.advance(playing);
    // 4 virtual ms ahead at 0.01: 400 ms of playback behind.
    playhead.follow(9, true);
    expect(frames(playhead, playing, 4)).toEqual([2, 3, 4, 4]);
  });

  it('skips ahead rather than trail the engine by more than maxBehindMs of playback', () => {
    const playhead = playheadFor({ transitionMs: 600, maxBehindMs: 500 });
    // A first clock under the lag: it starts at 0.
    playhead.follow(1, true);
    playhead.advance(playing);
    playhead.follow(1000, true);
    expect(playhead.advance({ ...playing, speed: 1 })).toBe(1000 - 5 - 500);
  });

  it('never trails the clock it followed before the last one (less lag): the worker ships the flights of about one report back', () => {
    // A bound for catching up far beyond these gaps: only the floor moves the playhead faster than speed.
    const playhead = playheadFor({ transitionMs: 600, maxBehindMs: 5_000 });
    playhead.follow(1, true);
    playhead.advance(playing);
    // Reports 4 virtual ms apart at 0.01× (1 ms a frame): the playhead keeps within one report of the engine.
    playhead.follow(5, true);
    playhead.follow(9, true);
    expect(playhead.advance(playing)).toBe(1);
    playhead.follow(13, true);
    // Behind 9 − 5 by more than a frame's 1 ms: it jumps to the previous clock less the lag.
    expect(playhead.advance(playing)).toBe(4);
    playhead.follow(17, true);
    expect(frames(playhead, playing, 3)).toEqual([8, 9, 10]);
  });

  it('plays from the step shown when Play is pressed during a stepped transition', () => {
    const playhead = playheadFor({ transitionMs: 600, maxBehindMs: 500 });
    playhead.follow(100, false);
    const midway = playhead.advance(paused);
    expect(midway).toBeLessThan(50);
    playhead.follow(100, true);
    expect(playhead.advance(playing)).toBe(95);
  });

  it('joins a cluster already running (a page attaching to a server) lag behind its first clock', () => {
    const playhead = playheadFor();
    // The page's status before the server's first one: 0.
    playhead.follow(0, true);
    playhead.follow(3028, true);
    expect(playhead.advance({ ...playing, speed: 1, dtMs: 16 })).toBe(3023);
    playhead.follow(3061, true);
    expect(playhead.advance({ ...playing, speed: 1, dtMs: 16 })).toBe(3039);
    // Paused, its first clock is travelled to as any other.
    const paused1 = playheadFor();
    paused1.follow(10, false);
    expect(paused1.advance(paused)).toBeLessThan(10);
  });

  it('never runs backwards', () => {
    const playhead = playheadFor();
    playhead.follow(50, false);
    frames(playhead, paused, 10);
    playhead.follow(50, true);
    expect(playhead.advance(playing)).toBe(50);
  });

  it('jumps to the target with reduced motion', () => {
    const playhead = playheadFor();
    playhead.follow(42, false);
    expect(playhead.advance({ ...paused, reducedMotion: true })).toBe(42);
    playhead.follow(43, true);
    expect(playhead.advance({ ...playing, reducedMotion: true })).toBe(43);
  });

  it('goes back to 0 for a new cluster', () => {
    const playhead = playheadFor();
    playhead.follow(42, false);
    frames(playhead, paused, 10);
    playhead.reset(5);
    expect(playhead.advance(paused)).toBe(0);
  });

  it('lags by the longest flight a link allows', () => {
    expect(presentationLag(null)).toBe(0);
    expect(presentationLag({ components: [], links: [{ a: 'x', b: 'y', latency: 5, jitter: 0.5 }, { a: 'y', b: 'z', latency: 1, jitter: 0.5 }] })).toBe(5.5);
  });
});

describe('flight', () => {
  const message = { sentAt: 10, deliverAt: 15 };

  it.each([
    [9, 'unsent', 0],
    [10, 'in-flight', 0],
    [12.5, 'in-flight', 0.5],
    [15, 'arrived', 1],
    [15.001, 'gone', 1],
  ] as const)('at t=%d the message is %s with progress %d', (t, phase, progress) => {
    expect(flightPhase(message, t)).toBe(phase);
    expect(flightProgress(message, t)).toBe(progress);
  });

  it('treats an instant delivery as arrived at its time', () => {
    expect(flightPhase({ sentAt: 3, deliverAt: 3 }, 3)).toBe('arrived');
    expect(flightProgress({ sentAt: 3, deliverAt: 3 }, 3)).toBe(1);
  });
});
