import { ActDock } from './act.ts';
import { expect, test } from './podflow.ts';

// (e) The seeds' label-selector list: kubectl's -v 8 request line, and the range it costs etcd (the
// whole namespace's pods, filtered by kube-apiserver), flagged in the logs.
test('kubectl get po -l app=nginx -v 8: the request line, and the etcd range in the logs', async ({ podflow, page }) => {
  const dock = new ActDock(podflow);
  await dock.runToEnd('kubectl create -f -');
  const out = await dock.runToEnd('kubectl get po -l app=nginx -v 8');
  expect(out).toContain('round_trippers.go:463] GET https://127.0.0.1:6443/api/v1/namespaces/default/pods?labelSelector=app%3Dnginx&limit=500');
  expect(out).toMatch(/Response Status: 200 OK in \d+ milliseconds/);
  expect(out).toMatch(/nginx-deployment-\S+\s+1\/1\s+Running/);
  const logsHeld = () => page.evaluate(() => (globalThis as unknown as { podflow: { store: { getState(): { activity: { logs: readonly unknown[] } } } } }).podflow.store.getState().activity.logs.length);
  await test.step('while the Logs tab is hidden the worker keeps the lines and ships none', async () => {
    expect(await logsHeld()).toBe(0);
  });
  await test.step('the logs show the Range with its key, range_end and limit', async () => {
    await dock.tab('Logs').click();
    await expect.poll(logsHeld).toBeGreaterThan(0);
    await page.getByRole('searchbox', { name: 'Key prefix' }).fill('/registry/pods/default/');
    await page.getByRole('combobox', { name: 'RPC' }).selectOption('Range');
    const range = page.getByTestId('log-line').filter({ hasText: 'key:\\"/registry/pods/default/\\" range_end:\\"/registry/pods/default0\\" limit:500' });
    await expect(range.last()).toBeVisible();
    await expect(range.last()).toContainText('"response type":"/etcdserverpb.KV/Range"');
    await page.getByRole('combobox', { name: 'RPC' }).selectOption('');
    await page.getByRole('searchbox', { name: 'Key prefix' }).fill('/api/v1/namespaces/default/pods');
    await expect(page.getByTestId('log-line').and(page.locator('[data-source="kubectl"]')).last()).toContainText('round_trippers.go:553] GET https://127.0.0.1:6443/api/v1/namespaces/default/pods?labelSelector=app%3Dnginx&limit=500 200 OK');
    await expect(page.getByTestId('log-line').and(page.locator('[data-source="audit"]')).filter({ hasText: 'ResponseComplete' }).last()).toContainText('kubernetes-admin  list  pods default/  200');
  });
});

// (c) Impersonating a user with no bindings (a fresh 1.28 cluster gives alice nothing): the apiserver's exact 403.
test('--as a restricted user prints the exact 403', async ({ podflow }) => {
  const dock = new ActDock(podflow);
  const out = await dock.runToEnd('kubectl --as=alice get deployments');
  expect(out).toBe('Error from server (Forbidden): deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" in the namespace "default"\n');
  // On the graph the answer is a red token labelled with its status.
  const refused = podflow.page.locator('[data-testid="token"][data-kind="http.response"][data-failed="true"]');
  await expect(refused.first()).toHaveAttribute('aria-label', /: 403 Forbidden \(failed\)/);
  // Selected, it is the label its link shows (one readable label per link).
  const id = await refused.first().getAttribute('data-message-id');
  await refused.first().dispatchEvent('click');
  await expect(podflow.page.locator(`[data-testid="token-label"][data-message-id="${id}"]`)).toContainText('403 Forbidden');
  expect(await dock.runToEnd('kubectl --as=alice get pods')).toBe('Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"\n');
});

// (i) set image: a new ReplicaSet appears, then the rollout proceeds step by step to completion.
test('kubectl set image rolls the Deployment out step by step', async ({ podflow, page }) => {
  const dock = new ActDock(podflow);
  await dock.runToEnd('kubectl create -f -');
  await dock.settle(async () => page.getByRole('button', { name: 'Run until idle' }).isDisabled());
  const firstRs = (await dock.runToEnd('kubectl get rs -o name')).trim();
  await dock.run('kubectl set image deployment/nginx-deployment nginx=nginx:1.16');
  await test.step('step: the PATCH, then the new ReplicaSet written to etcd', async () => {
    await podflow.openStateTab('etcd keyspace');
    await podflow.filterKeys('/registry/replicasets/default/');
    const rsRows = page.getByTestId('key-row');
    await expect(rsRows).toHaveCount(1);
    for (let i = 0; i < 300 && (await rsRows.count()) < 2; i++) await podflow.button('Step').click();
    await expect(rsRows).toHaveCount(2);
  });
  await test.step('the rollout finishes: revision 2, old ReplicaSet scaled to 0', async () => {
    const status = await dock.runToEnd('kubectl rollout status deployment/nginx-deployment');
    expect(status).toContain('deployment "nginx-deployment" successfully rolled out');
    expect(await dock.runToEnd('kubectl rollout history deployment/nginx-deployment')).toContain('REVISION  CHANGE-CAUSE\n1         <none>\n2         <none>');
    const rs = await dock.runToEnd('kubectl get rs');
    expect(rs).toMatch(new RegExp(`${firstRs.replace('replicaset.apps/', '')}\\s+0\\s+0\\s+0`));
  });
});

test('history, completion, watch and interrupt in the console', async ({ podflow, page }) => {
  const dock = new ActDock(podflow);
  await dock.runToEnd('kubectl create -f -');
  const input = page.getByRole('textbox', { name: 'Command line' });
  await test.step('Tab completes a resource name from the keyspace', async () => {
    await input.fill('kubectl get deploy ngi');
    await input.press('Tab');
    await expect(input).toHaveValue('kubectl get deploy nginx-deployment ');
  });
  await test.step('↑ brings back the previous command', async () => {
    await input.fill('');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('kubectl create -f -');
  });
  await test.step('get -w prints changes until Ctrl-C', async () => {
    const watch = await dock.run('kubectl get deploy -w');
    await dock.settle(async () => ((await watch.textContent()) ?? '').includes('NAME'));
    await dock.run('kubectl scale deploy nginx-deployment --replicas=2');
    await dock.settle(async () => (((await watch.getByTestId('console-output').textContent()) ?? '').match(/nginx-deployment/g) ?? []).length >= 2);
    await watch.getByRole('button', { name: 'Interrupt (Ctrl-C)' }).click();
    await expect(watch).toHaveAttribute('data-done', 'true');
    await expect(watch).toHaveAttribute('data-exit-code', '130');
  });
  await test.step('etcdctl lists the registry keys', async () => {
    expect(await dock.runToEnd('etcdctl get /registry/deployments --prefix --keys-only')).toContain('/registry/deployments/default/nginx-deployment');
  });
});
