import { ActDock } from './act.ts';
import { expect, test } from './podflow.ts';

// (f) With kube-scheduler stopped, the Deployment's pod stays Pending with no node; started again, the
// scheduler lists, sees the pod and binds it, and the kubelet runs it. `kubectl get cs` meanwhile finds
// nothing listening on the scheduler's port.
test('stopping the scheduler leaves the pod Pending; starting it binds the pod', async ({ podflow }) => {
  const dock = new ActDock(podflow);
  const page = podflow.page;
  await test.step('stop kube-scheduler from the faults panel', async () => {
    await dock.tab('Faults').click();
    await page.getByRole('combobox', { name: 'Component' }).selectOption('kube-scheduler');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.getByTestId('fault-note')).toContainText('stopped kube-scheduler');
  });
  await test.step('kubectl get cs: kube-apiserver probes the stopped scheduler and finds nothing listening', async () => {
    const out = await dock.runToEnd('kubectl get cs');
    expect(out).toContain('Warning: v1 ComponentStatus is deprecated in v1.19+');
    expect(out).toMatch(/scheduler\s+Unhealthy\s+Get "https:\/\/127\.0\.0\.1:10259\/healthz": dial tcp 127\.0\.0\.1:10259: connect: connection refused/);
    expect(out).toMatch(/controller-manager\s+Healthy\s+ok/);
    expect(out).toMatch(/etcd-0\s+Healthy\s+ok/);
  });
  await test.step('create the Deployment: its pod is Pending, on no node', async () => {
    expect(await dock.runToEnd('kubectl create -f -')).toContain('deployment.apps/nginx-deployment created');
    await dock.settle(async () => page.getByRole('button', { name: 'Run until idle' }).isDisabled());
    expect(await dock.runToEnd('kubectl get po -o wide')).toMatch(/nginx-deployment-\S+\s+0\/1\s+Pending\s+0\s+\S+\s+<none>\s+<none>/);
  });
  await test.step('start it again: the pod is bound and runs', async () => {
    await dock.tab('Faults').click();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    // The restarted scheduler lists, then binds on its own clock: watch the pod while playing at 100×.
    const watch = await dock.run('kubectl get po -o wide -w');
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('100');
    await podflow.button('Play').click();
    await expect(watch.getByTestId('console-output')).toContainText(/nginx-deployment-\S+\s+1\/1\s+Running\s+0\s+\S+\s+\S+\s+node-\d/, { timeout: 30_000 });
    await podflow.button('Pause').click();
  });
});

// (h) A node goes down: the node lifecycle controller marks it NotReady, its pod is evicted and the
// ReplicaSet's replacement runs on another node.
test('node down: NotReady, the pod is evicted and recreated on another node', async ({ podflow }) => {
  const dock = new ActDock(podflow);
  const page = podflow.page;
  await dock.runToEnd('kubectl create -f -');
  await dock.settle(async () => page.getByRole('button', { name: 'Run until idle' }).isDisabled());
  const before = await dock.runToEnd('kubectl get po -o wide');
  const [, firstPod, node] = /(nginx-deployment-\S+)\s+1\/1\s+Running\s+0\s+\S+\s+\S+\s+(node-\d)/.exec(before) ?? [];
  expect(node).toBeDefined();
  await test.step(`take ${node} down and play at 100×`, async () => {
    await dock.tab('Faults').click();
    await page.getByRole('combobox', { name: 'Node' }).selectOption(node!);
    await page.getByRole('button', { name: 'Node down', exact: true }).click();
    const nodes = await dock.run('kubectl get nodes -w');
    const pods = await dock.run('kubectl get po -o wide -w');
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('100');
    await podflow.button('Play').click();
    await expect(nodes.getByTestId('console-output')).toContainText(new RegExp(`${node}\\s+NotReady`), { timeout: 30_000 });
    await expect(pods.getByTestId('console-output')).toContainText(new RegExp(`(?!${firstPod})nginx-deployment-\\S+\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+\\S+\\s+(?!${node}\\b)node-\\d`), { timeout: 45_000 });
    await podflow.button('Pause').click();
  });
});

// (g) Compact etcd, then break kube-apiserver's watch stream to etcd: clientv3 creates the watches again
// from revisions that are now compacted, so the watch cache gets 410 and relists from etcd (a Range of
// the whole prefix, limit 10000), and the informers it served, whose resourceVersions the new cache no
// longer holds, get 410 "too old resource version" and list again. The Deployment still scales.
test('compaction during a watch: 410, the watch cache and the informers relist', async ({ podflow }) => {
  const dock = new ActDock(podflow);
  const page = podflow.page;
  const idle = async () => dock.settle(async () => page.getByRole('button', { name: 'Run until idle' }).isDisabled());
  await dock.runToEnd('kubectl create -f -');
  await idle();
  await test.step('compact etcd, then break the watch stream, and run until idle', async () => {
    await dock.tab('Faults').click();
    await page.getByRole('button', { name: 'Compact etcd now' }).click();
    await page.getByRole('button', { name: "Break kube-apiserver's etcd watch stream" }).click();
    await expect(page.getByTestId('fault-note')).toContainText("broke kube-apiserver's etcd watch stream");
    await expect(page.getByRole('button', { name: 'Run until idle' })).toBeEnabled();
    await idle();
  });
  await test.step('the etcd log shows the watch cache relisting the pods prefix', async () => {
    await dock.tab('Logs').click();
    await page.getByRole('searchbox', { name: 'Key prefix' }).fill('/registry/pods/');
    await expect(page.getByTestId('log-line').and(page.locator('[data-source="etcd"]'))
      .filter({ hasText: 'key:\\"/registry/pods/\\" range_end:\\"/registry/pods0\\" limit:10000' }).first()).toBeVisible();
  });
  await test.step('the informers relist after their back-off: the audit log shows the scheduler listing pods again', async () => {
    await page.getByRole('searchbox', { name: 'Key prefix' }).fill('/api/v1/pods');
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('10');
    await podflow.button('Play').click();
    await expect(page.getByTestId('log-line').and(page.locator('[data-source="audit"]'))
      .filter({ hasText: 'ResponseComplete  system:kube-scheduler  list  pods' }).first()).toBeVisible({ timeout: 20_000 });
    await podflow.button('Pause').click();
  });
  await test.step('the timeline marks the errors: the compaction notice and the 410s', async () => {
    const errors = page.getByTestId('timeline-marker').and(page.locator('[data-kind="error"]'));
    await expect(errors.first()).toBeAttached();
    // Markers a pixel apart are drawn as one (the newest), so only some of the labels show.
    const labels = await errors.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toMatch(/required revision has been compacted|watch ERROR 410 Expired: too old resource version|etcd watch stream broke/);
  });
  await test.step('the Deployment still scales', async () => {
    expect(await dock.runToEnd('kubectl scale deployment nginx-deployment --replicas=2')).toContain('deployment.apps/nginx-deployment scaled');
    await idle();
    expect(await dock.runToEnd('kubectl get po')).toMatch(/(nginx-deployment-\S+\s+1\/1\s+Running[\s\S]*){2}/);
  });
});
