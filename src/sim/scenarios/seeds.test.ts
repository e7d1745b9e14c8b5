// Proof that the model does what the seeds describe: seeds/004's steps 1–12 for my-replicaset, found in
// the trace one by one, each caused (through the trace's cause links) by the step before it; seeds/000's
// etcd Txns for the nginx Deployment in the order and shape of the article's request-stats lines. Both
// end with every pod Running and Ready; invariants hold after every step; runs replay identically.

import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from '../api/types/apps.ts';
import type { Pod } from '../api/types/core.ts';
import { httpKinds, type HttpRequest, type HttpResponse, type HttpWatchEvent } from '../wire/http.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import type { Message } from '../engine/index.ts';
import type { EtcdReply, RangeRequest, TxnRequest, TxnResponse, WatchResponse } from '../etcd/index.ts';
import { runTwiceWithPerturbedHost } from '../testing/determinism.ts';
import { addClusterInvariants, convergenceProblems, podsNotRunningAndReady, storedObjects } from '../testing/invariants.ts';
import { scenarioById, scenarios } from './catalog.ts';
import { CauseIndex } from './causes.ts';
import { runScenario } from './runner.ts';
import { decodeStored, encodeObject } from '../apiserver/storage/codec.ts';
import { base64Decode, prefixEnd } from '../etcd/bytes.ts';
import { parseEtcdctl, renderReply } from '../etcd/etcdctl.ts';
import { mySeedReplicaSetBase64 } from '../api/protobuf/fixtures/seed-004-replicaset.ts';
import type { KubeObject } from '../api/types/meta.ts';

function play(id: string, seed = id): { cluster: Cluster; requestIds: number[] } {
  const cluster = createCluster({ seed });
  cluster.boot();
  addClusterInvariants(cluster);
  const runner = runScenario(cluster, scenarioById(id)!);
  return { cluster, requestIds: runner.records.flatMap((r) => r.requestIds) };
}

/** Finds messages in delivery order, each required to be caused by an earlier finding. */
function tracer(cluster: Cluster) {
  const trace = cluster.engine.trace.all();
  const causes = new CauseIndex(trace);
  return {
    trace,
    causes,
    /** The first message delivered after `cause` that it caused and that matches. */
    first(cause: Message, what: string, match: (m: Message) => boolean): Message {
      const found = trace.find((m) => m.id !== cause.id && match(m) && causes.caused(cause, m));
      if (!found) throw new Error(`no ${what} caused by message ${cause.id} (${cause.kind} ${cause.from} → ${cause.to})`);
      return found;
    },
    all(cause: Message, match: (m: Message) => boolean): Message[] {
      return trace.filter((m) => match(m) && causes.caused(cause, m));
    },
  };
}

const request = (m: Message) => m.payload as HttpRequest;
const txn = (m: Message) => m.payload as TxnRequest;
const putKey = (m: Message) => txn(m).success?.[0]?.requestPut?.key;
const isTxnPut = (key: (k: string) => boolean, modRevision?: number) => (m: Message) => m.kind === 'etcd.Txn' && key(putKey(m) ?? '')
  && (modRevision === undefined || txn(m).compare?.[0]?.modRevision === modRevision);
const etcdEventFor = (key: string) => (m: Message) => m.kind === 'etcd.WatchResponse' && m.to === 'kube-apiserver'
  && (m.payload as { response: WatchResponse }).response.events.some((e) => e.type === 'PUT' && e.kv.key === key);
const watchEvent = (to: string, type: string, kind: string) => (m: Message) => m.kind === httpKinds.watchEvent && m.to === to
  && (m.payload as HttpWatchEvent).type === type && (m.payload as HttpWatchEvent).object !== null && ((m.payload as HttpWatchEvent).object as { kind: string }).kind === kind;

describe('seeds/004: kubectl create -f replicaset.yaml, steps 1–12 in causal order', () => {
  const { cluster, requestIds } = play('my-replicaset');
  const t = tracer(cluster);
  const rsKey = '/registry/replicasets/default/my-replicaset';

  // Step 1: the user's POST, with the body kubectl logs in the article.
  const post = t.trace.find((m) => m.id === requestIds[0])!;
  // Step 2: kube-apiserver's create Txn (compare mod_revision 0).
  const rsTxn = t.first(post, 'ReplicaSet create Txn', isTxnPut((k) => k === rsKey, 0));
  // Step 3: etcd's watch event for it; step 4: the controller manager's informer gets ADDED.
  const rsEvent = t.first(rsTxn, 'etcd watch event of the ReplicaSet', etcdEventFor(rsKey));
  const rsAdded = t.first(rsEvent, 'ADDED ReplicaSet at kube-controller-manager', watchEvent('kube-controller-manager', 'ADDED', 'ReplicaSet'));
  // Step 5: the replicaset controller creates 2 pods; step 6: one create Txn each.
  const podPosts = t.all(rsAdded, (m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request
    && request(m).method === 'POST' && request(m).path === '/api/v1/namespaces/default/pods');

  it('step 1: POST /apis/apps/v1/namespaces/default/replicasets?fieldManager=kubectl-create&fieldValidation=Strict with the logged body', () => {
    expect(post).toMatchObject({ from: 'user', to: 'kube-apiserver', kind: httpKinds.request, cause: null });
    expect(request(post)).toMatchObject({ method: 'POST', path: '/apis/apps/v1/namespaces/default/replicasets', query: 'fieldManager=kubectl-create&fieldValidation=Strict' });
    // The Request Body line of the article's kubectl -v 10 log.
    expect(JSON.parse(request(post).body as string)).toEqual({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'my-replicaset', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'my-app' } }, template: { metadata: { labels: { app: 'my-app' } }, spec: { containers: [{ image: 'nginx', name: 'my-container', ports: [{ containerPort: 80 }] }] } } },
    });
    const reply = cluster.user.received().find((r) => r.requestId === post.id)!.message.payload as HttpResponse;
    expect(reply.status).toBe(201);
    // The Response Body: defaults filled in, generation 1, status.replicas 0, resourceVersion = the Txn's revision.
    const created = reply.body as ReplicaSet;
    expect(created.metadata.generation).toBe(1);
    expect(created.status).toEqual({ replicas: 0 });
    expect(created.spec.template?.spec?.containers[0]).toMatchObject({ imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    const txnReply = t.trace.find((m) => m.replyTo === rsTxn.id)!.payload as EtcdReply<TxnResponse>;
    expect(txnReply.ok && String(txnReply.response.header.revision)).toBe(created.metadata.resourceVersion);
  });

  it('steps 2–4: the create Txn, etcd\'s PUT event to kube-apiserver, ADDED to kube-controller-manager', () => {
    expect(rsTxn).toMatchObject({ from: 'kube-apiserver', to: 'etcd' });
    expect(txn(rsTxn).compare).toEqual([{ target: 'MOD', key: rsKey, modRevision: 0 }]);
    expect(rsEvent.from).toBe('etcd');
    expect(((rsAdded.payload as HttpWatchEvent).object as ReplicaSet).metadata.name).toBe('my-replicaset');
  });

  it('steps 5–6: the replicaset controller POSTs 2 pods my-replicaset-xxxxx owned by the ReplicaSet, each one create Txn', () => {
    expect(podPosts).toHaveLength(2);
    const rs = storedObjects<ReplicaSet>(cluster, 'replicasets')[0]!;
    for (const p of podPosts) {
      const body = request(p).body as Pod;
      expect(body.metadata).toMatchObject({ generateName: 'my-replicaset-', labels: { app: 'my-app' } });
      expect(body.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'my-replicaset', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
      t.first(p, 'pod create Txn', isTxnPut((k) => /^\/registry\/pods\/default\/my-replicaset-[a-z0-9]{5}$/.test(k), 0));
    }
  });

  it('steps 6–12 for each pod: create Txn → etcd event → scheduler → binding Txn → etcd event → kubelet → status Running', () => {
    const nodes: string[] = [];
    for (const p of podPosts) {
      const create = t.first(p, 'pod create Txn', isTxnPut((k) => k.startsWith('/registry/pods/default/my-replicaset-'), 0));
      const key = putKey(create)!;
      const name = key.split('/').pop()!;
      const createReply = t.trace.find((m) => m.replyTo === create.id)!.payload as EtcdReply<TxnResponse>;
      const createdAt = createReply.ok ? createReply.response.header.revision : -1;
      // Step 7, then step 8: the scheduler's informer gets the unscheduled pod.
      const podEvent = t.first(create, 'etcd watch event of the pod', etcdEventFor(key));
      const toScheduler = t.first(podEvent, 'ADDED pod at kube-scheduler', (m) => watchEvent('kube-scheduler', 'ADDED', 'Pod')(m)
        && ((m.payload as HttpWatchEvent).object as Pod).metadata.name === name);
      // Step 9: the binding.
      const binding = t.first(toScheduler, 'binding POST', (m) => m.from === 'kube-scheduler' && m.kind === httpKinds.request
        && request(m).path === `/api/v1/namespaces/default/pods/${name}/binding`);
      const node = (request(binding).body as { target: { name: string } }).target.name;
      nodes.push(node);
      // Step 10: a GuaranteedUpdate Txn: compare mod_revision == the pod's current revision.
      const bind = t.first(binding, 'binding Txn', isTxnPut((k) => k === key, createdAt));
      expect((decodeStored(txn(bind).success![0]!.requestPut!.value!) as Pod).spec!.nodeName).toBe(node);
      // Step 11, then step 12: the kubelet of that node sees the pod enter its spec.nodeName selection.
      const bindEvent = t.first(bind, 'etcd watch event of the binding', etcdEventFor(key));
      const toKubelet = t.first(bindEvent, `ADDED pod at kubelet/${node}`, (m) => watchEvent(`kubelet/${node}`, 'ADDED', 'Pod')(m)
        && ((m.payload as HttpWatchEvent).object as Pod).metadata.name === name);
      const running = t.first(toKubelet, 'status PATCH with phase Running', (m) => m.from === `kubelet/${node}` && m.kind === httpKinds.request
        && request(m).path === `/api/v1/namespaces/default/pods/${name}/status` && JSON.stringify(request(m).body).includes('"phase":"Running"'));
      expect(t.causes.root(running).id).toBe(post.id);
    }
    // Two nodes, as the scheduler spreads a ReplicaSet's pods.
    expect(new Set(nodes).size).toBe(2);
  });

  it('ends with both pods Running and Ready, the ReplicaSet\'s status saying so, every invariant held', () => {
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
    expect(convergenceProblems(cluster)).toEqual([]);
    const rs = storedObjects<ReplicaSet>(cluster, 'replicasets')[0]!;
    expect(rs.status).toMatchObject({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
  });
});

/** The request content of seeds/000's four request-stats lines, in the order of their timestamps. */
const seedRequestContents = [
  'compare:<target:MOD key:"/registry/deployments/default/nginx-deployment" mod_revision:0 > success:<request_put:<key:"/registry/deployments/default/nginx-deployment" value_size:421 >> failure:<>',
  'compare:<target:MOD key:"/registry/replicasets/default/nginx-deployment-756d9fd5f9" mod_revision:0 > success:<request_put:<key:"/registry/replicasets/default/nginx-deployment-756d9fd5f9" value_size:697 >> failure:<>',
  'compare:<target:MOD key:"/registry/events/default/nginx-deployment.16628eb9f79e0ab0" mod_revision:0 > success:<request_put:<key:"/registry/events/default/nginx-deployment.16628eb9f79e0ab0" value_size:369 lease:5772338802590698925 >> failure:<>',
  'compare:<target:MOD key:"/registry/pods/default/nginx-deployment-756d9fd5f9-x6r6q" mod_revision:0 > success:<request_put:<key:"/registry/pods/default/nginx-deployment-756d9fd5f9-x6r6q" value_size:754 >> failure:<>',
];

/**
 * A request content with what a run chooses (names, lease ids) replaced by placeholders, and the value
 * sizes, which differ between the article's Kubernetes 1.17 and 1.28: 'seeds/000: the stored values'
 * sizes' below derives the article's sizes from the model's protobuf values.
 */
const shape = (content: string) => content
  .replace(/nginx-deployment-[456789bcdf]{1,10}-[a-z0-9]{5}/g, 'nginx-deployment-<hash>-<suffix>')
  .replace(/nginx-deployment-[456789bcdf]{1,10}/g, 'nginx-deployment-<hash>')
  .replace(/nginx-deployment\.[0-9a-f]{16}/g, 'nginx-deployment.<hex>')
  .replace(/value_size:\d+/g, 'value_size:<n>')
  .replace(/lease:\d+/g, 'lease:<id>');

describe('seeds/000: kubectl create -f nginx.yml, the etcd request-stats lines', () => {
  const { cluster } = play('nginx-deployment');
  const t = tracer(cluster);
  const lines = t.trace.filter((m) => m.kind === 'etcd.TxnResponse')
    .map((m) => (m.payload as EtcdReply<TxnResponse>).stats!)
    .filter((s) => /key:"\/registry\/(deployments|replicasets|pods|events)\/default\/nginx-deployment/.test(s.requestContent) && s.requestContent.includes('mod_revision:0 '));

  it('creates the Deployment, its ReplicaSet, the ScalingReplicaSet event (with a lease) and the Pod in the article\'s order and shape', () => {
    const firsts = ['deployments/', 'replicasets/', 'events/default/nginx-deployment.', 'pods/']
      .map((k) => lines.find((s) => s.requestContent.includes(`key:"/registry/${k}`))!);
    expect(firsts.map((s) => shape(s.requestContent))).toEqual(seedRequestContents.map(shape));
    for (const s of firsts) expect(s).toMatchObject({ responseType: '/etcdserverpb.KV/Txn', requestCount: 1, responseCount: 0 });
    // Deployment, then ReplicaSet, then the pod and the event. (The article's timestamps have the event
    // 93 ms before the pod. In the model the events lease exists since boot, but etcd's watch event for
    // the ReplicaSet reaches kube-apiserver before the Txn's reply — the reply waits for the modelled
    // backend commit — so the replicaset controller's pod create overtakes the deployment controller's
    // event, which it records only once the create is answered. Real controllers spend longer between a
    // watch event and their next request: informer hand-off, workqueue and sync.)
    const [deployment, replicaSet, event, pod] = firsts.map((s) => lines.indexOf(s)) as [number, number, number, number];
    expect(deployment).toBeLessThan(replicaSet);
    expect(replicaSet).toBeLessThan(pod);
    expect(replicaSet).toBeLessThan(event);
  });

  it('keys events to a lease granted by the apiserver\'s lease manager (TTL 3660 s), reused across events', () => {
    const events = lines.filter((s) => s.requestContent.includes('key:"/registry/events/'));
    const leases = new Set(events.map((s) => /lease:(\d+)/.exec(s.requestContent)?.[1]));
    expect(leases.has(undefined)).toBe(false);
    expect(leases.size).toBe(1);
    // One grant for the whole run: the start-up events of three kubelets and two leaders, written at the
    // same moment, wait on the lease manager's mutex while the first one's grant is in flight, then reuse it.
    const grants = t.trace.filter((m) => m.kind === 'etcd.LeaseGrant');
    expect(grants.map((m) => m.payload)).toEqual([{ TTL: 3660 }]);
    const granted = t.trace.find((m) => m.kind === 'etcd.LeaseGrantResponse')!.payload as EtcdReply<{ ID: string }>;
    expect(leases).toEqual(new Set([granted.ok ? granted.response.ID : 'none']));
  });

  it('ends with the pod Running and Ready and the Deployment Available', () => {
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
    expect(convergenceProblems(cluster)).toEqual([]);
    expect(storedObjects<Pod>(cluster, 'pods')).toHaveLength(1);
  });
});

/**
 * seeds/000's value sizes, from the model's own objects. The article's cluster (2021) ran Kubernetes
 * 1.17 or older, and three differences of the stored bytes between that version and 1.28 explain its
 * sizes exactly for the Deployment and the ReplicaSet:
 * - no managedFields: field tracking for every write came with 1.18;
 * - ObjectMeta still had clusterName (field 15, removed in 1.25), an empty string gogo-protobuf writes
 *   anyway: 2 bytes per ObjectMeta (the object's and its pod template's);
 * and for the Event:
 * - the legacy event recorder left reportingComponent empty (1.28's sets it from the source component),
 *   and the involved Deployment's resourceVersion in a long-running cluster has 9 digits where ours has 2.
 * The Pod differs in three more ways, and then comes out at the article's 754 bytes exactly:
 * - 1.17's ServiceAccount admission mounted the token as a secret volume (`default-token-xxxxx`) instead
 *   of 1.28's projected `kube-api-access-xxxxx`; admission runs after the request was decoded and
 *   defaulted, so the volume it adds is stored without the `defaultMode: 420` defaulting would give it;
 * - preemptionPolicy was not defaulted before 1.19;
 * - PodStatus had no `resize` (field 14, a string, added in 1.27): gogo-protobuf writes the empty string,
 *   2 bytes in every 1.28 Pod.
 */
describe('seeds/000: the stored values\' sizes', () => {
  const { cluster } = play('nginx-deployment');
  const stored = (prefix: string): KubeObject => {
    const latest = cluster.etcd.kv.range({ key: prefix, rangeEnd: prefixEnd(prefix) }).kvs[0]!;
    // The value as created (version 1), which the create's request-stats line describes.
    const kv = cluster.etcd.kv.range({ key: latest.key, revision: latest.createRevision }).kvs[0]!;
    expect(kv.value.startsWith('k8s\0')).toBe(true);
    const obj = decodeStored(kv.value);
    // What the request-stats line said is the stored value's size.
    const line = cluster.engine.trace.all().map((m) => (m.payload as Partial<EtcdReply<TxnResponse>>).stats?.requestContent ?? '')
      .find((c) => c.includes(`request_put:<key:"${kv.key}"`) && c.includes('mod_revision:0 '));
    expect(line).toContain(`value_size:${encodeObject(obj).length} `);
    return obj;
  };
  const clusterNameBytes = 2;
  const seedEra = (obj: KubeObject): KubeObject => {
    const copy = JSON.parse(JSON.stringify(obj)) as KubeObject;
    delete copy.metadata.managedFields;
    return copy;
  };
  const metas = (obj: KubeObject) => 1 + ((obj as { spec?: { template?: unknown } }).spec?.template ? 1 : 0);
  const size = (obj: KubeObject) => encodeObject(obj).length + clusterNameBytes * metas(obj);

  it('Deployment 421 and ReplicaSet 697 bytes, as the article\'s lines say', () => {
    expect(size(seedEra(stored('/registry/deployments/default/nginx-deployment')))).toBe(421);
    expect(size(seedEra(stored('/registry/replicasets/default/nginx-deployment-')))).toBe(697);
  });

  it('Event 369 bytes with the legacy recorder\'s empty reportingComponent and a 9-digit resourceVersion', () => {
    const event = seedEra(stored('/registry/events/default/nginx-deployment.')) as KubeObject & { reportingComponent: string; involvedObject: { resourceVersion: string } };
    event.reportingComponent = '';
    event.involvedObject.resourceVersion = '1'.repeat(9);
    expect(size(event)).toBe(369);
  });

  it('Pod 754 bytes with a 1.17 token volume (undefaulted), no preemptionPolicy and no status.resize', () => {
    const pod = seedEra(stored('/registry/pods/default/nginx-deployment-')) as Pod;
    expect(pod.spec!.serviceAccount).toBe('default');
    pod.spec!.volumes = [{ name: 'default-token-abcde', secret: { secretName: 'default-token-abcde' } }];
    pod.spec!.containers[0]!.volumeMounts![0]!.name = 'default-token-abcde';
    delete pod.spec!.preemptionPolicy;
    const resizeBytes = 2;
    expect(size(pod) - resizeBytes).toBe(754);
  });
});

describe('seeds/004: my-replicaset as stored (the etcdctl get -w json oracle)', () => {
  it('is stored at version 5 as exactly the seed\'s 1,155 bytes once the seed\'s uid and times are applied', () => {
    // The seed's cluster created it at 2024-08-14T14:40:10Z: the model's clock starts there.
    const cluster = createCluster({ seed: 'my-replicaset', epochMs: 1_723_646_410_000 /* 2024-08-14T14:40:10Z */ });
    cluster.boot();
    runScenario(cluster, scenarioById('my-replicaset')!);
    const key = '/registry/replicasets/default/my-replicaset';
    const latest = cluster.etcd.kv.range({ key }).kvs[0]!;
    expect(latest.version).toBeGreaterThanOrEqual(5);
    let v5: string | null = null;
    cluster.etcd.store.backend.rangeRevisions(latest.createRevision, latest.modRevision + 1, (kv) => {
      if (kv.key === key && kv.version === 5) v5 = kv.value;
    });
    const seedValue = base64Decode(mySeedReplicaSetBase64);
    expect(v5).not.toBeNull();
    expect(v5!.length).toBe(seedValue.length);
    expect(seedValue.length).toBe(1155);
    // What a run chooses itself: the uid, and the second the status update happened at.
    const seed = decodeStored(seedValue);
    const ours = decodeStored(v5!);
    ours.metadata.uid = seed.metadata.uid!;
    ours.metadata.managedFields = ours.metadata.managedFields!.map((m, i) => ({ ...m, time: seed.metadata.managedFields![i]!.time! }));
    expect(encodeObject(ours)).toBe(seedValue);
  });
});

describe('seeds/004: etcdctl get … --write-out=json', () => {
  it('prints the key and the protobuf value in base64, `azhzAAoV…` as the seed shows', () => {
    const { cluster } = play('my-replicaset');
    const cmd = parseEtcdctl('etcdctl get /registry/replicasets/default/my-replicaset --write-out=json');
    if (cmd.type !== 'unary') throw new Error(cmd.type);
    const response = cluster.etcd.kv.range(cmd.request as RangeRequest);
    const out = JSON.parse(renderReply(cmd, { ok: true, response, stats: null, log: null, write: null }).stdout) as { kvs: Array<{ key: string; value: string; version: number }> };
    expect(out.kvs[0]!.key).toBe('L3JlZ2lzdHJ5L3JlcGxpY2FzZXRzL2RlZmF1bHQvbXktcmVwbGljYXNldA==');
    // k8s\0, then runtime.Unknown's typeMeta {apiVersion "apps/v1", kind "ReplicaSet"}: the seed's first 36 characters.
    expect(out.kvs[0]!.value.slice(0, 36)).toBe(mySeedReplicaSetBase64.slice(0, 36));
    expect(base64Decode(out.kvs[0]!.value)).toBe(response.kvs[0]!.value);
    // The simple printer writes the raw bytes: the magic's NUL and the other control bytes shown as \xNN.
    const simple = parseEtcdctl('etcdctl get /registry/replicasets/default/my-replicaset --print-value-only');
    if (simple.type !== 'unary') throw new Error(simple.type);
    expect(renderReply(simple, { ok: true, response, stats: null, log: null, write: null }).stdout).toMatch(/^k8s\\x00\n\\x15\n\\x07apps\/v1\\x12\nReplicaSet/);
  });
});

describe('the seeds\' scenarios replay to byte-identical traces', () => {
  for (const s of scenarios.filter((x) => x.source !== undefined && ['nginx-deployment', 'my-replicaset', 'user-service-pod', 'user-service-deployment'].includes(x.id))) {
    it(s.id, () => {
      const [a, b] = runTwiceWithPerturbedHost(() => play(s.id, `${s.id}-replay`).cluster.engine);
      expect(a.steps).toBeGreaterThan(300);
      expect(b.hash).toBe(a.hash);
    });
  }
});
