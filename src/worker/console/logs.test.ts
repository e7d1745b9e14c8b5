// The logs panel's collector: what it keeps between flushes, and that an audit event becomes its JSON
// line only when a flush ships it.

import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../sim/apiserver/filters/audit.ts';
import { auditLine, LogCollector, type AuditSource } from './logs.ts';

/** An audit log of the given events, recorded one after another (`record`). */
function auditLog(): AuditSource & { record(event: AuditEvent): void } {
  const events: AuditEvent[] = [];
  return {
    get recorded() {
      return events.length;
    },
    since: (count) => events.slice(count),
    record: (event) => events.push(event),
  };
}

const event = (i: number): AuditEvent => ({
  level: 'Metadata', auditID: `id-${i}`, stage: 'ResponseComplete', requestURI: `/api/v1/pods?limit=${i}`, verb: 'list',
  user: { username: 'admin', groups: ['system:masters'] }, sourceIPs: ['127.0.0.1'],
  responseStatus: { metadata: {}, code: 200 }, requestReceivedTimestamp: 't', stageTimestamp: 't',
} as unknown as AuditEvent);

/** The collector reads the audit log after every delivery; a delivery that is not an etcd reply adds nothing else. */
const delivery = { replyTo: null, payload: null } as never;

describe('LogCollector', () => {
  it('ships an audit event as the JSON line the log backend writes, with its verb and path', () => {
    const audit = auditLog();
    const logs = new LogCollector(audit);
    audit.record(event(1));
    logs.observe(7, delivery);
    expect(logs.flush()).toEqual({ lines: [{ source: 'audit', step: 7, text: auditLine(event(1)), rpc: 'list', key: '/api/v1/pods' }], omitted: 0 });
    expect(logs.flush()).toBeNull();
  });

  it('ships the newest `limit` lines of a flush and counts the rest as omitted', () => {
    const audit = auditLog();
    const logs = new LogCollector(audit);
    for (let i = 0; i < 10; i++) {
      audit.record(event(i));
      logs.observe(i, delivery);
    }
    const flushed = logs.flush(3)!;
    expect(flushed.omitted).toBe(7);
    expect(flushed.lines.map((l) => l.step)).toEqual([7, 8, 9]);
    expect(flushed.lines.map((l) => l.text)).toEqual([7, 8, 9].map((i) => auditLine(event(i))));
  });

  it('writes out only the audit lines a flush ships', () => {
    const audit = auditLog();
    const logs = new LogCollector(audit);
    let written = 0;
    const counted = (i: number): AuditEvent => {
      const e = event(i);
      // Writing an event's JSON line reads its auditID once: the count of lines written.
      return new Proxy(e, { get: (target, p) => (p === 'auditID' && written++, Reflect.get(target, p)) });
    };
    for (let i = 0; i < 100; i++) {
      audit.record(counted(i));
      logs.observe(i, delivery);
    }
    expect(written).toBe(0);
    expect(logs.flush(2)!.lines).toHaveLength(2);
    expect(written).toBe(2);
  });
});
