import { ActDock, nginxDeployment } from './act.ts';
import { expect, test } from './podflow.ts';

// (a) The seeds' nginx Deployment from the editor, then `replicas: 3` applied: kubectl apply sends a
// strategic merge patch, the controllers create two more pods and the kubelets run them.
test('editing replicas to 3 and applying brings two more pods up, Running', async ({ podflow, page }) => {
  const dock = new ActDock(podflow);
  await test.step('apply the preset: the Deployment is created', async () => {
    await dock.setEditorText(nginxDeployment);
    await dock.editorButton('Apply').click();
    expect(await dock.editorOutputWhenDone()).toContain('deployment.apps/nginx-deployment created');
  });
  await test.step('replicas: 3, apply again: configured', async () => {
    await dock.setEditorText(nginxDeployment.replace('replicas: 1', 'replicas: 3'));
    await dock.editorButton('Apply').click();
    expect(await dock.editorOutputWhenDone()).toContain('deployment.apps/nginx-deployment configured');
  });
  await test.step('three pods run', async () => {
    await dock.settle(async () => (await podflow.pendingCount()) >= 0 && (await page.getByRole('button', { name: 'Run until idle' }).isDisabled()));
    const pods = await dock.runToEnd('kubectl get po -l app=nginx');
    expect(pods.match(/nginx-deployment-\S+\s+1\/1\s+Running/g)).toHaveLength(3);
  });
});

// (b) A live edit that went stale: the Deployment changed after it was fetched, so the PUT with the
// old resourceVersion gets 409 Conflict; "Reload and retry" fetches it again, keeps the edit, succeeds.
test('a stale live edit is a 409 Conflict; reload and retry replaces it', async ({ podflow, page }) => {
  const dock = new ActDock(podflow);
  await dock.runToEnd('kubectl create -f -');
  await test.step('fetch the live Deployment into the editor', async () => {
    await dock.tab('YAML editor').click();
    await page.getByRole('textbox', { name: 'Live object' }).fill('deployment/nginx-deployment');
    await page.getByRole('button', { name: 'Edit live' }).click();
    await dock.settle(async () => (await page.getByTestId('editor-note').textContent())?.startsWith('Editing the live') ?? false);
    await expect(page.getByRole('textbox', { name: 'YAML manifest' })).toContainText('resourceVersion:');
  });
  await test.step('someone scales it meanwhile', async () => {
    expect(await dock.runToEnd('kubectl scale deployment nginx-deployment --replicas=2')).toContain('deployment.apps/nginx-deployment scaled');
  });
  await test.step('change the image and replace: 409 Conflict, marked at resourceVersion', async () => {
    await dock.tab('YAML editor').click();
    const content = page.getByRole('textbox', { name: 'YAML manifest' });
    await content.getByText('image: nginx:1.14.2').click();
    await page.keyboard.press('End');
    for (let i = 0; i < '4.2'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.insertText('6');
    await expect(content).toContainText('image: nginx:1.16');
    await dock.editorButton('Replace').click();
    const output = await dock.editorOutputWhenDone();
    expect(output).toContain('Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on deployments.apps "nginx-deployment": the object has been modified; please apply your changes to the latest version and try again');
    await expect(page.getByRole('alert')).toContainText('409 Conflict');
    await expect(page.getByTestId('editor-problem')).toContainText(/line \d+, column \d+: Operation cannot be fulfilled/);
  });
  await test.step('reload and retry: replaced with the edit, on top of the scale', async () => {
    await page.getByRole('button', { name: 'Reload and retry' }).click();
    await dock.settle(async () => ((await page.getByTestId('editor-output').textContent()) ?? '').includes('replaced'));
    expect(await dock.runToEnd('kubectl get deploy nginx-deployment -o wide')).toMatch(/nginx-deployment\s+\S+\s+\S+\s+\S+\s+\S+\s+nginx\s+nginx:1\.16/);
    expect(await dock.runToEnd('kubectl get deploy nginx-deployment -o yaml')).toContain('replicas: 2');
  });
});

// (d) Invalid YAML never leaves the page: the error is marked at its line and column.
test('invalid YAML is marked at its line and column and nothing is sent', async ({ podflow, page }) => {
  const dock = new ActDock(podflow);
  await dock.setEditorText(nginxDeployment.replace('  name: nginx-deployment', '  name: [nginx-deployment'));
  await dock.editorButton('Create').click();
  await expect(page.getByTestId('editor-note')).toContainText(/Nothing sent: the YAML does not parse \(line \d+, column \d+\)/);
  await expect(page.getByTestId('editor-problem').first()).toContainText(/^line \d+, column \d+: /);
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();
  // Had a request been sent, the next steps would deliver it (it is due now, before any background timer):
  // step on and look for it on the graph and in etcd.
  const step = await podflow.step();
  for (let i = 0; i < 3; i++) await podflow.button('Step').click();
  await expect(podflow.stepCounter).toHaveText(String(step + 3));
  await expect(podflow.token({ kind: 'http.request', from: 'user', to: 'kube-apiserver' })).toHaveCount(0);
  await expect(podflow.keyRow('/registry/deployments/default/nginx-deployment')).toHaveCount(0);
});

// Server errors land next to the field they name: a 422 cause at spec.replicas.
test('a 422 Invalid cause is marked at the field it names', async ({ podflow, page }) => {
  const dock = new ActDock(podflow);
  await dock.setEditorText(nginxDeployment.replace('replicas: 1', 'replicas: -1'));
  await dock.editorButton('Create').click();
  expect(await dock.editorOutputWhenDone()).toContain('The Deployment "nginx-deployment" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  await expect(page.getByTestId('editor-problem')).toHaveText('line 8, column 3: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
});
