import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test, type PodflowPage } from './podflow.ts';

// A 3-member etcd on the page (issue 18): one click from the first screen to three members, each a box
// with the leader starred and its term, commit and applied index; a create shows its MsgApp between the
// members, its write reaching each member's store on a step of its own, and every member's indexes move. Then the leader-death tour, in English and 中文, with the killed
// member drawn stopped and a new leader in a higher term. Screenshots at 1280×720 and 1440×900 go to
// test-results/raft/ for a person to look at.

const members = ['etcd-1', 'etcd-2', 'etcd-3'];

function member(podflow: PodflowPage, name: string): Locator {
  return podflow.component(name).getByTestId('etcd-member');
}

async function memberState(podflow: PodflowPage, name: string) {
  const box = member(podflow, name);
  return {
    state: (await box.getAttribute('data-state'))!,
    term: Number(await box.getAttribute('data-term')),
    commit: Number(await box.getAttribute('data-commit')),
    applied: Number(await box.getAttribute('data-applied')),
  };
}

async function leaderName(podflow: PodflowPage): Promise<string> {
  const leader = podflow.page.locator('[data-testid="component-node"]:has([data-testid="etcd-member"][data-state="leader"])');
  await expect(leader).toHaveCount(1);
  return (await leader.getAttribute('data-component'))!;
}

async function threeMembers(podflow: PodflowPage): Promise<void> {
  await podflow.page.getByTestId('etcd-members-switch').getByRole('button', { name: '3 members' }).click();
  for (const name of members) await expect(member(podflow, name)).toBeVisible({ timeout: 30_000 });
  await expect(podflow.component('etcd')).toHaveCount(0);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/raft/${name}.png` });
}

test.describe.configure({ timeout: 240_000 });

test('one click to 3 etcd members; a create replicates with MsgApp and moves every member\'s indexes', async ({ podflow }) => {
  const page = podflow.page;
  await page.setViewportSize({ width: 1280, height: 720 });
  await threeMembers(podflow);
  const leader = await leaderName(podflow);
  const before = Object.fromEntries(await Promise.all(members.map(async (n) => [n, await memberState(podflow, n)] as const)));
  for (const n of members) {
    expect(before[n]!.term, n).toBeGreaterThanOrEqual(2);
    expect(before[n]!.applied, n).toBe(before[n]!.commit);
  }
  await expect(podflow.component(leader)).toContainText('★ leader');
  await shot(page, 'members-1280x720-en');

  await test.step('a create: the leader\'s MsgApp to a follower is a token between the members', async () => {
    const follower = members.find((n) => n !== leader)!;
    const msgApps = podflow.token({ kind: 'etcd.raft.MsgApp', from: leader, to: follower });
    const newest = async () => Math.max(0, ...(await msgApps.evaluateAll((tokens) => tokens.map((t) => Number(t.getAttribute('data-message-id'))))));
    const old = await newest();
    await podflow.createNginxDeployment();
    // Step until a MsgApp sent after the create is on the peer link (heartbeat-time MsgApps came before).
    for (let i = 0; i < 400 && (await newest()) <= old; i++) {
      const at = await podflow.step();
      await page.getByTestId('step-button').click();
      await expect(podflow.stepCounter).not.toHaveText(String(at));
    }
    expect(await newest()).toBeGreaterThan(old);
    await shot(page, 'msgapp-1280x720-en');
  });

  await test.step('the Deployment\'s write reaches each member\'s store on a step of its own, highlighted on that step', async () => {
    const key = '/registry/deployments/default/nginx-deployment';
    const appliedAt = new Map<string, number>();
    for (let i = 0; i < 300 && appliedAt.size < members.length; i++) {
      const at = await podflow.step();
      for (const n of members.filter((m) => !appliedAt.has(m))) {
        const write = member(podflow, n).getByTestId('member-write');
        if ((await write.getAttribute('data-key')) !== key) continue;
        const step = Number(await write.getAttribute('data-step'));
        appliedAt.set(n, step);
        if (step === at) {
          await expect(write).toHaveAttribute('data-now', 'true');
          await expect(write).toContainText('deployments/');
          if (appliedAt.size === 1) await shot(page, 'applied-1280x720-en');
        }
      }
      if (appliedAt.size === members.length) break;
      await page.getByTestId('step-button').click();
      await expect(podflow.stepCounter).not.toHaveText(String(at));
    }
    expect([...appliedAt.keys()].sort()).toEqual(members);
    expect(new Set(appliedAt.values()).size).toBe(members.length);
    await shot(page, 'applied-all-1280x720-en');
  });

  await test.step('until idle: every member committed and applied more, with the same leader and term', async () => {
    await podflow.runUntilIdle();
    for (const n of members) {
      const after = await memberState(podflow, n);
      expect(after.commit, n).toBeGreaterThan(before[n]!.commit);
      expect(after.applied, n).toBe(after.commit);
      expect(after.term, n).toBe(before[n]!.term);
    }
    expect(await leaderName(podflow)).toBe(leader);
  });

  await test.step('the page with three members passes axe', async () => {
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

for (const language of ['en', 'zh'] as const) {
  test(`the leader-death tour (${language}): the killed leader stopped, a campaign in a higher term, a new leader, writes go on`, async ({ podflow }) => {
    const page = podflow.page;
    const t = language === 'en'
      ? { tour: 'Tour ▾', title: /What happens when the etcd leader dies/, next: 'Next stop', stop: (i: number) => `Stop ${i} of 9`, leader: '★ leader', stopped: 'process stopped' }
      : { tour: '导览 ▾', title: /etcd 领导者宕机时会发生什么/, next: '下一站', stop: (i: number) => `第 ${i} 站，共 9 站`, leader: '★ 领导者', stopped: '进程已停止' };
    if (language === 'zh') {
      await page.evaluate(() => localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'zh', theme: 'system', level: 'internal' }, version: 1 })));
      await podflow.open();
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    const card = page.getByTestId('tour-card');
    await page.getByRole('button', { name: t.tour }).click();
    await page.getByRole('menuitem', { name: t.title }).click();
    await expect(card.getByText(t.stop(1))).toBeVisible({ timeout: 120_000 });
    for (const name of members) await expect(member(podflow, name)).toBeVisible();

    const stopIds = ['propose', 'replicate', 'ack', 'kill', 'campaign', 'vote', 'new-leader', 'write-after', 'write-committed'];
    let oldLeader = '';
    let oldTerm = 0;
    for (const [i, id] of stopIds.entries()) {
      if (i > 0) await card.getByRole('button', { name: t.next }).click();
      await expect(card.getByText(t.stop(i + 1))).toBeVisible();
      await expect(card.getByTestId('tour-exact-line').first()).toBeVisible();
      if (id === 'replicate') {
        oldLeader = await leaderName(podflow);
        oldTerm = (await memberState(podflow, oldLeader)).term;
        await expect(podflow.component(oldLeader)).toContainText(t.leader);
        await shot(page, `tour-replicate-1440x900-${language}`);
      }
      if (id === 'kill') {
        await expect(member(podflow, oldLeader)).toHaveAttribute('data-state', 'stopped');
        await expect(member(podflow, oldLeader)).toContainText(t.stopped);
      }
      if (id === 'new-leader') {
        const leader = await leaderName(podflow);
        expect(leader).not.toBe(oldLeader);
        expect((await memberState(podflow, leader)).term).toBeGreaterThan(oldTerm);
        await shot(page, `tour-new-leader-1440x900-${language}`);
      }
    }
    await expect(card.getByRole('button', { name: t.next })).toBeDisabled();
    await page.setViewportSize({ width: 1280, height: 720 });
    await shot(page, `tour-end-1280x720-${language}`);
  });
}
