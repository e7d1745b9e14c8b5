import { describe, expect, it } from 'vitest';
import { AuditLog, type AuditEvent } from './audit.ts';

const event = (n: number): AuditEvent => ({
  level: 'Metadata', auditID: `id-${n}`, stage: 'RequestReceived', requestURI: '/api', verb: 'get',
  user: { username: 'admin', groups: [] }, requestReceivedTimestamp: '', stageTimestamp: '',
});

describe('AuditLog', () => {
  it('keeps the last `limit` events in order, however many were recorded', () => {
    const log = new AuditLog(3);
    for (let n = 1; n <= 2; n++) log.record(event(n));
    expect(log.all().map((e) => e.auditID)).toEqual(['id-1', 'id-2']);
    for (let n = 3; n <= 11; n++) {
      log.record(event(n));
      expect(log.all().map((e) => e.auditID)).toEqual([n - 2, n - 1, n].map((k) => `id-${k}`));
    }
    for (let n = 12; n <= 100; n++) log.record(event(n));
    expect(log.all().map((e) => e.auditID)).toEqual(['id-98', 'id-99', 'id-100']);
  });
});
