import { describe, expect, it } from 'vitest';
import { linkSegments, restMs, restShownMs, shownPhase, takesPlace, tokenAt } from './TokenLayer.tsx';

describe('token layer geometry', () => {
  const boxes = new Map([
    ['user', { x: 0, y: 0, width: 100, height: 50 }],
    ['etcd', { x: 300, y: 0, width: 100, height: 50 }],
  ]);
  const segments = linkSegments(boxes, [{ a: 'user', b: 'etcd' }, { a: 'user', b: 'nobody' }]);

  it('joins the boxes border to border, one segment per direction; links to unknown boxes have none', () => {
    expect(segments.get('user--etcd')).toEqual([{ x: 100, y: 25 }, { x: 300, y: 25 }]);
    expect(segments.get('etcd--user')).toEqual([{ x: 300, y: 25 }, { x: 100, y: 25 }]);
    expect(segments.has('user--nobody')).toBe(false);
  });

  it('places a token by the playhead alone: hidden before its send, moving in flight, resting on arrival, gone after', () => {
    const flight = { sentAt: 10, deliverAt: 14 };
    const reply = segments.get('etcd--user')!;
    expect(tokenAt(flight, reply, 9)).toEqual({ phase: 'unsent', x: 300, y: 25 });
    expect(tokenAt(flight, reply, 11)).toEqual({ phase: 'in-flight', x: 250, y: 25 });
    expect(tokenAt(flight, reply, 14)).toEqual({ phase: 'arrived', x: 100, y: 25 });
    expect(tokenAt(flight, reply, 14.5).phase).toBe('gone');
  });

  it('rests a token the playhead passed over between two frames at its arrival for restMs, then hides it', () => {
    // A 5 ms hop at 1×: one 16.7 ms frame carries the playhead from before its send to after its delivery.
    const hop = { sentAt: 100, deliverAt: 105 };
    const before = shownPhase(hop, 99, null, 0, 1_000);
    expect(before).toEqual({ phase: 'unsent', restUntil: 0 });
    const crossed = shownPhase(hop, 116, before.phase, before.restUntil, 1_017);
    expect(crossed).toEqual({ phase: 'arrived', restUntil: 1_017 + restMs });
    expect(shownPhase(hop, 133, crossed.phase, crossed.restUntil, 1_034).phase).toBe('arrived');
    expect(shownPhase(hop, 400, 'arrived', crossed.restUntil, 1_017 + restMs).phase).toBe('gone');
    // Seen in flight, or gone when it joined: gone is gone.
    expect(shownPhase(hop, 116, 'in-flight', 0, 1_017)).toEqual({ phase: 'gone', restUntil: 0 });
    expect(shownPhase(hop, 116, null, 0, 1_017).phase).toBe('gone');
    // Stepping back before its delivery ends the rest.
    expect(shownPhase(hop, 103, 'arrived', crossed.restUntil, 1_040)).toEqual({ phase: 'in-flight', restUntil: 0 });
  });

  it('does not rest a token a step or a jump passed over while paused: the view shows where it lands', () => {
    const hop = { sentAt: 100, deliverAt: 105 };
    expect(shownPhase(hop, 116, 'unsent', 0, 1_017, false)).toEqual({ phase: 'gone', restUntil: 0 });
    // A rest begun while playing runs out even if paused meanwhile.
    expect(shownPhase(hop, 116, 'arrived', 1_317, 1_100, false).phase).toBe('arrived');
  });
});

describe('a token coming to rest where another rests', () => {
  const resting = { phase: 'arrived' as const, restUntil: 1_300, restShownAt: 1_000 };
  it('takes its place once it has been shown restShownMs, never in the frame it came to rest', () => {
    expect(takesPlace(resting, 1_000)).toBe(false);
    expect(takesPlace(resting, 1_000 + restShownMs - 1)).toBe(false);
    expect(takesPlace(resting, 1_000 + restShownMs)).toBe(true);
  });
  it('not once its rest is over, nor of a token in flight', () => {
    expect(takesPlace(resting, 1_300)).toBe(false);
    expect(takesPlace({ ...resting, phase: 'in-flight' }, 1_100)).toBe(false);
  });
});

