// Captions for delivered steps, in English and Simplified Chinese, from the trace record alone plus a
// little context (the request a response answers, the message that caused it). Two lines per step:
// `describeStep` gives the plain sentence (plain.ts: what happened and why, as a person says it) and
// the technical one (`caption`: the exact wire facts, the Txn with its compare, the watch event with
// its revision). Pure functions: the UI computes them as it renders. No caption shows an internal
// identifier of the model (message kinds, timer names). Every kind of the model's message map has a
// captioner (the raft messages have theirs in raft.ts), each reading its kind's payload type.

import { typedRecord, type ClusterMessageKind, type EtcdReplyPayload, type TraceRecord, type TypedMessageView } from '../../protocol/index.ts';
import { comparesText, headerRevision, opsText, rangeText, txnKey } from './etcd-text.ts';
import { child, clip, text } from './payload.ts';
import { foreignWriter } from './foreign-write.ts';
import { plainCaption } from './plain.ts';
import { unknownOf } from './stored-bytes.ts';
import { etcdFaultCaption, raftKindPrefix, raftTechnical, raftTimerLabels } from './raft.ts';

/** A message to caption: delivered, or still in flight (no step yet). */
type Message = Omit<TraceRecord, 'step'>;

export type Language = 'en' | 'zh';
export const languages: readonly Language[] = ['en', 'zh'];

export interface CaptionContext {
  /** For a response: the request it answers, when the UI still holds it. */
  readonly request?: TraceRecord | undefined;
  /** The message whose delivery caused this one, when the UI still holds it. */
  readonly cause?: TraceRecord | undefined;
}

export interface StepText {
  /** What happened and why, in plain words. */
  readonly plain: string;
  /** The exact wire line: the request, the Txn with its compare, the watch event with its revision. */
  readonly technical: string;
}

/** Both lines of a step's caption in `language`. */
export function describeStep(record: Message, language: Language, context: CaptionContext = {}): StepText {
  return { plain: plainCaption(record, context)[language], technical: caption(record, language, context) };
}

interface Both {
  readonly en: string;
  readonly zh: string;
}

type Captioner<K extends ClusterMessageKind> = (record: TypedMessageView<K>, context: CaptionContext) => Both;

type RaftKind = `etcd.raft.${string}` & ClusterMessageKind;

export function caption(record: Message, language: Language, context: CaptionContext = {}): string {
  if (record.kind.startsWith(raftKindPrefix)) return raftTechnical(record)[language];
  const typed = typedRecord(record) as TypedMessageView<Exclude<ClusterMessageKind, RaftKind>>;
  // The table pairs every kind with its own captioner, so a record of that kind fits it.
  const captioner = captioners[typed.kind] as Captioner<Exclude<ClusterMessageKind, RaftKind>>;
  return captioner(typed, context)[language];
}

/** The component as users know it: the user component is kubectl, or etcdctl when it talks to etcd. */
function who(name: string, peer: string): string {
  if (name !== 'user') return name;
  return peer === 'etcd' ? 'etcdctl' : 'kubectl';
}

function route(record: Pick<Message, 'from' | 'to'>): string {
  return `${who(record.from, record.to)} → ${who(record.to, record.from)}`;
}

// Faults: user actions that break something (src/sim/faults.ts)

const fault: Captioner<'user.fault'> = ({ payload: f }) => {
  switch (f.type) {
    case 'stop': return { en: `Fault: stop ${f.component}`, zh: `故障：停止 ${f.component}` };
    case 'start': return { en: `Fault: start ${f.component} again`, zh: `故障恢复：重新启动 ${f.component}` };
    case 'nodeDown': return { en: `Fault: node ${f.node} goes down`, zh: `故障：节点 ${f.node} 宕机` };
    case 'nodeUp': return { en: `Fault: node ${f.node} comes back up`, zh: `故障恢复：节点 ${f.node} 恢复` };
    case 'compactEtcd': return { en: 'Fault: etcdctl compact at the current revision', zh: '故障：在当前 revision 执行 etcdctl compact' };
    case 'breakEtcdWatches':
      return { en: "Fault: kube-apiserver's watch stream to etcd breaks", zh: '故障：kube-apiserver 到 etcd 的 watch 流断开' };
    case 'dropWatches':
      return f.component
        ? { en: `Fault: kube-apiserver drops the watches of ${f.component}`, zh: `故障：kube-apiserver 断开 ${f.component} 的 watch` }
        : { en: 'Fault: kube-apiserver drops every watch', zh: '故障：kube-apiserver 断开所有 watch' };
    case 'linkLatency': {
      const ends = `${f.a} ↔ ${f.b}`;
      return { en: `Fault: link ${ends} latency ${f.latency} ms`, zh: `故障：链路 ${ends} 延迟 ${f.latency} 毫秒` };
    }
    case 'imageUnpullable': return { en: `Fault: image ${f.image} cannot be pulled`, zh: `故障：镜像 ${f.image} 无法拉取` };
    case 'imageCrashes': return { en: `Fault: containers of ${f.image} crash`, zh: `故障：${f.image} 的容器会崩溃` };
    default: return etcdFaultCaption(f.type, f)?.technical ?? { en: `Fault: ${f.type}`, zh: `故障：${f.type}` };
  }
};

// HTTP

const verbs: Readonly<Record<string, Both>> = {
  GET: { en: 'read', zh: '读取' },
  POST: { en: 'create', zh: '创建' },
  PUT: { en: 'replace', zh: '替换' },
  PATCH: { en: 'patch', zh: '修补' },
  DELETE: { en: 'delete', zh: '删除' },
};

/** The object or collection a REST path names: `deployments in default`, `deployment nginx`. */
function pathTarget(path: string): string | undefined {
  const parts = path.split('/').filter(Boolean);
  const rest = parts[0] === 'api' ? parts.slice(2) : parts[0] === 'apis' ? parts.slice(3) : [];
  if (rest.length === 0) return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) return rest.slice(2).join('/');
  return rest.join('/');
}

/** A query string as people read it: decoded (`fieldSelector=spec.nodeName=node-2`), clipped. */
function queryText(query: string): string {
  if (!query) return '';
  let decoded = query;
  try {
    decoded = decodeURIComponent(query.replace(/\+/g, ' '));
  } catch {
    // Not valid percent-encoding: shown as sent.
  }
  return `?${clip(decoded, 120)}`;
}

const watchVerb: Both = { en: 'watch', zh: '监听' };

const httpRequest: Captioner<'http.request'> = (record) => {
  const { method, path, query } = record.payload;
  const target = pathTarget(path);
  const verb = method === 'GET' && /(?:^|&)watch=(?:true|1)(?:&|$)/.test(query) ? watchVerb : verbs[method];
  const why = verb && target ? { en: ` (${verb.en} ${target})`, zh: `（${verb.zh} ${target}）` } : { en: '', zh: '' };
  const line = `${method} ${path}${queryText(query)}`;
  return { en: `${route(record)}: ${line}${why.en}`, zh: `${route(record)}：${line}${why.zh}` };
};

const statusTexts: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict', 410: 'Gone', 415: 'Unsupported Media Type',
  422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 504: 'Gateway Timeout',
};

/** The request a response answers, when the page still holds it and it is an HTTP request. */
function httpRequestOf(request: TraceRecord | undefined): TypedMessageView<'http.request'> | undefined {
  const typed = request && typedRecord(request);
  return typed?.kind === 'http.request' ? typed : undefined;
}

const httpResponse: Captioner<'http.response'> = (record, { request }) => {
  const { status, body, stream } = record.payload;
  const statusText = `${status} ${statusTexts[status] ?? ''}`.trim();
  const rv = text(child(body, 'metadata'), 'resourceVersion');
  const asked = httpRequestOf(request)?.payload;
  const answered = asked ? `${asked.method} ${asked.path}` : '';
  const from = who(record.from, record.to);
  if (status >= 400) {
    const message = clip(text(body, 'message') ?? '', 80);
    return {
      en: `${from} refused${answered ? ` ${answered}` : ''} with ${statusText}${message ? `: ${message}` : ''}`,
      zh: `${from} 拒绝了${answered ? ` ${answered}` : '请求'}，返回 ${statusText}${message ? `：${message}` : ''}`,
    };
  }
  if (stream) {
    return { en: `${from} answered ${statusText} and keeps the watch stream open`, zh: `${from} 返回 ${statusText}，watch 流保持打开` };
  }
  return {
    en: `${from} answered ${statusText}${answered ? ` to ${answered}` : ''}${rv ? ` (resourceVersion ${rv})` : ''}`,
    zh: `${from} 返回 ${statusText}${answered ? `（${answered}）` : ''}${rv ? `，resourceVersion 为 ${rv}` : ''}`,
  };
};

const watchEventWhy: Readonly<Record<string, Both>> = {
  ADDED: { en: 'a new object matches the watch', zh: '有新对象匹配该 watch' },
  MODIFIED: { en: 'a watched object changed', zh: '被监听的对象发生了变化' },
  DELETED: { en: 'a watched object was deleted', zh: '被监听的对象被删除' },
  BOOKMARK: { en: 'progress marker: the watcher may resume from here', zh: '进度标记：watcher 可从这里恢复' },
  ERROR: { en: 'the watch failed', zh: 'watch 出错' },
};

const httpWatchEvent: Captioner<'http.watchEvent'> = (record) => {
  const { type, object } = record.payload;
  const kind = text(object, 'kind') ?? '';
  const metadata = child(object, 'metadata');
  const name = [text(metadata, 'namespace'), text(metadata, 'name')].filter(Boolean).join('/');
  const rv = text(metadata, 'resourceVersion');
  const why = watchEventWhy[type]!;
  const subject = type === 'ERROR' ? clip(text(object, 'message') ?? '', 60) : `${kind} ${name}`.trim();
  return {
    en: `${route(record)}: watch event ${type} ${subject}${rv ? ` (resourceVersion ${rv})` : ''}: ${why.en}`,
    zh: `${route(record)}：watch 事件 ${type} ${subject}${rv ? `（resourceVersion ${rv}）` : ''}：${why.zh}`,
  };
};

const httpWatchEnd: Captioner<'http.watchEnd'> = (record, { request }) => {
  if (/^\/(?:containerLogs|exec|attach|portForward)\/|\/pods\/[^/]+\/(?:log|exec|attach|portforward)$/.test(httpRequestOf(request)?.payload.path ?? '')) {
    return { en: `${route(record)}: the stream ends`, zh: `${route(record)}：流结束` };
  }
  const { reason } = record.payload;
  const why = reason === 'timeout' ? { en: 'its timeout passed; an informer watches again', zh: '超时已到；informer 会重新 watch' }
    : reason === 'cancelled' ? { en: 'the client cancelled it', zh: '客户端取消了它' }
      : { en: reason, zh: reason };
  return { en: `${route(record)}: the watch ends: ${why.en}`, zh: `${route(record)}：watch 结束：${why.zh}` };
};

// kube-apiserver's request chain

const authentication: Captioner<'apiserver.authentication'> = ({ payload }) => {
  if (!('user' in payload)) {
    const why = payload.decision;
    return { en: `Authentication failed (${why}): the request ends with 401 Unauthorized`, zh: `认证失败（${why}）：请求以 401 Unauthorized 结束` };
  }
  const { user, groups } = payload;
  const g = groups.length ? ` in ${groups.join(', ')}` : '';
  return { en: `Authentication: the bearer token identifies ${user}${g}`, zh: `认证：bearer token 识别出用户 ${user}${groups.length ? `（组 ${groups.join(', ')}）` : ''}` };
};

const audit: Captioner<'apiserver.audit'> = (record) => {
  const { auditID: id, auditStage: stage } = record.payload;
  return { en: `Audit: event ${id.slice(0, 8)} logged at stage ${stage}`, zh: `审计：在 ${stage} 阶段记录审计事件 ${id.slice(0, 8)}` };
};

const maxInFlight: Captioner<'apiserver.max-in-flight'> = (record) => {
  const { decision, mutating, readOnly } = record.payload;
  if (decision !== 'admitted') return { en: `Max-in-flight filter: ${decision} (429)`, zh: `并发限制（max-in-flight）：${decision}（429）` };
  return {
    en: `Max-in-flight filter admitted the request (${mutating} mutating, ${readOnly} read-only in flight)`,
    zh: `并发限制（max-in-flight）放行了请求（在途：变更 ${mutating} 个，只读 ${readOnly} 个）`,
  };
};

const impersonation: Captioner<'apiserver.impersonation'> = (record) => {
  const { user, as, decision } = record.payload;
  return { en: `Impersonation: ${user} acts as ${as}: ${decision}`, zh: `身份模拟：${user} 以 ${as} 的身份操作：${decision}` };
};

const authorization: Captioner<'apiserver.authorization'> = (record) => {
  const { user, verb, resource, namespace, reason } = record.payload;
  const allowed = record.payload.decision === 'allowed';
  const where = namespace ? { en: ` in ${namespace}`, zh: `（命名空间 ${namespace}）` } : { en: '', zh: '' };
  return allowed
    ? { en: `Authorization (RBAC): ${user} may ${verb} ${resource}${where.en}${reason ? `: ${reason}` : ''}`, zh: `鉴权（RBAC）：允许 ${user} ${verb} ${resource}${where.zh}${reason ? `：${reason}` : ''}` }
    : { en: `Authorization (RBAC): ${user} may not ${verb} ${resource}${where.en}: 403 Forbidden`, zh: `鉴权（RBAC）：不允许 ${user} ${verb} ${resource}${where.zh}：403 Forbidden` };
};

function admission<K extends 'apiserver.admission.mutating' | 'apiserver.admission.validating'>(kind: Both): Captioner<K> {
  return (record) => {
    const { operation, decisions } = record.payload;
    if (decisions.length === 0) return { en: `${kind.en} admission (${operation}): no plugin applies`, zh: `${kind.zh}准入（${operation}）：没有插件适用` };
    const first = clip(decisions[0]!, 60);
    const more = decisions.length - 1;
    return {
      en: `${kind.en} admission (${operation}): ${first}${more ? ` and ${more} more` : ''}`,
      zh: `${kind.zh}准入（${operation}）：${first}${more ? ` 等 ${decisions.length} 条` : ''}`,
    };
  };
}

const registryStrategy: Captioner<'apiserver.registry.strategy'> = (record) => {
  const { strategy, step: steps, name } = record.payload;
  return { en: `Registry: ${strategy} runs ${steps} on ${name}`, zh: `注册表：${strategy} 对 ${name} 执行 ${steps}` };
};

const waitForCache: Captioner<'apiserver.waitForCache'> = (record) => {
  const { resourcePrefix: prefix, resourceVersion: rv } = record.payload;
  return rv === 0
    ? { en: `The request waits until the watch cache of ${prefix} is ready`, zh: `请求等待 ${prefix} 的 watch 缓存就绪` }
    : { en: `The request waits until the watch cache of ${prefix} reaches resourceVersion ${rv}`, zh: `请求等待 ${prefix} 的 watch 缓存达到 resourceVersion ${rv}` };
};

const waitForCacheResponse: Captioner<'apiserver.waitForCacheResponse'> = (record) => {
  const { resourcePrefix: prefix, resourceVersion: rv } = record.payload;
  return { en: `The watch cache of ${prefix} is at resourceVersion ${rv}: the request goes on`, zh: `${prefix} 的 watch 缓存已到 resourceVersion ${rv}：请求继续` };
};

// etcd

const txn: Captioner<'etcd.Txn'> = (record) => {
  const compares = record.payload.compare ?? [];
  const success = opsText(record.payload.success ?? []);
  const failure = opsText(record.payload.failure ?? []);
  if (compares.length === 0) return { en: `${route(record)}: Txn ${success}`, zh: `${route(record)}：Txn ${success}` };
  const cond = comparesText(compares);
  return {
    en: `${route(record)}: Txn if ${cond} then ${success} else ${failure}`,
    zh: `${route(record)}：Txn 若 ${cond} 则 ${success}，否则 ${failure}`,
  };
};

function rpcError(reply: EtcdReplyPayload): string | undefined {
  return reply.ok ? undefined : reply.error.message;
}

/** The request a reply answers, when the page still holds it and it is of kind `kind`. */
function requestOf<K extends ClusterMessageKind>(request: TraceRecord | undefined, kind: K): TypedMessageView<K> | undefined {
  return request?.kind === kind ? (typedRecord(request) as TypedMessageView<K>) : undefined;
}

const txnResponse: Captioner<'etcd.TxnResponse'> = (record, { request }) => {
  const reply = record.payload;
  if (!reply.ok) return { en: `etcd rejected the Txn: ${reply.error.message}`, zh: `etcd 拒绝了该 Txn：${reply.error.message}` };
  const write = reply.write;
  const evaluated = write?.compares ?? [];
  const branch = write?.branch === 'failure' ? 'failure' : 'success';
  const revision = write?.revision ?? headerRevision(reply.response);
  const changed = write?.changed ?? false;
  const ops = opsText(write?.ops ?? []);
  const asked = requestOf(request, 'etcd.Txn');
  const key = asked ? txnKey(asked.payload) : undefined;
  const rev = changed ? { en: `revision ${revision}`, zh: `revision ${revision}` } : { en: `no new revision (still ${revision})`, zh: `未产生新 revision（仍为 ${revision}）` };
  if (evaluated.length === 0) {
    return { en: `etcd ran the Txn → ${ops}${key ? ` ${key}` : ''}, ${rev.en}`, zh: `etcd 执行了 Txn → ${ops}${key ? ` ${key}` : ''}，${rev.zh}` };
  }
  const cond = comparesText(evaluated.map((e) => e.compare));
  const failed = evaluated.find((e) => e.result === false);
  const actual = failed && failed.actual.length > 0 ? failed.actual.join(', ') : failed ? '0' : '';
  return branch === 'success'
    ? { en: `Txn compare ${cond} succeeded → ${ops}, ${rev.en}`, zh: `Txn 比较 ${cond} 成立 → ${ops}，${rev.zh}` }
    : { en: `Txn compare ${cond} failed (it is ${actual}) → ${ops}, ${rev.en}`, zh: `Txn 比较 ${cond} 不成立（实际为 ${actual}）→ ${ops}，${rev.zh}` };
};

function rangeOf(range: { readonly key?: string; readonly rangeEnd?: string }): string {
  return rangeText(range.key, range.rangeEnd);
}

const range: Captioner<'etcd.Range'> = (record) => {
  const what = rangeOf(record.payload);
  const { revision: rev, limit, countOnly } = record.payload;
  const extra = [rev ? `at revision ${rev}` : '', limit ? `limit ${limit}` : '', countOnly ? 'count only' : ''].filter(Boolean).join(', ');
  const zhExtra = [rev ? `revision ${rev}` : '', limit ? `最多 ${limit} 个` : '', countOnly ? '只计数' : ''].filter(Boolean).join('，');
  return { en: `${route(record)}: Range ${what}${extra ? ` (${extra})` : ''}`, zh: `${route(record)}：读取（Range）${what}${zhExtra ? `（${zhExtra}）` : ''}` };
};

const rangeResponse: Captioner<'etcd.RangeResponse'> = (record) => {
  const reply = record.payload;
  if (!reply.ok) return { en: `etcd refused the Range: ${reply.error.message}`, zh: `etcd 拒绝了 Range：${reply.error.message}` };
  const response = reply.response;
  const n = response.count;
  const more = response.more;
  return {
    en: `etcd returned ${n} ${n === 1 ? 'key' : 'keys'}${more ? ' (more remain)' : ''} at revision ${headerRevision(response) ?? '?'}`,
    zh: `etcd 返回 ${n} 个键${more ? '（还有更多）' : ''}，revision ${headerRevision(response) ?? '?'}`,
  };
};

/**
 * A stored value as a caption shows it: JSON decoded and printed compactly (a JSON string in quotes
 * would show every inner quote escaped), other text quoted; both clipped.
 */
export function storedText(value: string): string {
  const unknown = unknownOf(value);
  if (unknown !== null) return `k8s\\0… (protobuf ${unknown.kind}, ${value.length} bytes)`;
  try {
    const decoded: unknown = JSON.parse(value);
    if (typeof decoded === 'object' && decoded !== null) return clip(JSON.stringify(decoded), 48);
  } catch {
    // Not JSON: shown as the text it is.
  }
  return JSON.stringify(clip(value, 32));
}

const put: Captioner<'etcd.Put'> = (record) => {
  const { key, lease } = record.payload;
  const value = storedText(record.payload.value ?? '');
  const withLease = lease && lease !== '0' ? { en: ` with lease ${lease}`, zh: `，附带租约 ${lease}` } : { en: '', zh: '' };
  return { en: `${route(record)}: Put ${key} = ${value}${withLease.en}`, zh: `${route(record)}：写入（Put）${key} = ${value}${withLease.zh}` };
};

const putResponse: Captioner<'etcd.PutResponse'> = (record, { request }) => {
  const reply = record.payload;
  if (!reply.ok) return { en: `etcd refused the Put: ${reply.error.message}`, zh: `etcd 拒绝了 Put：${reply.error.message}` };
  const key = requestOf(request, 'etcd.Put')?.payload.key;
  const revision = reply.write?.revision ?? headerRevision(reply.response);
  return { en: `etcd stored ${key ?? 'the key'} at revision ${revision}`, zh: `etcd 在 revision ${revision} 保存了 ${key ?? '该键'}` };
};

const deleteRange: Captioner<'etcd.DeleteRange'> = (record) => {
  const what = rangeOf(record.payload);
  return { en: `${route(record)}: DeleteRange ${what}`, zh: `${route(record)}：删除（DeleteRange）${what}` };
};

const deleteRangeResponse: Captioner<'etcd.DeleteRangeResponse'> = (record) => {
  const reply = record.payload;
  if (!reply.ok) return { en: `etcd refused the DeleteRange: ${reply.error.message}`, zh: `etcd 拒绝了 DeleteRange：${reply.error.message}` };
  const deleted = reply.response.deleted;
  const revision = reply.write?.revision;
  return deleted === 0
    ? { en: `etcd deleted nothing: no key matched (revision stays ${revision})`, zh: `etcd 没有删除任何键：没有匹配的键（revision 仍为 ${revision}）` }
    : { en: `etcd deleted ${deleted} ${deleted === 1 ? 'key' : 'keys'} at revision ${revision}`, zh: `etcd 在 revision ${revision} 删除了 ${deleted} 个键` };
};

const watch: Captioner<'etcd.Watch'> = (record) => {
  const { request, stream } = record.payload;
  const create = request.createRequest;
  if (create !== undefined) {
    const start = create.startRevision;
    const what = rangeOf(create) === '\\0' ? 'every key' : rangeOf(create);
    return {
      en: `${route(record)}: Watch ${what}${start ? ` from revision ${start}` : ' from the next revision'} (stream ${stream})`,
      zh: `${route(record)}：监听（Watch）${what}${start ? `，从 revision ${start} 开始` : '，从下一个 revision 开始'}（流 ${stream}）`,
    };
  }
  const cancel = request.cancelRequest?.watchId;
  if (cancel !== undefined) return { en: `${route(record)}: cancel watch ${cancel}`, zh: `${route(record)}：取消 watch ${cancel}` };
  return { en: `${route(record)}: ask for a progress notification`, zh: `${route(record)}：请求进度通知` };
};

const watchResponse: Captioner<'etcd.WatchResponse'> = (record) => {
  const response = record.payload.response;
  const id = response.watchId;
  const revision = headerRevision(response);
  const events = response.events;
  if (response.created) return { en: `etcd created watch ${id} at revision ${revision}`, zh: `etcd 在 revision ${revision} 创建了 watch ${id}` };
  if (response.canceled) {
    const compact = response.compactRevision;
    const why = compact ? { en: `: revision compacted (history starts at ${compact})`, zh: `：revision 已被压缩（历史从 ${compact} 开始）` } : { en: '', zh: '' };
    return { en: `etcd canceled watch ${id}${why.en}`, zh: `etcd 取消了 watch ${id}${why.zh}` };
  }
  const first = events[0];
  if (!first) return { en: `etcd: progress notification on watch ${id} at revision ${revision}`, zh: `etcd：watch ${id} 的进度通知，revision ${revision}` };
  const { type, kv: { key, modRevision: mod } } = first;
  const more = events.length - 1;
  const foreign = foreignWriter(record, response);
  return {
    en: `etcd → ${who(record.to, record.from)}: watch ${id} event ${type} ${key} (mod_revision ${mod})${more ? ` and ${more} more` : ''}${foreign ? `; ${foreign.en}` : ''}`,
    zh: `etcd → ${who(record.to, record.from)}：watch ${id} 事件 ${type} ${key}（mod_revision ${mod}）${more ? `，另有 ${more} 个` : ''}${foreign ? `；${foreign.zh}` : ''}`,
  };
};

const leaseGrant: Captioner<'etcd.LeaseGrant'> = (record) => {
  const ttl = record.payload.TTL;
  return { en: `${route(record)}: LeaseGrant, TTL ${ttl} s`, zh: `${route(record)}：申请租约（LeaseGrant），TTL ${ttl} 秒` };
};

const leaseGrantResponse: Captioner<'etcd.LeaseGrantResponse'> = (record) => {
  const reply = record.payload;
  if (!reply.ok) return { en: `etcd refused the lease: ${reply.error.message}`, zh: `etcd 拒绝了租约申请：${reply.error.message}` };
  const { ID, TTL } = reply.response;
  return {
    en: `etcd granted lease ${ID} (TTL ${TTL} s): keys attached to it go when it expires`,
    zh: `etcd 授予租约 ${ID}（TTL ${TTL} 秒）：租约过期时，关联的键随之删除`,
  };
};

type LeaseRequestKind = 'etcd.LeaseRevoke' | 'etcd.LeaseKeepAlive' | 'etcd.LeaseTimeToLive' | 'etcd.LeaseLeases';

const leaseRequest = <K extends LeaseRequestKind>(name: string, zhName: string): Captioner<K> => (record) => {
  const p: { readonly ID?: string; readonly keys?: boolean } = record.payload;
  const id = p.ID;
  const keys = p.keys ? { en: ' --keys', zh: ' --keys' } : { en: '', zh: '' };
  return { en: `${route(record)}: ${name}${id ? ` ${id}` : ''}${keys.en}`, zh: `${route(record)}：${zhName}（${name}）${id ? ` ${id}` : ''}${keys.zh}` };
};

const leaseReply = <K extends `${LeaseRequestKind}Response`>(record: TypedMessageView<K>): Both => {
  const name = record.kind.slice('etcd.'.length, -'Response'.length);
  const reply: EtcdReplyPayload = record.payload;
  const error = rpcError(reply);
  if (!reply.ok) return { en: `etcd refused ${name}: ${error}`, zh: `etcd 拒绝了 ${name}：${error}` };
  const response: { readonly header: { readonly revision: number }; readonly ID?: string; readonly TTL?: number; readonly leases?: readonly unknown[]; readonly keys?: readonly string[] } = reply.response;
  const id = response.ID;
  const ttl = response.TTL;
  const leases = response.leases ?? [];
  if (name === 'LeaseLeases') return { en: `etcd listed ${leases.length} ${leases.length === 1 ? 'lease' : 'leases'}`, zh: `etcd 列出了 ${leases.length} 个租约` };
  if (name === 'LeaseRevoke') return { en: `etcd revoked the lease at revision ${headerRevision(response) ?? 0}: its keys are deleted`, zh: `etcd 在 revision ${headerRevision(response) ?? 0} 撤销了租约：它的键被删除` };
  if (ttl !== undefined && ttl < 0) return { en: `etcd: lease ${id ?? ''} has expired or never existed (TTL -1)`, zh: `etcd：租约 ${id ?? ''} 已过期或不存在（TTL -1）` };
  const keys = response.keys ?? [];
  return {
    en: `etcd: lease ${id ?? ''} has TTL ${ttl ?? 0} s${keys.length ? `, ${keys.length} attached ${keys.length === 1 ? 'key' : 'keys'}` : ''}`,
    zh: `etcd：租约 ${id ?? ''} 剩余 TTL ${ttl ?? 0} 秒${keys.length ? `，挂有 ${keys.length} 个键` : ''}`,
  };
};

const watchClose: Captioner<'etcd.WatchClose'> = (record) => {
  const { stream } = record.payload;
  return { en: `${route(record)}: close watch stream ${stream}`, zh: `${route(record)}：关闭 watch 流 ${stream}` };
};

const status: Captioner<'etcd.Status'> = (record) => ({
  en: `${route(record)}: Maintenance.Status: this member's raft term, index, leader and database size`,
  zh: `${route(record)}：Maintenance.Status：这个成员的 raft term、index、leader 与数据库大小`,
});

const statusResponse: Captioner<'etcd.StatusResponse'> = (record) => {
  const reply = record.payload;
  if (!reply.ok) return { en: `etcd refused Status: ${rpcError(reply)}`, zh: `etcd 拒绝了 Status：${rpcError(reply)}` };
  const { raftTerm, raftIndex, leader } = reply.response;
  const led = leader === '0' ? { en: 'no leader known', zh: '不知道 leader' } : { en: `leader ${leader}`, zh: `leader ${leader}` };
  return { en: `etcd's status: raft term ${raftTerm}, raft index ${raftIndex}, ${led.en}`, zh: `etcd 的状态：raft term ${raftTerm}，raft index ${raftIndex}，${led.zh}` };
};

const memberList: Captioner<'etcd.MemberList'> = (record) => ({
  en: `${route(record)}: Cluster.MemberList: every member's id, name and URLs`,
  zh: `${route(record)}：Cluster.MemberList：每个成员的 id、名字与 URL`,
});

const memberListResponse: Captioner<'etcd.MemberListResponse'> = (record) => {
  const reply = record.payload;
  if (!reply.ok) return { en: `etcd refused MemberList: ${rpcError(reply)}`, zh: `etcd 拒绝了 MemberList：${rpcError(reply)}` };
  const n = reply.response.members.length;
  return { en: `etcd lists its ${n} ${n === 1 ? 'member' : 'members'}`, zh: `etcd 列出了它的 ${n} 个成员` };
};

const compact: Captioner<'etcd.Compact'> = (record) => {
  const { revision } = record.payload;
  return {
    en: `${route(record)}: Compact to revision ${revision}: history before it will be discarded`,
    zh: `${route(record)}：压缩（Compact）到 revision ${revision}：之前的历史将被丢弃`,
  };
};

const compactResponse: Captioner<'etcd.CompactResponse'> = (record, { request }) => {
  const error = rpcError(record.payload);
  if (error) return { en: `etcd refused the Compact: ${error}`, zh: `etcd 拒绝了 Compact：${error}` };
  const revision = requestOf(request, 'etcd.Compact')?.payload.revision;
  return {
    en: `etcd compacted${revision ? ` up to revision ${revision}` : ''}: older revisions are unavailable`,
    zh: `etcd 已压缩${revision ? `到 revision ${revision}` : ''}：更早的 revision 不再可读`,
  };
};

const watchStreamError: Captioner<'etcd.WatchStreamError'> = (record) => {
  const { stream, error } = record.payload;
  return {
    en: `${route(record)}: watch stream ${stream} broke (${error}); clientv3 creates its watches again from the revision after the last one it saw`,
    zh: `${route(record)}：watch 流 ${stream} 断开（${error}）；clientv3 从最后看到的 revision 之后重新创建所有 watch`,
  };
};

/** Timers by name, as the technical line calls them (the names themselves are the model's). */
const timerLabels: Readonly<Record<string, Both>> = {
  'etcd.watch-sync': { en: 'watch sync (unsynced watchers catch up)', zh: 'watch 同步（未同步的 watcher 追赶进度）' },
  'etcd.watch-progress': { en: 'watch progress notification', zh: 'watch 进度通知' },
  'etcd.lease-expiry': { en: 'lease expiry', zh: '租约到期' },
  ...raftTimerLabels,
  'apiserver.cacherBookmarks': { en: 'watch cache bookmarks', zh: 'watch 缓存书签' },
  compactor: { en: 'etcd compaction (every 5 min)', zh: 'etcd 压缩（每 5 分钟）' },
  'watch-timeout': { en: 'watch timeout', zh: 'watch 超时' },
  'node-monitor': { en: 'node monitor period', zh: '节点监控周期' },
  'taint-eviction': { en: 'NoExecute taint eviction', zh: 'NoExecute 污点驱逐' },
  'reflector.backoff': { en: 'reflector back-off', zh: 'reflector 退避' },
  'reflector.resync': { en: 'reflector resync', zh: 'reflector 重新同步' },
  'deployment.progress-deadline': { en: 'progress deadline check', zh: '进度期限检查' },
  'scheduler-backoff': { en: 'pod back-off', zh: 'Pod 退避' },
  'scheduler-flush-unschedulable': { en: 'flush of unschedulable pods', zh: '刷新不可调度 Pod' },
  'node-lease-renew': { en: 'node lease renewal', zh: '节点租约续约' },
  'leader-election-renew': { en: 'leader lease renewal', zh: '选主租约续约' },
  'leader-election-acquire': { en: 'leader lease acquire retry', zh: '选主租约获取重试' },
  'identity-lease-renew': { en: 'apiserver identity lease renewal', zh: 'apiserver 身份租约续约' },
  'container-exit': { en: 'container exit', zh: '容器退出' },
  'crashloop-backoff': { en: 'CrashLoopBackOff restart', zh: 'CrashLoopBackOff 重启' },
  'image-pull-backoff': { en: 'ImagePullBackOff retry', zh: 'ImagePullBackOff 重试' },
  'container-process': { en: 'container process wakes from a sleep', zh: '容器进程从 sleep 中醒来' },
  'liveness-probe': { en: 'liveness probe period', zh: '存活探针周期' },
  'readiness-probe': { en: 'readiness probe period', zh: '就绪探针周期' },
  'startup-probe': { en: 'startup probe period', zh: '启动探针周期' },
  'log-stream': { en: 'followed log check', zh: '日志跟随检查' },
  exec: { en: 'exec command finished', zh: 'exec 命令结束' },
};

/** What is over when a labelled sleep ends. */
const reasonNames: Readonly<Record<string, Both>> = {
  'pod-sandbox': { en: 'pod sandbox ready', zh: 'Pod 沙箱创建完成' },
  'image-pull': { en: 'image pull done', zh: '镜像拉取完成' },
  'container-create': { en: 'container created', zh: '容器创建完成' },
  'container-start': { en: 'container started', zh: '容器启动完成' },
  'container-stop': { en: 'containers stopped', zh: '容器停止完成' },
  'post-start-hook': { en: 'postStart hook done', zh: 'postStart 钩子完成' },
  'watch-cache-relist': { en: 'relist delay over', zh: '重新 list 前的等待结束' },
  'retry-after': { en: 'Retry-After wait over', zh: 'Retry-After 等待结束' },
  'conflict-retry': { en: 'conflict retry delay over', zh: '冲突重试前的等待结束' },
  'etcd-retry': { en: 'etcd client retry back-off over (25 ms)', zh: 'etcd 客户端重试退避结束（25 毫秒）' },
  'eviction-retry': { en: 'eviction retry delay over', zh: '驱逐重试前的等待结束' },
  'register-node': { en: 'node registration back-off over', zh: '节点注册重试前的等待结束' },
  'ensure-node-lease': { en: 'node lease back-off over', zh: '节点租约重试前的等待结束' },
};

/** A sleep's reason label as words: `image-pull` → `image pull`. */
function reasonWords(data: unknown): Both {
  const reason = text(data, 'reason');
  if (!reason) return { en: 'reply timeout', zh: '等待回复超时' };
  const what = [text(data, 'image'), text(data, 'container') && !text(data, 'image') ? `container ${text(data, 'container')}` : undefined, text(data, 'pod'), text(data, 'resource')]
    .filter(Boolean).join(', ');
  const words = reasonNames[reason] ?? { en: `${reason.replace(/-/g, ' ')} over`, zh: `${reason.replace(/-/g, ' ')} 结束` };
  return { en: `${words.en}${what ? ` (${what})` : ''}`, zh: `${words.zh}${what ? `（${what}）` : ''}` };
}

function duration(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${+ms.toFixed(1)} ms`;
}

const timer: Captioner<'timer'> = (record) => {
  const { name } = record.payload;
  const after = duration(record.deliverAt - record.sentAt);
  const background = record.background ? { en: ', background', zh: '，后台' } : { en: '', zh: '' };
  let label: Both;
  if (name === 'engine.wake') {
    const words = reasonWords(record.payload.data);
    label = { en: `wake-up: ${words.en}`, zh: `唤醒：${words.zh}` };
  } else if (name.startsWith('workqueue.')) {
    const queue = name.slice('workqueue.'.length);
    label = { en: `work queue "${queue}": delayed add`, zh: `工作队列 "${queue}"：延迟加入` };
  } else {
    label = timerLabels[name] ?? { en: 'timer', zh: '定时器' };
  }
  return { en: `${record.to}: ${label.en} (after ${after}${background.en})`, zh: `${record.to}：${label.zh}（${after} 后${background.zh}）` };
};

/** kube-controller-manager's fan-out label as words: `orphanDependents` → `orphan dependents`. */
function labelWords(label: string): string {
  return label.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

const join: Captioner<'kcm.join'> = (record) => {
  const { tasks } = record.payload;
  const label = labelWords(record.payload.label);
  return { en: `kube-controller-manager: waits for ${tasks} parallel tasks: ${label}`, zh: `kube-controller-manager：等待 ${tasks} 个并行任务：${label}` };
};

const joinDone: Captioner<'kcm.join.done'> = (record) => {
  const label = labelWords(record.payload.label);
  return { en: `kube-controller-manager: every parallel task finished: ${label}`, zh: `kube-controller-manager：所有并行任务已完成：${label}` };
};

const httpCancel: Captioner<'http.cancel'> = (record) => ({ en: `${route(record)}: cancel a watch request (the connection closes)`, zh: `${route(record)}：取消一个 watch 请求（连接关闭）` });

const httpStreamData: Captioner<'http.streamData'> = (record) => {
  const { channel } = record.payload;
  const bytes = record.payload.data.length;
  return { en: `${route(record)}: stream data, channel ${channel}, ${bytes} bytes`, zh: `${route(record)}：流数据，通道 ${channel}，${bytes} 字节` };
};

const captioners: { readonly [K in Exclude<ClusterMessageKind, RaftKind>]: Captioner<K> } = {
  'http.request': httpRequest,
  'http.response': httpResponse,
  'http.watchEvent': httpWatchEvent,
  'http.watchEnd': httpWatchEnd,
  'http.cancel': httpCancel,
  'http.streamData': httpStreamData,
  'apiserver.authentication': authentication,
  'apiserver.audit': audit,
  'apiserver.impersonation': impersonation,
  'apiserver.max-in-flight': maxInFlight,
  'apiserver.authorization': authorization,
  'apiserver.admission.mutating': admission({ en: 'Mutating', zh: '变更' }),
  'apiserver.registry.strategy': registryStrategy,
  'apiserver.admission.validating': admission({ en: 'Validating', zh: '验证' }),
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
  'user.fault': fault,
  'etcd.LeaseGrant': leaseGrant,
  'etcd.LeaseGrantResponse': leaseGrantResponse,
  'etcd.LeaseRevoke': leaseRequest('LeaseRevoke', '撤销租约'),
  'etcd.LeaseRevokeResponse': leaseReply,
  'etcd.LeaseKeepAlive': leaseRequest('LeaseKeepAlive', '续约'),
  'etcd.LeaseKeepAliveResponse': leaseReply,
  'etcd.LeaseTimeToLive': leaseRequest('LeaseTimeToLive', '查询租约剩余时间'),
  'etcd.LeaseTimeToLiveResponse': leaseReply,
  'etcd.LeaseLeases': leaseRequest('LeaseLeases', '列出租约'),
  'etcd.LeaseLeasesResponse': leaseReply,
  'etcd.WatchClose': watchClose,
  'etcd.Compact': compact,
  'etcd.CompactResponse': compactResponse,
  'etcd.Status': status,
  'etcd.StatusResponse': statusResponse,
  'etcd.MemberList': memberList,
  'etcd.MemberListResponse': memberListResponse,
  'kcm.join': join,
  'kcm.join.done': joinDone,
  timer,
};
