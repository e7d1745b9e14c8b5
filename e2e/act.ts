// Helpers for the scenarios that act on the cluster through the dock: the console,
// the YAML editor and the logs. Locators go by role or data-testid only.

import { expect, type Locator, type Page } from '@playwright/test';
import type { PodflowPage } from './podflow.ts';

/** seeds/000's nginx Deployment, as the scenarios carry it. */
export { nginxDeploymentYaml as nginxDeployment } from '../src/sim/scenarios/manifests.ts';

/** The dock of a page the `podflow` fixture opened. */
export class ActDock {
  readonly page: Page;

  constructor(podflow: PodflowPage) {
    this.page = podflow.page;
  }

  tab(name: 'YAML editor' | 'Console' | 'Logs' | 'Faults' | 'Scenarios'): Locator {
    return this.page.getByRole('tab', { name });
  }

  /** Types a command line into the console and runs it; returns the entry it makes. */
  async run(line: string): Promise<Locator> {
    await this.tab('Console').click();
    const input = this.page.getByRole('textbox', { name: 'Command line' });
    const entries = this.page.getByTestId('console-entry');
    const index = await entries.count();
    await input.fill(line);
    await input.press('Enter');
    const entry = entries.nth(index);
    await expect(entry).toContainText(line);
    return entry;
  }

  /** Runs the simulation until `done` holds (clicking "Run until idle" whenever it is enabled). */
  async settle(done: () => Promise<boolean>, rounds = 40): Promise<void> {
    const runButton = this.page.getByRole('button', { name: 'Run until idle', exact: true });
    for (let i = 0; i < rounds; i++) {
      if (await done()) return;
      // The button turns disabled the moment a run reaches idle, so a click may find it disabled; then
      // wait for what comes next: the condition, or the button enabled again (more work queued).
      if (await runButton.isEnabled()) await runButton.click({ timeout: 1_000 }).catch(() => undefined);
      else await expect.poll(async () => (await done()) || (await runButton.isEnabled()), { timeout: 10_000 }).toBe(true);
    }
    expect(await done()).toBe(true);
  }

  /** Runs a command line and the simulation until the command has finished; returns its output. */
  async runToEnd(line: string): Promise<string> {
    const entry = await this.run(line);
    await this.settle(async () => (await entry.getAttribute('data-done')) === 'true');
    return (await entry.getByTestId('console-output').textContent()) ?? '';
  }

  /** Replaces the editor's whole text. */
  async setEditorText(text: string): Promise<void> {
    await this.tab('YAML editor').click();
    const content = this.page.getByRole('textbox', { name: 'YAML manifest' });
    await content.click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.insertText(text);
    await expect(content).toContainText(text.split('\n')[0]!);
  }

  editorButton(name: 'Create' | 'Apply' | 'Replace' | 'Delete'): Locator {
    return this.page.getByRole('toolbar', { name: 'Manifest actions' }).getByRole('button', { name, exact: true });
  }

  /** The output of the editor's last command, once it is complete. */
  async editorOutputWhenDone(): Promise<string> {
    const output = this.page.getByTestId('editor-output');
    await this.settle(async () => (await output.count()) > 0 && !((await output.textContent()) ?? '').includes('(step or play to deliver)'));
    return (await output.textContent()) ?? '';
  }
}
