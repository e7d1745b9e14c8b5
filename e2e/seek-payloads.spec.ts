// A seek ships its older deliveries and the tokens it delivered light (issue 20, part 2): the payload
// holds only what the record's label reads, and the page asks the worker for the whole one when it shows
// it. Opening such a message after a seek shows its whole payload, exactly as the worker's trace holds it.

import type { Page } from '@playwright/test';
import { formatPayload } from '../src/ui/format.ts';
import { expect, PodflowTimeline, test } from './podflow.ts';

interface Held {
  readonly id: number;
  readonly from: string;
  readonly to: string;
  readonly kind: string;
  readonly step: number | null;
  readonly payload: unknown;
  readonly payloadOmitted?: true;
}

type Handle = {
  podflow: {
    store: { getState(): { recent: Held[]; tokens: Held[]; traceRange: { id: number; records: Held[] } | null } };
    actions: { select(selection: { type: 'message'; id: number }): void; traceRange(query: object): void };
  };
};

/** The page's record of message `id` (among the deliveries, else the tokens). */
function heldRecord(page: Page, id: number): Promise<Held | undefined> {
  return page.evaluate((want) => {
    const state = (globalThis as unknown as Handle).podflow.store.getState();
    return state.recent.find((r) => r.id === want) ?? state.tokens.find((t) => t.id === want);
  }, id);
}

/** Ids of this spec's `traceRange` queries: each its own, so an earlier answer held by the store is never taken for it. */
let queryId = 9_000;

/** The whole payload of the delivery at `step`, asked of the worker as the sequence view asks (a positive id). */
async function wholePayload(page: Page, step: number): Promise<string> {
  const id = ++queryId;
  await page.evaluate(([at, query]) => (globalThis as unknown as Handle).podflow.actions.traceRange({ id: query, fromStep: at, count: 1, payloads: 'full' }), [step, id] as const);
  return page.evaluate((query) => new Promise<string>((resolve) => {
    const look = () => {
      const answer = (globalThis as unknown as Handle).podflow.store.getState().traceRange;
      if (answer?.id === query) resolve(JSON.stringify(answer.records[0]!.payload));
      else requestAnimationFrame(look);
    };
    look();
  }), id);
}

test('after a seek, a light delivery and a light token show their whole payloads when opened', async ({ podflow, page }) => {
  test.setTimeout(120_000);
  const timeline = new PodflowTimeline(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await podflow.createNginxDeployment();
  await podflow.runUntilIdle();
  // Far enough back that the step's tokens are not those the page held whole at the head.
  const step = (await podflow.step()) - 300;
  await timeline.act('seek', step);
  await timeline.settledAt(step);

  const light = await page.evaluate(() => {
    const state = (globalThis as unknown as Handle).podflow.store.getState();
    return { delivery: state.recent.find((r) => r.payloadOmitted), token: state.tokens.find((t) => t.payloadOmitted && t.step !== null) };
  });
  expect(light.delivery, 'the seek shipped older deliveries light').toBeDefined();
  expect(light.token, 'and the tokens it delivered').toBeDefined();

  for (const record of [light.delivery, light.token]) {
    if (!record) continue;
    await page.evaluate((id) => (globalThis as unknown as Handle).podflow.actions.select({ type: 'message', id }), record.id);
    await expect(podflow.payload).toBeVisible();
    const held = await heldRecord(page, record.id);
    expect(held?.payloadOmitted).toBeUndefined();
    const whole = await wholePayload(page, record.step!);
    expect(JSON.stringify(held?.payload)).toBe(whole);
    await expect(podflow.payload).toHaveText(formatPayload(JSON.parse(whole)));
    // Its caption is the whole record's too (no caption is read from a light payload).
    const technical = page.getByTestId('step-caption-technical');
    await expect(technical).toBeVisible();
    await expect(technical).not.toHaveText(`${held!.from} → ${held!.to}: ${held!.kind}`);
  }
  expect(errors).toEqual([]);
});
