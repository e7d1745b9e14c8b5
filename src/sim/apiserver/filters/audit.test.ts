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

  it('gives a reader that counts what it read only the events recorded since, the dropped ones left out', () => {
    const log = new AuditLog(4);
    const ids = (events: readonly AuditEvent[]) => events.map((e) => e.auditID);
    expect(log.recorded).toBe(0);
    expect(log.since(0)).toEqual([]);
    let read = 0;
    const seen: string[] = [];
    for (let n = 1; n <= 30; n++) {
      log.record(event(n));
      // Read every third event, as a reader after each delivery would (some deliveries record none, some several).
      if (n % 3 !== 0) continue;
      seen.push(...ids(log.since(read)));
      read = log.recorded;
    }
    expect(read).toBe(30);
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => `id-${i + 1}`));
    expect(log.since(30)).toEqual([]);
    // A reader that fell behind past the limit gets what is left, the newest 4.
    expect(ids(log.since(10))).toEqual(['id-27', 'id-28', 'id-29', 'id-30']);
    expect(ids(log.since(28))).toEqual(['id-29', 'id-30']);
  });
});

describe('AuditLog sharing', () => {
  const stage = (stage: AuditEvent['stage'], id: string, at: string): AuditEvent => ({
    level: 'Metadata', auditID: id, stage, requestURI: ['/api/v1/namespaces/default/pods', 'web-1'].join('/'), verb: 'get',
    user: { username: ['system:node', 'node-1'].join(':'), groups: ['system:nodes'] }, userAgent: ['kubelet', 'v1.28'].join('/'),
    objectRef: { resource: 'pods', namespace: 'default', name: 'web-1', apiVersion: 'v1' },
    requestReceivedTimestamp: ['2026-01-01T00:00:00', '000001Z'].join('.'), stageTimestamp: at,
  });

  it('keeps a request\'s repeated parts and a user\'s record once, and every event as it was recorded', () => {
    const log = new AuditLog();
    const recorded = [
      stage('RequestReceived', 'a', ['2026-01-01T00:00:00', '000001Z'].join('.')),
      stage('RequestReceived', 'b', '2026-01-01T00:00:00.000002Z'),
      { ...stage('ResponseComplete', 'a', '2026-01-01T00:00:00.000003Z'), responseStatus: { code: 200 } },
    ];
    const copies = recorded.map((e) => JSON.stringify(e));
    for (const e of recorded) log.record({ ...e });
    const [received, other, complete] = log.all();
    expect(log.all().map((e) => JSON.stringify(e))).toEqual(copies);
    expect(complete!.objectRef).toBe(received!.objectRef);
    expect(complete!.user).toBe(received!.user);
    expect(other!.user).toBe(received!.user);
    expect(complete!.requestURI).toBe(received!.requestURI);
    expect(complete!.requestReceivedTimestamp).toBe(received!.requestReceivedTimestamp);
    expect(received!.stageTimestamp).toBe(received!.requestReceivedTimestamp);
  });

  it('shares an object reference only when every field is the same', () => {
    const log = new AuditLog();
    log.record(stage('RequestReceived', 'a', ''));
    log.record({ ...stage('ResponseComplete', 'a', ''), objectRef: { resource: 'pods', namespace: 'default', name: 'web-1', apiVersion: 'v1', subresource: 'status' } });
    const [received, complete] = log.all();
    expect(complete!.objectRef).not.toBe(received!.objectRef);
    expect(complete!.objectRef!.subresource).toBe('status');
  });
});
