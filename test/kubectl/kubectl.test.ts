// The real kubectl against Podflow's apiserver: each step runs one kubectl command (the dispatcher on
// PATH, which asks /version first and runs its built-in 1.32) with a temporary kubeconfig and cache dir,
// and checks what kubectl printed and its exit code. The steps build on each other, as a user's session
// would: create the seeds' manifests, watch pods start, read, apply, scale, roll out, fail, delete.
// Skipped, with a message, when kubectl is not installed.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { executeJsonPath, parseTemplate, type JsonValue } from '../../src/worker/console/jsonpath.ts';
import { findKubectl, ok, rows, startKubectlEnv, type KubectlEnv, type KubectlResult } from './harness.ts';

const kubectl = findKubectl();
if (!kubectl) console.warn('test/kubectl: kubectl is not on PATH; the real-kubectl suite is SKIPPED');

const manifests = join(import.meta.dirname, 'manifests');
const manifest = (name: string): string => join(manifests, name);

let env: KubectlEnv;
let commands = 0;

async function k(...args: string[]): Promise<KubectlResult> {
  commands++;
  return env.run(args);
}

describe.skipIf(!kubectl)('real kubectl against the Podflow apiserver', () => {
  beforeAll(async () => {
    env = await startKubectlEnv(kubectl!);
  });
  afterAll(async () => {
    await env?.close();
    if (kubectl) expect(commands).toBeGreaterThanOrEqual(40);
  });

  test('version reports the server as 1.32, so the dispatcher runs kubectl 1.32', async () => {
    const out = ok(await k('version'));
    expect(out).toMatch(/^Server Version: v1\.32\.0$/m);
    const json = JSON.parse(ok(await k('version', '-o', 'json'))) as { serverVersion: { major: string; minor: string } };
    expect(json.serverVersion).toMatchObject({ major: '1', minor: '32' });
  });

  test('api-resources lists what aggregated discovery serves, with short names and verbs', async () => {
    const table = rows(ok(await k('api-resources')));
    expect(table[0]).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    expect(table).toContainEqual(['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
    expect(table).toContainEqual(['pods', 'po', 'v1', 'true', 'Pod']);
    expect(table).toContainEqual(['nodes', 'no', 'v1', 'false', 'Node']);
    const wide = ok(await k('api-resources', '-o', 'wide', '--api-group=apps'));
    expect(wide).toMatch(/^replicasets\s+rs\s+apps\/v1\s+true\s+ReplicaSet\s+create,delete,deletecollection,get,list,patch,update,watch\s+all$/m);
  });

  test('the system namespaces and the nodes are there', async () => {
    const ns = rows(ok(await k('get', 'ns')));
    expect(ns.map((r) => r[0])).toEqual(['NAME', 'default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const nodes = rows(ok(await k('get', 'nodes')));
    expect(nodes.slice(1).map((r) => [r[0], r[1]])).toEqual([['node-1', 'Ready'], ['node-2', 'Ready'], ['node-3', 'Ready']]);
  });

  test('a fresh 1.28 cluster: default and kube-root-ca.crt in every namespace, the kubernetes Service, cluster-info', async () => {
    const sa = rows(ok(await k('get', 'sa', '-A')));
    expect(sa.slice(1).map((r) => [r[0], r[1]])).toEqual([['default', 'default'], ['kube-node-lease', 'default'], ['kube-public', 'default'], ['kube-system', 'default']]);
    const cm = rows(ok(await k('get', 'cm', '-A')));
    expect(cm.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system'].map((ns) => [ns, 'kube-root-ca.crt', '1']));
    const both = ok(await k('get', 'sa,cm', '-A'));
    expect(both).toMatch(/^kube-system\s+serviceaccount\/default\s/m);
    expect(both).toMatch(/^kube-system\s+configmap\/kube-root-ca\.crt\s+1\s/m);
    const svc = ok(await k('get', 'svc,endpoints,endpointslices'));
    expect(svc).toMatch(/^service\/kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\S+$/m);
    expect(svc).toMatch(/^endpoints\/kubernetes\s+172\.18\.0\.1:6443\s+\S+$/m);
    expect(svc).toMatch(/^endpointslice\.discovery\.k8s\.io\/kubernetes\s+IPv4\s+6443\s+172\.18\.0\.1\s+\S+$/m);
    const pc = rows(ok(await k('get', 'priorityclasses')));
    expect(pc.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual([['system-cluster-critical', '2000000000', 'false'], ['system-node-critical', '2000001000', 'false']]);
    const info = ok(await k('cluster-info'));
    expect(info).toMatch(/^Kubernetes control plane is running at https?:\/\/127\.0\.0\.1:\d+/m);
  });

  test('get pods -w prints ADDED and MODIFIED lines while the nginx Deployment created with create -f starts its pod', async () => {
    let watching = false;
    const stop = env.server.host.onDelivery((m) => {
      const request = m.payload as { path?: string; query?: string };
      if (m.kind === 'http.request' && m.to === 'kube-apiserver' && request.path === '/api/v1/namespaces/default/pods' && /(^|&)watch=true/.test(request.query ?? '')) watching = true;
    });
    const watch = env.spawn(['get', 'pods', '-l', 'app=nginx', '-w', '--output-watch-events']);
    commands++;
    let out = '';
    let err = '';
    watch.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    watch.stderr!.on('data', (b: Buffer) => {
      err += b.toString();
    });
    const until = async (cond: () => boolean): Promise<void> => {
      for (let i = 0; i < 600 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await until(() => watching);
    stop();
    expect(watching).toBe(true);
    expect(ok(await k('create', '-f', manifest('nginx-deployment.yaml')))).toBe('deployment.apps/nginx-deployment created\n');
    // Wait for the whole line (RESTARTS, AGE and its newline): kubectl may write a row in two chunks.
    await until(() => /MODIFIED\s+nginx-deployment-\S+\s+1\/1\s+Running\s+\d+\s+\S+\n/.test(out));
    watch.kill();
    expect(err).toBe('');
    const lines = rows(out);
    expect(lines[0]).toEqual(['EVENT', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(lines[1]).toEqual(expect.arrayContaining(['ADDED', '0/1', 'Pending']));
    expect(lines.slice(2).every((l) => l[0] === 'MODIFIED')).toBe(true);
    expect(lines.some((l) => l.includes('ContainerCreating'))).toBe(true);
    expect(lines.at(-1)).toEqual(expect.arrayContaining(['MODIFIED', '1/1', 'Running', '0']));
  });

  test('create -f the seeds\' ReplicaSet and Pod; creating again is AlreadyExists', async () => {
    expect(ok(await k('create', '-f', manifest('replicaset.yaml')))).toBe('replicaset.apps/my-replicaset created\n');
    expect(ok(await k('create', '-f', manifest('user-service.yaml')))).toBe('pod/user-service created\n');
    const again = await k('create', '-f', manifest('nginx-deployment.yaml'));
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`Error from server (AlreadyExists): error when creating "${manifest('nginx-deployment.yaml')}": deployments.apps "nginx-deployment" already exists\n`);
    const ready = await k('wait', '--for=condition=Ready', 'pod', '--all', '--timeout=60s');
    expect(ready.code).toBe(0);
    expect(ready.stdout).toMatch(/^pod\/user-service condition met$/m);
  });

  test('get pods -l app=nginx -o wide shows the server-side wide columns', async () => {
    const table = rows(ok(await k('get', 'pods', '-l', 'app=nginx', '-o', 'wide')));
    expect(table[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED', 'NODE', 'READINESS', 'GATES']);
    expect(table).toHaveLength(2);
    expect(table[1]![0]).toMatch(/^nginx-deployment-[a-z0-9]+-[a-z0-9]{5}$/);
    expect(table[1]!.slice(1, 4)).toEqual(['1/1', 'Running', '0']);
    expect(table[1]![5]).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(table[1]![6]).toMatch(/^node-\d$/);
    expect(table[1]!.slice(7)).toEqual(['<none>', '<none>']);
  });

  test('get deploy,rs,pods prints one table per kind with kind prefixes', async () => {
    const out = ok(await k('get', 'deploy,rs,pods'));
    const [deploy, rs, pods] = out.trim().split('\n\n').map(rows);
    expect(deploy![0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(deploy![1]!.slice(0, 4)).toEqual(['deployment.apps/nginx-deployment', '1/1', '1', '1']);
    expect(rs![0]).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
    expect(rs!.slice(1).map((r) => r.slice(1, 4))).toEqual([['2', '2', '2'], ['1', '1', '1']]);
    expect(rs![1]![0]).toBe('replicaset.apps/my-replicaset');
    const names = pods!.slice(1).map((r) => r[0]!);
    expect(names.filter((n) => /^pod\/my-replicaset-[a-z0-9]{5}$/.test(n))).toHaveLength(2);
    expect(names.filter((n) => /^pod\/nginx-deployment-[a-z0-9]+-[a-z0-9]{5}$/.test(n))).toHaveLength(1);
    expect(names).toContain('pod/user-service');
    expect(pods!.find((r) => r[0] === 'pod/user-service')!.slice(1, 3)).toEqual(['3/3', 'Running']);
  });

  test('expose deployment: a Service with a ClusterIP from the range, its Endpoints and EndpointSlice follow the ready Pod', async () => {
    expect(ok(await k('expose', 'deployment', 'nginx-deployment', '--port=80'))).toBe('service/nginx-deployment exposed\n');
    const svc = rows(ok(await k('get', 'svc', 'nginx-deployment', '-o', 'wide')));
    expect(svc[0]).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR']);
    expect(svc[1]![1]).toBe('ClusterIP');
    expect(svc[1]![2]).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect([svc[1]![3], svc[1]![4], svc[1]![6]]).toEqual(['<none>', '80/TCP', 'app=nginx']);
    // The Deployment's Pod (my-replicaset's Pods carry app=nginx too, so the Service selects them as well).
    const podName = rows(ok(await k('get', 'pods', '-l', 'app=nginx', '-o', 'name'))).flat().find((n) => n.startsWith('pod/nginx-deployment-'))!;
    const podIP = ok(await k('get', podName, '-o', 'jsonpath={.status.podIP}'));
    expect(podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    let ep = '';
    for (let i = 0; i < 40 && !ep.includes(`${podIP}:80`); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 200));
      ep = ok(await k('get', 'endpoints', 'nginx-deployment'));
    }
    expect(ep).toMatch(new RegExp(`^nginx-deployment\\s+\\S*${podIP.replaceAll('.', '\\.')}:80\\S*\\s`, 'm'));
    const slices = ok(await k('get', 'endpointslices', '-l', 'kubernetes.io/service-name=nginx-deployment'));
    expect(slices).toMatch(new RegExp(`^nginx-deployment-[a-z0-9]{5}\\s+IPv4\\s+80\\s+\\S*${podIP.replaceAll('.', '\\.')}`, 'm'));
    const dup = await k('expose', 'deployment', 'nginx-deployment', '--port=80');
    expect([dup.code, dup.stderr]).toEqual([1, 'Error from server (AlreadyExists): services "nginx-deployment" already exists\n']);
  });

  test('apply --prune with kubectl\'s default allowlist (every kind it names is served) and with an explicit one', async () => {
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels:\n    prune: demo\ndata:\n  k: v\n`;
    const secret = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: prune-s\n  labels:\n    prune: demo\nstringData:\n  password: hunter2\n';
    // kubectl 1.32 warns (klog, on stderr) whenever the default allowlist is used.
    const pruneWarning = /^W\d{4} [\d:.]+\s+\d+ prune\.go:\d+\] Deprecated: kubectl apply will no longer prune non-namespaced resources by default when used with the --namespace flag in a future release\. To preserve the current behaviour, list the resources you want to target explicitly in the --prune-allowlist flag\.\n$/;
    const first = join(env.dir, 'prune-1.yaml');
    writeFileSync(first, `${cm('prune-a')}---\n${cm('prune-b')}---\n${secret}`);
    const created = await k('apply', '--prune', '-l', 'prune=demo', '-f', first);
    expect([created.code, created.stdout]).toEqual([0, 'configmap/prune-a created\nconfigmap/prune-b created\nsecret/prune-s created\n']);
    expect(created.stderr).toMatch(pruneWarning);
    // The stored Secret has stringData merged into data, so a re-apply always patches stringData back in.
    expect(ok(await k('get', 'secret', 'prune-s', '-o', 'jsonpath={.data.password} {.stringData}'))).toBe('aHVudGVyMg== ');
    const second = join(env.dir, 'prune-2.yaml');
    writeFileSync(second, cm('prune-a'));
    const pruned = await k('apply', '--prune', '-l', 'prune=demo', '-f', second);
    expect([pruned.code, pruned.stdout]).toEqual([0, 'configmap/prune-a unchanged\nconfigmap/prune-b pruned\nsecret/prune-s pruned\n']);
    expect(pruned.stderr).toMatch(pruneWarning);
    const allow = ['--prune-allowlist=core/v1/ConfigMap', '--prune-allowlist=core/v1/Service', '--prune-allowlist=apps/v1/Deployment'];
    writeFileSync(first, `${cm('prune-a')}---\n${cm('prune-b')}`);
    const applied = await k('apply', '--prune', ...allow, '-l', 'prune=demo', '-f', first);
    expect([applied.code, applied.stdout, applied.stderr]).toEqual([0, 'configmap/prune-a unchanged\nconfigmap/prune-b created\n', '']);
    const again = await k('apply', '--prune', ...allow, '-l', 'prune=demo', '-f', second);
    expect([again.code, again.stdout]).toEqual([0, 'configmap/prune-a unchanged\nconfigmap/prune-b pruned\n']);
    expect(rows(ok(await k('get', 'cm', '-l', 'prune=demo', '-o', 'name')))).toEqual([['configmap/prune-a']]);
  });

  test('the allowlist kinds without controllers: create, get as a 1.28 server prints them, validate, delete', async () => {
    expect(ok(await k('create', 'job', 'hello', '--image=busybox', '--', 'echo', 'hi'))).toBe('job.batch/hello created\n');
    expect(ok(await k('create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *', '--', 'date'))).toBe('cronjob.batch/tick created\n');
    expect(ok(await k('create', 'ingress', 'web', '--rule=foo.com/bar=svc1:8080', '--class=nginx'))).toBe('ingress.networking.k8s.io/web created\n');
    expect(ok(await k('create', 'secret', 'generic', 's1', '--from-literal=a=b'))).toBe('secret/s1 created\n');
    const workloads = join(env.dir, 'workloads.yaml');
    writeFileSync(workloads, [
      'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec:\n  serviceName: web\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n'
        + '  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: nginx, image: "nginx:1.25"}]}\n',
      'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n'
        + '  template:\n    metadata: {labels: {app: agent}}\n    spec: {containers: [{name: a, image: busybox}]}\n',
      'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n',
      'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1}\nspec: {capacity: {storage: 5Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /data}}\n',
      'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc1}\nspec:\n  replicas: 2\n  template:\n    metadata: {labels: {app: rc1}}\n'
        + '    spec: {containers: [{name: nginx, image: nginx}]}\n',
    ].join('---\n'));
    expect(ok(await k('apply', '-f', workloads))).toBe('statefulset.apps/web created\ndaemonset.apps/agent created\npersistentvolumeclaim/data created\n'
      + 'persistentvolume/pv1 created\nreplicationcontroller/rc1 created\n');
    // No Job, StatefulSet, DaemonSet or ReplicationController controller runs: counts stay at 0.
    expect(rows(ok(await k('get', 'job', 'hello')))).toEqual([['NAME', 'COMPLETIONS', 'DURATION', 'AGE'], ['hello', '0/1', expect.stringMatching(/^\d+s$/)]]);
    expect(rows(ok(await k('get', 'cronjob', 'tick')))).toEqual([
      ['NAME', 'SCHEDULE', 'SUSPEND', 'ACTIVE', 'LAST', 'SCHEDULE', 'AGE'], ['tick', '*/5', '*', '*', '*', '*', 'False', '0', '<none>', expect.stringMatching(/^\d+s$/)],
    ]);
    expect(rows(ok(await k('get', 'ingress', 'web')))).toEqual([['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'], ['web', 'nginx', 'foo.com', '80', expect.stringMatching(/^\d+s$/)]]);
    expect(rows(ok(await k('get', 'secret', 's1')))).toEqual([['NAME', 'TYPE', 'DATA', 'AGE'], ['s1', 'Opaque', '1', expect.stringMatching(/^\d+s$/)]]);
    expect(rows(ok(await k('get', 'sts', 'web', '-o', 'wide')))).toEqual([['NAME', 'READY', 'AGE', 'CONTAINERS', 'IMAGES'], ['web', '0/2', expect.stringMatching(/^\d+s$/), 'nginx', 'nginx:1.25']]);
    expect(rows(ok(await k('get', 'ds', 'agent'))).at(-1)!.slice(0, 7)).toEqual(['agent', '0', '0', '0', '0', '0', '<none>']);
    expect(rows(ok(await k('get', 'pv', 'pv1'))).at(-1)!.slice(0, 5)).toEqual(['pv1', '5Gi', 'RWO', 'Retain', expect.stringMatching(/^\d+s$/)]);
    expect(rows(ok(await k('get', 'rc', 'rc1', '-o', 'wide'))).at(-1)).toEqual(['rc1', '2', '0', '0', expect.stringMatching(/^\d+s$/), 'nginx', 'nginx', 'app=rc1']);
    // What the server set: the Job's generated selector and labels, the defaults, the DaemonSet's template generation.
    const job = JSON.parse(ok(await k('get', 'job', 'hello', '-o', 'json'))) as { metadata: { uid: string }; spec: Record<string, unknown> & { template: { metadata: { labels: Record<string, string> } } } };
    expect(job.spec).toMatchObject({ backoffLimit: 6, completionMode: 'NonIndexed', completions: 1, parallelism: 1, suspend: false, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': job.metadata.uid } } });
    expect(job.spec.template.metadata.labels).toEqual({
      'batch.kubernetes.io/controller-uid': job.metadata.uid, 'batch.kubernetes.io/job-name': 'hello', 'controller-uid': job.metadata.uid, 'job-name': 'hello',
    });
    expect(ok(await k('get', 'ds', 'agent', '-o', 'jsonpath={.metadata.annotations.deprecated\\.daemonset\\.template\\.generation} {.spec.updateStrategy.rollingUpdate}')))
      .toBe('1 {"maxSurge":0,"maxUnavailable":1}');
    expect(ok(await k('get', 'sts', 'web', '-o', 'jsonpath={.spec.podManagementPolicy} {.spec.persistentVolumeClaimRetentionPolicy.whenDeleted} {.status}')))
      .toBe('OrderedReady Retain {"availableReplicas":0,"replicas":0}');
    const badJob = join(env.dir, 'bad-job.yaml');
    writeFileSync(badJob, 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: bad}\nspec:\n  template:\n    spec: {containers: [{name: a, image: busybox}]}\n');
    const refused = await k('apply', '-f', badJob);
    expect([refused.code, refused.stderr]).toEqual([1, 'The Job "bad" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"\n']);
    const badClaim = join(env.dir, 'bad-pvc.yaml');
    writeFileSync(badClaim, 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: bad}\nspec: {}\n');
    const claim = await k('apply', '-f', badClaim);
    expect([claim.code, claim.stderr]).toEqual([1, 'The PersistentVolumeClaim "bad" is invalid: \n* spec.accessModes: Required value: at least 1 access mode is required\n* spec.resources[storage]: Required value\n']);
    expect(ok(await k('delete', 'job', 'hello'))).toBe('job.batch "hello" deleted\n');
    expect(ok(await k('delete', '-f', workloads))).toBe('statefulset.apps "web" deleted\ndaemonset.apps "agent" deleted\npersistentvolumeclaim "data" deleted\n'
      + 'persistentvolume "pv1" deleted\nreplicationcontroller "rc1" deleted\n');
    expect(ok(await k('delete', 'cronjob/tick', 'ingress/web', 'secret/s1'))).toBe('cronjob.batch "tick" deleted\ningress.networking.k8s.io "web" deleted\nsecret "s1" deleted\n');
  });

  test('--sort-by asks for includeObject=Object and sorts the server\'s rows by the embedded objects', async () => {
    const sorted = rows(ok(await k('get', 'pods', '--sort-by=.metadata.name', '-o', 'wide')));
    const names = sorted.slice(1).map((r) => r[0]!);
    expect(names).toEqual([...names].sort());
    expect(sorted[0]).toContain('NODE');
    const byNode = rows(ok(await k('get', 'pods', '--sort-by=.spec.nodeName', '-o', 'custom-columns=NAME:.metadata.name,NODE:.spec.nodeName', '--no-headers')));
    const nodes = byNode.map((r) => r[1]!);
    expect(nodes).toEqual([...nodes].sort());
  });

  test('-o jsonpath: the console evaluator prints what kubectl prints, on the same objects', async () => {
    const deployment = JSON.parse(ok(await k('get', 'deploy', 'nginx-deployment', '-o', 'json'))) as JsonValue;
    const pods = JSON.parse(ok(await k('get', 'pods', '-o', 'json'))) as JsonValue;
    const onDeployment = [
      '{.metadata.name}', '{.metadata.resourceVersion}', '{.metadata.labels}', '{.spec.replicas}', 'replicas={.spec.replicas}{"\\n"}',
      '{.spec.template.spec.containers[*].image}', '{.spec.template.spec.containers[0].ports}', '{.status.conditions[?(@.type=="Available")].status}',
      '{.status.conditions[*].type}', "{.metadata['name']}", '{.spec.template.spec.containers[0].ports[0].containerPort}', '{.metadata.missing}',
      '{.spec.strategy.rollingUpdate}', '{.status.conditions[-1:].reason}', '{.spec.template.spec.containers[0,0].name}',
    ];
    for (const template of onDeployment) {
      expect(executeJsonPath(template, deployment), template).toBe(ok(await k('get', 'deploy', 'nginx-deployment', '-o', `jsonpath=${template}`)));
    }
    const onPods = [
      '{.items[*].metadata.name}', '{range .items[*]}{.metadata.name}{"\\t"}{.spec.nodeName}{"\\n"}{end}', '{.items[0].metadata.ownerReferences[0].kind}',
      '{.items[?(@.metadata.labels.app=="nginx")].status.phase}', '{.items[?(@.spec.nodeName)].metadata.namespace}', '{.kind}',
      '{range .items[*]}[{.metadata.name}: {range .spec.containers[*]}{.name} {end}]{end}', '{.items[1:3].metadata.name}', '{.items[*].status.podIP}',
    ];
    for (const template of onPods) {
      expect(executeJsonPath(template, pods), template).toBe(ok(await k('get', 'pods', '-o', `jsonpath=${template}`)));
    }
    // Bad templates: the same parse error as kubectl; execution errors start the same (kubectl then dumps
    // the object as a Go value, the console as JSON).
    for (const template of ['{range .items[*]}{end}{end}', '{.items[99]}', '{.items[0].metadata.name[0]}']) {
      const real = await k('get', 'pods', '-o', `jsonpath=${template}`);
      expect(real.code).toBe(1);
      let ours = '';
      try {
        executeJsonPath(template, pods);
      } catch (err) {
        ours = `error: error executing jsonpath ${JSON.stringify(template)}: Error executing template: ${(err as Error).message}. Printing more information for debugging the template:`;
      }
      expect(ours, template).toBe(real.stderr.split('\n')[0]);
    }
    for (const template of ['{.metadata.name', '{.items[x]}', '{.items[0]', '{"unterminated}', '{.a}{#}']) {
      const real = await k('get', 'pods', '-o', `jsonpath=${template}`);
      expect(real.code).toBe(1);
      let ours = '';
      try {
        parseTemplate(template);
      } catch (err) {
        ours = `error: error parsing jsonpath ${template}, ${(err as Error).message}\n`;
      }
      expect(ours, template).toBe(real.stderr);
    }
  });

  test('get errors and empty results read as kubectl prints them', async () => {
    const missing = await k('get', 'pod', 'nosuch');
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([1, '', 'Error from server (NotFound): pods "nosuch" not found\n']);
    const none = await k('get', 'pods', '-l', 'app=nomatch');
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', 'No resources found in default namespace.\n']);
    const unknown = await k('get', 'frobs');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('error: the server doesn\'t have a resource type "frobs"\n');
    const all = rows(ok(await k('get', 'all', '-o', 'name')));
    expect(all.flat().filter((n) => n.startsWith('deployment.apps/'))).toEqual(['deployment.apps/nginx-deployment']);
  });

  test('describe pod shows the defaulted spec, the status and the events of scheduling and the kubelet', async () => {
    const out = ok(await k('describe', 'pod', 'user-service'));
    expect(out).toMatch(/^Name:\s+user-service$/m);
    expect(out).toMatch(/^Namespace:\s+default$/m);
    expect(out).toMatch(/^Node:\s+node-\d\/172\.18\.0\.\d+$/m);
    expect(out).toMatch(/^Status:\s+Running$/m);
    expect(out).toMatch(/^IP:\s+10\.244\.\d+\.\d+$/m);
    expect(out).toMatch(/^\s+Port:\s+10086\/TCP$/m);
    expect(out).toMatch(/^\s+MYSQL_ROOT_PASSWORD:\s+123456$/m);
    expect(out).toMatch(/Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/user-service to node-\d/);
    expect(out).toMatch(/Normal\s+Pulling\s+\S+\s+kubelet\s+Pulling image "redis:5\.0"/);
    expect(out).toMatch(/Normal\s+Started\s+\S+\s+kubelet\s+Started container user/);
    // The server's virtual time 0 is its start on the wall clock, so times and ages read as a real cluster's.
    expect(out).toMatch(new RegExp(`^Start Time:\\s+\\w{3}, \\d{2} \\w{3} ${new Date().getUTCFullYear()} `, 'm'));
    expect(out).not.toMatch(/\b\d+y\d+d\b/);
    const deploy = ok(await k('describe', 'deployment', 'nginx-deployment'));
    expect(deploy).toMatch(/^Replicas:\s+1 desired \| 1 updated \| 1 total \| 1 available \| 0 unavailable$/m);
    expect(deploy).toMatch(/^NewReplicaSet:\s+nginx-deployment-[a-z0-9]+ \(1\/1 replicas created\)$/m);
  });

  test('apply -f over a created object patches it; applying the same file again is unchanged', async () => {
    const first = await k('apply', '-f', manifest('nginx-deployment.yaml'));
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('deployment.apps/nginx-deployment configured\n');
    expect(first.stderr).toMatch(/^Warning: resource deployments\/nginx-deployment is missing the kubectl\.kubernetes\.io\/last-applied-configuration annotation/);
    expect(ok(await k('apply', '-f', manifest('nginx-deployment.yaml')))).toBe('deployment.apps/nginx-deployment unchanged\n');
    const annotation = ok(await k('get', 'deploy', 'nginx-deployment', '-o', 'jsonpath={.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}'));
    expect(JSON.parse(annotation)).toMatchObject({ kind: 'Deployment', metadata: { name: 'nginx-deployment' }, spec: { replicas: 1 } });
  });

  test('apply -f with a changed field sends a three-way strategic merge patch', async () => {
    const changed = readFileSync(manifest('nginx-deployment.yaml'), 'utf8').replace('replicas: 1', 'replicas: 2').replace('app: nginx\nspec:', 'app: nginx\n    tier: web\nspec:');
    const file = join(env.dir, 'nginx-2.yaml');
    writeFileSync(file, changed);
    expect(ok(await k('apply', '-f', file))).toBe('deployment.apps/nginx-deployment configured\n');
    expect(ok(await k('get', 'deploy', 'nginx-deployment', '-o', 'jsonpath={.spec.replicas} {.metadata.labels.tier}'))).toBe('2 web');
    expect(ok(await k('apply', '-f', manifest('nginx-deployment.yaml')))).toBe('deployment.apps/nginx-deployment configured\n');
    expect(ok(await k('get', 'deploy', 'nginx-deployment', '-o', 'jsonpath={.spec.replicas} {.metadata.labels}'))).toBe('1 {"app":"nginx"}');
  });

  test('--dry-run=server changes nothing and says so; kubectl diff shows what an apply would change; replace of a plain manifest', async () => {
    const state = async () => ok(await k('get', 'deploy', 'nginx-deployment', '-o', 'jsonpath={.metadata.resourceVersion} {.spec.replicas}'));
    const before = await state();
    const changed = join(env.dir, 'nginx-dry.yaml');
    writeFileSync(changed, readFileSync(manifest('nginx-deployment.yaml'), 'utf8').replace('replicas: 1', 'replicas: 4'));
    expect(ok(await k('apply', '-f', changed, '--dry-run=server'))).toBe('deployment.apps/nginx-deployment configured (server dry run)\n');
    expect(ok(await k('apply', '-f', changed, '--dry-run=server', '-o', 'jsonpath={.spec.replicas}'))).toBe('4');
    // kubectl's generators send protobuf (test/kubectl/wire.test.ts); a server dry run of one stores nothing.
    expect(ok(await k('create', 'configmap', 'gen', '--from-literal=a=1', '--dry-run=server'))).toBe('configmap/gen created (server dry run)\n');
    expect((await k('get', 'configmap', 'gen')).stderr).toBe('Error from server (NotFound): configmaps "gen" not found\n');
    const dryCm = join(env.dir, 'dry-cm.yaml');
    writeFileSync(dryCm, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dry\ndata:\n  a: "1"\n');
    expect(ok(await k('create', '-f', dryCm, '--dry-run=server'))).toBe('configmap/dry created (server dry run)\n');
    expect((await k('get', 'configmap', 'dry')).stderr).toBe('Error from server (NotFound): configmaps "dry" not found\n');
    expect(ok(await k('delete', 'deploy', 'nginx-deployment', '--dry-run=server'))).toBe('deployment.apps "nginx-deployment" deleted (server dry run)\n');
    expect(await state()).toBe(before);
    const diff = await k('diff', '-f', changed);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^- {2}replicas: 1\n\+ {2}replicas: 4\n/m);
    // The dry-run update bumps the generation, as the real one would; nothing else of the live object moves.
    const generation = Number(/^- {2}generation: (\d+)$/m.exec(diff.stdout)?.[1]);
    expect(diff.stdout).toContain(`+  generation: ${generation + 1}\n`);
    expect(diff.stdout.split('\n').filter((l) => /^[-+] /.test(l))).toHaveLength(4);
    expect((await k('diff', '-f', manifest('nginx-deployment.yaml'))).code).toBe(0);
    expect(await state()).toBe(before);
    const plain = join(env.dir, 'plain-cm.yaml');
    writeFileSync(plain, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\ndata:\n  a: "1"\n');
    expect(ok(await k('create', '-f', plain))).toBe('configmap/plain created\n');
    writeFileSync(plain, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\ndata:\n  a: "2"\n');
    expect(ok(await k('replace', '-f', plain))).toBe('configmap/plain replaced\n');
    expect(ok(await k('get', 'configmap', 'plain', '-o', 'jsonpath={.data.a}'))).toBe('2');
  });

  test('apply --server-side creates, owns its fields, conflicts after a scale, and wins with --force-conflicts', async () => {
    const web = manifest('web-deployment.yaml');
    expect(ok(await k('apply', '--server-side', '-f', web))).toBe('deployment.apps/web serverside-applied\n');
    expect(ok(await k('apply', '--server-side', '-f', web))).toBe('deployment.apps/web serverside-applied\n');
    const managers = JSON.parse(ok(await k('get', 'deploy', 'web', '-o', 'jsonpath={.metadata.managedFields}', '--show-managed-fields'))) as Array<{ manager: string; operation: string; fieldsV1: Record<string, unknown> }>;
    const mine = managers.find((m) => m.manager === 'kubectl' && m.operation === 'Apply');
    expect(mine?.fieldsV1).toMatchObject({ 'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } });
    expect(ok(await k('scale', 'deploy', 'web', '--replicas=3'))).toBe('deployment.apps/web scaled\n');
    const conflict = await k('apply', '--server-side', '-f', web);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/^error: Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps\/v1: \.spec\.replicas\n/);
    expect(conflict.stderr).toContain('--force-conflicts');
    expect(ok(await k('apply', '--server-side', '--force-conflicts', '-f', web))).toBe('deployment.apps/web serverside-applied\n');
    expect(ok(await k('get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}'))).toBe('2');
  });

  test('scale --replicas=3, set image and rollout status', async () => {
    expect(ok(await k('scale', 'deployment', 'nginx-deployment', '--replicas=3'))).toBe('deployment.apps/nginx-deployment scaled\n');
    const rollout = ok(await k('rollout', 'status', 'deployment/nginx-deployment', '--timeout=60s'));
    expect(rollout.trim().split('\n').at(-1)).toBe('deployment "nginx-deployment" successfully rolled out');
    expect(rows(ok(await k('get', 'deploy', 'nginx-deployment')))[1]!.slice(1, 4)).toEqual(['3/3', '3', '3']);
    expect(ok(await k('set', 'image', 'deployment/nginx-deployment', 'nginx=nginx:1.16'))).toBe('deployment.apps/nginx-deployment image updated\n');
    const second = ok(await k('rollout', 'status', 'deployment/nginx-deployment', '--timeout=60s'));
    expect(second.trim().split('\n').at(-1)).toBe('deployment "nginx-deployment" successfully rolled out');
    const images = ok(await k('get', 'pods', '-l', 'app=nginx', '--field-selector=status.phase=Running', '-o', 'jsonpath={range .items[*]}{.spec.containers[0].image}{"\\n"}{end}'));
    expect(images.trim().split('\n').filter((i) => i === 'nginx:1.16')).toHaveLength(3);
    const rs = rows(ok(await k('get', 'rs', '-l', 'app=nginx', '-o', 'wide')));
    expect(rs.slice(1).map((r) => [r[1], r[6]]).sort()).toEqual([['0', 'nginx:1.14.2'], ['3', 'nginx:1.16']]);
    const unknown = await k('set', 'image', 'deployment/nginx-deployment', 'bogus=nginx');
    expect([unknown.code, unknown.stderr]).toEqual([1, 'error: unable to find container named "bogus"\n']);
  });

  test('label, annotate and patch (merge and JSON patch)', async () => {
    expect(ok(await k('label', 'pod', 'user-service', 'tier=backend'))).toBe('pod/user-service labeled\n');
    expect(ok(await k('annotate', 'pod', 'user-service', 'owner=team-a'))).toBe('pod/user-service annotated\n');
    expect(rows(ok(await k('get', 'pods', '-l', 'tier=backend', '-o', 'name')))).toEqual([['pod/user-service']]);
    expect(ok(await k('patch', 'deploy', 'web', '--type=merge', '-p', '{"metadata":{"labels":{"stage":"dev"}}}'))).toBe('deployment.apps/web patched\n');
    expect(ok(await k('patch', 'deploy', 'web', '--type=json', '-p', '[{"op":"replace","path":"/metadata/labels/stage","value":"prod"}]'))).toBe('deployment.apps/web patched\n');
    expect(ok(await k('get', 'deploy', 'web', '-o', 'jsonpath={.metadata.labels.stage}'))).toBe('prod');
  });

  test('strict field validation: an unknown field is a 400, or a warning with --validate=warn', async () => {
    const file = join(env.dir, 'bad.yaml');
    writeFileSync(file, readFileSync(manifest('web-deployment.yaml'), 'utf8').replace('name: web\n', 'name: bad\n').replace('replicas: 2', 'replicas: 1\n  foo: 1'));
    const strict = await k('create', '-f', file);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe(`Error from server (BadRequest): error when creating "${file}": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"\n`);
    const dry = await k('create', '-f', file, '--dry-run=server', '--validate=false');
    expect([dry.code, dry.stdout, dry.stderr]).toEqual([0, 'deployment.apps/bad created (server dry run)\n', '']);
    expect((await k('get', 'deploy', 'bad')).code).toBe(1);
    const warn = await k('create', '-f', file, '--validate=warn');
    expect([warn.code, warn.stdout, warn.stderr]).toEqual([0, 'deployment.apps/bad created\n', 'Warning: unknown field "spec.foo"\n']);
  });

  test('a stale replace is a 409 Conflict; a fresh one succeeds', async () => {
    const stale = join(env.dir, 'stale.yaml');
    writeFileSync(stale, ok(await k('get', 'deploy', 'web', '-o', 'yaml')));
    expect(ok(await k('label', 'deploy', 'web', 'touched=yes'))).toBe('deployment.apps/web labeled\n');
    const conflict = await k('replace', '-f', stale);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toBe(`Error from server (Conflict): error when replacing "${stale}": Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again\n`);
    const fresh = join(env.dir, 'fresh.yaml');
    writeFileSync(fresh, ok(await k('get', 'deploy', 'web', '-o', 'yaml')));
    expect(ok(await k('replace', '-f', fresh))).toBe('deployment.apps/web replaced\n');
  });

  test('--as alice: the pod-reader may list pods, and is forbidden the rest', async () => {
    // A fresh cluster gives alice nothing: the admin binds her a pod-reader Role in default first.
    const rbac = join(env.dir, 'alice.yaml');
    writeFileSync(rbac, [
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: pod-reader\nrules:\n- apiGroups: [""]\n  resources: [pods]\n  verbs: [get, list, watch]\n',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: alice-pod-reader\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: pod-reader\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: alice\n',
    ].join('---\n'));
    expect(ok(await k('apply', '-f', rbac))).toBe('role.rbac.authorization.k8s.io/pod-reader created\nrolebinding.rbac.authorization.k8s.io/alice-pod-reader created\n');
    const pods = rows(ok(await k('--as', 'alice', 'get', 'pods', '-o', 'name')));
    expect(pods.flat()).toContain('pod/user-service');
    const deploys = await k('--as', 'alice', 'get', 'deployments');
    expect([deploys.code, deploys.stderr]).toEqual([1, 'Error from server (Forbidden): deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" in the namespace "default"\n']);
    const del = await k('--as', 'alice', 'delete', 'pod', 'user-service');
    expect([del.code, del.stderr]).toEqual([1, 'Error from server (Forbidden): pods "user-service" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "default"\n']);
    const other = await k('--as', 'alice', 'get', 'pods', '-n', 'kube-system');
    expect(other.stderr).toBe('Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "kube-system"\n');
  });

  test('get --raw passes the path and query through: a resourceVersion=0 list from the watch cache', async () => {
    const raw = await k('get', '--raw', '/api/v1/namespaces/default/pods?resourceVersion=0');
    expect(raw.code).toBe(0);
    const list = JSON.parse(raw.stdout) as { kind: string; metadata: { resourceVersion: string }; items: Array<{ metadata: { name: string } }> };
    expect(list.kind).toBe('PodList');
    expect(Number(list.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(list.items.map((p) => p.metadata.name)).toContain('user-service');
    const version = JSON.parse(ok(await k('get', '--raw', '/version'))) as { minor: string };
    expect(version.minor).toBe('32');
    const missing = await k('get', '--raw', '/api/v1/namespaces/default/pods/nosuch');
    expect([missing.code, missing.stderr]).toEqual([1, 'Error from server (NotFound): pods "nosuch" not found\n']);
  });

  test('delete a pod (graceful: kubectl waits for it to go), delete -f, and NotFound', async () => {
    expect(ok(await k('delete', 'pod', 'user-service'))).toBe('pod "user-service" deleted\n');
    const gone = await k('get', 'pod', 'user-service');
    expect(gone.stderr).toBe('Error from server (NotFound): pods "user-service" not found\n');
    expect(ok(await k('delete', '-f', manifest('replicaset.yaml')))).toBe('replicaset.apps "my-replicaset" deleted\n');
    expect(ok(await k('delete', '-f', manifest('nginx-deployment.yaml')))).toBe('deployment.apps "nginx-deployment" deleted\n');
    // Orphan deletion: the garbage collector strips bad's owner reference from its ReplicaSet and removes the orphan
    // finalizer; kubectl waits for the Deployment to go. The ReplicaSet stays; as bad was a copy of web (same selector),
    // web's deployment controller then adopts the orphan, as the real one does.
    expect(ok(await k('delete', 'deploy', 'bad', '--cascade=orphan'))).toBe('deployment.apps "bad" deleted\n');
    const badGone = await k('get', 'deploy', 'bad');
    expect(badGone.stderr).toBe('Error from server (NotFound): deployments.apps "bad" not found\n');
    const owners = ok(await k('get', 'rs', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.metadata.ownerReferences[*].name}{"\\n"}{end}'));
    expect(owners.split('\n').filter((l) => l.startsWith('bad-'))).toEqual([expect.stringMatching(/^bad-[a-z0-9]+=web$/)]);
    const again = await k('delete', '-f', manifest('nginx-deployment.yaml'));
    expect([again.code, again.stderr]).toEqual([1, `Error from server (NotFound): error when deleting "${manifest('nginx-deployment.yaml')}": deployments.apps "nginx-deployment" not found\n`]);
    expect((await k('delete', '-f', manifest('nginx-deployment.yaml'), '--ignore-not-found')).code).toBe(0);
    expect(rows(ok(await k('get', 'deploy', '-o', 'name')))).toEqual([['deployment.apps/web']]);
    // Foreground: the garbage collector deletes the dependents first; kubectl returns once the Deployment is gone.
    expect(ok(await k('delete', 'deploy', 'web', '--cascade=foreground'))).toBe('deployment.apps "web" deleted\n');
    const left = await k('get', 'deploy,rs', '-l', 'app=web');
    expect([left.code, left.stdout, left.stderr]).toEqual([0, '', 'No resources found in default namespace.\n']);
  });
});
