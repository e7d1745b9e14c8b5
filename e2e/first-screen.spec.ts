import { expect, test } from './podflow.ts';

const components = [
  'user', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet/node-1', 'kubelet/node-2', 'kubelet/node-3',
];

test('the first screen draws the whole cluster and plays virtual time', async ({ podflow, page }) => {
  await test.step('every component of the default three-node cluster is drawn, etcd as 3 members (issue 18)', async () => {
    await expect(page.getByTestId('etcd-members-switch').getByRole('button', { name: '3 members' })).toHaveAttribute('aria-pressed', 'true');
    const members = page.getByTestId('component-node').filter({ has: page.getByTestId('etcd-member') });
    await expect(members).toHaveCount(3);
    await expect(podflow.component('etcd')).toHaveCount(0);
    for (const member of await members.all()) await expect(member).toBeVisible();
    // One leader, starred on its box, among the members the page names.
    await expect(members.filter({ has: page.locator('[data-testid="etcd-member"][data-state="leader"]') })).toHaveCount(1);
    for (const name of components) await expect(podflow.component(name)).toBeVisible();
    await expect(page.getByTestId('component-node')).toHaveCount(components.length + 3);
  });

  await test.step('every component is modelled: none is marked "not modelled yet"', async () => {
    await expect(page.getByTestId('component-node').filter({ hasText: 'not modelled yet' })).toHaveCount(0);
  });

  await test.step('the cluster has booted (namespaces, RBAC policy) and waits: only background work is queued', async () => {
    await expect(podflow.stepCounter).not.toHaveText('0');
    await expect(podflow.activity).toHaveText('idle');
    await expect(podflow.button('Run until idle')).toBeDisabled();
  });

  await test.step('space plays: virtual time runs', async () => {
    const booted = await podflow.virtualTime.textContent();
    await page.keyboard.press('Space');
    await expect(podflow.button('Pause')).toBeVisible();
    await expect(podflow.activity).toHaveText('playing');
    await expect(podflow.virtualTime).not.toHaveText(booted ?? '');
  });

  await test.step('space again pauses', async () => {
    await page.keyboard.press('Space');
    await expect(podflow.button('Play')).toBeVisible();
    await expect(podflow.activity).not.toHaveText('playing');
  });
});
