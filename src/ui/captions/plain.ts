// The plain line of a step's caption, in English and 中文: what happened, said as a person would, and why,
// from the trace record alone (plus the request a response answers). The exact wire line is the
// technical caption (captions.ts); this one names components as people know them ("the kubelet on
// node-2"), objects by kind and name, and says what the step is for. Pure and cheap: it runs for every
// rendered token, so payload bodies are read once per record (a WeakMap keyed by the record).

import {
  isProtobuf, typedRecord, type ClusterMessageKind, type EtcdReplyPayload, type RequestOp, type TraceRecord, type TypedMessageView,
} from '../../protocol/index.ts';
import { foreignWriter } from './foreign-write.ts';
import { componentText } from './milestones.ts';
import { headerRevision, txnKey } from './etcd-text.ts';
import { cap, child, clip, list, text } from './payload.ts';
import { zhSpacing } from './zh.ts';
import { componentStatusesRead, etcdHealthRead, healthProbeRequest, healthProbeResponse } from './health-probes.ts';
import { podStreamData, podStreamEnd, podStreamRequest, podStreamResponse } from './pod-streams.ts';
import { podFromProtobuf } from './stored-bytes.ts';
import { etcdFaultCaption, raftKindPrefix, raftPlain, raftTimerReasons } from './raft.ts';

type Message = Omit<TraceRecord, 'step'>;

export interface Both {
  readonly en: string;
  readonly zh: string;
}

export interface PlainContext {
  /** For a response: the request it answers. */
  readonly request?: Omit<TraceRecord, 'step'> | undefined;
  /** The message whose delivery caused this one, when the UI holds it (a watch event's write). */
  readonly cause?: Omit<TraceRecord, 'step'> | undefined;
}

type Plain<K extends ClusterMessageKind> = (record: TypedMessageView<K>, context: PlainContext) => Both;

type RaftKind = `etcd.raft.${string}` & ClusterMessageKind;
type PlainKind = Exclude<ClusterMessageKind, RaftKind>;

const none: Both = { en: '', zh: '' };

interface Cached {
  readonly request: unknown;
  readonly cause: unknown;
  readonly plain: Both;
}

/** The last plain caption of each record, with the context it was made with. */
const cache = new WeakMap<object, Cached>();

export function plainCaption(record: Message, context: PlainContext = {}): Both {
  const cached = cache.get(record);
  if (cached && cached.request === context.request && cached.cause === context.cause) return cached.plain;
  const made = record.kind.startsWith(raftKindPrefix) ? raftPlain(record) : plainOf(record, context);
  const plain = { en: made.en, zh: zhSpacing(made.zh) };
  cache.set(record, { request: context.request, cause: context.cause, plain });
  return plain;
}

/** The table pairs every kind with its own plain captioner, so a record of that kind fits it. */
function plainOf(record: Message, context: PlainContext): Both {
  const typed = typedRecord(record) as TypedMessageView<PlainKind>;
  return (plains[typed.kind] as Plain<PlainKind>)(typed, context);
}

// ── names ──────────────────────────────────────────────────────────────────────────────────────────

/** `The kubelet on node-2`, `kube-scheduler`, `kubectl` (etcdctl when the user talks to etcd). */
function who(name: string, peer = 'kube-apiserver'): Both {
  if (name === 'user' && peer === 'etcd') return { en: 'etcdctl', zh: 'etcdctl' };
  return componentText(name);
}

/** A Chinese subject before a verb: a space after a Latin name, none after 汉字. */
function zs(text: string): string {
  return /[A-Za-z0-9)]$/.test(text) ? `${text} ` : text;
}

const kinds: Readonly<Record<string, string>> = {
  pods: 'Pod', deployments: 'Deployment', replicasets: 'ReplicaSet', nodes: 'Node', namespaces: 'Namespace', events: 'Event',
  leases: 'Lease', services: 'Service', configmaps: 'ConfigMap', secrets: 'Secret', serviceaccounts: 'ServiceAccount',
  endpoints: 'Endpoints', endpointslices: 'EndpointSlice', bindings: 'Binding', clusterroles: 'ClusterRole',
  clusterrolebindings: 'ClusterRoleBinding', roles: 'Role', rolebindings: 'RoleBinding', statefulsets: 'StatefulSet',
  daemonsets: 'DaemonSet', jobs: 'Job', cronjobs: 'CronJob', priorityclasses: 'PriorityClass', persistentvolumeclaims: 'PersistentVolumeClaim',
  persistentvolumes: 'PersistentVolume', storageclasses: 'StorageClass', limitranges: 'LimitRange', resourcequotas: 'ResourceQuota',
  controllerrevisions: 'ControllerRevision', podtemplates: 'PodTemplate', horizontalpodautoscalers: 'HorizontalPodAutoscaler',
};

export function kindOf(resource: string): string {
  return kinds[resource] ?? resource;
}

interface Target {
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
}

/** `/api/v1/namespaces/default/pods/x/status` → pods, default, x, status. */
export function restTarget(path: string): Target | undefined {
  const parts = path.split('/').filter(Boolean);
  const rest = parts[0] === 'api' ? parts.slice(2) : parts[0] === 'apis' ? parts.slice(3) : [];
  if (rest.length === 0) return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    return { namespace: rest[1], resource: rest[2]!, name: rest[3], subresource: rest[4] };
  }
  return { namespace: undefined, resource: rest[0]!, name: rest[1], subresource: rest[2] };
}

/** A registry key as the object it stores: `/registry/pods/default/x` → Pod x. */
export function keyObject(key: string | undefined): { readonly kind: string; readonly name: string } | undefined {
  if (!key?.startsWith('/registry/')) return undefined;
  const parts = key.slice('/registry/'.length).split('/');
  // `/registry/deployments/default/x`, `/registry/minions/node-1` (nodes), `/registry/apiregistration.k8s.io/…`
  const resource = parts[0] === 'minions' ? 'nodes' : parts[0] === 'services' && parts[1] === 'specs' ? 'services' : parts[0]!;
  const name = parts.at(-1);
  if (!name) return undefined;
  return { kind: kindOf(resource), name };
}

function objectOf(key: string | undefined): Both {
  const o = keyObject(key);
  if (!o) return key ? { en: `key ${key}`, zh: `键 ${key}` } : { en: 'the key', zh: '该键' };
  return { en: `${o.kind} ${o.name}`, zh: `${o.kind} ${o.name}` };
}

const bodies = new WeakMap<object, unknown>();

/** A request or response body as an object (kubectl sends JSON text; the components send objects). */
function body(payload: { readonly body?: unknown }): unknown {
  const raw = payload.body;
  if (typeof raw !== 'string') return raw;
  const owner = payload;
  if (bodies.has(owner)) return bodies.get(owner);
  let parsed: unknown;
  try {
    parsed = raw.length > 0 && raw.length < 200_000 ? JSON.parse(raw) : undefined;
  } catch {
    parsed = undefined;
  }
  bodies.set(owner, parsed);
  return parsed;
}

function query(request: { readonly query: string }): URLSearchParams {
  return new URLSearchParams(request.query);
}

/** What a field selector narrows a list or watch to: ` on node-2`, or nothing. */
function scope(params: URLSearchParams): Both {
  const node = /spec\.nodeName=([^,]+)/.exec(params.get('fieldSelector') ?? '')?.[1];
  if (node) return { en: ` bound to ${node}`, zh: `（绑定到 ${node} 的）` };
  return none;
}

/** A Pod's state as a caption says it: `Pending, no node yet`, `Running and Ready on node-2`. */
function podState(pod: unknown): Both {
  const status = child(pod, 'status');
  const phase = text(status, 'phase');
  if (!phase) return none;
  const node = text(child(pod, 'spec'), 'nodeName');
  const ready = list(status, 'conditions').some((c) => text(c, 'type') === 'Ready' && text(c, 'status') === 'True');
  if (text(child(pod, 'metadata'), 'deletionTimestamp')) return { en: `terminating${node ? ` on ${node}` : ''}`, zh: `${node ? `在 ${node} 上` : ''}正在终止` };
  if (!node) return { en: `${phase}, no node yet`, zh: `${phase}，尚未调度到节点` };
  if (phase === 'Running') return ready ? { en: `Running and Ready on ${node}`, zh: `在 ${node} 上运行并已就绪（Running，Ready）` } : { en: `Running on ${node}, not Ready yet`, zh: `在 ${node} 上运行，尚未就绪（Running）` };
  return { en: `${phase} on ${node}`, zh: `在 ${node} 上，${phase}` };
}

/** `: now Running and Ready on node-2` after a Pod's name, or nothing. */
function podNow(pod: unknown): Both {
  const state = podState(pod);
  return state === none ? none : { en: `, now ${state.en}`, zh: `，现在${state.zh}` };
}

/** A stored value decoded, once per record: the object a Txn puts, for what a caption says of it. */
const values = new WeakMap<object, unknown>();
function storedObject(owner: object, value: string | undefined): unknown {
  if (values.has(owner)) return values.get(owner);
  let decoded: unknown;
  try {
    decoded = value && value.length < 200_000 && value.startsWith('{') ? JSON.parse(value)
      : value && isProtobuf(value) ? podFromProtobuf(value) : undefined;
  } catch {
    decoded = undefined;
  }
  values.set(owner, decoded);
  return decoded;
}

// ── HTTP ───────────────────────────────────────────────────────────────────────────────────────────

function objectName(target: Target, b: unknown): string {
  const metadata = child(b, 'metadata');
  const name = target.name ?? text(metadata, 'name');
  if (name) return name;
  const generate = text(metadata, 'generateName');
  return generate ? `${generate}…` : '';
}

const httpRequest: Plain<'http.request'> = (record) => {
  const stream = podStreamRequest(record) ?? healthProbeRequest(record) ?? componentStatusesRead(record);
  if (stream) return stream;
  const { method, path } = record.payload;
  const target = restTarget(path);
  const sender = who(record.from);
  const S = { en: cap(sender.en), zh: zs(sender.zh) };
  if (!target) return { en: `${S.en} sends ${method} ${path} to kube-apiserver`, zh: `${S.zh}向 kube-apiserver 发送 ${method} ${path}` };
  const params = query(record.payload);
  const kind = kindOf(target.resource);
  const b = body(record.payload);
  const name = objectName(target, b);
  const obj = `${kind}${name ? ` ${name}` : ''}`;
  const kubelet = record.from.startsWith('kubelet/');
  if (method === 'GET' && params.get('watch') === 'true') {
    const rv = params.get('resourceVersion');
    const s = scope(params);
    return {
      en: `${S.en} starts watching ${target.resource}${s.en}${rv ? ` from resourceVersion ${rv}` : ''}: kube-apiserver will stream every change, so its informer's cache stays up to date`,
      zh: `${S.zh}开始 watch ${s.zh}${target.resource}${rv ? `，从 resourceVersion ${rv} 起` : ''}：kube-apiserver 会推送每一次变化，让它的 informer 缓存保持最新`,
    };
  }
  if (method === 'GET') {
    const rv = params.get('resourceVersion');
    const source: Both = rv === '0'
      ? { en: 'resourceVersion=0: kube-apiserver answers from its watch cache, without asking etcd', zh: 'resourceVersion=0：kube-apiserver 直接用 watch 缓存作答，不访问 etcd' }
      : rv
        ? { en: `resourceVersion=${rv}: served from the watch cache once it has caught up to ${rv}`, zh: `resourceVersion=${rv}：watch 缓存追上 ${rv} 后由缓存作答` }
        : { en: 'no resourceVersion: a consistent read, straight from etcd', zh: '没有 resourceVersion：一致性读，直接读 etcd' };
    if (!target.name) {
      const s = scope(params);
      const first = record.from !== 'user' && params.has('limit') ? { en: ' (an informer lists first, then watches from the list\'s resourceVersion)', zh: '（informer 先 list，再从 list 的 resourceVersion 开始 watch）' } : none;
      return { en: `${S.en} lists ${target.resource}${s.en}${first.en}; ${source.en}`, zh: `${S.zh}列出${s.zh} ${target.resource}${first.zh}；${source.zh}` };
    }
    if (target.resource === 'leases' && kubelet) {
      return {
        en: `${S.en} reads its node Lease ${name}, which it renews as its heartbeat (it reads it only at start or after a conflict: each renewal is a PUT of the copy it last wrote)`,
        zh: `${S.zh}读取自己的节点 Lease ${name}（它靠续约这个 Lease 来发心跳；只在启动时或冲突之后才读取：每次续约都是用上次写入的副本发 PUT）`,
      };
    }
    return { en: `${S.en} reads ${obj}; ${source.en}`, zh: `${S.zh}读取 ${obj}；${source.zh}` };
  }
  if (method === 'POST') {
    if (target.subresource === 'binding') {
      const node = text(child(b, 'target'), 'name') ?? '';
      return {
        en: `kube-scheduler binds Pod ${name} to ${node}: it picked that node, and asks kube-apiserver to set the Pod's spec.nodeName`,
        zh: `kube-scheduler 把 Pod ${name} 绑定到 ${node}：它选中了这个节点，请 kube-apiserver 设置 Pod 的 spec.nodeName`,
      };
    }
    if (target.resource === 'events') {
      const about = child(b, 'involvedObject');
      const reason = text(b, 'reason') ?? '';
      const message = clip(text(b, 'message') ?? '', 90);
      return {
        en: `${S.en} records an Event about ${text(about, 'kind') ?? ''} ${text(about, 'name') ?? ''}: ${reason}${message ? ` (${message})` : ''}`,
        zh: `${S.zh}为 ${text(about, 'kind') ?? ''} ${text(about, 'name') ?? ''} 记录一条 Event：${reason}${message ? `（${message}）` : ''}`,
      };
    }
    return { en: `${S.en} asks kube-apiserver to create ${obj}${createWhy(record.from, kind).en}`, zh: `${S.zh}请 kube-apiserver 创建 ${obj}${createWhy(record.from, kind).zh}` };
  }
  if (method === 'PUT' && target.resource === 'leases' && kubelet) {
    return {
      en: `${S.en} renews its node Lease: this heartbeat tells the node lifecycle controller that the node is alive`,
      zh: `${S.zh}续约自己的节点 Lease：这次心跳告诉节点生命周期控制器，节点还活着`,
    };
  }
  if ((method === 'PUT' || method === 'PATCH') && target.subresource === 'status') {
    if (kubelet && kind === 'Pod') {
      const phase = text(child(b, 'status'), 'phase');
      const ready = list(child(b, 'status'), 'conditions').some((c) => text(c, 'type') === 'Ready' && text(c, 'status') === 'True');
      const state = phase ? { en: `: phase ${phase}${ready ? ', Ready' : ''}`, zh: `：phase ${phase}${ready ? '，Ready' : ''}` } : none;
      return { en: `${S.en} reports the status of Pod ${name}${state.en}`, zh: `${S.zh}上报 Pod ${name} 的状态${state.zh}` };
    }
    const conditions = list(child(b, 'status'), 'conditions');
    if (record.from === 'kube-scheduler' && conditions.some((c) => text(c, 'type') === 'PodScheduled' && text(c, 'status') === 'False')) {
      return { en: `kube-scheduler records on Pod ${name} that no node fits it (condition PodScheduled False, reason Unschedulable)`, zh: `kube-scheduler 在 Pod ${name} 上记下没有合适的节点（PodScheduled 条件为 False，原因 Unschedulable）` };
    }
    if (record.from === 'kube-controller-manager' && kind === 'Node' && conditions.some((c) => text(c, 'type') === 'Ready' && text(c, 'status') === 'Unknown')) {
      return { en: `The node lifecycle controller marks Node ${name} Ready=Unknown: its kubelet stopped renewing the node Lease`, zh: `节点生命周期控制器把 Node ${name} 标记为 Ready=Unknown：它的 kubelet 不再续约节点 Lease` };
    }
    if (kubelet && kind === 'Node') return { en: `${S.en} reports its node's status (conditions, capacity)`, zh: `${S.zh}上报节点状态（conditions、容量）` };
    return { en: `${S.en} updates the status of ${obj} with what it observed`, zh: `${S.zh}用它观察到的情况更新 ${obj} 的状态` };
  }
  if (method === 'PUT') {
    return {
      en: `${S.en} replaces ${obj}, sending the resourceVersion it read: kube-apiserver refuses it if the object changed since`,
      zh: `${S.zh}替换 ${obj}，并带上它读到的 resourceVersion：若对象此后已被改动，kube-apiserver 会拒绝`,
    };
  }
  if (method === 'PATCH' && kind === 'Node' && record.from === 'kube-controller-manager') {
    const taints = list(child(b, 'spec'), 'taints').map((t) => `${text(t, 'key') ?? ''}:${text(t, 'effect') ?? ''}`);
    return taints.length > 0
      ? { en: `The node lifecycle controller sets the taints of Node ${name}: ${taints.join(', ')}`, zh: `节点生命周期控制器设置 Node ${name} 的污点：${taints.join('、')}` }
      : { en: `The node lifecycle controller removes the taints of Node ${name}: the node is healthy again`, zh: `节点生命周期控制器移除 Node ${name} 的污点：节点恢复健康` };
  }
  if (method === 'PATCH') return { en: `${S.en} patches ${obj}: only the fields it sends change`, zh: `${S.zh}修补（PATCH）${obj}：只改它发送的字段` };
  if (method === 'DELETE') {
    if (kubelet && kind === 'Pod') {
      return { en: `${S.en} removes Pod ${name} for good: its containers have stopped`, zh: `${S.zh}彻底删除 Pod ${name}：它的容器已经停止` };
    }
    return { en: `${S.en} asks kube-apiserver to delete ${obj}`, zh: `${S.zh}请 kube-apiserver 删除 ${obj}` };
  }
  return { en: `${S.en} sends ${method} for ${obj}`, zh: `${S.zh}对 ${obj} 发送 ${method}` };
};

/** Why a component creates an object of `kind`. */
function createWhy(from: string, kind: string): Both {
  if (from === 'kube-controller-manager' && kind === 'ReplicaSet') return { en: ': the deployment controller makes a ReplicaSet for the Deployment\'s Pod template', zh: '：Deployment 控制器为 Deployment 的 Pod 模板创建 ReplicaSet' };
  if (from === 'kube-controller-manager' && kind === 'Pod') return { en: ': the ReplicaSet controller counts fewer Pods than replicas', zh: '：ReplicaSet 控制器发现 Pod 数少于副本数' };
  if (from.startsWith('kubelet/') && kind === 'Node') return { en: ': the kubelet registers its node', zh: '：kubelet 注册自己的节点' };
  if (from.startsWith('kubelet/') && kind === 'Lease') return { en: ': the node Lease the kubelet will renew as its heartbeat', zh: '：kubelet 之后会续约这个节点 Lease 作为心跳' };
  return none;
}

const statusWhy: Readonly<Record<number, Both>> = {
  400: { en: 'the request is malformed', zh: '请求格式有误' },
  401: { en: 'the credentials were not accepted', zh: '凭据未被接受' },
  403: { en: 'RBAC does not allow it', zh: 'RBAC 不允许这个操作' },
  404: { en: 'no such object', zh: '没有这个对象' },
  405: { en: 'the resource does not support this verb', zh: '该资源不支持这个动作' },
  409: { en: 'the object changed since it was read (a stale resourceVersion), or it already exists', zh: '对象在读取之后已被修改（resourceVersion 过期），或对象已存在' },
  410: { en: 'the resourceVersion asked for is too old: etcd has compacted that history, so the client must list again', zh: '请求的 resourceVersion 太旧：etcd 已压缩这段历史，客户端必须重新 list' },
  415: { en: 'the content type is not supported for this verb', zh: '该动作不支持这种内容类型' },
  422: { en: 'the object is invalid', zh: '对象不合法' },
  429: { en: 'too many requests in flight: the client waits for Retry-After and sends it again', zh: '在途请求太多：客户端等待 Retry-After 后重发' },
  500: { en: 'an internal error', zh: '内部错误' },
  504: { en: 'it took too long', zh: '处理超时' },
};

/** The request a reply answers, when the page still holds it and it is of kind `kind`. */
function requestOf<K extends ClusterMessageKind>(request: Message | undefined, kind: K): TypedMessageView<K> | undefined {
  return request?.kind === kind ? (typedRecord(request) as TypedMessageView<K>) : undefined;
}

const httpResponse: Plain<'http.response'> = (record, { request }) => {
  const stream = podStreamResponse(record, request) ?? healthProbeResponse(record, request);
  if (stream) return stream;
  const { status } = record.payload;
  const to = who(record.to);
  const b = body(record.payload);
  const metadata = child(b, 'metadata');
  const rv = text(metadata, 'resourceVersion');
  const bodyKind = text(b, 'kind') ?? '';
  const asked = requestOf(request, 'http.request')?.payload;
  const method = asked?.method ?? '';
  const target = asked ? restTarget(asked.path) : undefined;
  if (status >= 400) {
    const why = statusWhy[status] ?? { en: 'the request failed', zh: '请求失败' };
    const message = clip(text(b, 'message') ?? '', 100);
    return {
      en: `kube-apiserver answers ${to.en} with ${status}, refused: ${why.en}${message ? ` (${message})` : ''}`,
      zh: `kube-apiserver 以 ${status} 拒绝了${zs(to.zh)}的请求：${why.zh}${message ? `（${message}）` : ''}`,
    };
  }
  if (record.payload.stream) {
    return { en: `kube-apiserver accepts ${to.en}'s watch: from now on each change arrives as a watch event on this open response`, zh: `kube-apiserver 接受了${zs(to.zh)}的 watch：此后每次变化都会作为 watch 事件从这个打开的响应里推送过来` };
  }
  if (bodyKind.endsWith('List')) {
    const n = list(b, 'items').length;
    const what = kindOf(target?.resource ?? '') !== '' && target ? target.resource : bodyKind;
    const cached = asked && query(asked).get('resourceVersion') === '0'
      ? { en: ', from its watch cache', zh: '，来自 watch 缓存' } : none;
      return {
      en: `kube-apiserver returns ${n} ${what} to ${to.en} at resourceVersion ${rv ?? ''}${cached.en}: the list it will watch from`,
      zh: `kube-apiserver 向${zs(to.zh)}返回 ${n} 个 ${what}，resourceVersion ${rv ?? ''}${cached.zh}：之后就从这里开始 watch`,
    };
  }
  const name = text(metadata, 'name');
  const obj = name ? `${bodyKind} ${name}` : bodyKind;
  const at = rv ? { en: ` (resourceVersion ${rv}, the etcd revision of its last write)`, zh: `（resourceVersion ${rv}，即它最近一次写入的 etcd revision）` } : none;
  if (target?.subresource === 'binding') {
    return { en: `kube-apiserver stored the binding: Pod ${target.name ?? ''} now has its node in spec.nodeName; it answers kube-scheduler ${status} ${status === 201 ? 'Created' : 'OK'}`, zh: `kube-apiserver 已保存绑定：Pod ${target.name ?? ''} 的 spec.nodeName 已写入节点，并回复 kube-scheduler ${status}` };
  }
  if (status === 201 && bodyKind !== 'Status') return { en: `kube-apiserver stored ${obj} in etcd and answers ${to.en}: 201 Created${at.en}`, zh: `kube-apiserver 已把 ${obj} 写入 etcd，回复${zs(to.zh)}201 Created${at.zh}` };
  if (bodyKind === 'Status' || !bodyKind) return { en: `kube-apiserver answers ${to.en}: ${status}, done`, zh: `kube-apiserver 回复${zs(to.zh)}${status}，完成` };
  if (method === 'DELETE') {
    const terminating = text(metadata, 'deletionTimestamp');
    return terminating
      ? { en: `kube-apiserver marked ${obj} for deletion (deletionTimestamp set; it goes once its finalizers and grace period are done) and answers ${to.en}`, zh: `kube-apiserver 把 ${obj} 标记为删除（设置了 deletionTimestamp；finalizer 和宽限期结束后才真正删除），并回复${to.zh}` }
      : { en: `kube-apiserver deleted ${obj} from etcd and answers ${to.en}`, zh: `kube-apiserver 已从 etcd 删除 ${obj}，并回复${to.zh}` };
  }
  if (method === 'PUT' || method === 'PATCH' || (method === 'POST' && target?.subresource)) {
    const now = bodyKind === 'Pod' ? podNow(b) : none;
    return { en: `kube-apiserver stored the change to ${obj}${now.en} and answers ${to.en}${at.en}`, zh: `kube-apiserver 已保存对 ${obj} 的修改${now.zh}，并回复${zs(to.zh)}${at.zh}` };
  }
  return { en: `kube-apiserver returns ${obj} to ${to.en}${at.en}`, zh: `kube-apiserver 把 ${obj} 返回给${zs(to.zh)}${at.zh}` };
};

/** What the watcher does with an event, when the step makes it plain. */
function watchWhy(watcher: string, type: string, kind: string, object: unknown): Both {
  if (type === 'DELETED') return { en: '; its informer drops it from its cache and tells the handlers', zh: '；它的 informer 把它从缓存中删除，并通知处理函数' };
  const nodeName = text(child(object, 'spec'), 'nodeName');
  if (watcher.startsWith('kubelet/') && kind === 'Pod' && type !== 'DELETED') {
    return { en: `; it is bound to ${nodeName ?? 'this node'}, so this kubelet runs it`, zh: `；它被绑定到 ${nodeName ?? '本节点'}，所以由这个 kubelet 来运行` };
  }
  if (watcher === 'kube-scheduler' && kind === 'Pod' && type === 'ADDED' && !nodeName) {
    return { en: '; it has no node yet, so kube-scheduler queues it to pick one', zh: '；它还没有节点，kube-scheduler 把它放进队列去挑选节点' };
  }
  if (watcher === 'kube-controller-manager' && kind === 'Deployment') return { en: '; the deployment controller makes sure a ReplicaSet matches it', zh: '；Deployment 控制器确保有对应的 ReplicaSet' };
  if (watcher === 'kube-controller-manager' && kind === 'ReplicaSet') return { en: '; the ReplicaSet controller compares its Pods with its replicas', zh: '；ReplicaSet 控制器比较 Pod 数与副本数' };
  return { en: '; its informer updates its cache and wakes the handlers', zh: '；它的 informer 更新缓存并通知处理函数' };
}

const httpWatchEvent: Plain<'http.watchEvent'> = (record) => {
  const { type, object } = record.payload;
  const kind = text(object, 'kind') ?? '';
  const metadata = child(object, 'metadata');
  const name = text(metadata, 'name') ?? '';
  const rv = text(metadata, 'resourceVersion') ?? '';
  const to = who(record.to);
  if (type === 'BOOKMARK') {
    return {
      en: `kube-apiserver tells ${to.en} its watch is up to date at resourceVersion ${rv} (a bookmark): nothing changed for it, but if the watch breaks it can resume from here`,
      zh: `kube-apiserver 告诉${zs(to.zh)}它的 watch 已同步到 resourceVersion ${rv}（书签）：没有它关心的变化，但 watch 断开后可从这里恢复`,
    };
  }
  if (type === 'ERROR') {
    const message = clip(text(object, 'message') ?? '', 80);
    return {
      en: `The watch of ${to.en} fails${message ? ` (${message})` : ''}: it must list again before it can watch`,
      zh: `${zs(to.zh)}的 watch 出错${message ? `（${message}）` : ''}：它必须先重新 list，才能再 watch`,
    };
  }
  const what: Both = type === 'ADDED' ? { en: 'was added', zh: '新增了' } : type === 'DELETED' ? { en: 'was deleted', zh: '被删除了' } : { en: 'changed', zh: '发生了变化' };
  const why = watchWhy(record.to, type, kind, object);
  const now = kind === 'Pod' && type !== 'DELETED' ? podNow(object) : none;
  return {
    en: `kube-apiserver tells ${to.en} that ${kind} ${name} ${what.en}${now.en} (resourceVersion ${rv})${why.en}`,
    zh: `kube-apiserver 通知${zs(to.zh)}：${kind} ${name} ${what.zh}${now.zh}（resourceVersion ${rv}）${why.zh}`,
  };
};

const httpWatchEnd: Plain<'http.watchEnd'> = (record, { request }) => {
  const stream = podStreamEnd(record, request);
  if (stream) return stream;
  const { reason } = record.payload;
  const to = who(record.to);
  if (reason === 'timeout') {
    return { en: `kube-apiserver closes ${to.en}'s watch: its timeout has passed. The informer watches again from the last resourceVersion it saw`, zh: `kube-apiserver 关闭了${zs(to.zh)}的 watch：超时已到。informer 会从它看到的最后一个 resourceVersion 重新 watch` };
  }
  if (reason === 'cancelled') return { en: `kube-apiserver closes ${to.en}'s watch, as ${to.en} asked`, zh: `kube-apiserver 按${zs(to.zh)}的要求关闭了它的 watch` };
  return {
    en: `kube-apiserver ends ${to.en}'s watch (its watch cache had to start over): the informer watches again, or lists again if its resourceVersion is too old`,
    zh: `kube-apiserver 结束了${zs(to.zh)}的 watch（watch 缓存需要重建）：informer 会重新 watch，若 resourceVersion 太旧则重新 list`,
  };
};

const httpCancel: Plain<'http.cancel'> = (record) => {
  const from = who(record.from);
  return { en: `${cap(from.en)} closes one of its watch connections: it no longer needs it, or it is stopping`, zh: `${zs(from.zh)}关闭了一个 watch 连接：不再需要它，或它正在停止` };
};

// ── kube-apiserver's request chain ─────────────────────────────────────────────────────────────────

const authentication: Plain<'apiserver.authentication'> = ({ payload }) => {
  const user = 'user' in payload ? payload.user : undefined;
  if (!user) return { en: 'kube-apiserver cannot tell who sent the request (no valid token): it answers 401 Unauthorized', zh: 'kube-apiserver 无法识别请求的发送者（没有有效 token）：返回 401 Unauthorized' };
  return { en: `kube-apiserver checks who sent the request: the bearer token belongs to ${user}`, zh: `kube-apiserver 确认请求的发送者：bearer token 属于 ${user}` };
};

const audit: Plain<'apiserver.audit'> = () => ({ en: 'kube-apiserver writes an audit record: who asked for what, before it does anything', zh: 'kube-apiserver 写下一条审计记录：谁请求了什么，在做任何事之前' });

const maxInFlight: Plain<'apiserver.max-in-flight'> = (record) => {
  const admitted = record.payload.decision === 'admitted';
  return admitted
    ? { en: 'kube-apiserver checks it is not overloaded: few enough requests in flight, this one may go on', zh: 'kube-apiserver 检查自己没有过载：在途请求不多，这个请求可以继续' }
    : { en: 'kube-apiserver is overloaded: too many requests in flight, so it answers 429 and the client retries later', zh: 'kube-apiserver 过载：在途请求太多，它返回 429，客户端稍后重试' };
};

const impersonation: Plain<'apiserver.impersonation'> = (record) => {
  const { user, as } = record.payload;
  return { en: `${user} asks to act as ${as}; kube-apiserver checks that it may`, zh: `${user} 请求以 ${as} 的身份操作；kube-apiserver 检查是否允许` };
};

const authorization: Plain<'apiserver.authorization'> = (record) => {
  const { user, verb, resource } = record.payload;
  return record.payload.decision === 'allowed'
    ? { en: `RBAC allows ${user} to ${verb} ${resource}: a role bound to it grants that`, zh: `RBAC 允许 ${user} ${verb} ${resource}：绑定给它的角色授予了这个权限` }
    : { en: `RBAC does not allow ${user} to ${verb} ${resource}: the request ends with 403 Forbidden`, zh: `RBAC 不允许 ${user} ${verb} ${resource}：请求以 403 Forbidden 结束` };
};

const mutating: Plain<'apiserver.admission.mutating'> = () => ({ en: 'Mutating admission plugins may change the object before it is stored (defaults, service account, tolerations)', zh: '变更准入插件可以在对象存储前修改它（默认值、ServiceAccount、容忍度）' });
const validating: Plain<'apiserver.admission.validating'> = () => ({ en: 'Validating admission plugins check the final object; any of them can still refuse it', zh: '验证准入插件检查最终的对象；任何一个都还能拒绝它' });

const registryStrategy: Plain<'apiserver.registry.strategy'> = (record) => {
  const { name } = record.payload;
  return { en: `kube-apiserver's registry prepares ${name} for storage: fills in defaults, validates it, and turns it into the form kept in etcd`, zh: `kube-apiserver 的注册表为存储准备 ${name}：填充默认值、校验，并转换成存入 etcd 的形式` };
};

const waitForCache: Plain<'apiserver.waitForCache'> = (record) => {
  const rv = record.payload.resourceVersion;
  return rv === 0
    ? { en: 'The request waits for kube-apiserver\'s watch cache to finish its first list from etcd', zh: '请求等待 kube-apiserver 的 watch 缓存完成从 etcd 的首次 list' }
    : { en: `The request waits until the watch cache has caught up to resourceVersion ${rv}, so the answer is not older than the client asked`, zh: `请求等待 watch 缓存追上 resourceVersion ${rv}，保证回答不比客户端要求的旧` };
};

const waitForCacheResponse: Plain<'apiserver.waitForCacheResponse'> = (record) => {
  const rv = record.payload.resourceVersion;
  return { en: `The watch cache is at resourceVersion ${rv}: the request is served from it`, zh: `watch 缓存已到 resourceVersion ${rv}：请求由缓存作答` };
};

// ── etcd ───────────────────────────────────────────────────────────────────────────────────────────

function firstOp(ops: readonly RequestOp[]): 'put' | 'delete' | 'get' | 'none' {
  const o = ops[0] ?? {};
  return o.requestPut ? 'put' : o.requestDeleteRange ? 'delete' : o.requestRange ? 'get' : 'none';
}

const txn: Plain<'etcd.Txn'> = (record) => {
  const key = txnKey(record.payload);
  const obj = objectOf(key);
  const compares = record.payload.compare ?? [];
  const success = firstOp(record.payload.success ?? []);
  const mod = compares.length === 1 && compares[0]!.target === 'MOD' ? compares[0]!.modRevision : undefined;
  if (mod === 0 && success === 'put') {
    return {
      en: `kube-apiserver stores ${obj.en} in etcd: the Txn writes only if nobody created the key yet (mod_revision == 0)`,
      zh: `kube-apiserver 把 ${obj.zh} 存入 etcd：只有当这个键还没人创建时（mod_revision == 0），Txn 才写入`,
    };
  }
  if (mod !== undefined && success === 'put') {
    const putOp = record.payload.success?.[0]?.requestPut;
    const state = key?.startsWith('/registry/pods/') ? podState(storedObject(record.payload, putOp?.value)) : none;
    const now = state === none ? none : { en: ` (${state.en})`, zh: `（${state.zh}）` };
    return {
      en: `kube-apiserver writes the new ${obj.en}${now.en} to etcd, only if the key is still at revision ${mod}, the version it read (optimistic concurrency: nobody changed it meanwhile)`,
      zh: `kube-apiserver 把新的 ${obj.zh}${now.zh}写入 etcd，前提是这个键仍在它读到的 revision ${mod}（乐观并发：期间没人改过）`,
    };
  }
  if (mod !== undefined && success === 'delete') {
    return {
      en: `kube-apiserver deletes ${obj.en} from etcd, only if the key is still at revision ${mod}`,
      zh: `kube-apiserver 从 etcd 删除 ${obj.zh}，前提是这个键仍在 revision ${mod}`,
    };
  }
  if (key === 'compact_rev_key') {
    const version = compares[0]?.version ?? 0;
    return {
      en: `kube-apiserver claims this compaction round in etcd: it bumps compact_rev_key only if its version is still ${version}, so one kube-apiserver compacts`,
      zh: `kube-apiserver 在 etcd 里认领这一轮压缩：只有 compact_rev_key 的版本仍为 ${version} 时才更新它，这样只会有一个 kube-apiserver 执行压缩`,
    };
  }
  if (success === 'get') return { en: `kube-apiserver reads ${obj.en} from etcd in a transaction`, zh: `kube-apiserver 在一个事务里从 etcd 读取 ${obj.zh}` };
  return { en: `${cap(who(record.from, 'etcd').en)} sends etcd a transaction on ${obj.en}: its compares decide which ops run, atomically`, zh: `${zs(who(record.from, 'etcd').zh)}向 etcd 发送关于 ${obj.zh} 的事务：比较结果决定执行哪组操作，原子地执行` };
};

const txnResponse: Plain<'etcd.TxnResponse'> = (record, { request }) => {
  const reply = record.payload;
  if (!reply.ok) return etcdRefused(reply);
  const write = reply.write;
  const revision = write?.revision ?? headerRevision(reply.response) ?? 0;
  const changed = write?.changed ?? false;
  const failed = write?.branch === 'failure';
  const asked = requestOf(request, 'etcd.Txn');
  const obj = objectOf(asked ? txnKey(asked.payload) : undefined);
  const mod = write?.compares[0]?.compare.modRevision;
  if (failed) {
    return mod === 0
      ? { en: `etcd's compare failed: ${obj.en} already exists, so nothing is written; kube-apiserver will answer 409 AlreadyExists`, zh: `etcd 的比较不成立：${obj.zh} 已经存在，所以什么也没写；kube-apiserver 将返回 409 AlreadyExists` }
      : { en: `etcd's compare failed: ${obj.en} changed since kube-apiserver read it, so nothing is written; etcd returns the current value, and kube-apiserver retries or answers 409 Conflict`, zh: `etcd 的比较不成立：${obj.zh} 在 kube-apiserver 读取后被修改过，所以什么也没写；etcd 返回当前值，kube-apiserver 重试或返回 409 Conflict` };
  }
  if (!changed) return { en: `etcd answers the transaction at revision ${revision}; it changed nothing`, zh: `etcd 在 revision ${revision} 回复事务；没有改变任何数据` };
  return {
    en: `etcd committed the write of ${obj.en} at revision ${revision} and replies. Its watchers (kube-apiserver's watch cache among them) already have the change: etcd notifies them as the write commits, before this reply travels back`,
    zh: `etcd 在 revision ${revision} 提交了 ${obj.zh} 的写入并回复。它的 watcher（包括 kube-apiserver 的 watch 缓存）已经收到了这次变化：etcd 在提交写入时就通知它们，早于这条回复返回`,
  };
};

const range: Plain<'etcd.Range'> = (record) => {
  const probe = etcdHealthRead(record);
  if (probe) return probe;
  const { key, rangeEnd: end } = record.payload;
  const from = who(record.from, 'etcd');
  const F = { en: cap(from.en), zh: zs(from.zh) };
  if (end) {
    const { limit } = record.payload;
    const forCache = record.from === 'kube-apiserver' && limit ? { en: ', to fill its watch cache (then it watches from that revision)', zh: '，用来填充 watch 缓存（之后从该 revision 开始 watch）' } : none;
    if (record.payload.countOnly) return { en: `${F.en} counts the keys under ${key}`, zh: `${F.zh}统计 ${key} 下的键数` };
    return { en: `${F.en} lists every key under ${key} from etcd${forCache.en}`, zh: `${F.zh}从 etcd 列出 ${key} 下的所有键${forCache.zh}` };
  }
  const obj = objectOf(key);
  return { en: `${F.en} reads ${obj.en} from etcd`, zh: `${F.zh}从 etcd 读取 ${obj.zh}` };
};

const rangeResponse: Plain<'etcd.RangeResponse'> = (record) => {
  const reply = record.payload;
  if (!reply.ok) return etcdRefused(reply);
  const response = reply.response;
  const n = response.count;
  const revision = headerRevision(response) ?? 0;
  return { en: `etcd returns ${n} ${n === 1 ? 'key' : 'keys'} as of revision ${revision}, its newest`, zh: `etcd 返回 ${n} 个键，截至它最新的 revision ${revision}` };
};

const put: Plain<'etcd.Put'> = (record) => {
  const { key } = record.payload;
  return { en: `${cap(who(record.from, 'etcd').en)} writes ${key} straight into etcd, bypassing kube-apiserver (no validation, no admission)`, zh: `${zs(who(record.from, 'etcd').zh)}绕过 kube-apiserver 直接写入 ${key}（没有校验，也没有准入）` };
};

const putResponse: Plain<'etcd.PutResponse'> = (record) => {
  const reply = record.payload;
  if (!reply.ok) return etcdRefused(reply);
  const revision = reply.write?.revision ?? headerRevision(reply.response) ?? 0;
  return { en: `etcd stored the key at revision ${revision}; its watchers have been told already`, zh: `etcd 在 revision ${revision} 保存了该键；它的 watcher 已经收到通知` };
};

const deleteRange: Plain<'etcd.DeleteRange'> = (record) => {
  const { key, rangeEnd: end } = record.payload;
  const obj = end ? { en: `every key under ${key}`, zh: `${key} 下的所有键` } : objectOf(key);
  return { en: `${cap(who(record.from, 'etcd').en)} deletes ${obj.en} from etcd`, zh: `${zs(who(record.from, 'etcd').zh)}从 etcd 删除 ${obj.zh}` };
};

const deleteRangeResponse: Plain<'etcd.DeleteRangeResponse'> = (record) => {
  const reply = record.payload;
  if (!reply.ok) return etcdRefused(reply);
  const deleted = reply.response.deleted;
  const revision = reply.write?.revision ?? 0;
  return deleted === 0
    ? { en: 'etcd deleted nothing: no key matched', zh: 'etcd 没有删除任何键：没有匹配的键' }
    : { en: `etcd deleted ${deleted} ${deleted === 1 ? 'key' : 'keys'} at revision ${revision}; watchers get DELETE events`, zh: `etcd 在 revision ${revision} 删除了 ${deleted} 个键；watcher 会收到 DELETE 事件` };
};

const watch: Plain<'etcd.Watch'> = (record) => {
  const { request } = record.payload;
  const create = request.createRequest;
  const from = who(record.from, 'etcd');
  if (create !== undefined) {
    const key = create.key ?? '';
    const start = create.startRevision;
    return {
      en: `${cap(from.en)} asks etcd to stream every change under ${key}${start ? ` from revision ${start}` : ''}: this keeps its watch cache current`,
      zh: `${zs(from.zh)}请 etcd 推送 ${key} 下的每一次变化${start ? `（从 revision ${start} 起）` : ''}：借此让 watch 缓存保持最新`,
    };
  }
  if (request.cancelRequest !== undefined) return { en: `${cap(from.en)} cancels one of its etcd watches`, zh: `${zs(from.zh)}取消了一个 etcd watch` };
  return { en: `${cap(from.en)} asks etcd to confirm how far its watches have got`, zh: `${zs(from.zh)}请 etcd 确认它的 watch 已同步到哪里` };
};

const writes: ReadonlySet<string> = new Set(['etcd.Txn', 'etcd.Put', 'etcd.DeleteRange']);

const watchResponse: Plain<'etcd.WatchResponse'> = (record, { cause }) => {
  const { response } = record.payload;
  const revision = headerRevision(response) ?? 0;
  const to = who(record.to, 'etcd');
  if (response.created) return { en: `etcd confirms the watch: from now on it sends ${to.en} each change as it commits`, zh: `etcd 确认了 watch：此后每次提交的变化都会发给${zs(to.zh)}` };
  if (response.canceled) {
    const compact = response.compactRevision;
    return compact
      ? { en: `etcd cancels the watch: the revision it asked for has been compacted (history now starts at ${compact}), so ${to.en} must list again`, zh: `etcd 取消了 watch：它请求的 revision 已被压缩（历史现从 ${compact} 开始），所以${zs(to.zh)}必须重新 list` }
      : { en: 'etcd cancels the watch, as asked', zh: 'etcd 按请求取消了 watch' };
  }
  const events = response.events;
  const first = events[0];
  if (!first) return { en: `etcd tells ${to.en} its watch is current up to revision ${revision}: nothing new for it`, zh: `etcd 告诉${zs(to.zh)}它的 watch 已同步到 revision ${revision}：没有新变化` };
  const { kv } = first;
  const obj = objectOf(kv.key);
  const mod = kv.modRevision;
  const deleted = first.type === 'DELETE';
  const created = !deleted && kv.createRevision === mod;
  const what: Both = deleted ? { en: 'was deleted', zh: '被删除' } : created ? { en: 'was created', zh: '被创建' } : { en: 'changed', zh: '被修改' };
  const more = events.length > 1 ? { en: ` (and ${events.length - 1} more changes)`, zh: `（另有 ${events.length - 1} 个变化）` } : none;
  const early = cause && writes.has(cause.kind)
    ? { en: `. This arrives before etcd's reply to the write itself: etcd notifies watchers as the write commits, before the reply travels back`, zh: `。它比 etcd 对这次写入本身的回复来得更早：etcd 在写入提交时就通知 watcher，然后回复才返回` }
    : none;
  const foreign = foreignWriter(record, response);
  const by = foreign ? { en: ` (${foreign.en})`, zh: `（${foreign.zh}）` } : none;
  return {
    en: `etcd tells ${to.en} that ${obj.en} ${what.en} at revision ${mod}${by.en}${more.en}${early.en}`,
    zh: `etcd 通知${zs(to.zh)}：${obj.zh} 在 revision ${mod} ${what.zh}${by.zh}${more.zh}${early.zh}`,
  };
};

const watchStreamError: Plain<'etcd.WatchStreamError'> = () => ({
  en: "kube-apiserver's watch stream to etcd breaks: its etcd client opens every watch again from the revision after the last one it saw",
  zh: 'kube-apiserver 到 etcd 的 watch 流断开：它的 etcd 客户端从看到的最后一个 revision 之后重新打开所有 watch',
});

const leaseGrant: Plain<'etcd.LeaseGrant'> = (record) => {
  const ttl = record.payload.TTL;
  return { en: `kube-apiserver asks etcd for a lease of ${ttl} s: Events are stored with it, so etcd deletes them when it expires`, zh: `kube-apiserver 向 etcd 申请一个 ${ttl} 秒的租约：Event 会挂在这个租约上，租约过期时 etcd 自动删除它们` };
};

const leaseGrantResponse: Plain<'etcd.LeaseGrantResponse'> = (record) => {
  if (!record.payload.ok) return etcdRefused(record.payload);
  return { en: 'etcd grants the lease; keys attached to it go when it expires', zh: 'etcd 授予了租约；挂在它上面的键会在过期时删除' };
};

const leaseRevoke: Plain<'etcd.LeaseRevoke'> = (record) => ({ en: `${cap(who(record.from, 'etcd').en)} revokes a lease: etcd deletes every key attached to it at once`, zh: `${zs(who(record.from, 'etcd').zh)}撤销一个租约：etcd 立即删除挂在它上面的所有键` });
const leaseKeepAlive: Plain<'etcd.LeaseKeepAlive'> = (record) => ({ en: `${cap(who(record.from, 'etcd').en)} keeps a lease alive: its TTL starts again, so its keys stay`, zh: `${zs(who(record.from, 'etcd').zh)}为一个租约续约：TTL 重新计时，挂在上面的键得以保留` });
const leaseTimeToLive: Plain<'etcd.LeaseTimeToLive'> = (record) => ({ en: `${cap(who(record.from, 'etcd').en)} asks etcd how long a lease has left`, zh: `${zs(who(record.from, 'etcd').zh)}询问 etcd 一个租约还剩多久` });
const leaseLeases: Plain<'etcd.LeaseLeases'> = (record) => ({ en: `${cap(who(record.from, 'etcd').en)} asks etcd for every lease it holds`, zh: `${zs(who(record.from, 'etcd').zh)}请 etcd 列出它持有的所有租约` });

type LeaseReplyKind = 'etcd.LeaseRevokeResponse' | 'etcd.LeaseKeepAliveResponse' | 'etcd.LeaseTimeToLiveResponse' | 'etcd.LeaseLeasesResponse';

const leaseReply = <K extends LeaseReplyKind>(message: TypedMessageView<K>): Both => {
  const record = message as TypedMessageView<LeaseReplyKind>;
  if (!record.payload.ok) return etcdRefused(record.payload);
  switch (record.kind) {
    case 'etcd.LeaseRevokeResponse': return { en: 'etcd revoked the lease; the keys attached to it are gone, and their watchers got DELETE events', zh: 'etcd 撤销了租约；挂在上面的键已被删除，它们的 watcher 收到了 DELETE 事件' };
    case 'etcd.LeaseLeasesResponse': {
      const n = record.payload.ok ? record.payload.response.leases.length : 0;
      return { en: `etcd holds ${n} ${n === 1 ? 'lease' : 'leases'}`, zh: `etcd 持有 ${n} 个租约` };
    }
    default: {
      const ttl = record.payload.ok ? record.payload.response.TTL : 0;
      return ttl < 0
        ? { en: 'etcd: that lease has expired or never existed', zh: 'etcd：该租约已过期或不存在' }
        : { en: `etcd: the lease has ${ttl} s left; when it runs out, its keys are deleted`, zh: `etcd：该租约还剩 ${ttl} 秒；到期后它的键会被删除` };
    }
  }
};

const watchClose: Plain<'etcd.WatchClose'> = (record) => ({ en: `${cap(who(record.from, 'etcd').en)} closes its watch stream to etcd: every watch on it ends`, zh: `${zs(who(record.from, 'etcd').zh)}关闭到 etcd 的 watch 流：其上的所有 watch 都结束` });

const status: Plain<'etcd.Status'> = (record) => ({
  en: `${cap(who(record.from, 'etcd').en)} asks an etcd member for its status (raft term, index, leader), as \`etcdctl endpoint status\` does`,
  zh: `${zs(who(record.from, 'etcd').zh)}向一个 etcd 成员查询状态（raft term、index、leader），就像 \`etcdctl endpoint status\``,
});

const statusResponse: Plain<'etcd.StatusResponse'> = (record) => {
  if (!record.payload.ok) return etcdRefused(record.payload);
  const { raftTerm, leader } = record.payload.response;
  return leader === '0'
    ? { en: `The member answers: term ${raftTerm}, and it knows no leader`, zh: `该成员回答：term ${raftTerm}，它不知道 leader` }
    : { en: `The member answers: term ${raftTerm}, leader ${leader}`, zh: `该成员回答：term ${raftTerm}，leader 是 ${leader}` };
};

const memberList: Plain<'etcd.MemberList'> = (record) => ({
  en: `${cap(who(record.from, 'etcd').en)} asks etcd which members the cluster has`,
  zh: `${zs(who(record.from, 'etcd').zh)}询问 etcd 集群有哪些成员`,
});

const memberListResponse: Plain<'etcd.MemberListResponse'> = (record) => {
  if (!record.payload.ok) return etcdRefused(record.payload);
  const n = record.payload.response.members.length;
  return { en: `etcd answers with its ${n} ${n === 1 ? 'member' : 'members'}`, zh: `etcd 回答它有 ${n} 个成员` };
};

const compact: Plain<'etcd.Compact'> = (record) => {
  const { revision } = record.payload;
  return { en: `etcdctl compacts etcd's history up to revision ${revision}: older versions of every key are discarded`, zh: `etcdctl 把 etcd 的历史压缩到 revision ${revision}：所有键更早的版本都被丢弃` };
};

const compactResponse: Plain<'etcd.CompactResponse'> = (record) => {
  if (!record.payload.ok) return etcdRefused(record.payload);
  return { en: 'etcd has compacted: a watch or read at an older revision now fails with "required revision has been compacted"', zh: 'etcd 已完成压缩：此后在更早 revision 上的 watch 或读取会失败（required revision has been compacted）' };
};

function etcdRefused(reply: EtcdReplyPayload): Both {
  const error = reply.ok ? '' : reply.error.message;
  return { en: `etcd refuses the request${error ? `: ${error}` : ''}`, zh: `etcd 拒绝了请求${error ? `：${error}` : ''}` };
}

// ── faults ─────────────────────────────────────────────────────────────────────────────────────────

const fault: Plain<'user.fault'> = ({ payload: f }) => {
  const c = componentText('component' in f ? f.component ?? '' : '');
  switch (f.type) {
    case 'stop': return { en: `You stop ${c.en}: it receives nothing and does nothing until started again`, zh: `你停止了${zs(c.zh)}：在重新启动前它收不到消息，也不做任何事` };
    case 'start': return { en: `You start ${c.en} again: like a restarted process, it lists everything anew, then watches`, zh: `你重新启动了${zs(c.zh)}：像重启的进程一样，它重新 list 一切，然后 watch` };
    case 'nodeDown': return { en: `You take ${f.node} down: its kubelet stops heartbeating and its containers are lost`, zh: `你让 ${f.node} 宕机：它的 kubelet 停止心跳，容器全部丢失` };
    case 'nodeUp': return { en: `You bring ${f.node} back: its kubelet restarts, reports Ready and runs its pods again`, zh: `你让 ${f.node} 恢复：它的 kubelet 重启，上报 Ready，并重新运行它的 Pod` };
    case 'compactEtcd': return { en: 'You compact etcd at its current revision: older history is gone, so watchers behind it must list again', zh: '你在当前 revision 压缩 etcd：更早的历史没了，落后的 watcher 必须重新 list' };
    case 'breakEtcdWatches': return { en: "You break kube-apiserver's watch stream to etcd: its etcd client will open its watches again", zh: '你断开了 kube-apiserver 到 etcd 的 watch 流：它的 etcd 客户端会重新打开 watch' };
    case 'dropWatches': return f.component
      ? { en: `You make kube-apiserver drop the watches of ${c.en}: its informers watch again from their last resourceVersion`, zh: `你让 kube-apiserver 断开${zs(c.zh)}的 watch：它的 informer 会从最后的 resourceVersion 重新 watch` }
      : { en: 'You make kube-apiserver drop every watch: each informer watches again from its last resourceVersion', zh: '你让 kube-apiserver 断开所有 watch：每个 informer 都从最后的 resourceVersion 重新 watch' };
    case 'linkLatency': {
      const { latency } = f;
      const a = componentText(f.a);
      const b = componentText(f.b);
      return { en: `You slow the link between ${a.en} and ${b.en} to ${latency} ms each way`, zh: `你把${zs(a.zh)}与${zs(b.zh)}之间的链路延迟设为单程 ${latency} 毫秒` };
    }
    case 'imageUnpullable': return { en: `You make image ${f.image} impossible to pull: kubelets will report ErrImagePull, then back off`, zh: `你让镜像 ${f.image} 无法拉取：kubelet 会报告 ErrImagePull，然后退避重试` };
    case 'imageCrashes': return { en: `You make containers of ${f.image} crash soon after they start: kubelets restart them with growing back-off`, zh: `你让 ${f.image} 的容器启动后很快崩溃：kubelet 会以逐渐变长的退避时间重启它们` };
    default: return etcdFaultCaption(f.type, f)?.plain ?? { en: 'You inject a fault', zh: '你注入了一个故障' };
  }
};

// ── kube-controller-manager's fan-out ──────────────────────────────────────────────────────────────

/** Who fans out and what: from the label of kube-controller-manager's fan-out (`create 2 pods for default/x`). */
function joinWork(label: string, tasks: number): { readonly who: Both; readonly work: Both } {
  const m = /^(create|delete) (\d+) pods (?:for|of) (.+)$/.exec(label);
  const rsController = { en: 'the ReplicaSet controller', zh: 'ReplicaSet 控制器' };
  if (m) {
    const [, verb, n, rs] = m;
    return verb === 'create'
      ? { who: rsController, work: { en: `${n} Pods for ReplicaSet ${rs} to create`, zh: `为 ReplicaSet ${rs} 创建 ${n} 个 Pod` } }
      : { who: rsController, work: { en: `${n} surplus Pods of ReplicaSet ${rs} to delete`, zh: `删除 ReplicaSet ${rs} 多余的 ${n} 个 Pod` } };
  }
  if (label === 'orphanDependents') return { who: { en: 'the garbage collector', zh: '垃圾回收器' }, work: { en: `${tasks} dependents to release from their owner`, zh: `解除 ${tasks} 个从属对象与其 owner 的关系` } };
  if (label === 'monitorNodeHealth') return { who: { en: 'the node lifecycle controller', zh: '节点生命周期控制器' }, work: { en: `${tasks} nodes to check`, zh: `检查 ${tasks} 个节点` } };
  return { who: { en: 'kube-controller-manager', zh: 'kube-controller-manager' }, work: { en: `${tasks} tasks to run`, zh: `运行 ${tasks} 个任务` } };
}

const join: Plain<'kcm.join'> = (record) => {
  const { who: w, work } = joinWork(record.payload.label, record.payload.tasks);
  return { en: `${cap(w.en)} has ${work.en}: it sends all the requests at once and waits for every answer`, zh: `${zs(w.zh)}要${work.zh}：它同时发出所有请求，并等待每一个回复` };
};

const joinDone: Plain<'kcm.join.done'> = (record) => {
  const { who: w, work } = joinWork(record.payload.label, record.payload.tasks ?? 0);
  return { en: `${cap(w.en)} has every answer (${work.en}) and goes on`, zh: `${zs(w.zh)}已收到全部回复（${work.zh}），继续往下执行` };
};

// ── timers and wake-ups ────────────────────────────────────────────────────────────────────────────

/** What a component was doing while it slept, by the reason label on its wake-up (src/sim SleepReason). */
export const wakeReasons: Readonly<Record<string, (data: unknown) => Both>> = {
  'pod-sandbox': (d) => ({ en: `has set up the sandbox (network namespace, pause container) of Pod ${podName(d)}`, zh: `已为 Pod ${podName(d)} 建好沙箱（网络命名空间、pause 容器）` }),
  'image-pull': (d) => ({ en: `has finished pulling image ${text(d, 'image') ?? ''} for Pod ${podName(d)}`, zh: `已为 Pod ${podName(d)} 拉取完镜像 ${text(d, 'image') ?? ''}` }),
  'container-create': (d) => ({ en: `has created container ${text(d, 'container') ?? ''} of Pod ${podName(d)}`, zh: `已创建 Pod ${podName(d)} 的容器 ${text(d, 'container') ?? ''}` }),
  'container-start': (d) => ({ en: `has started container ${text(d, 'container') ?? ''} of Pod ${podName(d)}`, zh: `已启动 Pod ${podName(d)} 的容器 ${text(d, 'container') ?? ''}` }),
  'container-stop': (d) => ({ en: `has stopped the containers of Pod ${podName(d)} (within the grace period)`, zh: `已在宽限期内停止 Pod ${podName(d)} 的容器` }),
  'post-start-hook': (d) => ({ en: `has run the postStart hook of container ${text(d, 'container') ?? ''} in Pod ${podName(d)}`, zh: `已执行 Pod ${podName(d)} 中容器 ${text(d, 'container') ?? ''} 的 postStart 钩子` }),
  'watch-cache-relist': (d) => ({ en: `waited a second after its etcd watch on ${text(d, 'resource') ?? ''} ended, and now lists again to rebuild the watch cache`, zh: `在 ${text(d, 'resource') ?? ''} 的 etcd watch 结束后等了一秒，现在重新 list 以重建 watch 缓存` }),
  'retry-after': () => ({ en: 'waited the Retry-After seconds of a 429 answer, and sends the request again', zh: '按 429 回复的 Retry-After 等待完毕，重新发送请求' }),
  'conflict-retry': () => ({ en: 'waited a moment after a 409 Conflict, and tries the update again with a fresh read', zh: '在 409 Conflict 之后稍等片刻，重新读取后再次尝试更新' }),
  'etcd-retry': () => ({ en: 'waited 25 ms after etcd answered "unavailable", and sends the request again to the next etcd member', zh: 'etcd 回复"不可用"后等待 25 毫秒，把请求重新发给下一个 etcd 成员' }),
  'eviction-retry': (d) => ({ en: `waited a moment after a failed eviction of Pod ${podName(d)}, and tries again`, zh: `驱逐 Pod ${podName(d)} 失败后稍等片刻，再次尝试` }),
  'register-node': () => ({ en: 'could not register its Node with the API server, waited (each time twice as long, at most 7 s) and tries again', zh: '未能向 API server 注册自己的 Node，等待后（每次加倍，最多 7 秒）再次尝试' }),
  'ensure-node-lease': () => ({ en: 'could not read or create its node Lease, waited (each time twice as long, at most 7 s) and tries again', zh: '未能读取或创建自己的节点 Lease，等待后（每次加倍，最多 7 秒）再次尝试' }),
};

function podName(data: unknown): string {
  const pod = text(data, 'pod') ?? '';
  return pod.startsWith('default/') ? pod.slice('default/'.length) : pod;
}

/** What a named timer means, for the component that set it. */
export const timerReasons: Readonly<Record<string, Both>> = {
  'etcd.watch-sync': { en: 'etcd catches up watchers that are behind, sending them the events they missed from its history', zh: 'etcd 让落后的 watcher 追上进度：从历史里补发它们错过的事件' },
  'etcd.watch-progress': { en: 'etcd sends a progress notification: the watch is current up to its revision', zh: 'etcd 发送进度通知：watch 已同步到当前 revision' },
  'etcd.lease-expiry': { en: 'a lease expires: etcd deletes every key attached to it', zh: '租约到期：etcd 删除挂在它上面的所有键' },
  ...raftTimerReasons,
  'apiserver.cacherBookmarks': { en: "kube-apiserver's watch cache sends bookmarks to its watchers, so they can resume from a recent resourceVersion", zh: 'kube-apiserver 的 watch 缓存向 watcher 发送书签，让它们能从较新的 resourceVersion 恢复' },
  compactor: { en: 'kube-apiserver compacts etcd, as it does every 5 minutes: old revisions are discarded', zh: 'kube-apiserver 压缩 etcd（每 5 分钟一次）：旧的 revision 被丢弃' },
  'watch-timeout': { en: 'a watch reaches its timeout: kube-apiserver will close it, and the client watches again', zh: '一个 watch 到达超时：kube-apiserver 将关闭它，客户端会重新 watch' },
  'node-monitor': { en: "the node lifecycle controller checks every node's heartbeat (its Lease) and marks silent nodes NotReady", zh: '节点生命周期控制器检查每个节点的心跳（Lease），把失联的节点标记为 NotReady' },
  'taint-eviction': { en: 'a Pod on a NoExecute-tainted node has used up its toleration time: it is evicted', zh: '位于带 NoExecute 污点节点上的 Pod 已用完容忍时间：它将被驱逐' },
  'reflector.backoff': { en: 'an informer waits before listing or watching again, after an error (back-off)', zh: 'informer 出错后退避等待，然后重新 list 或 watch' },
  'reflector.resync': { en: 'an informer resyncs: its handlers see every cached object again', zh: 'informer 执行重新同步：处理函数再次收到缓存中的每个对象' },
  'deployment.progress-deadline': { en: "the deployment controller checks whether the rollout has exceeded its progress deadline", zh: 'Deployment 控制器检查滚动更新是否超过了进度期限' },
  'scheduler-backoff': { en: 'kube-scheduler retries a Pod that failed to schedule, after its back-off', zh: 'kube-scheduler 在退避时间结束后重试一个调度失败的 Pod' },
  'scheduler-flush-unschedulable': { en: 'kube-scheduler moves Pods that waited long as unschedulable back to its active queue, to try them again', zh: 'kube-scheduler 把等待太久的不可调度 Pod 移回活动队列，再试一次' },
  'leader-election-renew': { en: 'the leader renews its leader-election Lease in kube-system, as every 2 s, so no other instance takes over', zh: 'leader 续约 kube-system 中的选主 Lease（每 2 秒一次），这样其他实例就不会接管' },
  'leader-election-acquire': { en: 'tries again to acquire its leader-election Lease in kube-system (every 2 s until it leads)', zh: '再次尝试获取 kube-system 中的选主 Lease（每 2 秒一次，直到成为 leader）' },
  'identity-lease-renew': { en: "kube-apiserver renews its identity Lease in kube-system, as every 10 s (plus up to 4 % jitter): the sign that this apiserver is alive", zh: 'kube-apiserver 续约 kube-system 中自己的身份 Lease（每 10 秒一次，另加至多 4% 的随机抖动）：表明这个 apiserver 仍在运行' },
};

/** The kubelet's own timers, said of the kubelet that set them. */
const kubeletTimers: Readonly<Record<string, Both>> = {
  'node-lease-renew': { en: 'renews its node Lease, as every 10 s (plus up to 4 % jitter): one PUT of the Lease it last wrote, the heartbeat that keeps its node Ready', zh: '续约节点 Lease（每 10 秒一次，另加至多 4% 的随机抖动）：用上次写入的 Lease 发一次 PUT，这是让节点保持 Ready 的心跳' },
  'container-exit': { en: 'sees a container\'s process exit: by the pod\'s restart policy it is restarted (after a back-off) or stays Completed', zh: '发现一个容器的进程退出了：按 Pod 的重启策略，它会（在退避后）被重启，或保持 Completed' },
  'container-process': { en: 'moves a container\'s process on: a sleep in its command has ended', zh: '让容器进程继续运行：它命令里的一次 sleep 结束了' },
  'liveness-probe': { en: 'runs a liveness probe: enough failures in a row (the failure threshold) and the container is restarted', zh: '执行存活探针（liveness）：连续失败达到失败阈值，容器就会被重启' },
  'readiness-probe': { en: 'runs a readiness probe: its result decides whether the container counts as Ready', zh: '执行就绪探针（readiness）：结果决定容器是否算作 Ready' },
  'startup-probe': { en: 'runs a startup probe: liveness and readiness wait until it succeeds', zh: '执行启动探针（startup）：它成功之前，存活和就绪探针都不运行' },
  'log-stream': { en: 'checks that the container of a followed log still runs (the stream ends when it stops)', zh: '检查被跟随日志的容器是否仍在运行（容器停止时流就结束）' },
  'exec': { en: 'finishes running a command in a container and sends back its output', zh: '在容器中执行完命令，并把输出送回' },
  'crashloop-backoff': { en: 'has waited out its back-off after a crash: it restarts the container (CrashLoopBackOff doubles the wait each time)', zh: '崩溃后的退避时间已过：它重启容器（CrashLoopBackOff 每次把等待时间加倍）' },
  'image-pull-backoff': { en: 'has waited out its back-off after a failed pull: it tries to pull the image again (ImagePullBackOff)', zh: '拉取失败后的退避时间已过：它再次尝试拉取镜像（ImagePullBackOff）' },
};

/** Work queue names as the controllers' keys: `workqueue.replicaset`. */
const queueOwners: Readonly<Record<string, Both>> = {
  deployment: { en: 'the deployment controller', zh: 'Deployment 控制器' },
  replicaset: { en: 'the ReplicaSet controller', zh: 'ReplicaSet 控制器' },
  garbage_collector_attempt_to_delete: { en: 'the garbage collector', zh: '垃圾回收器' },
  garbage_collector_attempt_to_orphan: { en: 'the garbage collector', zh: '垃圾回收器' },
  node_lifecycle_controller: { en: 'the node lifecycle controller', zh: '节点生命周期控制器' },
};

export function timerKnown(name: string, data: unknown): boolean {
  if (name === 'engine.wake') return data === null || wakeReasons[text(data, 'reason') ?? ''] !== undefined;
  if (name.startsWith('workqueue.')) return queueOwners[name.slice('workqueue.'.length)] !== undefined;
  return timerReasons[name] !== undefined || kubeletTimers[name] !== undefined;
}

const timer: Plain<'timer'> = (record) => {
  const { name, data } = record.payload;
  const owner = who(record.to);
  if (name === 'engine.wake') {
    const reason = wakeReasons[text(data, 'reason') ?? ''];
    if (reason) {
      const r = reason(data);
      return { en: `${cap(owner.en)} ${r.en}`, zh: `${zs(owner.zh)}${r.zh}` };
    }
    return { en: `${cap(owner.en)} stops waiting: the time it allowed for an answer has passed`, zh: `${zs(owner.zh)}不再等待：它给回复留的时间已经到了` };
  }
  if (name.startsWith('workqueue.')) {
    const q = queueOwners[name.slice('workqueue.'.length)] ?? { en: 'a controller', zh: '一个控制器' };
    return { en: `${cap(q.en)} takes up again an object it put aside for a while (a retry with back-off, or a re-check later)`, zh: `${zs(q.zh)}重新处理一个先前搁置的对象（带退避的重试，或稍后的再次检查）` };
  }
  if (name.startsWith('reflector.')) {
    const what = name === 'reflector.resync'
      ? { en: 'resyncs: its handlers see every cached object again', zh: '重新同步：处理函数再次收到缓存中的每个对象' }
      : { en: 'has waited out its back-off after an error, and lists or watches again', zh: '出错后的退避等待结束，重新 list 或 watch' };
    return { en: `An informer of ${owner.en} ${what.en}`, zh: `${zs(owner.zh)}的一个 informer ${what.zh}` };
  }
  const kubelet = kubeletTimers[name];
  if (kubelet) return { en: `${cap(owner.en)} ${kubelet.en}`, zh: `${zs(owner.zh)}${kubelet.zh}` };
  const known = timerReasons[name];
  if (known) return { en: cap(known.en), zh: known.zh };
  return { en: `${cap(owner.en)} wakes up on a timer`, zh: `${zs(owner.zh)}被定时器唤醒` };
};

const plains: { readonly [K in PlainKind]: Plain<K> } = {
  'http.request': httpRequest,
  'http.response': httpResponse,
  'http.watchEvent': httpWatchEvent,
  'http.watchEnd': httpWatchEnd,
  'http.cancel': httpCancel,
  'http.streamData': podStreamData,
  'apiserver.authentication': authentication,
  'apiserver.audit': audit,
  'apiserver.impersonation': impersonation,
  'apiserver.max-in-flight': maxInFlight,
  'apiserver.authorization': authorization,
  'apiserver.admission.mutating': mutating,
  'apiserver.registry.strategy': registryStrategy,
  'apiserver.admission.validating': validating,
  'apiserver.waitForCache': waitForCache,
  'apiserver.waitForCacheResponse': waitForCacheResponse,
  'etcd.Txn': txn,
  'etcd.TxnResponse': txnResponse,
  'etcd.Range': range,
  'etcd.RangeResponse': rangeResponse,
  'etcd.Put': put,
  'etcd.PutResponse': putResponse,
  'etcd.DeleteRange': deleteRange,
  'etcd.DeleteRangeResponse': deleteRangeResponse,
  'etcd.Watch': watch,
  'etcd.WatchResponse': watchResponse,
  'etcd.WatchStreamError': watchStreamError,
  'etcd.LeaseGrant': leaseGrant,
  'etcd.LeaseGrantResponse': leaseGrantResponse,
  'etcd.LeaseRevoke': leaseRevoke,
  'etcd.LeaseRevokeResponse': leaseReply,
  'etcd.LeaseKeepAlive': leaseKeepAlive,
  'etcd.LeaseKeepAliveResponse': leaseReply,
  'etcd.LeaseTimeToLive': leaseTimeToLive,
  'etcd.LeaseTimeToLiveResponse': leaseReply,
  'etcd.LeaseLeases': leaseLeases,
  'etcd.LeaseLeasesResponse': leaseReply,
  'etcd.WatchClose': watchClose,
  'etcd.Compact': compact,
  'etcd.CompactResponse': compactResponse,
  'etcd.Status': status,
  'etcd.StatusResponse': statusResponse,
  'etcd.MemberList': memberList,
  'etcd.MemberListResponse': memberListResponse,
  'user.fault': fault,
  'kcm.join': join,
  'kcm.join.done': joinDone,
  timer,
};

