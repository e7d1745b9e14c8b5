import { expect, test } from './podflow.ts';

// One etcd member: these steps follow etcd's requests and replies one by one, with no Raft round between them.
test.beforeEach(async ({ podflow }) => {
  await podflow.etcdMembers(1);
});

// Components show their insides at the step shown: stepping through the nginx flow, etcd's box shows the
// revision the keyspace tab shows, kube-scheduler's box the pod it bound and the node (as the Objects tab
// prints them), and stepping back shows the earlier values again.
test('component insides follow the step shown, forward and back', async ({ podflow, page }) => {
  // A few hundred single steps, each awaited on the page, after a second boot (the switch to 1 member).
  test.setTimeout(150_000);
  const etcdRevision = podflow.component('etcd').getByTestId('etcd-revision');
  const decision = podflow.component('kube-scheduler').getByTestId('scheduler-decision');
  const keyspaceRevision = page.getByTestId('keyspace-revision');
  const seen = new Map<number, { revision: string; kind: string; pod: string }>();
  const read = async () => ({
    revision: (await etcdRevision.getAttribute('data-value'))!,
    kind: (await decision.getAttribute('data-kind'))!,
    pod: (await decision.getAttribute('data-pod'))!,
  });

  await test.step('before the flow: nothing scheduled, etcd at the keyspace\'s revision', async () => {
    await expect(decision).toHaveAttribute('data-kind', 'none');
    await expect(keyspaceRevision).toHaveText(`latest: revision ${await etcdRevision.getAttribute('data-value')}`);
  });

  await test.step('step through the nginx flow until kube-scheduler has bound the pod', async () => {
    await podflow.createNginxDeployment();
    for (let i = 0; i < 300 && (await decision.getAttribute('data-kind')) !== 'bound'; i++) {
      const before = await podflow.step();
      await podflow.button('Step').click();
      await expect(podflow.stepCounter).not.toHaveText(String(before));
      seen.set(await podflow.step(), await read());
    }
    await expect(decision).toHaveAttribute('data-kind', 'bound');
    // etcd's box and the keyspace tab agree at every step; checked here at the binding's step.
    await expect(keyspaceRevision).toHaveText(`latest: revision ${await etcdRevision.getAttribute('data-value')}`);
    // On the way, the scheduler was seen binding the pod before the binding succeeded.
    expect([...seen.values()].some((v) => v.kind === 'binding')).toBe(true);
  });

  await test.step('the pod and node it bound are those the Objects tab prints', async () => {
    const pod = (await decision.getAttribute('data-pod'))!;
    const node = (await decision.getAttribute('data-node'))!;
    expect(pod).toMatch(/^default\/nginx-deployment-[a-z0-9]+-[a-z0-9]{5}$/);
    expect(node).toMatch(/^node-[123]$/);
    await expect(decision).toHaveAttribute('title', `bound pod ${pod} to ${node}`);
    await podflow.openStateTab('Objects');
    await page.getByRole('group', { name: 'Resource' }).getByRole('button', { name: /^pods/ }).click();
    await expect(podflow.objectRow(`/registry/pods/${pod}`).locator('[data-column="Node"]')).toHaveText(node);
    await podflow.openStateTab('etcd keyspace');
  });

  await test.step('every text inside the component boxes is at least 11 px at zoom 1', async () => {
    const sizes = await page.getByTestId('component-node').evaluateAll((nodes) => nodes.flatMap((node) => [...node.querySelectorAll('*')]
      .filter((el) => [...el.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent!.trim() !== ''))
      .map((el) => ({ text: el.textContent!.trim().slice(0, 30), size: parseFloat(getComputedStyle(el).fontSize) }))));
    expect(sizes.length).toBeGreaterThan(30);
    expect(sizes.filter((s) => s.size < 11)).toEqual([]);
  });

  await test.step('stepping back shows the earlier insides', async () => {
    const head = await podflow.step();
    const earlier = [...seen.entries()].filter(([step, v]) => step < head && v.kind !== 'bound').map(([step]) => step);
    const target = Math.max(...earlier.filter((step) => seen.get(step)!.revision !== seen.get(head)!.revision));
    for (let step = head; step > target; step--) {
      await podflow.button('Step back').click();
      await expect(podflow.stepCounter).toHaveText(String(step - 1));
    }
    const then = seen.get(target)!;
    await expect(etcdRevision).toHaveAttribute('data-value', then.revision);
    await expect(decision).toHaveAttribute('data-kind', then.kind);
    await expect(decision).toHaveAttribute('data-pod', then.pod);
    expect(Number(then.revision)).toBeLessThan(Number(seen.get(head)!.revision));
    await expect(keyspaceRevision).toContainText(`revision ${then.revision}`);
  });
});
