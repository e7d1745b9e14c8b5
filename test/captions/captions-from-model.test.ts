// Captions of messages the model really produced: seed 004's flow (kubectl creates the nginx
// Deployment) runs, the messages are picked by kind, and both caption lines are checked against what
// the payloads say. (Cases no scenario produces are typed fixtures beside the code, in
// src/ui/captions/captions.test.ts.)

import { beforeAll, describe, expect, it } from 'vitest';
import { describeStep } from '../../src/ui/captions/captions.ts';
import { modelMessages, type ModelMessages } from './model-messages.ts';

const deploymentKey = '/registry/deployments/default/nginx-deployment';

describe('captions of the messages seed 004 delivers (nginx Deployment)', () => {
  let flow: ModelMessages;
  beforeAll(() => {
    flow = modelMessages('nginx-deployment');
  }, 180_000);

  it('kubectl\'s create and kube-apiserver\'s 201, with the resourceVersion the answer carries', () => {
    const create = flow.of('http.request').find(({ record }) => record.from === 'user' && record.payload.method === 'POST')!;
    const url = '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict';
    expect(describeStep(create.record, 'en').technical).toBe(`kubectl → kube-apiserver: POST ${url} (create deployments)`);
    expect(describeStep(create.record, 'zh').technical).toBe(`kubectl → kube-apiserver：POST ${url}（创建 deployments）`);
    const created = flow.of('http.response').find(({ record }) => record.replyTo === create.record.id)!;
    const rv = (created.record.payload.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    expect(describeStep(created.record, 'en', { request: created.request }).technical)
      .toBe(`kube-apiserver answered 201 Created to POST /apis/apps/v1/namespaces/default/deployments (resourceVersion ${rv})`);
  });

  it('the filter chain\'s stages for that request, in the words of what each decided', () => {
    const create = flow.of('http.request').find(({ record }) => record.from === 'user' && record.payload.method === 'POST')!;
    const authn = flow.of('apiserver.authentication').find(({ record }) => record.payload.requestId === create.record.id)!;
    const { payload } = authn.record;
    if (!('user' in payload)) throw new Error('kubectl\'s token was refused');
    expect(describeStep(authn.record, 'en').technical).toBe(`Authentication: the bearer token identifies ${payload.user} in ${payload.groups.join(', ')}`);
    const authz = flow.of('apiserver.authorization').find(({ record }) => record.payload.requestId === create.record.id)!;
    expect(authz.record.payload).toMatchObject({ verb: 'create', resource: 'deployments', namespace: 'default', decision: 'allowed' });
    expect(describeStep(authz.record, 'en').technical).toMatch(/^Authorization \(RBAC\): \S+ may create deployments in default/);
  });

  it('the create Txn (compare on mod_revision 0) and etcd\'s answer at the new revision', () => {
    const txn = flow.of('etcd.Txn').find(({ record }) => record.payload.compare?.[0]?.key === deploymentKey)!;
    expect(describeStep(txn.record, 'en').technical).toBe(`kube-apiserver → etcd: Txn if mod_revision(${deploymentKey}) == 0 then put else nothing`);
    expect(describeStep(txn.record, 'en').plain)
      .toBe('kube-apiserver stores Deployment nginx-deployment in etcd: the Txn writes only if nobody created the key yet (mod_revision == 0)');
    const reply = flow.of('etcd.TxnResponse').find(({ record }) => record.replyTo === txn.record.id)!;
    const revision = reply.record.payload.write!.revision;
    expect(describeStep(reply.record, 'en', { request: reply.request }).technical)
      .toBe(`Txn compare mod_revision(${deploymentKey}) == 0 succeeded → put, revision ${revision}`);
  });

  it('kube-scheduler\'s binding, said as the choice of a node', () => {
    const binding = flow.of('http.request').find(({ record }) => record.from === 'kube-scheduler' && record.payload.path.endsWith('/binding'))!;
    const pod = binding.record.payload.path.split('/').at(-2);
    const node = (binding.record.payload.body as { target: { name: string } }).target.name;
    expect(describeStep(binding.record, 'en').plain)
      .toBe(`kube-scheduler binds Pod ${pod} to ${node}: it picked that node, and asks kube-apiserver to set the Pod's spec.nodeName`);
  });

  it('etcd\'s watch event for the new Deployment, arriving before the reply to the write', () => {
    const txn = flow.of('etcd.Txn').find(({ record }) => record.payload.compare?.[0]?.key === deploymentKey)!;
    const event = flow.of('etcd.WatchResponse').find(({ record }) => record.cause === txn.record.id)!;
    const mod = event.record.payload.response.events[0]!.kv.modRevision;
    expect(describeStep(event.record, 'en', { cause: event.cause }).plain).toBe(
      `etcd tells kube-apiserver that Deployment nginx-deployment was created at revision ${mod}. This arrives before etcd's reply to the write itself: etcd notifies watchers as the write commits, before the reply travels back`);
  });
});
