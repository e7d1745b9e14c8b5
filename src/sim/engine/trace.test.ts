import { describe, expect, it, vi } from 'vitest';
import type { Message } from './message.ts';
import { Trace } from './trace.ts';
import { slimPayload } from './trace-summary.ts';

const message = (id: number): Message => ({
  id, from: 'a', to: 'b', kind: 'etcd.Txn', sentAt: id, deliverAt: id, cause: id > 1 ? id - 1 : null, replyTo: null, background: false,
  payload: { key: `/registry/pods/default/p-${id}`, value: 'x'.repeat(200), headers: { authorization: 'Bearer t' }, spec: { nested: { deep: [1, 2, 3, 4, 5] } } },
});

describe('Trace', () => {
  it('keeps every payload whole when no bound is given', () => {
    const trace = new Trace();
    for (let id = 1; id <= 1000; id++) trace.append(message(id));
    expect(trace.payloadsFrom).toBe(1);
    expect(trace.at(1)).toEqual(message(1));
  });

  it('keeps the newest payloadLimit steps whole (at least three quarters of them) and summaries before them', () => {
    const trace = new Trace(Number.POSITIVE_INFINITY, 100);
    for (let id = 1; id <= 1000; id++) {
      trace.append(message(id));
      const whole = trace.lastStep - trace.payloadsFrom + 1;
      expect(whole).toBeLessThanOrEqual(100);
      expect(whole).toBeGreaterThanOrEqual(Math.min(75, id));
    }
    expect(trace.firstStep).toBe(1);
    for (let step = 1; step <= 1000; step++) {
      const at = trace.at(step)!;
      const { payload, ...rest } = message(step);
      expect({ ...at, payload: undefined }).toEqual({ ...rest, payload: undefined });
      expect(at.payload).toEqual(step < trace.payloadsFrom ? slimPayload(payload) : payload);
    }
    expect(trace.at(1)!.payload).toEqual({ key: '/registry/pods/default/p-1', value: `${'x'.repeat(32)}…`, spec: { nested: { deep: [1, 2, 3, null, null] } } });
  });

  it('drops the oldest records past limit; step numbers and the summary boundary follow', () => {
    const trace = new Trace(400, 100);
    for (let id = 1; id <= 1000; id++) trace.append(message(id));
    expect(trace.lastStep).toBe(1000);
    expect(trace.all().length).toBeLessThanOrEqual(400);
    expect(trace.at(trace.firstStep)!.id).toBe(trace.firstStep);
    expect(trace.at(trace.firstStep - 1)).toBeUndefined();
    expect(trace.payloadsFrom).toBeGreaterThan(trace.firstStep);
    expect(trace.at(trace.payloadsFrom)).toEqual(message(trace.payloadsFrom));
    expect(trace.at(trace.payloadsFrom - 1)!.payload).toEqual(slimPayload(message(trace.payloadsFrom - 1).payload));
  });

  it('keeps a request\'s path and query whole in its summary (what says it is a watch, and of what)', () => {
    const query = `allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dnode-12&resourceVersion=123456&timeoutSeconds=412&watch=true`;
    const request = { method: 'GET', path: `/api/v1/${'p'.repeat(120)}`, query, headers: { accept: 'application/json' }, body: 'b'.repeat(200) };
    expect(slimPayload(request)).toEqual({ method: 'GET', path: request.path, query, body: `${'b'.repeat(96)}…` });
  });

  it('rebuilds a light record\'s payload through its rebuilder, and gives the summary where the history is gone', () => {
    const trace = new Trace(400, 100);
    const history = new Map<number, unknown>();
    const refOf = vi.fn((m: Message) => (m.id % 2 === 0 ? m.id : undefined));
    trace.rebuildWith({ refOf, rebuild: (_m, ref) => history.get(ref as number) });
    for (let id = 1; id <= 1000; id++) {
      history.set(id, message(id).payload);
      trace.append(message(id));
    }
    // Refs are taken once, when a record is summarized.
    expect(refOf).toHaveBeenCalledTimes(trace.payloadsFrom - 1);
    history.delete(trace.firstStep + 1);
    for (let step = trace.firstStep; step <= trace.lastStep; step++) {
      const got = trace.payloadAt(step)!;
      if (step >= trace.payloadsFrom) expect(got).toEqual({ payload: message(step).payload, kept: 'whole' });
      else if (step % 2 === 0 && step !== trace.firstStep + 1) expect(got).toEqual({ payload: message(step).payload, kept: 'rebuilt' });
      else expect(got).toEqual({ payload: slimPayload(message(step).payload), kept: 'summary' });
    }
    expect(trace.payloadAt(trace.firstStep - 1)).toBeUndefined();
  });

  it('keeps a record whole when its rebuilder says so, and finds a request\'s reply among the records after it', () => {
    const trace = new Trace(400, 100);
    const replies: (Message | undefined)[] = [];
    trace.rebuildWith({
      refOf(m, reply) {
        if (m.id % 10 === 0) replies.push(reply());
        return m.id % 3 === 0 ? m.payload : undefined;
      },
      rebuild: () => undefined,
    });
    // Every tenth message is a request answered five steps later.
    for (let id = 1; id <= 1000; id++) trace.append(id % 10 === 5 ? { ...message(id), replyTo: id - 5 } : message(id));
    for (let step = trace.firstStep; step < trace.payloadsFrom; step++) {
      const whole = step % 3 === 0;
      expect(trace.at(step)!.payload).toEqual(whole ? message(step).payload : slimPayload(message(step).payload));
      expect(trace.payloadAt(step)!.kept).toBe(whole ? 'whole' : 'summary');
    }
    expect(replies.length).toBeGreaterThan(10);
    expect(replies.every((r, i) => r?.id === 10 * (i + 1) + 5)).toBe(true);
  });

  it('refuses bounds that are not positive', () => {
    expect(() => new Trace(0)).toThrow(RangeError);
    expect(() => new Trace(10, 0)).toThrow(RangeError);
  });
});
