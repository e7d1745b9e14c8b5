import { describe, expect, it } from 'vitest';
import type { Flight } from '../../protocol/index.ts';
import type { FlightPhase } from '../playback/flight.ts';
import { chooseLabels, LabelLayout, labelOf, linkKey, widthStep, type Obstacles } from './token-labels.ts';
import type { LabelRequest } from './token-placement.ts';

const flight = (id: number, from: string, to: string, step: number | null, kind = 'etcd.Txn'): Flight => ({
  id, from, to, kind, step, payload: {}, sentAt: 0, deliverAt: 1, cause: null, replyTo: null, background: false,
});
const drawn = (f: Flight, phase: FlightPhase | null = 'arrived') => ({ flight: f, phase });

describe('which token a link labels', () => {
  const request = flight(10, 'kube-apiserver', 'etcd', 40);
  const reply = flight(11, 'etcd', 'kube-apiserver', 41, 'etcd.TxnResponse');
  const newest = flight(12, 'kube-apiserver', 'etcd', null);
  const other = flight(5, 'user', 'kube-apiserver', 30, 'http.request');
  const tokens = [drawn(request), drawn(reply), drawn(newest, 'in-flight'), drawn(other), drawn(flight(13, 'etcd', 'kube-apiserver', null), 'unsent')];

  it('one label per link, both directions together, with the count of the others drawn', () => {
    expect(linkKey(reply)).toBe(linkKey(request));
    const choices = chooseLabels(tokens, 99, null);
    expect(choices.map((c) => [c.key, c.flight.id, c.others])).toEqual([['etcd--kube-apiserver', 12, 2], ['kube-apiserver--user', 5, 0]]);
  });

  it('the step shown beats the newest, the selected message beats both; the most important link comes first', () => {
    expect(chooseLabels(tokens, 41, null).map((c) => c.flight.id)).toEqual([11, 5]);
    expect(chooseLabels(tokens, 41, 10).map((c) => c.flight.id)).toEqual([10, 5]);
    expect(chooseLabels(tokens, 30, null).map((c) => c.flight.id)).toEqual([5, 12]);
  });

  it('a flight shipped while playing is labelled and coloured from the fields it carries', () => {
    expect(labelOf({ ...other, payload: { method: 'DELETE', path: '/api/v1/namespaces/default/pods/web-1' }, payloadOmitted: true }).text).toBe('DELETE …/pods/web-1');
    expect(labelOf({ ...reply, payload: { ok: false, error: { message: 'etcdserver: request timed out' } }, payloadOmitted: true }))
      .toEqual({ text: 'error: etcdserver: request timed out', failed: true });
  });
});

describe('where the labels go while their texts change', () => {
  const segments = new Map([['a--b', [{ x: 0, y: 100 }, { x: 400, y: 100 }] as const], ['b--c', [{ x: 400, y: 100 }, { x: 400, y: 400 }] as const]]);
  const obstacles: Obstacles = { titles: [], boxes: [{ x: -100, y: 60, width: 100, height: 80 }, { x: 400, y: 60, width: 100, height: 80 }, { x: 350, y: 400, width: 100, height: 80 }] };
  const request = (key: string, width: number, important = false): LabelRequest => ({ key, segment: segments.get(key)!, width, height: 16, important });

  it('keeps the labels where they are while the links, reserved widths and importance stay, and places them again when one changes', () => {
    const layout = new LabelLayout();
    const first = layout.place([request('a--b', 6 * widthStep), request('b--c', 4 * widthStep)], segments, obstacles);
    expect(first.get('a--b')).not.toBeNull();
    // The next revision's text, the same reserved width: nothing moves (the same placements).
    expect(layout.place([request('a--b', 6 * widthStep), request('b--c', 4 * widthStep)], segments, obstacles)).toBe(first);
    // A wider text, a label gone, the step shown's label, or obstacles measured again: placed again.
    const wider = layout.place([request('a--b', 9 * widthStep), request('b--c', 4 * widthStep)], segments, obstacles);
    expect(wider).not.toBe(first);
    expect(wider.get('a--b')!.rect.width).toBe(9 * widthStep);
    expect(layout.place([request('a--b', 9 * widthStep)], segments, obstacles).has('b--c')).toBe(false);
    const important = layout.place([request('a--b', 9 * widthStep, true)], segments, obstacles);
    expect(layout.place([request('a--b', 9 * widthStep, true)], segments, { ...obstacles })).not.toBe(important);
  });
});

