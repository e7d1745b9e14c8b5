// The Podflow page as a user sees it, and a `test` whose `podflow` fixture opens it with the cluster
// drawn. Locators go by role or data-testid only.

import { expect, test as base, type Locator, type Page } from '@playwright/test';

export interface TokenQuery {
  readonly kind: string;
  readonly from: string;
  readonly to: string;
  /** Text the token's accessible name contains (its label: a Txn's key, a reply's revision). */
  readonly label?: string;
}

export class PodflowPage {
  readonly stepCounter: Locator;
  readonly virtualTime: Locator;
  readonly pending: Locator;
  readonly activity: Locator;
  readonly payload: Locator;

  constructor(readonly page: Page) {
    this.stepCounter = page.getByTestId('step-counter');
    this.virtualTime = page.getByTestId('virtual-time');
    this.pending = page.getByTestId('pending-count');
    this.activity = page.getByTestId('activity');
    this.payload = page.getByTestId('message-payload');
  }

  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.component('user')).toBeVisible();
  }

  /** A component node of the graph, by its engine name (e.g. `kubelet/node-2`). */
  component(name: string): Locator {
    return this.page.getByTestId('component-node').and(this.page.locator(`[data-component="${name}"]`));
  }

  /** The token of a delivered message on its link (messages still in flight at the step shown are tokens too). */
  /** A delivered token; `label`, when given, must be in its accessible name (a leader-election renewal's Txn can be on screen beside the user's). */
  token({ kind, from, to, label }: TokenQuery): Locator {
    const token = this.page.getByTestId('token').and(this.page.locator(`[data-kind="${kind}"][data-from="${from}"][data-to="${to}"][data-delivered="true"]`));
    return label === undefined ? token : token.and(this.page.getByLabel(label));
  }


  /** The chip of a pod on the graph, by its name (on its node's kubelet, or by the scheduler while unbound). */
  podChip(name: string): Locator {
    return this.page.getByTestId('pod-chip').and(this.page.locator(`[data-pod="${name}"]`));
  }

  /** A link of the graph, by the engine names of its ends (in topology order). */
  link(a: string, b: string): Locator {
    return this.page.getByRole('img', { name: `link between ${a} and ${b}`, exact: false });
  }

  /** Messages queued now (background timers such as etcd compaction included). */
  async pendingCount(): Promise<number> {
    return Number(await this.pending.textContent());
  }

  /** The step counter's current value. */
  async step(): Promise<number> {
    return Number(await this.stepCounter.textContent());
  }

  /** The keyspace panel's row of an etcd key (rendered only while scrolled into view or filtered to). */
  keyRow(key: string): Locator {
    return this.page.getByTestId('key-row').and(this.page.locator(`[data-key="${key}"]`));
  }

  /** Narrows the keyspace panel to keys containing `text`. */
  async filterKeys(text: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Filter keys' }).fill(text);
  }

  /** Shows the keyspace at a past revision. */
  async viewRevision(revision: number): Promise<void> {
    const picker = this.page.getByRole('form', { name: 'Revision picker' });
    await picker.getByRole('spinbutton', { name: 'Revision' }).fill(String(revision));
    await picker.getByRole('button', { name: 'View' }).click();
  }

  /** Creates the nginx Deployment preset with the kubectl create form. */
  async createNginxDeployment(): Promise<void> {
    await this.page.getByRole('form', { name: 'kubectl create' }).getByRole('button', { name: 'Create' }).click();
  }

  /** Steps one message at a time until `locator` shows up (at most `limit` steps). */
  async stepUntilVisible(locator: Locator, limit = 80): Promise<void> {
    for (let i = 0; i < limit && (await locator.count()) === 0; i++) {
      const before = await this.step();
      // By test id: the button's name follows the page's language.
      await this.page.getByTestId('step-button').click();
      await expect(this.stepCounter).not.toHaveText(String(before));
    }
    await expect(locator).toBeVisible();
  }

  /**
   * A new cluster (same seed and nodes) with `count` etcd members, by the graph's switch; waits for their
   * boxes. The first screen runs 3: a scenario that follows one etcd's requests and replies step by step
   * (no Raft round between them) picks 1.
   */
  async etcdMembers(count: 1 | 3 | 5): Promise<void> {
    await this.page.getByTestId('etcd-members-switch').getByRole('button', { name: count === 1 ? '1 member' : `${count} members` }).click();
    if (count === 1) await expect(this.component('etcd')).toBeVisible({ timeout: 30_000 });
    else await expect(this.component(`etcd-${count}`)).toBeVisible({ timeout: 30_000 });
    await expect(this.activity).toHaveText('idle');
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** Shows one of the dock's model-state tabs: 'etcd keyspace', 'Objects', 'Watches' or 'Scheduler'. */
  async openStateTab(name: string): Promise<void> {
    await this.page.getByRole('tablist', { name: 'Dock' }).getByRole('tab', { name }).click();
  }

  /** The objects panel's row of the object stored at `key`. */
  objectRow(key: string): Locator {
    return this.page.getByTestId('object-row').and(this.page.locator(`[data-key="${key}"]`));
  }

  /** Runs until only background work is queued and waits for the idle readout. */
  async runUntilIdle(): Promise<void> {
    await this.button('Run until idle').click();
    await expect(this.activity).toHaveText('idle');
  }

  async etcdctlPut(key: string, value: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'etcdctl put' });
    await form.getByLabel('Key').fill(key);
    await form.getByLabel('Value').fill(value);
    await form.getByRole('button', { name: 'Send put' }).click();
  }
}

/** These scenarios step one delivery at a time: a page starts in English at the 'All' level unless a test chose otherwise. */
export async function scenarioPrefs(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (localStorage.getItem('podflow.prefs') === null) {
      localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'system', level: 'internal' }, version: 1 }));
    }
  });
}

export const test = base.extend<{ podflow: PodflowPage }>({
  podflow: async ({ page }, use) => {
    await scenarioPrefs(page);
    const podflow = new PodflowPage(page);
    await podflow.open();
    await use(podflow);
  },
});

export { expect };

// ── Timeline and saved clusters (issue 6) ─────────────────────────────────────────────────────────────

/** What the page's store holds of the cluster, for comparing runs: step, keyspace, recent deliveries. */
export interface ClusterView {
  readonly step: number;
  /** Every key with its revisions and size; `value` only where the page holds it (a diff brought it; snapshots carry none). */
  readonly keyspace: ReadonlyArray<{ key: string; modRevision: number; version: number; size: number; value?: string }>;
  readonly recent: ReadonlyArray<{ step: number; id: number; kind: string; from: string; to: string; payload: string }>;
}

export class PodflowTimeline {
  constructor(readonly page: Page) {}

  /** Calls a store action through the page's scripting handle (`window.podflow`). */
  async act(name: string, ...args: unknown[]): Promise<void> {
    await this.page.evaluate(([action, rest]) => {
      const handle = (globalThis as unknown as { podflow: { actions: Record<string, (...a: unknown[]) => void> } }).podflow;
      handle.actions[action as string]!(...(rest as unknown[]));
    }, [name, args] as const);
  }

  /** The cluster as the page shows it now. */
  async view(): Promise<ClusterView> {
    return this.page.evaluate(() => {
      type Rec = { step: number; id: number; kind: string; from: string; to: string; payload: unknown };
      type Entry = { key: string; modRevision: number; version: number; size: number; value?: string };
      const state = (globalThis as unknown as { podflow: { store: { getState(): { status: { step: number }; recent: Rec[]; keyspace: { live: { keys: string[]; entries: Map<string, Entry> } } } } } }).podflow.store.getState();
      const { keys, entries } = state.keyspace.live;
      return {
        step: state.status.step,
        keyspace: keys.map((key) => {
          const e = entries.get(key)!;
          return { key, modRevision: e.modRevision, version: e.version, size: e.size, ...(e.value === undefined ? {} : { value: e.value }) };
        }),
        recent: state.recent.map((r) => ({ step: r.step, id: r.id, kind: r.kind, from: r.from, to: r.to, payload: JSON.stringify(r.payload) })),
      };
    });
  }

  /** Waits until no replay or restore runs and the status shows `step`. */
  async settledAt(step: number): Promise<void> {
    await expect(this.page.getByTestId('step-counter')).toHaveText(String(step));
    await expect.poll(() => this.page.evaluate(() => (globalThis as unknown as { podflow: { store: { getState(): { progress: unknown } } } }).podflow.store.getState().progress === null)).toBe(true);
  }

  /** Waits until the open cluster is saved at `step`. */
  async savedAt(step: number): Promise<void> {
    await expect(this.page.getByTestId('saved-step')).toHaveText(`Saved at step ${step.toLocaleString('en-US')}`);
  }
}
