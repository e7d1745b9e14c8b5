// The real kubectl deleting a namespace on Podflow's apiserver: the namespace turns Terminating, new
// content is refused, kubectl waits until the namespace controller has emptied it and it is gone; the
// system namespaces cannot be deleted. Skipped, with a message, when kubectl is not installed.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findKubectl, startKubectlEnv, type KubectlEnv, type KubectlResult } from './harness.ts';

const kubectl = findKubectl();
if (!kubectl) console.warn('test/kubectl: kubectl is not on PATH; the namespace suite is SKIPPED');

let env: KubectlEnv;
const k = (...args: string[]): Promise<KubectlResult> => env.run(args);

/** A manifest file in the test's directory (kubectl's generators send protobuf, which is another branch's work). */
function manifest(name: string, object: object): string {
  const path = join(env.dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(object));
  return path;
}
const configMap = (name: string, finalizers?: string[]) =>
  manifest(`cm-${name}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop', ...(finalizers ? { finalizers } : {}) }, data: { k: 'v' } });

describe.skipIf(!kubectl)('real kubectl: namespace lifecycle', () => {
  beforeAll(async () => {
    env = await startKubectlEnv(kubectl!);
  });
  afterAll(async () => {
    await env?.close();
  });

  test('delete ns: Terminating while content with a finalizer remains, creates refused, then gone with its content', async () => {
    const ns = manifest('ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    expect(await k('create', '-f', ns)).toMatchObject({ stdout: 'namespace/shop created\n', code: 0 });
    for (const name of ['a', 'b']) expect(await k('create', '-f', configMap(name))).toMatchObject({ stdout: `configmap/${name} created\n`, code: 0 });
    expect(await k('create', '-f', configMap('held', ['example.com/hold']))).toMatchObject({ stdout: 'configmap/held created\n', code: 0 });
    expect(await k('delete', 'namespace', 'shop', '--wait=false')).toMatchObject({ stdout: 'namespace "shop" deleted\n', stderr: '', code: 0 });
    // The namespace controller deletes a and b; `held` waits for its finalizer, and so does the namespace.
    expect(await k('get', 'configmaps', '-n', 'shop', '-o', 'name')).toMatchObject({ stdout: 'configmap/held\n', code: 0 });
    expect(await k('get', 'namespace', 'shop', '-o', 'jsonpath={.status.phase}')).toMatchObject({ stdout: 'Terminating', code: 0 });
    const conditions = await k('get', 'namespace', 'shop', '-o', 'jsonpath={range .status.conditions[*]}{.type}={.reason}: {.message}{"\\n"}{end}');
    expect(conditions.stdout.split('\n')).toEqual([
      'NamespaceDeletionDiscoveryFailure=ResourcesDiscovered: All resources successfully discovered',
      'NamespaceDeletionGroupVersionParsingFailure=ParsedGroupVersions: All legacy kube types successfully parsed',
      'NamespaceDeletionContentFailure=ContentDeleted: All content successfully deleted, may be waiting on finalization',
      'NamespaceContentRemaining=SomeResourcesRemain: Some resources are remaining: configmaps. has 1 resource instances',
      'NamespaceFinalizersRemaining=SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      '',
    ]);
    const refused = await k('create', '-f', configMap('late'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`Error from server (Forbidden): error when creating "${configMap('late')}": configmaps "late" is forbidden: unable to create new content in namespace shop because it is being terminated\n`);
    // Removing the finalizer lets the ConfigMap go; kubectl delete then waits until the namespace is gone.
    expect(await k('patch', 'configmap', 'held', '-n', 'shop', '--type=merge', '-p', '{"metadata":{"finalizers":null}}')).toMatchObject({ stdout: 'configmap/held patched\n', code: 0 });
    expect(await k('delete', 'namespace', 'shop', '--ignore-not-found')).toMatchObject({ code: 0 });
    expect(await k('get', 'namespace', 'shop')).toMatchObject({ stderr: 'Error from server (NotFound): namespaces "shop" not found\n', code: 1 });
    expect(await k('get', 'configmaps', '-n', 'shop')).toMatchObject({ stderr: 'No resources found in shop namespace.\n', code: 0 });
  });

  test('the system namespaces cannot be deleted', async () => {
    const r = await k('delete', 'namespace', 'kube-system');
    expect(r).toMatchObject({ stderr: 'Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted\n', code: 1 });
  });
});
