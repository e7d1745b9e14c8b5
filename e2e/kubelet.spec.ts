import { ActDock } from './act.ts';
import { expect, test } from './podflow.ts';

const talker = `apiVersion: v1
kind: Pod
metadata:
  name: talker
spec:
  containers:
  - name: talker
    image: busybox:1.36
    command: ["sh", "-c", "echo hello from podflow; sleep 3600"]
`;

// Talking to containers from the console: kubectl logs and kubectl exec travel kubectl → kube-apiserver
// → the pod's kubelet, and print what the container wrote or answered.
test('kubectl logs and kubectl exec in the console reach the pod\'s kubelet', async ({ podflow }) => {
  const dock = new ActDock(podflow);
  await test.step('a pod that prints a line is created from the editor', async () => {
    await dock.setEditorText(talker);
    await dock.editorButton('Create').click();
    expect(await dock.editorOutputWhenDone()).toContain('pod/talker created');
    await dock.settle(async () => (await dock.runToEnd('kubectl get pod talker')).includes('Running'));
  });
  await test.step('kubectl logs prints what the container wrote', async () => {
    expect(await dock.runToEnd('kubectl logs talker')).toBe('hello from podflow\n');
  });
  await test.step('kubectl exec runs a command and reports its exit code', async () => {
    expect(await dock.runToEnd('kubectl exec talker -- hostname')).toBe('talker\n');
    expect(await dock.runToEnd('kubectl exec talker -- cat /nope')).toBe('cat: can\'t open \'/nope\': No such file or directory\ncommand terminated with exit code 1\n');
  });
  await test.step('crane lists the registry the kubelets pull from', async () => {
    expect(await dock.runToEnd('crane ls busybox')).toContain('1.36\n');
  });
});
