// The console's explain, auth can-i / whoami, get --sort-by, etcdctl endpoint health|status and its answer
// to commands it does not model, against a whole simulated cluster.

import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../sim/cluster.ts';
import { nginxDeploymentYaml as nginx } from '../../sim/scenarios/manifests.ts';
import { consoleOf } from './console-of.ts';
import { rulesTable } from './auth.ts';
import { humanizeBytes, tablewriter } from '../../sim/etcd/etcdctl-cluster.ts';
import { explainText, wrapString } from './explain.ts';
import { openAPIDocument } from '../../sim/apiserver/openapi.ts';
import { naturalLess } from './kubectl.ts';

interface Result { stdout: string; stderr: string; exitCode: number | undefined }

function setup(): { cluster: Cluster; run: (line: string, stdin?: string) => Result } {
  const cluster = createCluster({ seed: 'console-commands', nodes: 2 });
  cluster.boot();
  const { session } = consoleOf(cluster);
  let id = 0;
  const run = (line: string, stdin = ''): Result => {
    const mine = ++id;
    session.run(mine, line, stdin);
    cluster.engine.runUntilIdle();
    const result: Result = { stdout: '', stderr: '', exitCode: undefined };
    for (const e of session.flush()) {
      if (e.id !== mine) continue;
      result.stdout += e.stdout;
      result.stderr += e.stderr;
      if (e.done) result.exitCode = e.exitCode;
    }
    return result;
  };
  return { cluster, run };
}

/** A fresh 1.28 cluster gives alice only system:basic-user: a pod-reader Role in default for her. */
const podReader = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: default
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: alice-pod-reader
  namespace: default
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: pod-reader
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: alice
`;

describe('kubectl explain', () => {
  it('prints a kind, a field and --recursive from the server’s OpenAPI v3 document, after fetching it', () => {
    const { run, cluster } = setup();
    const pods = run('kubectl explain pods');
    expect(pods.exitCode).toBe(0);
    expect(pods.stdout.startsWith('KIND:       Pod\nVERSION:    v1\n\nDESCRIPTION:\n    Pod is a collection of containers that can run on a host. This resource is\n    created by clients and scheduled onto hosts.\n    \nFIELDS:\n  apiVersion\t<string>\n')).toBe(true);
    expect(pods.stdout).toContain('\n  spec\t<PodSpec>\n    Specification of the desired behavior of the pod. More info:\n');
    const requests = cluster.engine.trace.all().filter((m) => m.kind === 'http.request').map((m) => (m.payload as { path: string; query: string }));
    expect(requests.slice(-2).map((r) => r.path)).toEqual(['/openapi/v3', '/openapi/v3/api/v1']);
    expect(requests[requests.length - 1]!.query).toMatch(/^hash=[0-9A-F]{8}$/);

    const containers = run('kubectl explain pods.spec.containers');
    expect(containers.stdout).toContain('FIELD: containers <[]Container>\n\n\nDESCRIPTION:\n    List of containers belonging to the pod.');
    expect(containers.stdout).toContain('\n  name\t<string> -required-\n');
    const deploy = run('kubectl explain deploy.spec.strategy');
    expect(deploy.stdout.startsWith('GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nFIELD: strategy <DeploymentStrategy>\n')).toBe(true);
    const recursive = run('kubectl explain cm --recursive');
    expect(recursive.stdout).toContain('\n  metadata\t<ObjectMeta>\n    annotations\t<map[string]string>\n');
  });

  it('answers an unknown field and an unknown resource as kubectl does', () => {
    const { run } = setup();
    expect(run('kubectl explain pods.spec.foo')).toEqual({ stdout: 'KIND:       Pod\nVERSION:    v1\n\n', stderr: 'error: field "foo" does not exist\n', exitCode: 1 });
    expect(run('kubectl explain foo')).toEqual({ stdout: '', stderr: 'the server doesn\'t have a resource type "foo"\n', exitCode: 1 });
  });

  it('wraps as go-wordwrap does: at spaces within the limit, long words whole, line breaks kept', () => {
    expect(wrapString('aaa bbb ccc', 7)).toBe('aaa bbb\nccc');
    expect(wrapString('a https://example.com/very/long b', 10)).toBe('a\nhttps://example.com/very/long\nb');
    expect(wrapString('one\ntwo three', 8)).toBe('one\ntwo\nthree');
    const doc = openAPIDocument('', 'v1')!;
    expect(explainText(doc, { group: '', version: 'v1', kind: 'Pod' }, ['metadata', 'labels'], false).out).toContain('FIELD: labels <map[string]string>');
  });
});

describe('kubectl auth', () => {
  it('can-i answers yes (exit 0) or no (exit 1) with the SelfSubjectAccessReview the server decides', () => {
    const { run } = setup();
    expect(run('kubectl auth can-i create pods')).toEqual({ stdout: 'yes\n', stderr: '', exitCode: 0 });
    expect(run('kubectl auth can-i list pods --as alice')).toEqual({ stdout: 'no\n', stderr: '', exitCode: 1 });
    run('kubectl create -f -', podReader);
    expect(run('kubectl auth can-i list pods --as alice')).toEqual({ stdout: 'yes\n', stderr: '', exitCode: 0 });
    expect(run('kubectl auth can-i delete pods --as alice')).toEqual({ stdout: 'no\n', stderr: '', exitCode: 1 });
    expect(run('kubectl auth can-i list pods --as alice -n kube-system')).toEqual({ stdout: 'no\n', stderr: '', exitCode: 1 });
    expect(run('kubectl auth can-i get nodes --as alice')).toEqual({ stdout: 'no\n', stderr: 'Warning: resource \'nodes\' is not namespace scoped\n\n', exitCode: 1 });
    expect(run('kubectl auth can-i get /version --as alice').exitCode).toBe(0);
    expect(run('kubectl auth can-i get pods -q --as alice')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(run('kubectl auth can-i frobnicate widgets')).toEqual({ stdout: 'yes\n', stderr: 'Warning: the server doesn\'t have a resource type \'widgets\'\n\nWarning: verb \'frobnicate\' is not a known verb\n\n', exitCode: 0 });
    expect(run('kubectl auth can-i create').stderr).toContain('you must specify two arguments');
  });

  it('can-i --list prints the rules table; without the basic-user binding the review is forbidden', () => {
    const { run } = setup();
    run('kubectl create -f -', podReader);
    const list = run('kubectl auth can-i --list --as alice');
    expect(list.exitCode).toBe(0);
    const lines = list.stdout.split('\n');
    expect(lines[0]).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    expect(lines).toContainEqual(expect.stringMatching(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/));
    expect(lines).toContainEqual(expect.stringMatching(/^selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/));
    const admin = run('kubectl auth can-i --list').stdout.split('\n');
    expect(admin[1]).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/);
    expect(admin[2]).toMatch(/^\s+\[\*\]\s+\[\]\s+\[\*\]$/);
    // The bootstrap binding of system:basic-user to every authenticated user is what lets alice review herself.
    // A name with ':' travels unescaped, as client-go's url.URL.EscapedPath leaves it (encodeURIComponent's %3A was refused).
    expect(run('kubectl delete clusterrolebinding system:basic-user')).toEqual({
      stdout: 'clusterrolebinding.rbac.authorization.k8s.io "system:basic-user" deleted\n', stderr: '', exitCode: 0,
    });
    expect(run('kubectl auth can-i --list --as alice')).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('Error from server (Forbidden): selfsubjectrulesreviews.authorization.k8s.io is forbidden: User "alice" cannot create resource') });
  });

  it('breaks rules down, compacts simple ones and sorts them by their Go string, as kubectl does', () => {
    const table = rulesTable([
      { verbs: ['get'], nonResourceURLs: ['/api', '/api/*'] },
      { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'] },
      { verbs: ['watch'], apiGroups: ['apps'], resources: ['deployments'] },
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    ], true);
    expect(table).toBe([
      'Resources                Non-Resource URLs   Resource Names   Verbs',
      '*.*                      []                  []               [*]',
      'deployments.apps         []                  []               [get list watch]',
      'deployments.apps/scale   []                  []               [get list]',
      '                         [/api/*]            []               [get]',
      '                         [/api]              []               [get]',
      '',
    ].join('\n'));
  });

  it('whoami prints the identity the server authenticated, impersonated too', () => {
    const { run } = setup();
    expect(run('kubectl auth whoami')).toEqual({ stdout: 'ATTRIBUTE   VALUE\nUsername    kubernetes-admin\nGroups      [system:masters system:authenticated]\n', stderr: '', exitCode: 0 });
    expect(run('kubectl auth whoami --as alice').stdout).toBe('ATTRIBUTE   VALUE\nUsername    alice\nGroups      [system:authenticated]\n');
    expect(run('kubectl auth whoami -o yaml').stdout).toMatch(/^apiVersion: authentication.k8s.io\/v1\nkind: SelfSubjectReview\nmetadata:\n {2}creationTimestamp: "\d{4}-/);
  });
});

describe('get --sort-by', () => {
  it('asks for the full objects without a limit and sorts the rows by the path', () => {
    const { run, cluster } = setup();
    run('kubectl create -f -', nginx);
    run('kubectl scale deploy nginx-deployment --replicas=3');
    const sorted = run('kubectl get pods --sort-by=.metadata.name');
    expect(sorted.exitCode).toBe(0);
    const names = sorted.stdout.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0]!);
    expect(names).toHaveLength(3);
    // kubectl sorts strings naturally (sortorder.NaturalLess): runs of digits compare as numbers, so `…-5wz2n`
    // comes before `…-57qlx`.
    const chunks = (name: string) => name.match(/\d+|\D+/g)!.map((c) => (/^\d/.test(c) ? Number(c) : c));
    const naturalLess = (a: string, b: string): number => {
      const [x, y] = [chunks(a), chunks(b)];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] === y[i]) continue;
        return typeof x[i] === 'number' && typeof y[i] === 'number' ? (x[i] as number) - (y[i] as number) : String(x[i]) < String(y[i]) ? -1 : 1;
      }
      return x.length - y.length;
    };
    expect(names).toEqual([...names].sort(naturalLess));
    const last = cluster.engine.trace.all().filter((m) => m.kind === 'http.request').pop()!.payload as { query: string };
    expect(last.query).toBe('includeObject=Object');
    const byNode = run('kubectl get pods -o name --sort-by={.spec.nodeName}');
    expect(byNode.stdout.trim().split('\n')).toHaveLength(3);
    expect(run('kubectl get pods --sort-by=.spec.nope')).toMatchObject({ exitCode: 1, stderr: 'error: couldn\'t find any field with path "{.spec.nope}" in the list of objects\n' });
  });

  it('compares digit runs by value (natural order)', () => {
    expect(naturalLess('pod-2', 'pod-10')).toBe(true);
    expect(naturalLess('pod-10', 'pod-2')).toBe(false);
    expect(naturalLess('a', 'b')).toBe(true);
    expect(naturalLess('abc', 'ab')).toBe(false);
  });
});

describe('etcdctl endpoint', () => {
  it('health commits a Get of "health" and reports the time it took', () => {
    const { run, cluster } = setup();
    const health = run('etcdctl endpoint health');
    expect(health.exitCode).toBe(0);
    expect(health.stderr).toMatch(/^127\.0\.0\.1:2379 is healthy: successfully committed proposal: took = [\d.]+(ms|µs|s)\n$/);
    const get = cluster.engine.trace.all().filter((m) => m.kind === 'etcd.Range' && m.from === 'user').pop()!;
    expect(get.payload).toEqual({ key: 'health' });
    expect(run('etcdctl endpoint health -w table').stdout).toMatch(/^\+-+\+-+\+-+\+-+\+\n\| {4}ENDPOINT {4}\| HEALTH \|\s+TOOK\s+\| ERROR \|\n/);
  });

  it('status prints the member, version, term and revision, simple and as a table', () => {
    const { run, cluster } = setup();
    const status = run('etcdctl endpoint status');
    const fields = status.stdout.trimEnd().split(', ');
    expect(fields.slice(0, 3)).toEqual(['127.0.0.1:2379', BigInt(cluster.etcd.identity.memberId).toString(16), '3.4.23']);
    expect(fields[3]).toMatch(/^\d+ kB$/);
    expect(fields.slice(4, 6)).toEqual(['true', 'false']);
    expect(Number(fields[7])).toBe(cluster.etcd.store.rev());
    const table = run('etcdctl -w table endpoint status').stdout.split('\n');
    expect(table[1]).toMatch(/^\|\s+ENDPOINT\s+\|\s+ID\s+\|\s+VERSION\s+\|\s+DB SIZE\s+\|\s+IS LEADER\s+\|\s+IS LEARNER\s+\|\s+RAFT TERM\s+\|\s+RAFT INDEX\s+\|\s+RAFT APPLIED INDEX\s+\|\s+ERRORS\s+\|$/);
    expect(run('etcdctl endpoint frob')).toMatchObject({ exitCode: 1, stderr: 'Error: unknown command "frob" for "etcdctl endpoint"\n' });
  });

  it('formats as go-humanize and tablewriter do', () => {
    expect(humanizeBytes(20480)).toBe('20 kB');
    expect(humanizeBytes(1500)).toBe('1.5 kB');
    expect(humanizeBytes(2_100_000)).toBe('2.1 MB');
    expect(tablewriter(['endpoint', 'raft term'], [['127.0.0.1:2379', '2']])).toBe([
      '+----------------+-----------+',
      '|    ENDPOINT    | RAFT TERM |',
      '+----------------+-----------+',
      '| 127.0.0.1:2379 |         2 |',
      '+----------------+-----------+',
      '',
    ].join('\n'));
  });
});

describe('commands the console does not model', () => {
  it('says so plainly for real kubectl commands, and suggests only close names for typos', () => {
    const { run } = setup();
    expect(run('kubectl port-forward pod/x 8080:80')).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('"kubectl port-forward" is not modelled in Podflow\'s console') });
    expect(run('kubectl gte pods').stderr).toBe('error: unknown command "gte" for "kubectl"\n\nDid you mean this?\n\tget\nRun \'kubectl --help\' for usage.\n');
    expect(run('kubectl frobnicate').stderr).toBe('error: unknown command "frobnicate" for "kubectl"\nRun \'kubectl --help\' for usage.\n');
  });
});

describe("kubectl's -v lines", () => {
  const lines = (stderr: string): string[] => stderr.split('\n').filter((l) => l !== '').map((l) => l.replace(/^I\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ /, ''));

  it('create reads the OpenAPI index and the group-version document before it POSTs, each once', () => {
    const { run } = setup();
    const out = run('kubectl create -f - -v=6', nginx);
    expect(out.exitCode).toBe(0);
    const requests = lines(out.stderr).filter((l) => l.startsWith('round_trippers.go:553]')).map((l) => l.split(' ').slice(1, 3).join(' '));
    expect(requests.map((r) => r.replace(/\?.*$/, ''))).toEqual([
      'GET https://127.0.0.1:6443/openapi/v3',
      'GET https://127.0.0.1:6443/openapi/v3/apis/apps/v1',
      'POST https://127.0.0.1:6443/apis/apps/v1/namespaces/default/deployments',
    ]);
    expect(requests[1]).toMatch(/\?hash=[0-9A-F]{8}$/);
    // The body as Go marshals the decoded manifest: keys sorted at every level, the namespace filled in.
    const body = lines(run('kubectl create -f - -v=8', nginx.replace('nginx-deployment', 'other')).stderr).find((l) => l.startsWith('request.go:1212] Request Body: '))!;
    expect(body).toMatch(/^request\.go:1212\] Request Body: \{"apiVersion":"apps\/v1","kind":"Deployment","metadata":\{"labels":\{"app":"nginx"\},"name":"other","namespace":"default"\},"spec":\{"replicas":1,"selector":/);
    expect(body).toContain('"containers":[{"image":"nginx:1.14.2","name":"nginx","ports":[{"containerPort":80}]}]');
  });

  it('-v=7 and -v=8 print the request line and headers (Authorization masked), the status, then response headers and body', () => {
    const { run } = setup();
    const seven = lines(run('kubectl get ns -v=7').stderr);
    expect(seven.slice(1)).toEqual([
      'round_trippers.go:463] GET https://127.0.0.1:6443/api/v1/namespaces?limit=500',
      'round_trippers.go:469] Request Headers:',
      'round_trippers.go:473]     Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      'round_trippers.go:473]     Authorization: Bearer <masked>',
      'round_trippers.go:473]     User-Agent: kubectl/v1.28.15 (linux/amd64) kubernetes/841856557ef',
      expect.stringMatching(/^round_trippers\.go:574\] Response Status: 200 OK in \d+ milliseconds$/),
    ]);
    const eight = lines(run('kubectl get ns -v=8').stderr);
    expect(eight.some((l) => l.startsWith('round_trippers.go:577] Response Headers:'))).toBe(true);
    expect(eight[eight.length - 1]).toMatch(/^request\.go:1212\] Response Body: \{"kind":"Table".* \[truncated \d+ chars\]$/);
  });

  it('-v=9 and -v=10 print the request as a curl command, the latency, HTTP statistics; -v=10 bodies whole', () => {
    const { run } = setup();
    const ten = lines(run('kubectl get ns -v=10').stderr);
    expect(ten[1]).toBe('round_trippers.go:466] curl -v -XGET  -H "Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json" -H "Authorization: Bearer <masked>" -H "User-Agent: kubectl/v1.28.15 (linux/amd64) kubernetes/841856557ef" \'https://127.0.0.1:6443/api/v1/namespaces?limit=500\'');
    expect(ten[2]).toBe('round_trippers.go:510] HTTP Trace: Dial to tcp:127.0.0.1:6443 succeed');
    expect(ten[3]).toMatch(/^round_trippers\.go:553\] GET https:\/\/127\.0\.0\.1:6443\/api\/v1\/namespaces\?limit=500 200 OK in (\d+) milliseconds$/);
    expect(ten[4]).toMatch(/^round_trippers\.go:570\] HTTP Statistics: DNSLookup 0 ms Dial 0 ms TLSHandshake 0 ms ServerProcessing \d+ ms Duration \d+ ms$/);
    expect(ten.find((l) => l.startsWith('request.go:1212] Response Body:'))).not.toContain('[truncated');
    const create = lines(run('kubectl create -f - -v=9', nginx).stderr);
    expect(create.filter((l) => l.startsWith('round_trippers.go:570]')).slice(1).every((l) => l.includes('GetConnection 0 ms'))).toBe(true);
    expect(create.find((l) => l.includes('curl -v -XPOST'))).toContain('-H "Content-Type: application/json"');
  });
});

describe('kubectl get componentstatuses', () => {
  it('prints the probed components and, on stderr, the server’s deprecation warning once per command', () => {
    const { cluster, run } = setup();
    const healthy = run('kubectl get cs');
    expect(healthy.exitCode).toBe(0);
    expect(healthy.stdout.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+MESSAGE\s+ERROR$/);
    expect(healthy.stdout).toMatch(/\nscheduler\s+Healthy\s+ok\s*\ncontroller-manager\s+Healthy\s+ok\s*\netcd-0\s+Healthy\s+ok\s*\n$/);
    expect(healthy.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    cluster.fault({ type: 'stop', component: 'kube-controller-manager' });
    cluster.engine.runUntilIdle();
    // Two requests (each one probed), the warning printed once.
    const both = run('kubectl get cs scheduler controller-manager');
    expect(both.stdout).toMatch(/controller-manager\s+Unhealthy\s+Get "https:\/\/127\.0\.0\.1:10257\/healthz": dial tcp 127\.0\.0\.1:10257: connect: connection refused/);
    expect(both.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
  });

  it('keeps the order a terminal shows: the warning, printed as the answer arrives, before the table', () => {
    const cluster = createCluster({ seed: 'console-order', nodes: 1 });
    cluster.boot();
    const { session } = consoleOf(cluster);
    session.run(1, 'kubectl get cs');
    cluster.engine.runUntilIdle();
    const chunks = session.flush().filter((e) => e.id === 1).flatMap((e) => e.chunks);
    expect(chunks.map((c) => c.stream)).toEqual(['stderr', 'stdout']);
    expect(chunks[0]!.text).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    expect(chunks[1]!.text).toMatch(/^NAME\s+STATUS/);
  });
});
