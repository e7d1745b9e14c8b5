import { expect, test, PodflowTimeline, type ClusterView, type PodflowPage } from './podflow.ts';

// Saved clusters and the timeline in the browser: a reload lands on the same step with the same keyspace,
// going on gives exactly the trace of an uninterrupted run, and stepping back and forward again replays
// the very same deliveries.

const podKeys = '/registry/pods/default/nginx-deployment-';
/** A stored pod (Kubernetes protobuf: the bytes hold the node's name once spec.nodeName is set) bound to a node. */
const boundValue = /node-\d/;

/** The keyspace without values: a snapshot (a reload's restore) carries none, the page asks for the one it shows. */
function keysOf(view: ClusterView): Array<Omit<ClusterView['keyspace'][number], 'value'>> {
  return view.keyspace.map(({ key, modRevision, version, size }) => ({ key, modRevision, version, size }));
}

/** Creates the nginx Deployment and steps until its pod is bound to a node (stored with spec.nodeName). */
async function deployUntilBound(podflow: PodflowPage, timeline: PodflowTimeline): Promise<void> {
  await podflow.createNginxDeployment();
  for (let i = 0; i < 400; i++) {
    const view = await timeline.view();
    if (view.keyspace.some((e) => e.key.startsWith(podKeys) && boundValue.test(e.value ?? ''))) return;
    const before = await podflow.step();
    await timeline.act('step', 5);
    await expect(podflow.stepCounter).not.toHaveText(String(before));
  }
  throw new Error('no pod was bound');
}

test('a reload lands on the same step, keyspace and resourceVersions, and going on equals an uninterrupted run', async ({ podflow, page, browser }) => {
  const timeline = new PodflowTimeline(page);
  await deployUntilBound(podflow, timeline);
  const before = await timeline.view();
  await timeline.savedAt(before.step);

  await page.reload();
  await timeline.settledAt(before.step);
  const after = await timeline.view();
  expect(after.step).toBe(before.step);
  expect(keysOf(after)).toEqual(keysOf(before));
  // The bound pod's stored value, read from etcd's history by the worker when the key is shown.
  const bound = after.keyspace.find((e) => e.key.startsWith(podKeys))!;
  await podflow.openStateTab('etcd keyspace');
  await podflow.filterKeys(podKeys);
  await podflow.keyRow(bound.key).click();
  await expect(page.getByTestId('detail-mod-revision')).toHaveText(String(bound.modRevision));
  await expect(page.getByTestId('key-value-fields')).toContainText(boundValue);
  await expect(page.getByTestId('saved-cluster')).toHaveCount(1);

  await timeline.act('step', 40);
  await timeline.settledAt(before.step + 40);
  const continued = await timeline.view();

  // The same session in a fresh browser context (its own IndexedDB), never reloaded.
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto('/');
  const straight = new PodflowTimeline(other);
  await expect(other.getByTestId('saved-step')).toBeVisible();
  const booted = Number(await other.getByTestId('step-counter').textContent());
  await other.getByRole('form', { name: 'kubectl create' }).getByRole('button', { name: 'Create' }).click();
  await straight.act('step', before.step - booted);
  await straight.settledAt(before.step);
  await straight.act('step', 40);
  await straight.settledAt(before.step + 40);
  const uninterrupted = await straight.view();
  await context.close();
  expect(keysOf(continued)).toEqual(keysOf(uninterrupted));
  // Every delivery since the Deployment was created, the 40 after the reload included.
  const since = uninterrupted.recent.length;
  expect(since).toBeGreaterThan(40);
  expect(continued.recent.slice(-since)).toEqual(uninterrupted.recent);
});

test('stepping back 10 steps and forward again shows the identical trace and keyspace', async ({ podflow, page }) => {
  const timeline = new PodflowTimeline(page);
  const booted = await podflow.step();
  await podflow.createNginxDeployment();
  await timeline.act('step', 60);
  const start = booted + 60;
  await timeline.settledAt(start);
  await timeline.act('step', 10);
  await timeline.settledAt(start + 10);
  const first = await timeline.view();

  await timeline.act('stepBack', 10);
  await timeline.settledAt(start);
  const past = await timeline.view();
  expect(past.recent.at(-1)?.step).toBe(start);

  for (let i = 1; i <= 10; i++) {
    await timeline.act('step', 1);
    await timeline.settledAt(start + i);
  }
  const again = await timeline.view();
  expect(again.keyspace).toEqual(first.keyspace);
  expect(again.recent.slice(-10)).toEqual(first.recent.slice(-10));
});

test('a second tab on the same cluster says it shows an unsaved copy, in English and in 中文, naming the cluster', async ({ podflow, page }) => {
  await expect(page.getByTestId('saved-step')).toBeVisible();
  const second = await page.context().newPage();
  await second.goto('/');
  const warning = second.getByTestId('storage-warning');
  await expect(warning).toHaveAttribute('data-code', 'other-tab');
  const english = (await warning.textContent()) ?? '';
  // The worker's sentence names the cluster the first tab holds.
  const name = /^"(.+)" is open in another tab: this tab shows an unsaved copy\. Changes here are not saved\.$/.exec(english)?.[1];
  expect(name).toBeTruthy();
  await expect(page.getByTestId('storage-warning')).toHaveCount(0);
  await second.getByRole('button', { name: '中文' }).click();
  const chinese = `“${name}”已在另一个标签页中打开：这里显示的是未保存的副本，这里的更改不会保存。`;
  await expect(warning).toHaveText(chinese);
  // On hover, whole (the header may cut the line short), then the worker's own sentence.
  await expect(warning).toHaveAttribute('title', `${chinese}\n${english}`);
  await expect(podflow.component('user')).toBeVisible();
  await second.close();
});
