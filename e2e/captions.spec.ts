import { expect, test } from './podflow.ts';

// One etcd member: these steps follow etcd's requests and replies one by one, with no Raft round between them.
test.beforeEach(async ({ podflow }) => {
  await podflow.etcdMembers(1);
});

const post = 'kubectl → kube-apiserver: POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict (create deployments)';
const key = '/registry/deployments/default/nginx-deployment';

// Each step says in plain words what happened and why, with the exact wire line beneath; the caption
// follows the step counter.
test('stepping through kubectl create, the caption tells each step', async ({ podflow, page }) => {
  const caption = page.getByTestId('step-caption');
  const plain = page.getByTestId('step-caption-plain');
  const technical = page.getByTestId('step-caption-technical');
  const booted = await podflow.step();

  await test.step('the first step: kubectl POSTs the Deployment', async () => {
    await podflow.createNginxDeployment();
    await podflow.button('Step').click();
    await expect(plain).toHaveText(`#${booted + 1} kubectl asks kube-apiserver to create Deployment nginx-deployment`);
    await expect(technical).toHaveText(post);
  });

  await test.step('authentication, then every step changes the caption until the Txn', async () => {
    await podflow.button('Step').click();
    await expect(plain).toHaveText(`#${booted + 2} kube-apiserver checks who sent the request: the bearer token belongs to kubernetes-admin`);
    await expect(technical).toHaveText('Authentication: the bearer token identifies kubernetes-admin in system:masters, system:authenticated');
    let previous = await caption.textContent();
    for (let step = booted + 3; step < booted + 20 && !previous?.includes('Txn if'); step++) {
      await podflow.button('Step').click();
      await expect(caption).toContainText(`#${step} `);
      await expect(caption).not.toHaveText(previous ?? '');
      previous = await caption.textContent();
    }
    await expect(technical).toHaveText(`kube-apiserver → etcd: Txn if mod_revision(${key}) == 0 then put else nothing`);
    await expect(plain).toContainText('kube-apiserver stores Deployment nginx-deployment in etcd: the Txn writes only if nobody created the key yet (mod_revision == 0)');
  });

  await test.step('the keyspace scrolls to the key the Txn wrote and highlights it', async () => {
    await expect(podflow.keyRow(key)).toBeVisible();
    await expect(podflow.keyRow(key)).toHaveAttribute('data-changed', 'true');
    await expect(podflow.keyRow(key).getByTestId('key-version')).toHaveText('1');
  });

  await test.step('etcd answers: the compare succeeded and the put made a revision', async () => {
    // Ours by the revision it made (a leader-election renewal's reply can be on screen beside it).
    const revision = await podflow.keyRow(key).getByTestId('key-mod-revision').textContent();
    const txnReply = podflow.token({ kind: 'etcd.TxnResponse', from: 'etcd', to: 'kube-apiserver', label: `succeeded, rev ${revision?.trim()}` });
    await podflow.stepUntilVisible(txnReply, 10);
    await txnReply.click();
    await expect(technical).toContainText(new RegExp(`Txn compare mod_revision\\(${key}\\) == 0 succeeded → put, revision \\d+`));
    await expect(plain).toContainText(/etcd committed the write of Deployment nginx-deployment at revision \d+ and replies\. Its watchers .* already have the change/);
    await expect(podflow.keyRow(key)).not.toHaveAttribute('data-changed');
  });

  await test.step('selecting the Txn highlights the key it wrote again', async () => {
    await page.getByRole('button', { name: 'All recent deliveries' }).click();
    await page.getByTestId('message-caption').filter({ hasText: 'Txn if mod_revision' }).click();
    await expect(caption).toContainText('Txn if mod_revision');
    await expect(podflow.keyRow(key)).toHaveAttribute('data-changed', 'true');
  });

  await test.step('the recent deliveries list captions too', async () => {
    await page.getByRole('button', { name: 'All recent deliveries' }).click();
    await expect(page.getByTestId('message-caption').filter({ hasText: post })).toBeVisible();
  });
});

test('switching to 中文 shows the captions in Simplified Chinese, and the choice stays', async ({ podflow, page }) => {
  const caption = page.getByTestId('step-caption');
  const language = page.getByRole('group', { name: 'Language' });

  await test.step('English by default', async () => {
    await expect(language.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    await podflow.createNginxDeployment();
    await podflow.button('Step').click();
    await expect(caption).toContainText(post);
  });

  await test.step('中文', async () => {
    await language.getByRole('button', { name: '中文' }).click();
    await expect(caption).toContainText('kubectl → kube-apiserver：POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict（创建 deployments）');
    await expect(page.getByTestId('step-caption-plain')).toContainText('kubectl 请 kube-apiserver 创建 Deployment nginx-deployment');
    await expect(page.getByRole('button', { name: '为什么？显示这一步的因果链' })).toBeVisible();
    await podflow.page.getByTestId('step-button').click();
    await expect(caption).toContainText('认证：bearer token 识别出用户 kubernetes-admin');
  });

  await test.step('after a reload the captions are still in Chinese', async () => {
    // The reload reopens the saved cluster where it was (the Deployment's traffic still queued), so the
    // put is delivered after what was already pending: step until it is.
    await page.reload();
    await expect(language.getByRole('button', { name: '中文' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('saved-step')).toBeVisible();
    const form = page.getByRole('form', { name: 'etcdctl put' });
    await form.getByLabel('键').fill('/podflow/greeting');
    await form.getByLabel('值').fill('hello');
    await form.getByRole('button', { name: '发送 put' }).click();
    const put = podflow.token({ kind: 'etcd.Put', from: 'user', to: 'etcd' });
    await podflow.stepUntilVisible(put, 200);
    await expect(caption).toContainText('etcdctl → etcd：写入（Put）/podflow/greeting = "hello"');
  });

  await test.step('back to English', async () => {
    await language.getByRole('button', { name: 'English' }).click();
    await expect(caption).toContainText('etcdctl → etcd: Put /podflow/greeting = "hello"');
  });
});
