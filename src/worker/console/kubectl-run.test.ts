// `kubectl run` in the console: the Pod kubectl generates goes over the wire as kubectl 1.28 sends it,
// the cluster runs it, and the printed texts and errors are kubectl's.

import { describe, expect, it } from 'vitest';
import type { HttpRequest } from '../../sim/wire/http.ts';
import { consoleOnCluster } from './testing.ts';

describe('kubectl run', () => {
  it('POSTs the generated Pod with fieldManager kubectl-run; the Pod runs; a second run is AlreadyExists', () => {
    const { run, cluster } = consoleOnCluster({ seed: 'console-run', nodes: 2 });
    const posts: HttpRequest[] = [];
    cluster.engine.onDelivery((m) => {
      const request = m.payload as HttpRequest;
      if (m.kind === 'http.request' && m.from === 'user' && request.method === 'POST') posts.push(request);
    });
    expect(run('kubectl run web --image=nginx')).toMatchObject({ stdout: 'pod/web created\n', stderr: '', exitCode: 0 });
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ path: '/api/v1/namespaces/default/pods', query: 'fieldManager=kubectl-run' });
    expect(posts[0]!.body).toBe('{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","creationTimestamp":null,"labels":{"run":"web"}},'
      + '"spec":{"containers":[{"name":"web","image":"nginx","resources":{}}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst"},"status":{}}\n');
    const row = run('kubectl get pod web -o wide').stdout.split('\n')[1]!;
    expect(row).toMatch(/^web\s+1\/1\s+Running\s+0\s+\S+\s+\S+\s+node-\d/);
    // kubectl get hides managedFields; the raw object shows who wrote it.
    const raw = JSON.parse(run('kubectl get --raw /api/v1/namespaces/default/pods/web').stdout) as { metadata: { managedFields: { manager: string }[] } };
    expect(raw.metadata.managedFields[0]!.manager).toBe('kubectl-run');
    expect(run('kubectl run web --image=nginx')).toMatchObject({ stderr: 'Error from server (AlreadyExists): pods "web" already exists\n', exitCode: 1 });
  });

  it('--dry-run=client -o yaml prints the generated Pod and sends nothing; labels, port, env, args and --command', () => {
    const { run, cluster } = consoleOnCluster({ seed: 'console-run', nodes: 2 });
    const sent = cluster.engine.step;
    const dry = run('kubectl run web --image=nginx --dry-run=client -o yaml');
    expect(dry).toMatchObject({ stderr: '', exitCode: 0 });
    expect(dry.stdout).toBe([
      'apiVersion: v1', 'kind: Pod', 'metadata:', '  creationTimestamp: null', '  labels:', '    run: web', '  name: web', 'spec:',
      '  containers:', '  - image: nginx', '    name: web', '    resources: {}', '  dnsPolicy: ClusterFirst', '  restartPolicy: Always', 'status: {}', '',
    ].join('\n'));
    expect(cluster.engine.step - sent).toBeLessThan(200);
    expect(run('kubectl get pod web').stderr).toBe('Error from server (NotFound): pods "web" not found\n');
    expect(run('kubectl run web --image=nginx --dry-run=client').stdout).toBe('pod/web created (dry run)\n');
    const full = run('kubectl run job --image=busybox --restart=Never -l app=batch,tier=x --port=8080 --env=A=1 --env=B=2 --dry-run=client -o json -- sleep 3600');
    expect(JSON.parse(full.stdout)).toEqual({
      kind: 'Pod', apiVersion: 'v1',
      metadata: { name: 'job', creationTimestamp: null, labels: { app: 'batch', tier: 'x' } },
      spec: {
        containers: [{ name: 'job', image: 'busybox', args: ['sleep', '3600'], ports: [{ containerPort: 8080 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], resources: {} }],
        restartPolicy: 'Never', dnsPolicy: 'ClusterFirst',
      },
      status: {},
    });
    const withCommand = JSON.parse(run('kubectl run c --image=busybox --dry-run=client -o json --command -- sh -c date').stdout) as { spec: { containers: { command?: string[] }[] } };
    expect(withCommand.spec.containers[0]!.command).toEqual(['sh', '-c', 'date']);
  });

  it('--dry-run=server runs admission and validation without storing; errors are kubectl\'s', () => {
    const { run } = consoleOnCluster({ seed: 'console-run', nodes: 2 });
    expect(run('kubectl run web --image=nginx --dry-run=server')).toMatchObject({ stdout: 'pod/web created (server dry run)\n', exitCode: 0 });
    expect(run('kubectl get pod web').exitCode).toBe(1);
    expect(run('kubectl run web')).toMatchObject({ stderr: 'error: --image is required\n', exitCode: 1 });
    expect(run('kubectl run --image=nginx')).toMatchObject({ stderr: 'error: NAME is required for run\n', exitCode: 1 });
    expect(run('kubectl run web --image=nginx --restart=Sometimes')).toMatchObject({ stderr: 'error: invalid restart policy: Sometimes\n' });
    expect(run('kubectl run web --image=nginx --dry-run=maybe')).toMatchObject({ stderr: 'error: Invalid dry-run value (maybe). Must be "none", "server", or "client".\n' });
    expect(run('kubectl run web --image=nginx -n nowhere')).toMatchObject({ stderr: 'Error from server (NotFound): namespaces "nowhere" not found\n', exitCode: 1 });
    // The name is the container's too: both fail validation.
    expect(run('kubectl run Web --image=nginx').stderr).toMatch(/^The Pod "Web" is invalid: \n\* metadata\.name: Invalid value: "Web": a lowercase RFC 1123 subdomain.*\n\* spec\.containers\[0\]\.name: Invalid value: "Web": a lowercase RFC 1123 label/);
    expect(run('kubectl run web --image=nginx -it').stderr).toContain('not modelled');
  });
});
