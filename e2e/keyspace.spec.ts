import { expect, test } from './podflow.ts';

const deploymentKey = '/registry/deployments/default/nginx-deployment';

// The keyspace panel mirrors etcd: after kubectl create, the Deployment's key is there with mod_revision
// equal to the resourceVersion kube-apiserver returned; at an earlier revision it is not.
test('the keyspace shows the created Deployment at its revision, and not before it', async ({ podflow, page }) => {
  const created = podflow.token({ kind: 'http.response', from: 'kube-apiserver', to: 'user' });
  let resourceVersion = 0;

  await test.step('create the nginx Deployment and step until its 201 is back', async () => {
    await podflow.createNginxDeployment();
    await podflow.stepUntilVisible(created);
  });

  await test.step('the 201 response carries the object\'s resourceVersion', async () => {
    await created.click();
    await expect(podflow.payload).toContainText('"status": 201');
    const match = /resourceVersion\\?":\s*\\?"(\d+)/.exec((await podflow.payload.textContent()) ?? '');
    expect(match).not.toBeNull();
    resourceVersion = Number(match![1]);
  });

  await test.step('at that revision the keyspace lists the key with mod_revision == resourceVersion', async () => {
    // The controllers may already have written the Deployment again (status, revision annotation).
    await podflow.viewRevision(resourceVersion);
    await podflow.filterKeys('/deployments/');
    const row = podflow.keyRow(deploymentKey);
    await expect(row).toBeVisible();
    await expect(row.getByTestId('key-mod-revision')).toHaveText(String(resourceVersion));
    await expect(row.getByTestId('key-version')).toHaveText('1');
    await row.click();
    await expect(page.getByTestId('keyspace-media-type')).toHaveText('values: Kubernetes protobuf');
    await expect(page.getByTestId('value-media-type')).toContainText('Kubernetes protobuf');
  });

  await test.step('the value three ways: decoded field by field, as etcdctl get prints it, as -w json prints it', async () => {
    // Decoded (the default view): the runtime.Unknown envelope's fields, each with its size in bytes.
    const fields = page.getByTestId('key-value-fields');
    await expect(fields).toContainText('typeMeta');
    await expect(fields).toContainText('raw');
    await expect(fields).toContainText('"nginx-deployment"');
    await expect(fields).toContainText(/\d+ B/);
    await page.getByRole('tab', { name: 'etcdctl get' }).click();
    await expect(page.getByTestId('key-value-printed')).toContainText('k8s\\x00');
    await expect(page.getByTestId('key-value-printed')).toContainText('Deployment');
    await page.getByRole('tab', { name: '-w json' }).click();
    // k8s\0 + Unknown{typeMeta{apiVersion "apps/v1", kind "Deployment"}} in base64.
    await expect(page.getByTestId('key-value-base64')).toContainText('"value": "azhzAAoV');
  });

  await test.step('at the revision before it, the key is not there', async () => {
    await podflow.viewRevision(resourceVersion - 1);
    await expect(page.getByTestId('keyspace-revision')).toHaveText(new RegExp(`^revision ${resourceVersion - 1} of \\d+$`), { useInnerText: true });
    await expect(podflow.keyRow(deploymentKey)).toHaveCount(0);
    await expect(page.getByTestId('keyspace')).toContainText('No key matches the filter.');
  });

  await test.step('one revision later, it is there again', async () => {
    await page.getByRole('button', { name: 'Next revision' }).click();
    await expect(page.getByTestId('keyspace-revision')).toContainText(`revision ${resourceVersion}`);
    await expect(podflow.keyRow(deploymentKey)).toBeVisible();
  });
});

// kube-apiserver compacts etcd every 5 virtual minutes (to the revision of the previous turn); the
// revision picker then reports older revisions as unavailable.
test('after kube-apiserver compacts etcd, older revisions are unavailable', async ({ podflow, page }) => {
  // Ten virtual minutes at 100× take six seconds on a quiet machine; a loaded one needs more.
  test.setTimeout(120_000);
  const revisionStatus = page.getByTestId('keyspace-revision');

  await test.step('play at 100× until the compactor has run twice', async () => {
    await podflow.createNginxDeployment();
    await podflow.button('Run until idle').click();
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('100');
    await podflow.button('Play').click();
    await expect(revisionStatus).toContainText('compacted below', { timeout: 90_000 });
    await podflow.button('Pause').click();
  });

  await test.step('revision 1 is unavailable; the latest still has the Deployment', async () => {
    await podflow.viewRevision(1);
    await expect(revisionStatus).toContainText('revision 1 is unavailable: compacted');
    await expect(page.getByTestId('keyspace-empty')).toContainText('Unavailable');
    await page.getByRole('button', { name: 'Latest' }).click();
    await podflow.filterKeys('/deployments/');
    await expect(podflow.keyRow(deploymentKey)).toBeVisible();
  });
});

// A key written twice shows its new version beside a diff against the previous one.
test('a key put twice shows its version 2 and the diff from version 1', async ({ podflow, page }) => {
  const key = '/podflow/greeting';

  await test.step('etcdctl put twice', async () => {
    await podflow.etcdctlPut(key, 'hello');
    await podflow.button('Run until idle').click();
    await expect(podflow.activity).toHaveText('idle');
    await podflow.etcdctlPut(key, 'world');
    await podflow.button('Run until idle').click();
  });

  await test.step('the key has version 2 and the diff shows the change', async () => {
    await podflow.filterKeys('/podflow/');
    const row = podflow.keyRow(key);
    await expect(row.getByTestId('key-version')).toHaveText('2');
    await row.click();
    await expect(page.getByTestId('value-media-type')).toContainText('bytes');
    await expect(page.getByTestId('key-value')).toHaveText('world');
    await expect(page.getByTestId('key-diff')).toContainText('- hello');
    await expect(page.getByTestId('key-diff')).toContainText('+ world');
  });

  await test.step('after a seek ships the keyspace without values, the value and the change are read from etcd', async () => {
    // A seek to the step shown ships the whole keyspace as a snapshot (keys, revisions and sizes).
    await page.evaluate(() => {
      const handle = (globalThis as unknown as { podflow: { actions: { seek(step: number): void }; store: { getState(): { status: { step: number } } } } }).podflow;
      handle.actions.seek(handle.store.getState().status.step);
    });
    // The snapshot replaces the mirror, and with it the selection.
    await expect(page.getByTestId('key-details')).toHaveCount(0);
    const row = podflow.keyRow(key);
    await row.click();
    await expect(page.getByTestId('value-media-type')).toContainText('5 bytes');
    await expect(page.getByTestId('key-value')).toHaveText('world');
    await podflow.etcdctlPut(key, 'again');
    await podflow.button('Run until idle').click();
    await expect(row.getByTestId('key-version')).toHaveText('3');
    await row.click();
    await expect(page.getByTestId('key-value')).toHaveText('again');
    await expect(page.getByTestId('key-diff')).toContainText('- world');
    await expect(page.getByTestId('key-diff')).toContainText('+ again');
  });
});
