import { ActDock } from './act.ts';
import { expect, test } from './podflow.ts';

// Issue 17 §9: the console's explain, auth can-i and whoami, --sort-by, etcdctl endpoint health|status,
// and a plain answer for a real kubectl command it does not model.
test('console: explain, auth can-i / whoami, --sort-by, etcdctl endpoint, and what is not modelled', async ({ podflow }) => {
  const dock = new ActDock(podflow);
  await test.step('explain reads the OpenAPI document and prints the field', async () => {
    const out = await dock.runToEnd('kubectl explain pods.spec.containers');
    expect(out).toContain('KIND:       Pod');
    expect(out).toContain('FIELD: containers <[]Container>');
    expect(out).toContain('name\t<string> -required-');
  });
  await test.step('auth can-i and whoami', async () => {
    expect(await dock.runToEnd('kubectl auth can-i create pods')).toBe('yes\n');
    expect(await dock.runToEnd('kubectl auth whoami')).toBe('ATTRIBUTE   VALUE\nUsername    kubernetes-admin\nGroups      [system:masters system:authenticated]\n');
    const list = await dock.runToEnd('kubectl auth can-i --list');
    expect(list).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n/);
  });
  await test.step('get --sort-by sorts the rows', async () => {
    const out = await dock.runToEnd('kubectl get ns --sort-by=.metadata.name');
    const names = out.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0]!);
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(names).toEqual([...names].sort());
  });
  await test.step('etcdctl endpoint health and status -w table', async () => {
    expect(await dock.runToEnd('etcdctl endpoint health')).toMatch(/^127\.0\.0\.1:2379 is healthy: successfully committed proposal: took = /);
    expect(await dock.runToEnd('etcdctl endpoint status -w table')).toMatch(/\|\s+ENDPOINT\s+\|\s+ID\s+\|\s+VERSION\s+\|[^\n]*\n[^\n]*\n\| 127\.0\.0\.1:2379 \| [0-9a-f]+ \|\s+3\.4\.23 \|/);
  });
  await test.step('a real command the console does not model says so', async () => {
    const out = await dock.runToEnd('kubectl port-forward pod/x 8080:80');
    expect(out).toContain('"kubectl port-forward" is not modelled in Podflow\'s console');
    expect(out).not.toContain('Did you mean');
  });
});
