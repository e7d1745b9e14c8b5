// The console against a whole simulated cluster: kubectl and etcdctl command lines become the user's
// messages, and their output is what the real tools print for the replies the model gives.

import { describe, expect, it } from 'vitest';
import { nginxDeploymentYaml as nginx } from '../../sim/scenarios/manifests.ts';
import { consoleOnCluster } from './testing.ts';

const setup = () => consoleOnCluster({ seed: 'console', nodes: 2 });

describe('kubectl in the console', () => {
  it('creates from stdin, then lists with the Table the apiserver computes', () => {
    const { run } = setup();
    expect(run('kubectl create -f -', nginx)).toMatchObject({ stdout: 'deployment.apps/nginx-deployment created\n', exitCode: 0 });
    const pods = run('kubectl get po -l app=nginx');
    expect(pods.exitCode).toBe(0);
    expect(pods.stdout).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\nnginx-deployment-[a-z0-9]+-[a-z0-9]{5}\s+1\/1\s+Running\s+0\s+/);
    expect(run('kubectl create -f -', nginx)).toMatchObject({
      stderr: 'Error from server (AlreadyExists): error when creating "STDIN": deployments.apps "nginx-deployment" already exists\n', exitCode: 1,
    });
  });

  it('get all lists the resources of the "all" category, each table with kind-prefixed names', () => {
    const { run } = setup();
    // A fresh cluster's default namespace has the kubernetes Service.
    expect(run('kubectl get all')).toMatchObject({ stderr: '', exitCode: 0 });
    expect(run('kubectl get all').stdout).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nservice\/kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\S+\n$/);
    run('kubectl create -f -', nginx);
    const all = run('kubectl get all');
    expect(all.exitCode).toBe(0);
    const tables = all.stdout.trimEnd().split('\n\n');
    expect(tables.map((t) => t.split('\n')[1]!.split('/')[0])).toEqual(['pod', 'service', 'deployment.apps', 'replicaset.apps']);
    expect(tables[2]).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\ndeployment\.apps\/nginx-deployment\s+1\/1\s+1\s+1\s+/);
  });

  it('-o jsonpath prints a field of the object: the resourceVersion is the key\'s mod_revision', () => {
    const { run, cluster } = setup();
    run('kubectl create -f -', nginx);
    const rv = run("kubectl get deploy nginx-deployment -o jsonpath='{.metadata.resourceVersion}'");
    expect(rv.exitCode).toBe(0);
    expect(rv.stdout).toBe(String(cluster.etcd.kv.range({ key: '/registry/deployments/default/nginx-deployment' }).kvs[0]!.modRevision));
    expect(run('kubectl get po -o jsonpath={.items[*].status.phase}').stdout).toBe('Running');
    expect(run('kubectl get po -o jsonpath')).toMatchObject({ stderr: 'error: template format specified but no template given\n', exitCode: 1 });
    expect(run('kubectl get po -o jsonpath={.items')).toMatchObject({ stderr: 'error: error parsing jsonpath {.items, unclosed action\n', exitCode: 1 });
  });

  it('-v=6 prints the list request line with the label selector encoded', () => {
    const { run, logs } = setup();
    const out = run('kubectl get po -l app=nginx -v 6');
    expect(out.stderr).toMatch(/round_trippers\.go:553\] GET https:\/\/127\.0\.0\.1:6443\/api\/v1\/namespaces\/default\/pods\?labelSelector=app%3Dnginx&limit=500 200 OK in \d+ milliseconds/);
    expect(out.stderr).toBe(out.stderr.split('\n').filter(Boolean).map((l) => `${l}\n`).join(''));
    const lines = logs.flush()!.lines;
    expect(lines.some((l) => l.source === 'etcd' && l.text.includes('"request content":"key:\\"/registry/pods/default/\\" range_end:\\"/registry/pods/default0\\" limit:500 "'))).toBe(true);
    expect(lines.some((l) => l.source === 'audit' && l.rpc === 'list' && l.key === '/api/v1/namespaces/default/pods')).toBe(true);
  });

  it('apply creates, then patches only what changed (replicas) and says unchanged when nothing did', () => {
    const { run } = setup();
    expect(run('kubectl apply -f -', nginx).stdout).toBe('deployment.apps/nginx-deployment created\n');
    expect(run('kubectl apply -f -', nginx).stdout).toBe('deployment.apps/nginx-deployment unchanged\n');
    const scaled = run('kubectl apply -f - -v=8', nginx.replace('replicas: 1', 'replicas: 3'));
    expect(scaled.stdout).toBe('deployment.apps/nginx-deployment configured\n');
    expect(scaled.stderr).toContain('"spec":{"replicas":3}');
    const pods = run('kubectl get pods -o name');
    expect(pods.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('--as a restricted user gets the exact 403', () => {
    const { run } = setup();
    expect(run('kubectl --as=alice get deployments')).toMatchObject({
      stderr: 'Error from server (Forbidden): deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" in the namespace "default"\n',
      exitCode: 1,
    });
  });

  it('replace with a stale resourceVersion is a 409 Conflict located at metadata.resourceVersion', () => {
    const { run } = setup();
    run('kubectl create -f -', nginx);
    const live = run('kubectl get deploy nginx-deployment -o yaml').stdout;
    expect(live).toMatch(/resourceVersion: "\d+"/);
    run('kubectl scale deploy nginx-deployment --replicas=2');
    const stale = run('kubectl replace -f -', live);
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toContain('Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on deployments.apps "nginx-deployment": the object has been modified; please apply your changes to the latest version and try again');
    expect(stale.problems).toEqual([expect.objectContaining({ field: 'metadata.resourceVersion', code: 409, reason: 'Conflict' })]);
  });

  it('set image rolls out; rollout status, history and undo follow it', () => {
    const { run } = setup();
    run('kubectl create -f -', nginx);
    expect(run('kubectl set image deployment/nginx-deployment nginx=nginx:1.16').stdout).toBe('deployment.apps/nginx-deployment image updated\n');
    expect(run('kubectl rollout status deployment/nginx-deployment').stdout).toContain('deployment "nginx-deployment" successfully rolled out\n');
    expect(run('kubectl rollout history deployment/nginx-deployment').stdout).toBe('deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
    expect(run('kubectl rollout undo deployment/nginx-deployment').stdout).toBe('deployment.apps/nginx-deployment rolled back\n');
    expect(run('kubectl get deploy nginx-deployment -o json').stdout).toContain('"image": "nginx:1.14.2"');
  });

  it('reports YAML errors with their position and sends nothing', () => {
    const { run, cluster } = setup();
    const before = cluster.engine.step;
    const out = run('kubectl apply -f -', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: [x\n');
    expect(out.exitCode).toBe(1);
    expect(out.problems[0]).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    expect(cluster.engine.step).toBe(before);
  });

  it('422 causes name their field', () => {
    const { run } = setup();
    const out = run('kubectl create -f -', nginx.replace('replicas: 1', 'replicas: -1'));
    expect(out.stderr).toContain('The Deployment "nginx-deployment" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    expect(out.problems).toEqual([expect.objectContaining({ field: 'spec.replicas', code: 422 })]);
  });

  it('get --raw prints the body; get -A adds NAMESPACE; delete waits for the object to go', () => {
    const { run } = setup();
    run('kubectl create -f -', nginx);
    expect(JSON.parse(run("kubectl get --raw '/api/v1/namespaces/default/pods?resourceVersion=0'").stdout)).toMatchObject({ kind: 'PodList' });
    expect(run('kubectl get pods -A --show-labels').stdout).toMatch(/^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+LABELS\ndefault\s+nginx/);
    expect(run('kubectl delete deploy nginx-deployment').stdout).toBe('deployment.apps "nginx-deployment" deleted\n');
    expect(run('kubectl get deploy nginx-deployment').stderr).toBe('Error from server (NotFound): deployments.apps "nginx-deployment" not found\n');
  });
});

describe('etcdctl in the console', () => {
  it('lists keys and watches until interrupted', () => {
    const { run, session, output } = setup();
    expect(run('etcdctl get /registry/namespaces --prefix --keys-only').stdout).toContain('/registry/namespaces/default\n');
    session.run(100, 'etcdctl watch /registry/deployments --prefix');
    run('kubectl create -f -', nginx);
    expect(output(100)).toMatchObject({ stdout: expect.stringContaining('PUT\n/registry/deployments/default/nginx-deployment\n'), exitCode: undefined });
    session.interrupt(100);
    expect(output(100)).toMatchObject({ exitCode: 130 });
  });
});
