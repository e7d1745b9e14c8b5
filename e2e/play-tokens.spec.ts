// Playing draws the messages: at 1× (a hop of 1–5 virtual ms lasts less than a 60 Hz frame) and at 0.1×,
// every message of the nginx create the page receives while playing is drawn, in flight or resting at its
// arrival — the user's POST, the Txn that writes the Deployment, the watch events that wake the
// controllers, the scheduler's binding and the kubelet's watch event among them. Play is pressed first,
// so the playhead starts mid-way through the Create's stepped transition and the whole create is shipped
// while playing.

import type { Page } from '@playwright/test';
import { expect, test } from './podflow.ts';

// The tokens move (the suite's default reduces motion: the playhead jumps to each clock).
test.use({ reducedMotion: 'no-preference' });

/**
 * Starts recording every token the page makes (received) for a message newer than those it holds now
 * (the step shown, paused, holds recent messages already gone) and which of them were drawn.
 */
async function recordTokens(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = { received: new Map<string, string>(), drawn: new Set<string>() };
    (globalThis as unknown as { tokens: typeof seen }).tokens = seen;
    const held = [...document.querySelectorAll<SVGGElement>('[data-testid="token"]')].map((token) => Number(token.dataset.messageId));
    const newest = Math.max(0, ...held);
    const look = () => {
      for (const token of document.querySelectorAll<SVGGElement>('[data-testid="token"]')) {
        const id = token.dataset.messageId!;
        if (Number(id) <= newest) continue;
        seen.received.set(id, token.getAttribute('aria-label') ?? '');
        if ((token.dataset.phase === 'in-flight' || token.dataset.phase === 'arrived') && token.style.visibility === 'visible') seen.drawn.add(id);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase', 'style', 'data-message-id'] });
  });
}

/** The accessible names of the tokens drawn so far, and how many were received but never drawn. */
async function tokensSeen(page: Page): Promise<{ drawn: string[]; received: number; undrawn: string[] }> {
  return page.evaluate(() => {
    const { received, drawn } = (globalThis as unknown as { tokens: { received: Map<string, string>; drawn: Set<string> } }).tokens;
    return {
      drawn: [...drawn].map((id) => received.get(id) ?? ''),
      received: received.size,
      undrawn: [...received].filter(([id]) => !drawn.has(id)).map(([, name]) => name),
    };
  });
}

/** The create's messages, by their accessible names (kind, link, label). */
const createMessages = [
  /^http\.request from user to kube-apiserver, message \d+: POST …\/default\/deployments/,
  /^etcd\.Txn from kube-apiserver to etcd-\d, message \d+: Txn mod_revision\(nginx-deployment\) == 0/,
  /^http\.watchEvent from kube-apiserver to kube-controller-manager, message \d+: ADDED nginx-deployment rv/,
  /^http\.request from kube-controller-manager to kube-apiserver, message \d+: POST …\/default\/replicasets/,
  /^http\.request from kube-scheduler to kube-apiserver, message \d+: POST …\/nginx-deployment-[a-z0-9-]+\/binding/,
  /^http\.watchEvent from kube-apiserver to kubelet\/node-\d, message \d+: ADDED nginx-deployment-/,
];

for (const speed of ['1', '0.1']) {
  test(`playing at ${speed}×, the create's messages are drawn as they happen`, async ({ podflow, page }) => {
    await page.getByRole('combobox', { name: 'Speed' }).selectOption(speed);
    await recordTokens(page);
    await podflow.button('Play').click();
    await podflow.createNginxDeployment();
    // Until the kubelet's watch event for the Pod was drawn (5 virtual s suffice at 1×).
    await expect.poll(async () => (await tokensSeen(page)).drawn.some((name) => createMessages.at(-1)!.test(name)), { timeout: 60_000 }).toBe(true);
    await podflow.button('Pause').click();
    const { drawn, received, undrawn } = await tokensSeen(page);
    for (const message of createMessages) expect(drawn, `drawn: ${String(message)}`).toContainEqual(expect.stringMatching(message));
    // A token leaves the page only after it was drawn; on a loaded machine a frame may come after a
    // report that both shipped and dropped a flight, so a few may never have been seen.
    expect(undrawn.length, `never drawn of ${received}: ${undrawn.slice(0, 5).join(' | ')}`).toBeLessThanOrEqual(received * 0.1);
  });
}
