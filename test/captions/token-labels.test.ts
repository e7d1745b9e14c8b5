// Token labels of messages the model really produced: seed scenarios run, the messages picked by kind,
// the label checked against the payload's own facts. (The cases no scenario produces are typed fixtures
// beside the code, src/ui/graph/token-label.test.ts.)

import { beforeAll, describe, expect, it } from 'vitest';
import { tokenLabel } from '../../src/ui/graph/token-label.ts';
import { modelMessages, type ModelMessages } from './model-messages.ts';

describe('token labels of the messages seed 004 delivers (nginx Deployment)', () => {
  let flow: ModelMessages;
  beforeAll(() => {
    flow = modelMessages('nginx-deployment');
  }, 180_000);

  it('labels kubectl\'s create by method and shortened path', () => {
    const create = flow.of('http.request').find(({ record }) => record.from === 'user' && record.payload.method === 'POST');
    expect(tokenLabel(create!.record)).toEqual({ text: 'POST …/default/deployments', failed: false });
  });

  it('labels the create Txn by its compare on the new key, and its reply by branch and revision', () => {
    const create = flow.of('etcd.Txn').find(({ record }) => record.payload.compare?.[0]?.key === '/registry/deployments/default/nginx-deployment');
    expect(tokenLabel(create!.record)).toEqual({ text: 'Txn mod_revision(nginx-deployment) == 0', failed: false });
    const reply = flow.of('etcd.TxnResponse').find(({ record }) => record.replyTo === create!.record.id)!;
    expect(reply.record.payload.ok).toBe(true);
    const revision = reply.record.payload.write!.revision;
    expect(tokenLabel(reply.record)).toEqual({ text: `succeeded, rev ${revision}`, failed: false });
  });

  it('labels every response by its status, a refusal red with its Status reason (a kubelet\'s first look for its Node: 404 NotFound)', () => {
    const responses = flow.of('http.response');
    expect(responses.length).toBeGreaterThan(20);
    for (const { record } of responses) {
      const { status, body } = record.payload;
      const label = status < 400 ? String(status) : `${status} ${(body as { reason: string }).reason}`;
      expect(tokenLabel(record)).toEqual({ text: label, failed: status >= 400 });
    }
    expect(responses.map(({ record }) => tokenLabel(record)).filter((l) => l.failed).map((l) => l.text)).toContain('404 NotFound');
  });

  it('labels watch events by type, object and resourceVersion', () => {
    const added = flow.of('http.watchEvent').find(({ record }) => record.to === 'kube-controller-manager' && record.payload.type === 'ADDED'
      && (record.payload.object as { kind?: string }).kind === 'Deployment')!;
    const rv = (added.record.payload.object as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    expect(tokenLabel(added.record)).toEqual({ text: `ADDED nginx-deployment rv ${rv}`, failed: false });
  });

  it('labels etcd watch responses by their first event\'s key and revision', () => {
    const event = flow.of('etcd.WatchResponse').find(({ record }) => record.payload.response.events[0]?.kv.key === '/registry/deployments/default/nginx-deployment')!;
    const first = event.record.payload.response.events[0]!;
    const more = event.record.payload.response.events.length - 1;
    expect(tokenLabel(event.record)).toEqual({ text: `PUT …/default/nginx-deployment rev ${first.kv.modRevision}${more ? ` +${more}` : ''}`, failed: false });
    const created = flow.of('etcd.WatchResponse').find(({ record }) => record.payload.response.created)!;
    expect(tokenLabel(created.record)).toEqual({ text: `created watch ${created.record.payload.response.watchId}`, failed: false });
  });

  it('labels the watch cache\'s lists by range and limit, and their replies by count and revision', () => {
    const list = flow.of('etcd.Range').find(({ record }) => record.payload.key === '/registry/pods/' && record.payload.limit)!;
    expect(tokenLabel(list.record)).toEqual({ text: `Range prefix /registry/pods/ limit ${list.record.payload.limit}`, failed: false });
    const reply = flow.of('etcd.RangeResponse').find(({ record }) => record.replyTo === list.record.id)!;
    const response = reply.record.payload.ok ? reply.record.payload.response : undefined;
    expect(tokenLabel(reply.record)).toEqual({ text: `${response!.count} keys, rev ${response!.header.revision}`, failed: false });
  });

  it('labels timers by name', () => {
    const timer = flow.of('timer')[0]!;
    expect(tokenLabel(timer.record)).toEqual({ text: timer.record.payload.name, failed: false });
  });
});

describe('token labels of a compaction and a broken etcd watch stream', () => {
  let flow: ModelMessages;
  beforeAll(() => {
    flow = modelMessages('compaction-broken-watch');
  }, 180_000);

  it('draws the broken stream red, and the fault by its type', () => {
    const broken = flow.of('etcd.WatchStreamError')[0]!;
    expect(tokenLabel(broken.record)).toEqual({ text: 'watch stream broke', failed: true });
    const faults = flow.of('user.fault').map(({ record }) => tokenLabel(record).text);
    expect(faults).toContain('fault: breakEtcdWatches');
  });
});
