import { expect, test } from './podflow.ts';

// One etcd member: these steps follow etcd's requests and replies one by one, with no Raft round between them.
test.beforeEach(async ({ podflow }) => {
  await podflow.etcdMembers(1);
});

// Real traffic: etcdctl talks to etcd directly, so a put is one request and one reply, each a step.
test('an etcdctl put travels to etcd and back, one step at a time', async ({ podflow, page }) => {
  const request = podflow.token({ kind: 'etcd.Put', from: 'user', to: 'etcd' });
  const reply = podflow.token({ kind: 'etcd.PutResponse', from: 'etcd', to: 'user' });

  const booted = await podflow.step();
  const background = await podflow.pendingCount();

  await test.step('send a put with etcdctl: it is queued, nothing is delivered yet', async () => {
    await podflow.etcdctlPut('/podflow/greeting', 'hello');
    await expect(podflow.pending).toHaveText(String(background + 1));
    await expect(podflow.stepCounter).toHaveText(String(booted));
    await expect(request).toHaveCount(0);
  });

  await test.step('step: the request reaches etcd', async () => {
    const before = await podflow.virtualTime.textContent();
    await podflow.button('Step').click();
    await expect(podflow.stepCounter).toHaveText(String(booted + 1));
    await expect(request).toBeVisible();
    await expect(request).toHaveAttribute('data-phase', 'arrived');
    await expect(podflow.virtualTime).not.toHaveText(before ?? '');
  });

  await test.step('the request token opens its payload', async () => {
    await request.click();
    await expect(page.getByRole('heading', { name: 'etcd.Put' })).toBeVisible();
    await expect(podflow.payload).toContainText('"key": "/podflow/greeting"');
    await expect(podflow.payload).toContainText('"value": "hello"');
  });

  await test.step('→ steps again: etcd\'s reply travels back to the user', async () => {
    await page.keyboard.press('ArrowRight');
    await expect(podflow.stepCounter).toHaveText(String(booted + 2));
    await expect(reply).toBeVisible();
    await expect(reply).toHaveAttribute('data-phase', 'arrived');
    await expect(request).toBeHidden();
    await expect(podflow.pending).toHaveText(String(background));
  });

  await test.step('the reply carries etcd\'s response with the new revision', async () => {
    await reply.click();
    await expect(podflow.payload).toContainText('"revision"');
  });

  await test.step('clicking the link shows its newest message and the earlier ones', async () => {
    await podflow.link('user', 'etcd').click();
    await expect(page.getByRole('heading', { name: 'user ↔ etcd' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'etcd.PutResponse' })).toBeVisible();
    await expect(podflow.payload).toContainText('"revision"');
    await page.getByRole('button', { name: /etcd\.Put user → etcd/ }).click();
    await expect(podflow.payload).toContainText('"key": "/podflow/greeting"');
  });
});

test('run until idle delivers the whole exchange at once', async ({ podflow }) => {
  const booted = await podflow.step();
  const background = await podflow.pendingCount();
  await podflow.etcdctlPut('/podflow/a', '1');
  await podflow.etcdctlPut('/podflow/b', '2');
  await expect(podflow.pending).toHaveText(String(background + 2));
  await podflow.button('Run until idle').click();
  await expect(podflow.stepCounter).toHaveText(String(booted + 4));
  await expect(podflow.pending).toHaveText(String(background));
  await expect(podflow.activity).toHaveText('idle');
  await expect(podflow.button('Run until idle')).toBeDisabled();
});

test.describe('with motion', () => {
  test.use({ reducedMotion: 'no-preference' });

  test('played slowly, a put flies along its link and freezes on pause', async ({ podflow, page }) => {
    const request = podflow.token({ kind: 'etcd.Put', from: 'user', to: 'etcd' });
    /** Where motion placed the token: its inline transform. */
    const position = () => request.getAttribute('style');

    await test.step('send a put and play at a thousandth of real time', async () => {
      await podflow.etcdctlPut('/podflow/greeting', 'hello');
      await page.getByLabel('Speed').selectOption('0.001');
      await podflow.button('Play').click();
    });

    await test.step('the request is drawn in flight, moving towards etcd', async () => {
      await expect(request).toHaveAttribute('data-phase', 'in-flight', { timeout: 20_000 });
      await expect(request).toBeVisible();
      const first = await position();
      await expect.poll(position).not.toBe(first);
    });

    await test.step('pause freezes it where it is', async () => {
      await podflow.button('Pause').click();
      await expect(podflow.button('Play')).toBeVisible();
      const frozen = await position();
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      expect(await position()).toBe(frozen);
      await expect(request).toHaveAttribute('data-phase', 'in-flight');
    });
  });
});
