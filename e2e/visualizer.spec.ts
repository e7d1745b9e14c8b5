import { expect, PodflowTimeline, test } from './podflow.ts';

const deploymentKey = '/registry/deployments/default/nginx-deployment';
const podKeyPattern = /^\/registry\/pods\/default\/nginx-deployment-[a-z0-9]+-[a-z0-9]{5}$/;

// (a), the objects half: after the one-click create runs to the end, the Objects tab prints the pod as
// kubectl does (Running, its node), every resourceVersion equals the key's mod_revision in the keyspace,
// and owner references lead pod → ReplicaSet → Deployment.
test('the objects panel shows the nginx pod Running, resourceVersion beside mod_revision, owners linked', async ({ podflow, page }) => {
  let podKey = '';

  await test.step('one click creates the Deployment; run until idle', async () => {
    await podflow.createNginxDeployment();
    await podflow.runUntilIdle();
  });

  await test.step('the pod row: Running on a node, resourceVersion == mod_revision', async () => {
    await podflow.openStateTab('Objects');
    await page.getByRole('group', { name: 'Resource' }).getByRole('button', { name: /^pods/ }).click();
    const row = page.getByTestId('object-row').first();
    await expect(row).toHaveAttribute('data-key', podKeyPattern);
    podKey = (await row.getAttribute('data-key'))!;
    await expect(row.locator('[data-column="Status"]')).toHaveText('Running');
    await expect(row.locator('[data-column="Ready"]')).toHaveText('1/1');
    await expect(row.locator('[data-column="Node"]')).toHaveText(/^node-[123]$/);
    const rv = await row.getByTestId('object-resource-version').textContent();
    await expect(row.getByTestId('object-mod-revision')).toHaveText(rv!);
    await expect(page.getByTestId('list-resource-version')).toHaveText(/^list resourceVersion \d+$/);
  });

  await test.step('the keyspace shows the same mod_revision for the pod\'s key', async () => {
    const rv = await podflow.objectRow(podKey).getByTestId('object-resource-version').textContent();
    await podflow.openStateTab('etcd keyspace');
    await podflow.filterKeys(podKey);
    await expect(podflow.keyRow(podKey).getByTestId('key-mod-revision')).toHaveText(rv!);
  });

  await test.step('the pod\'s owner is its ReplicaSet, whose owner is the Deployment', async () => {
    await podflow.openStateTab('Objects');
    await podflow.objectRow(podKey).getByRole('button', { name: /^Go to owner ReplicaSet\/nginx-deployment-/ }).click();
    const details = page.getByTestId('object-details');
    await expect(details.getByRole('heading')).toHaveText(/^ReplicaSet\/nginx-deployment-[a-z0-9]+$/);
    await details.getByRole('button', { name: 'Go to owner Deployment/nginx-deployment' }).click();
    await expect(details.getByRole('heading')).toHaveText('Deployment/nginx-deployment');
    await expect(podflow.objectRow(deploymentKey)).toHaveAttribute('aria-selected', 'true');
    await expect(details.getByRole('table', { name: 'Conditions' })).toContainText('Available');
    await expect(details).toContainText('1 (observed 1)');
  });
});

// The pods on the graph: the one-click nginx pod appears by kube-scheduler while unbound (Pending), then
// on the node the scheduler chose, and turns Running, as the objects panel prints it; stepping back to
// where it was unbound shows it there again.
test('the nginx pod\'s chip: Pending by the scheduler, then Running on the node it chose, as the objects panel says', async ({ podflow, page }) => {
  const unboundChip = podflow.component('kube-scheduler').getByTestId('pod-chip');
  let name = '';
  let unboundStep = 0;

  await test.step('create; step until the pod exists: an unbound chip by kube-scheduler, Pending', async () => {
    await podflow.createNginxDeployment();
    await podflow.stepUntilVisible(unboundChip, 200);
    name = (await unboundChip.getAttribute('data-pod'))!;
    expect(name).toMatch(/^nginx-deployment-[a-z0-9]+-[a-z0-9]{5}$/);
    await expect(unboundChip).toHaveAttribute('aria-label', `pod ${name}, Pending`);
    await expect(unboundChip).toHaveText(name.slice(-5));
    await expect(page.getByTestId('pod-chip')).toHaveCount(1);
    unboundStep = await podflow.step();
  });

  let node = '';
  await test.step('run until idle: the chip is on the node the scheduler chose, Running', async () => {
    await podflow.runUntilIdle();
    await podflow.openStateTab('Scheduler');
    const outcome = (await page.getByTestId('attempt-outcome').textContent())!;
    node = /bound to (node-\d+)$/.exec(outcome)![1]!;
    const chip = podflow.component(`kubelet/${node}`).getByTestId('pod-chip');
    await expect(chip).toHaveAttribute('data-pod', name);
    await expect(chip).toHaveAttribute('aria-label', `pod ${name}, Running`);
    await expect(unboundChip).toHaveCount(0);
    await expect(page.getByRole('list', { name: `pods on ${node}` }).getByRole('listitem', { name: `pod ${name}, Running` })).toBeVisible();
  });

  await test.step('the objects panel prints the same pod, node and status', async () => {
    await podflow.openStateTab('Objects');
    await page.getByRole('group', { name: 'Resource' }).getByRole('button', { name: /^pods/ }).click();
    const row = podflow.objectRow(`/registry/pods/default/${name}`);
    await expect(row.locator('[data-column="Node"]')).toHaveText(node);
    await expect(row.locator('[data-column="Status"]')).toHaveText('Running');
  });

  await test.step('back on the timeline to where it was unbound: the chip is by the scheduler again, Pending', async () => {
    await new PodflowTimeline(page).act('seek', unboundStep);
    await expect(page.getByTestId('timeline-position')).toHaveText(new RegExp(`^step ${unboundStep} of \\d+$`));
    await expect(unboundChip).toHaveAttribute('aria-label', `pod ${name}, Pending`);
    await expect(podflow.component(`kubelet/${node}`).getByTestId('pod-chip')).toHaveCount(0);
  });
});

// kube-apiserver's stages light up as the one-click create walks them, one step each.
test('kube-apiserver\'s request stages light up one at a time as the create walks the chain', async ({ podflow, page }) => {
  const stage = (kind: string) => page.getByTestId('apiserver-stage').and(page.locator(`[data-stage="${kind}"][data-active="true"]`));
  await podflow.createNginxDeployment();
  await podflow.stepUntilVisible(stage('apiserver.authentication'), 10);
  const stages = page.getByRole('list', { name: 'kube-apiserver request stages' });
  await expect(stages.getByRole('listitem', { name: 'authentication' })).toHaveAttribute('aria-current', 'step');
  await expect(page.locator('[data-testid="apiserver-stage"][data-active="true"]')).toHaveCount(1);
  await podflow.stepUntilVisible(stage('apiserver.admission.mutating'), 20);
  await expect(stages.getByRole('listitem', { name: 'authentication' })).not.toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('step-caption')).toContainText('Mutating');
});

// (d): the pod's current version (phase Running, written by its kubelet's status update) has a cause
// chain that starts at the user's create.
test('the why? chain of the pod\'s Running status leads back to the user\'s create', async ({ podflow, page }) => {
  await test.step('create and run until idle', async () => {
    // One etcd member: with three, the chain ends at the Raft message with which a member applies the write.
    await podflow.etcdMembers(1);
    await podflow.createNginxDeployment();
    await podflow.runUntilIdle();
  });

  await test.step('an event, whose table has no Name column, is selected by its first cell', async () => {
    await podflow.openStateTab('Objects');
    await page.getByRole('group', { name: 'Resource' }).getByRole('button', { name: /^events \d+$/ }).click();
    const first = page.getByTestId('object-row').first();
    await expect(first.locator('td[data-column="Last Seen"]')).toBeVisible();
    const select = first.getByRole('button', { name: /: select nginx-deployment-[a-z0-9-]+\.[0-9a-f]+$/ });
    const name = (await select.getAttribute('title'))!;
    await select.click();
    await expect(page.getByTestId('object-details')).toHaveAttribute('aria-label', `Event ${name}`);
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('group', { name: 'Resource' }).getByRole('button', { name: /^pods \d+$/ }).click();
  });

  await test.step('ask why the pod is as it is', async () => {
    await page.getByTestId('object-row').first().getByRole('button').first().click();
    await expect(page.getByTestId('object-details')).toContainText('Ready');
    await page.getByTestId('object-details').getByRole('button', { name: /^Why this version\?/ }).click();
  });

  // Why? is a causal tree (src/ui/panels/WhyChain.tsx): the root and the milestones at the top, the
  // requests and deliveries between them folded; e2e/story.spec.ts walks it in detail.
  const chain = page.getByTestId('why-chain');
  const tops = chain.getByTestId('why-milestone');
  await test.step('the chain runs from the user\'s POST to the etcd Txn, passing the kubelet', async () => {
    await expect(chain.getByTestId('why-root')).toHaveText('It starts with the user\'s action.');
    await expect(tops.first()).toHaveAttribute('data-from', 'user');
    await expect(tops.last()).toContainText('kube-apiserver → etcd: Txn');
    await expect(tops.filter({ hasText: /kubelet on node-\d/ }).first()).toBeVisible();
    expect(await tops.count() + await chain.getByTestId('why-delivery').count()).toBeGreaterThan(10);
  });

  await test.step('each entry moves the timeline to its step: the first shows the user\'s create', async () => {
    const step = Number(await tops.first().getAttribute('data-step'));
    await expect(tops.first().getByTestId('why-step')).toHaveText(`step ${step}`);
    await tops.first().click();
    await expect(page.getByTestId('timeline-position')).toHaveText(new RegExp(`^step ${step} of \\d+$`));
    await expect(page.getByTestId('step-caption')).toContainText('kubectl → kube-apiserver: POST /apis/apps/v1/namespaces/default/deployments');
    await expect(tops.first()).toHaveAttribute('aria-current', 'step');
  });
});

test('the scheduler tab shows every node\'s filter verdicts and scores for the pod\'s attempt', async ({ podflow, page }) => {
  await podflow.createNginxDeployment();
  await podflow.runUntilIdle();
  await podflow.openStateTab('Scheduler');
  const nodes = page.getByTestId('scheduler-node');
  await expect(nodes).toHaveCount(3);
  await expect(page.getByTestId('attempt-outcome')).toHaveText(/bound to node-[123]$/);
  const chosen = nodes.filter({ hasText: '✓' });
  await expect(chosen).toHaveCount(1);
  await expect(chosen.getByTestId('scheduler-final-score')).toHaveText(/^\d+$/);
  // Plugins that both filter and score (TaintToleration) appear under each phase's heading.
  await expect(page.getByTestId('scheduler-phase')).toHaveText(['Filter', 'Score: normalised × weight (raw)']);
  const table = page.getByRole('table', { name: /^Filter and score per node for / });
  await expect(table.getByRole('columnheader', { name: 'TaintToleration' })).toHaveCount(2);
  await expect(page.getByRole('table', { name: /^Filter and score per node for default\/nginx-deployment-/ })).toContainText('NodeResourcesFit');
  // The worker lists the attempts and details one: filtering by a pod's name narrows both.
  const counts = page.getByTestId('scheduler-counts');
  const made = Number((await counts.textContent())?.match(/^(\d+) attempts?/)?.[1]);
  expect(made).toBeGreaterThanOrEqual(1);
  const shown = (await page.getByTestId('scheduler').getByRole('combobox').locator('option:checked').textContent())!;
  const pod = shown.split(' ')[0]!.split('/')[1]!;
  await page.getByLabel('Filter attempts by pod').fill(pod);
  await expect(counts).toHaveText(/^1 attempt$/);
  await expect(page.getByRole('table', { name: `Filter and score per node for default/${pod}` })).toBeVisible();
  await page.getByLabel('Filter attempts by pod').fill('no-such-pod');
  await expect(page.getByTestId('scheduler-no-match')).toHaveText('No attempt of a pod matching “no-such-pod” by this step.');
});

// (e): the timeline and the panels work from the keyboard alone.
test('keyboard only: → steps, space plays and pauses, arrows move between the state tabs', async ({ podflow, page }) => {
  await test.step('create from the keyboard: focus the Create button and press Enter', async () => {
    await page.getByRole('form', { name: 'kubectl create' }).getByRole('button', { name: 'Create' }).focus();
    await page.keyboard.press('Enter');
    await expect(podflow.activity).toHaveText('paused');
  });

  await test.step('→ delivers one message at a time', async () => {
    await page.locator('body').focus();
    const before = await podflow.step();
    await page.keyboard.press('ArrowRight');
    await expect(podflow.stepCounter).toHaveText(String(before + 1));
    await page.keyboard.press('ArrowRight');
    await expect(podflow.stepCounter).toHaveText(String(before + 2));
    await expect(page.getByTestId('step-caption')).toContainText(`#${before + 2}`);
  });

  await test.step('space on the focused Play button plays, again pauses', async () => {
    await podflow.button('Play').focus();
    await page.keyboard.press('Space');
    await expect(podflow.activity).toHaveText('playing');
    await page.keyboard.press('Space');
    await expect(podflow.activity).not.toHaveText('playing');
  });

  await test.step('the dock tabs: focus one, arrows move the selection', async () => {
    const tabs = page.getByRole('tablist', { name: 'Dock' });
    await tabs.getByRole('tab', { name: 'etcd keyspace' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'Objects' })).toHaveAttribute('aria-selected', 'true');
    await expect(tabs.getByRole('tab', { name: 'Objects' })).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(tabs.getByRole('tab', { name: 'etcd keyspace' })).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('Why? from the caption bar, by keyboard', async () => {
    await page.getByRole('button', { name: 'Why? Show the causes of this step' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('why-chain').getByTestId('why-milestone').first()).toHaveAttribute('data-from', 'user');
  });
});

test('the theme switch forces dark or light colours', async ({ podflow: _podflow, page }) => {
  const theme = page.getByRole('combobox', { name: 'Theme' });
  await theme.selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(14, 18, 23)');
  await theme.selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(245, 246, 248)');
  await theme.selectOption('system');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
  // System follows the browser's colour scheme.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(14, 18, 23)');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(245, 246, 248)');
});

// (b): the timeline serves past steps from the worker's records, so going back 5 and forward 5 shows
// exactly what was shown before.
test('step back 5 then forward 5 shows the identical screen; the create is marked on the timeline', async ({ podflow, page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const screen = async () => ({
    step: await podflow.stepCounter.textContent(),
    caption: await page.getByTestId('step-caption').textContent(),
    revision: await page.getByTestId('keyspace-revision').textContent(),
    position: await page.getByTestId('timeline-position').textContent(),
    // Tokens drawn (in flight or resting at arrival); gone ones are hidden and not on screen.
    tokens: (await page.getByTestId('token').evaluateAll((els) => els
      .filter((el) => ['in-flight', 'arrived'].includes(el.getAttribute('data-phase') ?? ''))
      .map((el) => `${el.getAttribute('data-message-id')}:${el.getAttribute('data-phase')}`))).sort(),
  });
  let before: Awaited<ReturnType<typeof screen>>;

  await test.step('create, then step 12 times', async () => {
    await podflow.createNginxDeployment();
    const start = await podflow.step();
    for (let i = 1; i <= 12; i++) {
      await podflow.button('Step').click();
      await expect(podflow.stepCounter).toHaveText(String(start + i));
    }
    await expect(page.getByTestId('timeline-marker').and(page.locator('[data-kind="command"]')).last()).toHaveAttribute('aria-label', /kubectl create/);
    before = await screen();
  });

  await test.step('step back 5 (← and the button): the view is 5 steps earlier', async () => {
    const at = Number(before.step);
    await page.locator('body').focus();
    for (let i = 1; i <= 3; i++) {
      await page.keyboard.press('ArrowLeft');
      await expect(podflow.stepCounter).toHaveText(String(at - i));
    }
    for (let i = 4; i <= 5; i++) {
      await podflow.button('Step back').click();
      await expect(podflow.stepCounter).toHaveText(String(at - i));
    }
    await expect(page.getByTestId('timeline-position')).toHaveText(`step ${at - 5} of ${at}`);
  });

  await test.step('forward 5: the same step, caption, keyspace and tokens as before', async () => {
    const at = Number(before.step);
    for (let i = 4; i >= 0; i--) {
      await podflow.button('Step').click();
      await expect(podflow.stepCounter).toHaveText(String(at - i));
    }
    await expect(page.getByTestId('timeline-position')).toHaveText(`step ${at} · live`);
    await expect.poll(screen).toEqual(before);
  });
});

test('the watches tab lists who watches what at kube-apiserver, and etcd\'s watchers', async ({ podflow, page }) => {
  await podflow.openStateTab('Watches');
  const kubelet = page.getByTestId('apiserver-watch').and(page.locator('[data-who="kubelet/node-1"]')).filter({ hasText: '/api/v1/pods' });
  await expect(kubelet).toContainText('spec.nodeName=node-1');
  await expect(page.getByTestId('apiserver-watch').and(page.locator('[data-who="kube-controller-manager"]')).filter({ hasText: '/apis/apps/v1/deployments' })).toHaveCount(1);
  await expect(page.getByTestId('etcd-watch').filter({ hasText: 'prefix /registry/pods/' })).toContainText('synced');
  const podsCache = page.getByTestId('watch-cache').and(page.locator('[data-resource="/registry/pods"]'));
  await expect(podsCache.getByTestId('watch-cache-oldest')).toHaveText(/^\d+$/);
  await expect(podsCache).toContainText('/ 100');
});
