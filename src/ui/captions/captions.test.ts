import { describe, expect, it } from 'vitest';
import type { ClusterMessageKind, ClusterMessages, KeyValue, ResponseHeader, TraceRecord, WatchResponse, WriteRecord } from '../../protocol/index.ts';
import { caption, describeStep, type CaptionContext } from './captions.ts';

let nextId = 1;
/** A record of kind `kind`: its payload typed by the model's message map, so a fixture cannot drift from it. */
function rec<K extends ClusterMessageKind>(kind: K, payload: ClusterMessages[K], over: Partial<TraceRecord> = {}): TraceRecord {
  const id = nextId++;
  return { step: id, id, from: 'kube-apiserver', to: 'kube-apiserver', kind, payload, sentAt: 0, deliverAt: 0, cause: null, replyTo: null, background: false, ...over };
}

const header = (revision: number): ResponseHeader => ({ clusterId: 'cdf818194e3a8c32', memberId: '8e9e05c52164694d', revision, raftTerm: 2 });
const kv = (k: string, modRevision: number, createRevision = modRevision): KeyValue => ({ key: k, createRevision, modRevision, version: 1, value: '', lease: '0' });
const watchResponse = (over: Partial<WatchResponse> & Pick<WatchResponse, 'header' | 'watchId'>): WatchResponse => ({
  created: false, canceled: false, compactRevision: 0, cancelReason: '', fragment: false, events: [], ...over,
});
const written = (revision: number, over: Partial<WriteRecord> = {}): WriteRecord => ({
  revision, changed: true, branch: 'success', compares: [], ops: [], nested: [], events: [], ...over,
});

const key = '/registry/deployments/default/nginx-deployment';
const post = rec('http.request', { method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', query: '', headers: {} }, { from: 'user', to: 'kube-apiserver' });
const txnRequest = rec('etcd.Txn', {
  compare: [{ target: 'MOD', key, modRevision: 0 }],
  success: [{ requestPut: { key, value: '{}' } }],
  failure: [],
}, { from: 'kube-apiserver', to: 'etcd' });
const write = (branch: 'success' | 'failure', changed: boolean, revision: number, result: boolean, actual: number[]): WriteRecord => ({
  revision, changed, branch, nested: [], events: [],
  compares: [{ compare: { target: 'MOD', key, modRevision: 0 }, actual, result }],
  ops: branch === 'success' ? [{ requestPut: { key, value: '{}' } }] : [{ requestRange: { key } }],
});

interface Case {
  readonly name: string;
  readonly record: TraceRecord;
  readonly context?: CaptionContext;
  readonly en: string;
  readonly zh: string;
}

const cases: Case[] = [
  {
    name: 'http.request',
    record: post,
    en: 'kubectl → kube-apiserver: POST /apis/apps/v1/namespaces/default/deployments (create deployments)',
    zh: 'kubectl → kube-apiserver：POST /apis/apps/v1/namespaces/default/deployments（创建 deployments）',
  },
  {
    name: 'http.response 201 with its request',
    record: rec('http.response', { status: 201, headers: {}, body: { kind: 'Deployment', metadata: { name: 'nginx-deployment', resourceVersion: '21' } } }, { from: 'kube-apiserver', to: 'user', replyTo: post.id }),
    context: { request: post },
    en: 'kube-apiserver answered 201 Created to POST /apis/apps/v1/namespaces/default/deployments (resourceVersion 21)',
    zh: 'kube-apiserver 返回 201 Created（POST /apis/apps/v1/namespaces/default/deployments），resourceVersion 为 21',
  },
  {
    name: 'http.response failure',
    record: rec('http.response', { status: 409, headers: {}, body: { kind: 'Status', message: 'deployments.apps "nginx-deployment" already exists' } }, { from: 'kube-apiserver', to: 'user' }),
    en: 'kube-apiserver refused with 409 Conflict: deployments.apps "nginx-deployment" already exists',
    zh: 'kube-apiserver 拒绝了请求，返回 409 Conflict：deployments.apps "nginx-deployment" already exists',
  },
  {
    name: 'http.watchEvent',
    record: rec('http.watchEvent', { type: 'ADDED', object: { kind: 'Deployment', metadata: { namespace: 'default', name: 'nginx-deployment', resourceVersion: '21' } } }, { to: 'kube-controller-manager' }),
    en: 'kube-apiserver → kube-controller-manager: watch event ADDED Deployment default/nginx-deployment (resourceVersion 21): a new object matches the watch',
    zh: 'kube-apiserver → kube-controller-manager：watch 事件 ADDED Deployment default/nginx-deployment（resourceVersion 21）：有新对象匹配该 watch',
  },
  {
    name: 'http.watchEnd',
    record: rec('http.watchEnd', { reason: 'timeout' }, { to: 'kube-scheduler' }),
    en: 'kube-apiserver → kube-scheduler: the watch ends: its timeout passed; an informer watches again',
    zh: 'kube-apiserver → kube-scheduler：watch 结束：超时已到；informer 会重新 watch',
  },
  {
    name: 'apiserver.authentication',
    record: rec('apiserver.authentication', { requestId: 1, stage: 'authentication', user: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'], decision: 'authenticated' }),
    en: 'Authentication: the bearer token identifies kubernetes-admin in system:masters, system:authenticated',
    zh: '认证：bearer token 识别出用户 kubernetes-admin（组 system:masters, system:authenticated）',
  },
  {
    name: 'apiserver.authentication rejected',
    record: rec('apiserver.authentication', { requestId: 1, stage: 'authentication', decision: 'rejected: invalid bearer token' }),
    en: 'Authentication failed (rejected: invalid bearer token): the request ends with 401 Unauthorized',
    zh: '认证失败（rejected: invalid bearer token）：请求以 401 Unauthorized 结束',
  },
  {
    name: 'apiserver.audit',
    record: rec('apiserver.audit', { requestId: 1, stage: 'audit', auditID: '0c5ea3d6-03a4-43b1-928b-4f3992bdd900', auditStage: 'RequestReceived' }),
    en: 'Audit: event 0c5ea3d6 logged at stage RequestReceived',
    zh: '审计：在 RequestReceived 阶段记录审计事件 0c5ea3d6',
  },
  {
    name: 'apiserver.max-in-flight',
    record: rec('apiserver.max-in-flight', { requestId: 1, stage: 'max-in-flight', decision: 'admitted', readOnly: 0, mutating: 1 }),
    en: 'Max-in-flight filter admitted the request (1 mutating, 0 read-only in flight)',
    zh: '并发限制（max-in-flight）放行了请求（在途：变更 1 个，只读 0 个）',
  },
  {
    name: 'apiserver.authorization allowed',
    record: rec('apiserver.authorization', { requestId: 1, stage: 'authorization', user: 'kubernetes-admin', verb: 'create', resource: 'deployments', namespace: 'default', decision: 'allowed', reason: 'group system:masters is privileged' }),
    en: 'Authorization (RBAC): kubernetes-admin may create deployments in default: group system:masters is privileged',
    zh: '鉴权（RBAC）：允许 kubernetes-admin create deployments（命名空间 default）：group system:masters is privileged',
  },
  {
    name: 'apiserver.authorization forbidden',
    record: rec('apiserver.authorization', { requestId: 1, stage: 'authorization', user: 'bob', verb: 'delete', resource: 'pods', namespace: 'default', decision: 'forbidden', reason: '' }),
    en: 'Authorization (RBAC): bob may not delete pods in default: 403 Forbidden',
    zh: '鉴权（RBAC）：不允许 bob delete pods（命名空间 default）：403 Forbidden',
  },
  {
    name: 'apiserver.admission.mutating',
    record: rec('apiserver.admission.mutating', { requestId: 1, stage: 'admission.mutating', operation: 'CREATE', decisions: ['NamespaceLifecycle: namespace default is Active', 'ServiceAccount: not a pod create'] }),
    en: 'Mutating admission (CREATE): NamespaceLifecycle: namespace default is Active and 1 more',
    zh: '变更准入（CREATE）：NamespaceLifecycle: namespace default is Active 等 2 条',
  },
  {
    name: 'apiserver.registry.strategy',
    record: rec('apiserver.registry.strategy', { requestId: 1, stage: 'registry.strategy', strategy: 'DeploymentStrategy', step: 'PrepareForCreate, Validate, Canonicalize', name: 'nginx-deployment', uid: 'u' }),
    en: 'Registry: DeploymentStrategy runs PrepareForCreate, Validate, Canonicalize on nginx-deployment',
    zh: '注册表：DeploymentStrategy 对 nginx-deployment 执行 PrepareForCreate, Validate, Canonicalize',
  },
  {
    name: 'apiserver.admission.validating',
    record: rec('apiserver.admission.validating', { requestId: 1, stage: 'admission.validating', operation: 'CREATE', decisions: [] }),
    en: 'Validating admission (CREATE): no plugin applies',
    zh: '验证准入（CREATE）：没有插件适用',
  },
  {
    name: 'apiserver.waitForCache',
    record: rec('apiserver.waitForCache', { resourcePrefix: '/registry/pods', resourceVersion: 42 }),
    en: 'The request waits until the watch cache of /registry/pods reaches resourceVersion 42',
    zh: '请求等待 /registry/pods 的 watch 缓存达到 resourceVersion 42',
  },
  {
    name: 'etcd.Txn',
    record: txnRequest,
    en: `kube-apiserver → etcd: Txn if mod_revision(${key}) == 0 then put else nothing`,
    zh: `kube-apiserver → etcd：Txn 若 mod_revision(${key}) == 0 则 put，否则 nothing`,
  },
  {
    name: 'etcd.TxnResponse succeeded',
    record: rec('etcd.TxnResponse', { ok: true, stats: null, log: null, response: { header: header(93), succeeded: true, responses: [] }, write: write('success', true, 93, true, []) }, { from: 'etcd', to: 'kube-apiserver' }),
    context: { request: txnRequest },
    en: `Txn compare mod_revision(${key}) == 0 succeeded → put, revision 93`,
    zh: `Txn 比较 mod_revision(${key}) == 0 成立 → put，revision 93`,
  },
  {
    name: 'etcd.TxnResponse failed',
    record: rec('etcd.TxnResponse', { ok: true, stats: null, log: null, response: { header: header(93), succeeded: false, responses: [] }, write: write('failure', false, 93, false, [12]) }, { from: 'etcd', to: 'kube-apiserver' }),
    en: `Txn compare mod_revision(${key}) == 0 failed (it is 12) → get, no new revision (still 93)`,
    zh: `Txn 比较 mod_revision(${key}) == 0 不成立（实际为 12）→ get，未产生新 revision（仍为 93）`,
  },
  {
    name: 'etcd.Range over a prefix',
    record: rec('etcd.Range', { key: '/registry/pods/', rangeEnd: '/registry/pods0', limit: 500 }, { to: 'etcd' }),
    en: 'kube-apiserver → etcd: Range prefix /registry/pods/ (limit 500)',
    zh: 'kube-apiserver → etcd：读取（Range）prefix /registry/pods/（最多 500 个）',
  },
  {
    name: 'etcd.RangeResponse',
    record: rec('etcd.RangeResponse', { ok: true, stats: null, log: null, response: { header: header(20), kvs: [], count: 3, more: false }, write: null }, { from: 'etcd' }),
    en: 'etcd returned 3 keys at revision 20',
    zh: 'etcd 返回 3 个键，revision 20',
  },
  {
    name: 'etcd.Put from etcdctl',
    record: rec('etcd.Put', { key: '/podflow/greeting', value: 'hello' }, { from: 'user', to: 'etcd' }),
    en: 'etcdctl → etcd: Put /podflow/greeting = "hello"',
    zh: 'etcdctl → etcd：写入（Put）/podflow/greeting = "hello"',
  },
  {
    name: 'etcd.Put of a JSON value: decoded, not escaped',
    record: rec('etcd.Put', { key: '/podflow/cfg', value: '{"a": 1, "b": "x"}' }, { from: 'user', to: 'etcd' }),
    en: 'etcdctl → etcd: Put /podflow/cfg = {"a":1,"b":"x"}',
    zh: 'etcdctl → etcd：写入（Put）/podflow/cfg = {"a":1,"b":"x"}',
  },
  {
    name: 'etcd.PutResponse',
    record: rec('etcd.PutResponse', { ok: true, stats: null, log: null, response: { header: header(20) }, write: written(20) }, { from: 'etcd', to: 'user' }),
    context: { request: rec('etcd.Put', { key: '/podflow/greeting', value: 'hello' }) },
    en: 'etcd stored /podflow/greeting at revision 20',
    zh: 'etcd 在 revision 20 保存了 /podflow/greeting',
  },
  {
    name: 'etcd.DeleteRange',
    record: rec('etcd.DeleteRange', { key: '/a' }, { from: 'user', to: 'etcd' }),
    en: 'etcdctl → etcd: DeleteRange /a',
    zh: 'etcdctl → etcd：删除（DeleteRange）/a',
  },
  {
    name: 'etcd.Watch',
    record: rec('etcd.Watch', { stream: 'kube-apiserver', request: { createRequest: { key: '/registry/pods/', rangeEnd: '/registry/pods0', startRevision: 21 } } }, { to: 'etcd' }),
    en: 'kube-apiserver → etcd: Watch prefix /registry/pods/ from revision 21 (stream kube-apiserver)',
    zh: 'kube-apiserver → etcd：监听（Watch）prefix /registry/pods/，从 revision 21 开始（流 kube-apiserver）',
  },
  {
    name: 'etcd.WatchResponse with events',
    record: rec('etcd.WatchResponse', { stream: 's', response: watchResponse({ header: header(21), watchId: 5, created: false, canceled: false, events: [{ type: 'PUT', kv: kv(key, 21) }] }) }, { from: 'etcd', to: 'kube-apiserver', cause: 1 }),
    en: `etcd → kube-apiserver: watch 5 event PUT ${key} (mod_revision 21)`,
    zh: `etcd → kube-apiserver：watch 5 事件 PUT ${key}（mod_revision 21）`,
  },
  {
    name: 'etcd.WatchResponse of another etcd client\'s write (no cause in this server)',
    record: rec('etcd.WatchResponse', { stream: 's', response: watchResponse({ header: header(21), watchId: 5, created: false, canceled: false, events: [{ type: 'PUT', kv: kv(key, 21) }] }) }, { from: 'etcd', to: 'kube-apiserver' }),
    en: `etcd → kube-apiserver: watch 5 event PUT ${key} (mod_revision 21); written by another etcd client, not through this kube-apiserver`,
    zh: `etcd → kube-apiserver：watch 5 事件 PUT ${key}（mod_revision 21）；由另一个 etcd 客户端写入，而非经由这个 kube-apiserver`,
  },
  {
    name: 'etcd.WatchResponse of another kube-apiserver\'s identity lease',
    record: rec('etcd.WatchResponse', { stream: 's', response: watchResponse({ header: header(30), watchId: 5, created: false, canceled: false, events: [{ type: 'PUT', kv: kv('/registry/leases/kube-system/kube-apiserver-s2bgmziuyb2qrwpoihfaumwpf4', 30, 9) }] }) }, { from: 'etcd', to: 'kube-apiserver' }),
    en: 'etcd → kube-apiserver: watch 5 event PUT /registry/leases/kube-system/kube-apiserver-s2bgmziuyb2qrwpoihfaumwpf4 (mod_revision 30); written by kube-apiserver-s2bgmziuyb2qrwpoihfaumwpf4, another kube-apiserver',
    zh: 'etcd → kube-apiserver：watch 5 事件 PUT /registry/leases/kube-system/kube-apiserver-s2bgmziuyb2qrwpoihfaumwpf4（mod_revision 30）；由另一个 kube-apiserver kube-apiserver-s2bgmziuyb2qrwpoihfaumwpf4 写入',
  },
  {
    name: 'etcd.WatchResponse of a delete from outside this server',
    record: rec('etcd.WatchResponse', { stream: 's', response: watchResponse({ header: header(31), watchId: 5, created: false, canceled: false, events: [{ type: 'DELETE', kv: kv(key, 31, 0) }] }) }, { from: 'etcd', to: 'kube-apiserver' }),
    en: `etcd → kube-apiserver: watch 5 event DELETE ${key} (mod_revision 31); deleted by another etcd client, or by etcd as its lease expired`,
    zh: `etcd → kube-apiserver：watch 5 事件 DELETE ${key}（mod_revision 31）；由另一个 etcd 客户端删除，或因租约到期由 etcd 删除`,
  },
  {
    name: 'etcd.WatchResponse created',
    record: rec('etcd.WatchResponse', { stream: 's', response: watchResponse({ header: header(7), watchId: 2, created: true, canceled: false, events: [] }) }, { from: 'etcd', to: 'kube-apiserver' }),
    en: 'etcd created watch 2 at revision 7',
    zh: 'etcd 在 revision 7 创建了 watch 2',
  },
  {
    name: 'etcd.WatchStreamError',
    record: rec('etcd.WatchStreamError', { stream: 'kube-apiserver', error: 'rpc error: code = Unavailable desc = transport is closing' }, { from: 'etcd', to: 'kube-apiserver' }),
    en: 'etcd → kube-apiserver: watch stream kube-apiserver broke (rpc error: code = Unavailable desc = transport is closing); clientv3 creates its watches again from the revision after the last one it saw',
    zh: 'etcd → kube-apiserver：watch 流 kube-apiserver 断开（rpc error: code = Unavailable desc = transport is closing）；clientv3 从最后看到的 revision 之后重新创建所有 watch',
  },
  {
    name: 'user.fault breakEtcdWatches',
    record: rec('user.fault', { type: 'breakEtcdWatches' }, { from: 'user', to: 'user' }),
    en: "Fault: kube-apiserver's watch stream to etcd breaks",
    zh: '故障：kube-apiserver 到 etcd 的 watch 流断开',
  },
  {
    name: 'user.fault nodeDown',
    record: rec('user.fault', { type: 'nodeDown', node: 'node-2' }, { from: 'user', to: 'user' }),
    en: 'Fault: node node-2 goes down',
    zh: '故障：节点 node-2 宕机',
  },
  {
    name: 'etcd.LeaseGrant',
    record: rec('etcd.LeaseGrant', { TTL: 3660 }, { to: 'etcd' }),
    en: 'kube-apiserver → etcd: LeaseGrant, TTL 3660 s',
    zh: 'kube-apiserver → etcd：申请租约（LeaseGrant），TTL 3660 秒',
  },
  {
    name: 'etcd.Compact',
    record: rec('etcd.Compact', { revision: 40 }, { to: 'etcd' }),
    en: 'kube-apiserver → etcd: Compact to revision 40: history before it will be discarded',
    zh: 'kube-apiserver → etcd：压缩（Compact）到 revision 40：之前的历史将被丢弃',
  },
  {
    name: 'etcd error reply',
    record: rec('etcd.PutResponse', { ok: false, stats: null, log: null, error: { code: 3, codeName: 'InvalidArgument', message: 'etcdserver: key is not provided' }, write: null }, { from: 'etcd', to: 'user' }),
    en: 'etcd refused the Put: etcdserver: key is not provided',
    zh: 'etcd 拒绝了 Put：etcdserver: key is not provided',
  },
  {
    name: 'timer: named by what it is for, not by its name in the model',
    record: rec('timer', { name: 'compactor', data: null }, { background: true, sentAt: 0, deliverAt: 300_000 }),
    en: 'kube-apiserver: etcd compaction (every 5 min) (after 300 s, background)',
    zh: 'kube-apiserver：etcd 压缩（每 5 分钟）（300 s 后，后台）',
  },
  {
    name: 'a wake-up with the reason its sleep was labelled with',
    record: rec('timer', { name: 'engine.wake', data: { reason: 'image-pull', pod: 'default/nginx-1', container: 'nginx', image: 'nginx:1.14.2' } }, { from: 'kubelet/node-2', to: 'kubelet/node-2', sentAt: 100, deliverAt: 2100 }),
    en: 'kubelet/node-2: wake-up: image pull done (nginx:1.14.2, default/nginx-1) (after 2 s)',
    zh: 'kubelet/node-2：唤醒：镜像拉取完成（nginx:1.14.2, default/nginx-1）（2 s 后）',
  },
  {
    name: 'http.request with its query, decoded',
    record: rec('http.request', { method: 'GET', path: '/api/v1/pods', query: 'fieldSelector=spec.nodeName%3Dnode-2&resourceVersion=12&watch=true', headers: {} }, { from: 'kubelet/node-2', to: 'kube-apiserver' }),
    en: 'kubelet/node-2 → kube-apiserver: GET /api/v1/pods?fieldSelector=spec.nodeName=node-2&resourceVersion=12&watch=true (watch pods)',
    zh: 'kubelet/node-2 → kube-apiserver：GET /api/v1/pods?fieldSelector=spec.nodeName=node-2&resourceVersion=12&watch=true（监听 pods）',
  },
];

describe('plain lines', () => {
  const podKey = '/registry/pods/default/nginx-1';
  const createPod = rec('etcd.Txn', { compare: [{ target: 'MOD', key: podKey, modRevision: 0 }], success: [{ requestPut: { key: podKey, value: '{}' } }], failure: [] }, { from: 'kube-apiserver', to: 'etcd' });

  it('says why a create Txn has its compare', () => {
    expect(describeStep(createPod, 'en')).toEqual({
      plain: 'kube-apiserver stores Pod nginx-1 in etcd: the Txn writes only if nobody created the key yet (mod_revision == 0)',
      technical: 'kube-apiserver → etcd: Txn if mod_revision(/registry/pods/default/nginx-1) == 0 then put else nothing',
    });
    expect(describeStep(createPod, 'zh').plain).toBe('kube-apiserver 把 Pod nginx-1 存入 etcd：只有当这个键还没人创建时（mod_revision == 0），Txn 才写入');
  });

  it('explains why the watch event reaches kube-apiserver before the reply to the write that caused it', () => {
    const event = rec('etcd.WatchResponse', { stream: 'kube-apiserver', response: watchResponse({ header: header(31), watchId: 3, events: [{ type: 'PUT', kv: kv(podKey, 31) }] }) },
      { from: 'etcd', to: 'kube-apiserver', cause: createPod.id });
    expect(describeStep(event, 'en', { cause: createPod }).plain).toBe(
      "etcd tells kube-apiserver that Pod nginx-1 was created at revision 31. This arrives before etcd's reply to the write itself: etcd notifies watchers as the write commits, before the reply travels back");
    expect(describeStep(event, 'zh', { cause: createPod }).plain).toContain('它比 etcd 对这次写入本身的回复来得更早');
    // Without the write as its cause (a watcher catching up from history), no such claim.
    expect(describeStep(event, 'en').plain).toBe('etcd tells kube-apiserver that Pod nginx-1 was created at revision 31');
  });

  it('says what a kubelet was doing when it wakes up', () => {
    const wake = rec('timer', { name: 'engine.wake', data: { reason: 'container-start', pod: 'default/nginx-1', container: 'nginx' } }, { from: 'kubelet/node-2', to: 'kubelet/node-2' });
    expect(describeStep(wake, 'en').plain).toBe('The kubelet on node-2 has started container nginx of Pod nginx-1');
    expect(describeStep(wake, 'zh').plain).toBe('node-2 上的 kubelet 已启动 Pod nginx-1 的容器 nginx');
  });

  it('says the Pod is Running when the kubelet reports it', () => {
    const patch = rec('http.request', {
      method: 'PATCH', path: '/api/v1/namespaces/default/pods/nginx-1/status', query: '', headers: {},
      body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
    }, { from: 'kubelet/node-2', to: 'kube-apiserver' });
    expect(describeStep(patch, 'en').plain).toBe('The kubelet on node-2 reports the status of Pod nginx-1: phase Running, Ready');
    expect(describeStep(patch, 'zh').plain).toBe('node-2 上的 kubelet 上报 Pod nginx-1 的状态：phase Running，Ready');
  });

  it('gives the same answer for the same record and context (cached), and a new one for a new context', () => {
    const response = rec('etcd.TxnResponse', { ok: true, stats: null, log: null, response: { header: header(31), succeeded: true, responses: [] }, write: written(31) }, { from: 'etcd', to: 'kube-apiserver', replyTo: createPod.id });
    const bare = describeStep(response, 'en').plain;
    expect(describeStep(response, 'en').plain).toBe(bare);
    expect(describeStep(response, 'en', { request: createPod }).plain).toContain('Pod nginx-1');
    expect(bare).not.toContain('Pod nginx-1');
  });
});

describe('step captions', () => {
  it.each(cases)('$name', ({ record, context, en, zh }) => {
    expect(caption(record, 'en', context)).toBe(en);
    expect(caption(record, 'zh', context)).toBe(zh);
  });
});
