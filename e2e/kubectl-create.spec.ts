import { expect, test } from './podflow.ts';

// One etcd member: these steps follow etcd's requests and replies one by one, with no Raft round between them.
test.beforeEach(async ({ podflow }) => {
  await podflow.etcdMembers(1);
});

// kubectl create -f of the seeds' nginx Deployment: the POST reaches kube-apiserver, its filter chain
// and admission run as steps, one etcd Txn stores the Deployment, and the 201 travels back.
test('creating the seeds\' nginx Deployment goes through kube-apiserver to one etcd Txn', async ({ podflow, page }) => {
  const post = podflow.token({ kind: 'http.request', from: 'user', to: 'kube-apiserver' });
  // Ours by its key (a leader-election renewal's Txn can be on screen beside it).
  const txn = podflow.token({ kind: 'etcd.Txn', from: 'kube-apiserver', to: 'etcd', label: 'nginx-deployment' });
  const created = podflow.token({ kind: 'http.response', from: 'kube-apiserver', to: 'user' });
  const booted = await podflow.step();
  const background = await podflow.pendingCount();

  await test.step('create from the preset: one request is queued', async () => {
    await page.getByRole('form', { name: 'kubectl create' }).getByRole('button', { name: 'Create' }).click();
    await expect(podflow.pending).toHaveText(String(background + 1));
  });

  await test.step('step: the POST reaches kube-apiserver', async () => {
    await podflow.button('Step').click();
    await expect(podflow.stepCounter).toHaveText(String(booted + 1));
    await expect(post).toBeVisible();
    await post.click();
    await expect(podflow.payload).toContainText('"path": "/apis/apps/v1/namespaces/default/deployments"');
  });

  await test.step('step through the chain until the Txn reaches etcd', async () => {
    await podflow.stepUntilVisible(txn, 12);
    await txn.click();
    await expect(podflow.payload).toContainText('"key": "/registry/deployments/default/nginx-deployment"');
    await expect(podflow.payload).toContainText('"target": "MOD"');
  });

  await test.step('step on: the 201 Created comes back', async () => {
    await podflow.stepUntilVisible(created);
    await created.click();
    await expect(podflow.payload).toContainText('"status": 201');
  });
});

// With the whole control plane modelled, the Deployment's ReplicaSet and Pod follow by themselves.
test('run until idle after the create: the ReplicaSet and its Pod appear in the keyspace', async ({ podflow, page }) => {
  await podflow.createNginxDeployment();
  await podflow.button('Run until idle').click();
  await expect(podflow.activity).toHaveText('idle');
  const rows = page.getByTestId('key-row');
  await podflow.filterKeys('/registry/pods/default/nginx-deployment-');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-key', /^\/registry\/pods\/default\/nginx-deployment-[456789bcdf]+-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  await podflow.filterKeys('/registry/replicasets/default/nginx-deployment-');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-key', /^\/registry\/replicasets\/default\/nginx-deployment-[456789bcdf]+$/);
});
