// Words for the worker's typed milestones (src/protocol/story.ts), in English and 中文: a title (a plain
// sentence naming the real object, node and etcd revision, for the story panel and the caption) and a
// short label (≤ 32 characters, for timeline markers and the sequence diagram's emphasis). Pure functions
// of the milestone: nothing here reads a payload or decides what a milestone is.

import type { Milestone, ObjectRef } from '../../protocol/story.ts';
import type { Language } from './captions.ts';
import { zhSpacing } from './zh.ts';
import { etcdFaultWords } from './raft.ts';

export interface MilestoneText {
  /** A plain sentence: who did what to which object, on which node, at which etcd revision. */
  readonly title: string;
  /** At most `shortLimit` characters. */
  readonly short: string;
}

/** The longest short label, in characters. */
export const shortLimit = 32;

interface Both {
  readonly en: string;
  readonly zh: string;
}

interface Texts {
  readonly title: Both;
  readonly short: Both;
}

export function milestoneText(milestone: Milestone, language: Language): MilestoneText {
  const texts = describe(milestone);
  if (language === 'zh') return { title: zhSpacing(texts.title.zh), short: fit(zhSpacing(texts.short.zh)) };
  return { title: texts.title.en, short: fit(texts.short.en) };
}

// ── names ───────────────────────────────────────────────────────────────────────────────────────

/** `Pod nginx-7f4d79f7d7-fxzwz`, with its namespace when it is not `default`. */
function objectName(object: ObjectRef): string {
  return object.namespace && object.namespace !== 'default' ? `${object.namespace}/${object.name}` : object.name;
}

function objectText(object: ObjectRef): string {
  return `${object.kind} ${objectName(object)}`;
}

/**
 * A name cut to fit a marker: whole when it fits, else its generated suffix (`…-fxzwz`, the part a
 * person tells pods apart by), else clipped.
 */
export function shortName(name: string, max = 16): string {
  if (name.length <= max) return name;
  const tail = name.slice(name.lastIndexOf('-') + 1);
  if (tail.length > 0 && tail.length + 2 <= max && name.includes('-')) return `…-${tail}`;
  return `${name.slice(0, max - 1)}…`;
}

function fit(text: string): string {
  return text.length <= shortLimit ? text : `${text.slice(0, shortLimit - 1)}…`;
}

/** An engine component as people call it: `kubelet/node-2` is the kubelet on node-2, `user` is kubectl. */
export function componentText(name: string): Both {
  if (name.startsWith('kubelet/')) {
    const node = name.slice('kubelet/'.length);
    return { en: `the kubelet on ${node}`, zh: `${node} 上的 kubelet` };
  }
  if (name === 'user') return { en: 'kubectl', zh: 'kubectl' };
  return { en: name, zh: name };
}

/** Starts an English sentence: `the kubelet…` → `The kubelet…`; names (kubectl, kube-apiserver) keep their case. */
function sentence(text: string): string {
  return text.startsWith('the ') ? `The ${text.slice(4)}` : text;
}

/** Who in kube-controller-manager acts on the object it saw. */
function watcherText(watcher: string, object: ObjectRef): Both {
  if (watcher === 'kube-controller-manager') {
    if (object.kind === 'Deployment') return { en: 'the deployment controller (kube-controller-manager)', zh: 'Deployment 控制器（kube-controller-manager）' };
    if (object.kind === 'ReplicaSet') return { en: 'the ReplicaSet controller (kube-controller-manager)', zh: 'ReplicaSet 控制器（kube-controller-manager）' };
  }
  return componentText(watcher);
}

/** The controller that creates objects for `owner`, named with it: `the ReplicaSet controller`, `ReplicaSet x`. */
function creatorText(owner: ObjectRef | null): { readonly by: Both; readonly owner: string } | null {
  if (!owner) return null;
  if (owner.kind === 'Deployment') return { by: { en: 'the deployment controller', zh: 'Deployment 控制器' }, owner: objectText(owner) };
  if (owner.kind === 'ReplicaSet') return { by: { en: 'the ReplicaSet controller', zh: 'ReplicaSet 控制器' }, owner: objectText(owner) };
  return null;
}

function rev(revision: number): Both {
  return { en: `etcd revision ${revision}`, zh: `etcd revision ${revision}` };
}

function withMessage(message: string): Both {
  const m = message.trim();
  return m ? { en: `: ${m}`, zh: `：${m}` } : { en: '', zh: '' };
}

const requestVerbs: Readonly<Record<string, Both>> = {
  POST: { en: 'create', zh: '创建' }, PUT: { en: 'replace', zh: '替换' }, PATCH: { en: 'change', zh: '修改' }, DELETE: { en: 'delete', zh: '删除' }, GET: { en: 'read', zh: '读取' },
};

/** A fault's type as words (`nodeDown node-1` → `node node-1 down`): the type names are the model's. */
const faultTypes: Readonly<Record<string, Both>> = {
  stop: { en: 'stop', zh: '停止' }, start: { en: 'start', zh: '启动' }, nodeDown: { en: 'node down', zh: '节点宕机' }, nodeUp: { en: 'node up', zh: '节点恢复' },
  compactEtcd: { en: 'compact etcd', zh: '压缩 etcd' }, breakEtcdWatches: { en: "break kube-apiserver's etcd watch stream", zh: '断开 kube-apiserver 的 etcd watch 流' },
  dropWatches: { en: 'drop watches', zh: '断开 watch' }, linkLatency: { en: 'link latency', zh: '链路延迟' },
  imageUnpullable: { en: 'image cannot be pulled', zh: '镜像无法拉取' }, imageCrashes: { en: 'containers of an image crash', zh: '镜像的容器崩溃' },
  ...etcdFaultWords,
};

function faultWords(summary: string): Both {
  const [type = '', ...rest] = summary.split(' ');
  const words = faultTypes[type];
  if (!words) return { en: summary, zh: summary };
  const tail = rest.join(' ');
  return { en: `${words.en}${tail ? ` ${tail}` : ''}`, zh: `${words.zh}${tail ? ` ${tail}` : ''}` };
}

// ── the kinds ────────────────────────────────────────────────────────────────────────────────────

function describe(m: Milestone): Texts {
  switch (m.kind) {
    case 'userAction': {
      const summary = m.summary.trim() || (m.object ? objectText(m.object) : m.tool);
      if (m.tool === 'fault') {
        const fault = faultWords(summary);
        return { title: { en: `Fault injected: ${fault.en}`, zh: `注入故障：${fault.zh}` }, short: { en: `Fault: ${fault.en}`, zh: `故障：${fault.zh}` } };
      }
      const server = m.tool === 'etcdctl' ? 'etcd' : 'kube-apiserver';
      const verb = requestVerbs[/^([A-Z]+) \//.exec(summary)?.[1] ?? ''];
      if (verb && m.object) {
        const what = objectText(m.object);
        return {
          title: { en: `Your ${m.tool} command reached ${server}: ${verb.en} ${what} (${summary})`, zh: `你的 ${m.tool} 命令到达 ${server}：${verb.zh} ${what}（${summary}）` },
          short: { en: `${verb.en.charAt(0).toUpperCase()}${verb.en.slice(1)} ${m.object.kind} ${shortName(m.object.name, 14)}`, zh: `${verb.zh} ${m.object.kind} ${shortName(m.object.name, 14)}` },
        };
      }
      return {
        title: { en: `Your ${m.tool} command reached ${server}: ${summary}`, zh: `你的 ${m.tool} 命令到达 ${server}：${summary}` },
        short: { en: summary, zh: summary },
      };
    }
    case 'objectCreated': {
      const name = objectText(m.object);
      const creator = creatorText(m.owner);
      const r = rev(m.revision);
      const title = creator
        ? { en: `${sentence(creator.by.en)} created ${name} for ${creator.owner}; etcd stored it at ${m.key} (${r.en})`, zh: `${creator.by.zh}为 ${creator.owner} 创建了 ${name}，etcd 把它存在 ${m.key}（${r.zh}）` }
        : { en: `${name} stored in etcd at ${m.key} (${r.en})`, zh: `${name} 已写入 etcd，键为 ${m.key}（${r.zh}）` };
      const short = `${m.object.kind} ${shortName(m.object.name, shortLimit - m.object.kind.length - 10)}`;
      return { title, short: { en: `${short} created`, zh: `已创建 ${short}` } };
    }
    case 'podCreated': {
      const name = objectText(m.object);
      const creator = creatorText(m.owner);
      const r = rev(m.revision);
      const where = m.node
        ? { en: `${m.phase}, on ${m.node}`, zh: `${m.phase}，在 ${m.node} 上` }
        : { en: `${m.phase}, no node yet`, zh: `${m.phase}，尚未调度到节点` };
      const title = creator
        ? { en: `${sentence(creator.by.en)} created ${name} for ${creator.owner}: ${where.en} (${r.en})`, zh: `${creator.by.zh}为 ${creator.owner} 创建了 ${name}：${where.zh}（${r.zh}）` }
        : { en: `${name} stored in etcd: ${where.en} (${r.en})`, zh: `${name} 已写入 etcd：${where.zh}（${r.zh}）` };
      const short = shortName(m.object.name, 18);
      return { title, short: { en: `Pod ${short} created`, zh: `已创建 Pod ${short}` } };
    }
    case 'specChanged': {
      const name = objectText(m.object);
      const r = rev(m.revision);
      const change = m.change.trim();
      return {
        title: {
          en: `The spec of ${name} changed${change ? `: ${change}` : ''} (generation ${m.generation}, ${r.en})`,
          zh: `${name} 的 spec 已更改${change ? `：${change}` : ''}（generation ${m.generation}，${r.zh}）`,
        },
        short: change
          ? { en: `${shortName(m.object.name, 12)}: ${change}`, zh: `${shortName(m.object.name, 12)}：${change}` }
          : { en: `${shortName(m.object.name, 14)} spec changed`, zh: `${shortName(m.object.name, 14)} spec 已更改` },
      };
    }
    case 'watchSeen': {
      const who = watcherText(m.watcher, m.object);
      const name = objectText(m.object);
      const r = rev(m.revision);
      const seen: Both = m.eventType === 'ADDED'
        ? { en: `saw the new ${name}`, zh: `看到了新的 ${name}` }
        : m.eventType === 'MODIFIED'
          ? { en: `saw ${name} change`, zh: `看到 ${name} 发生变化` }
          : { en: `saw ${name} deleted`, zh: `看到 ${name} 被删除` };
      const watcherShort = m.watcher.startsWith('kubelet/') ? `kubelet ${m.watcher.slice('kubelet/'.length)}`
        : m.watcher === 'kube-controller-manager' ? 'kcm' : m.watcher;
      const obj = shortName(m.object.name, 12);
      return {
        title: { en: `${sentence(who.en)} ${seen.en} (watch event ${m.eventType}, ${r.en})`, zh: `${who.zh}${seen.zh}（watch 事件 ${m.eventType}，${r.zh}）` },
        short: { en: `${watcherShort} saw ${obj}`, zh: `${watcherShort} 看到 ${obj}` },
      };
    }
    case 'podBound': {
      const r = rev(m.revision);
      const short = shortName(m.object.name, 14);
      return {
        title: { en: `kube-scheduler bound ${objectText(m.object)} to ${m.node} (${r.en})`, zh: `kube-scheduler 把 ${objectText(m.object)} 绑定到 ${m.node}（${r.zh}）` },
        short: { en: `${short} bound to ${m.node}`, zh: `${short} 绑定到 ${m.node}` },
      };
    }
    case 'containerStep':
      return containerStep(m);
    case 'podPhase': {
      const name = objectText(m.object);
      const r = rev(m.revision);
      const on = m.node ? { en: ` on ${m.node}`, zh: `在 ${m.node} 上` } : { en: '', zh: '' };
      const short = shortName(m.object.name, 14);
      if (m.phase === 'Running') {
        return m.ready
          ? { title: { en: `${name} is Running and Ready${on.en} (${r.en})`, zh: `${name} ${on.zh}运行并已就绪（Running，Ready；${r.zh}）` },
            short: { en: `${short} Running, Ready`, zh: `${short} 运行中，已就绪` } }
          : { title: { en: `${name} is Running${on.en} but not Ready yet (${r.en})`, zh: `${name} ${on.zh}运行中，但尚未就绪（Running；${r.zh}）` },
            short: { en: `${short} Running`, zh: `${short} 运行中` } };
      }
      const phaseZh: Readonly<Record<string, string>> = { Pending: '等待中', Succeeded: '已成功结束', Failed: '已失败', Unknown: '状态未知' };
      return {
        title: { en: `${name} is ${m.phase}${on.en} (${r.en})`, zh: `${name} ${on.zh}${phaseZh[m.phase] ?? '状态为'}（${m.phase}；${r.zh}）` },
        short: { en: `${short} ${m.phase}`, zh: `${short} ${m.phase}` },
      };
    }
    case 'deploymentAvailable': {
      const name = objectText(m.object);
      const r = rev(m.revision);
      const ready = `${m.readyReplicas}/${m.replicas}`;
      const short = shortName(m.object.name, 16);
      return m.available
        ? { title: { en: `${name} is Available: ${ready} replicas ready (${r.en})`, zh: `${name} 已可用（Available）：${ready} 个副本就绪（${r.zh}）` },
          short: { en: `${short} Available`, zh: `${short} 已可用` } }
        : { title: { en: `${name} is not Available: ${ready} replicas ready (${r.en})`, zh: `${name} 不可用：${ready} 个副本就绪（${r.zh}）` },
          short: { en: `${short} not Available`, zh: `${short} 不可用` } };
    }
    case 'objectDeleted': {
      const r = rev(m.revision);
      const short = `${m.object.kind} ${shortName(m.object.name, shortLimit - m.object.kind.length - 10)}`;
      return {
        title: { en: `${objectText(m.object)} deleted from etcd: key ${m.key} removed (${r.en})`, zh: `${objectText(m.object)} 已从 etcd 删除：键 ${m.key} 已移除（${r.zh}）` },
        short: { en: `${short} deleted`, zh: `已删除 ${short}` },
      };
    }
    case 'terminating': {
      const r = rev(m.revision);
      const short = shortName(m.object.name, 18);
      return {
        title: { en: `${objectText(m.object)} is terminating: its deletionTimestamp is set (${r.en})`, zh: `${objectText(m.object)} 正在终止：已设置 deletionTimestamp（${r.zh}）` },
        short: { en: `${short} terminating`, zh: `${short} 正在终止` },
      };
    }
    case 'failedScheduling': {
      const msg = withMessage(m.message);
      return {
        title: { en: `kube-scheduler found no node for ${objectText(m.object)} (FailedScheduling)${msg.en}`, zh: `kube-scheduler 找不到可以运行 ${objectText(m.object)} 的节点（FailedScheduling）${msg.zh}` },
        short: { en: `FailedScheduling ${shortName(m.object.name, 14)}`, zh: `无法调度 ${shortName(m.object.name, 18)}` },
      };
    }
    case 'imagePullBackOff': {
      const kubelet = componentText(`kubelet/${m.node}`);
      const img = m.image ? { en: `image ${m.image}`, zh: `镜像 ${m.image}` } : { en: 'the image', zh: '镜像' };
      const msg = withMessage(m.message);
      return {
        title: {
          en: `${sentence(kubelet.en)} cannot pull ${img.en} for ${objectText(m.object)} and waits longer before each retry (ImagePullBackOff)${msg.en}`,
          zh: `${kubelet.zh}无法为 ${objectText(m.object)} 拉取${img.zh}，每次重试前等待更久（ImagePullBackOff）${msg.zh}`,
        },
        short: { en: `ImagePullBackOff ${shortName(m.object.name, 14)}`, zh: `拉取镜像失败 ${shortName(m.object.name, 18)}` },
      };
    }
    case 'crashLoopBackOff': {
      const c = m.container ? { en: `Container ${m.container}`, zh: `容器 ${m.container}` } : { en: 'The container', zh: '容器' };
      const kubelet = componentText(`kubelet/${m.node}`);
      const msg = withMessage(m.message);
      return {
        title: {
          en: `${c.en} of ${objectText(m.object)} keeps crashing on ${m.node}; ${kubelet.en} waits longer before each restart (CrashLoopBackOff)${msg.en}`,
          zh: `${objectText(m.object)} 的${c.zh}在 ${m.node} 上反复崩溃；${kubelet.zh}每次重启前等待更久（CrashLoopBackOff）${msg.zh}`,
        },
        short: { en: `CrashLoopBackOff ${shortName(m.object.name, 14)}`, zh: `容器反复崩溃 ${shortName(m.object.name, 18)}` },
      };
    }
    case 'conflict': {
      const client = componentText(m.client);
      const on = m.object ? { en: ` on ${objectText(m.object)}`, zh: `（${objectText(m.object)}）` } : { en: '', zh: '' };
      const msg = withMessage(m.message);
      return {
        title: {
          en: `${sentence(client.en)} got 409 Conflict${on.en}: its copy was stale or the object already exists${msg.en}`,
          zh: `${client.zh}收到 409 Conflict${on.zh}：它手上的版本已过期，或对象已存在${msg.zh}`,
        },
        short: m.object
          ? { en: `409 Conflict ${shortName(m.object.name, 18)}`, zh: `409 冲突 ${shortName(m.object.name, 20)}` }
          : { en: '409 Conflict', zh: '409 冲突' },
      };
    }
    case 'relist': {
      const client = componentText(m.client);
      const msg = withMessage(m.message);
      return {
        title: {
          en: `${sentence(client.en)} was answered 410 Gone for ${m.resource} (its resource version is too old, compacted away) and lists them again${msg.en}`,
          zh: `${client.zh}对 ${m.resource} 的请求收到 410 Gone（resource version 太旧，已被压缩），于是重新 list${msg.zh}`,
        },
        short: { en: `410 Gone: relist ${m.resource}`, zh: `410 过期：重新 list ${m.resource}` },
      };
    }
    case 'eviction': {
      const msg = withMessage(m.message);
      if (m.object.kind === 'Node') {
        return {
          title: { en: `Node ${m.object.name} is NotReady${msg.en}`, zh: `节点 ${m.object.name} 变为 NotReady${msg.zh}` },
          short: { en: `${shortName(m.object.name, 20)} NotReady`, zh: `${shortName(m.object.name, 20)} 未就绪` },
        };
      }
      const from = m.node ? { en: ` from ${m.node}`, zh: `从 ${m.node} ` } : { en: '', zh: '' };
      return {
        title: { en: `${objectText(m.object)} is evicted${from.en}${msg.en}`, zh: `${objectText(m.object)} 被${from.zh}驱逐${msg.zh}` },
        short: { en: `Evicted ${shortName(m.object.name, 20)}`, zh: `已驱逐 ${shortName(m.object.name, 20)}` },
      };
    }
    case 'requestFailed': {
      const client = componentText(m.client);
      const msg = withMessage(m.message);
      const status = m.status > 0 ? `${m.status} ${m.reason}`.trim() : m.reason;
      return {
        title: { en: `${sentence(client.en)}'s request failed: ${status}${msg.en}`, zh: `${client.zh}的请求失败：${status}${msg.zh}` },
        short: { en: `Failed: ${status}`, zh: `请求失败：${status}` },
      };
    }
  }
  return assertNever(m);
}

function containerStep(m: Extract<Milestone, { readonly kind: 'containerStep' }>): Texts {
  const kubelet = componentText(`kubelet/${m.node}`);
  const pod = objectText(m.object);
  const container = m.container ?? '';
  const image = m.image ?? '';
  const c = container ? { en: `container ${container}`, zh: `容器 ${container}` } : { en: 'the container', zh: '容器' };
  const img = image ? { en: `image ${image}`, zh: `镜像 ${image}` } : { en: 'the image', zh: '镜像' };
  const of = ` · ${shortName(m.object.name, 9)}`;
  switch (m.action) {
    case 'pulling':
      return {
        title: { en: `${sentence(kubelet.en)} is pulling ${img.en} for ${pod}`, zh: `${kubelet.zh}正在为 ${pod} 拉取${img.zh}` },
        short: { en: `Pulling ${image || 'image'}` + of, zh: `拉取镜像 ${image}`.trim() + of },
      };
    case 'pulled':
      return {
        title: { en: `${sentence(kubelet.en)} pulled ${img.en} for ${pod}`, zh: `${kubelet.zh}已为 ${pod} 拉取${img.zh}` },
        short: { en: `Pulled ${image || 'image'}` + of, zh: `已拉取 ${image || '镜像'}` + of },
      };
    case 'created':
      return {
        title: { en: `${sentence(kubelet.en)} created ${c.en} of ${pod}`, zh: `${kubelet.zh}创建了 ${pod} 的${c.zh}` },
        short: { en: `Created ${container || 'container'}` + of, zh: `已创建容器 ${container}`.trim() + of },
      };
    case 'started':
      return {
        title: { en: `${sentence(kubelet.en)} started ${c.en} of ${pod}`, zh: `${kubelet.zh}启动了 ${pod} 的${c.zh}` },
        short: { en: `Started ${container || 'container'}` + of, zh: `已启动容器 ${container}`.trim() + of },
      };
    case 'killing':
      return {
        title: { en: `${sentence(kubelet.en)} is stopping ${c.en} of ${pod}`, zh: `${kubelet.zh}正在停止 ${pod} 的${c.zh}` },
        short: { en: `Stopping ${container || 'container'}` + of, zh: `停止容器 ${container}`.trim() + of },
      };
  }
}

function assertNever(value: never): never {
  throw new Error(`a milestone kind without words: ${JSON.stringify(value)}`);
}
