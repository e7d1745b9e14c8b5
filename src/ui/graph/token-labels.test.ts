import { describe, expect, it } from 'vitest';
import type { Flight } from '../../protocol/index.ts';
import type { FlightPhase } from '../playback/flight.ts';
import { chooseLabels, labelOf, linkKey } from './token-labels.ts';

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
