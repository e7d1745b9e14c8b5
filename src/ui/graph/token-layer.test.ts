import { describe, expect, it } from 'vitest';
import { linkSegments, tokenAt } from './TokenLayer.tsx';

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
});
