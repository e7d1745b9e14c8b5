// Plain captions for talking to containers: a pod's log, exec, attach and port-forward as kube-apiserver
// passes them to the kubelet of the pod's node, the kubelet's answers, and the chunks of a stream.
// Returns null for every other message, so plain.ts falls through to its own captions.

import { typedRecord, type TraceRecord, type TypedMessageView } from '../../protocol/index.ts';
import { componentText } from './milestones.ts';
import { cap, clip, text } from './payload.ts';

type Message = Omit<TraceRecord, 'step'>;

/** The path of the HTTP request a stream message answers, when the page still holds it. */
function requestPath(request: Message | undefined): string {
  const typed = request && typedRecord(request);
  return typed?.kind === 'http.request' ? typed.payload.path : '';
}

interface Both {
  readonly en: string;
  readonly zh: string;
}

const subresources = new Set(['log', 'exec', 'attach', 'portforward']);

/** The pod stream a path addresses: `/api/v1/namespaces/ns/pods/x/log` or the kubelet's `/containerLogs/ns/x/c`. */
function streamTarget(path: string): { readonly action: string; readonly pod: string; readonly container: string } | null {
  const parts = path.split('/').filter((p) => p !== '');
  const api = /^\/api\/v1\/namespaces\/[^/]+\/pods\/([^/]+)\/([^/]+)$/.exec(path);
  if (api && subresources.has(api[2]!)) return { action: api[2]!, pod: decodeURIComponent(api[1]!), container: '' };
  const kubelet: Readonly<Record<string, string>> = { containerLogs: 'log', exec: 'exec', attach: 'attach', portForward: 'portforward' };
  const action = kubelet[parts[0] ?? ''];
  if (action && parts.length >= 3) return { action, pod: decodeURIComponent(parts[2]!), container: decodeURIComponent(parts[3] ?? '') };
  return null;
}

function command(query: string): string {
  return query.split('&').filter((p) => p.startsWith('command=')).map((p) => decodeURIComponent(p.slice('command='.length).replace(/\+/g, ' '))).join(' ');
}

const actions: Readonly<Record<string, Both>> = {
  log: { en: 'the log of', zh: '的日志' },
  exec: { en: 'a command in', zh: '中执行命令' },
  attach: { en: 'to attach to', zh: '的输出' },
  portforward: { en: 'a port of', zh: '的端口' },
};

export function podStreamRequest(record: TypedMessageView<'http.request'>): Both | null {
  const { path, query } = record.payload;
  const target = streamTarget(path);
  if (!target) return null;
  const cmd = target.action === 'exec' ? command(query) : '';
  const what = cmd ? { en: ` (${clip(cmd, 60)})`, zh: `（${clip(cmd, 60)}）` } : { en: '', zh: '' };
  const container = target.container ? ` ${target.container}` : '';
  if (record.to.startsWith('kubelet/')) {
    const kubelet = componentText(record.to);
    return {
      en: `kube-apiserver does not keep logs or run commands: it passes the request on to ${kubelet.en}, whose server (port 10250) asks the container runtime for ${actions[target.action]!.en} container${container} of Pod ${target.pod}${what.en}`,
      zh: `kube-apiserver 不保存日志、也不执行命令：它把请求转给${kubelet.zh}，由其服务端（10250 端口）向容器运行时索取 Pod ${target.pod} 容器${container}${actions[target.action]!.zh}${what.zh}`,
    };
  }
  const sender = componentText(record.from);
  const follow = target.action === 'log' && /(?:^|&)follow=true/.test(query) ? { en: ' and keeps following it', zh: '并持续跟随' } : { en: '', zh: '' };
  return {
    en: `${cap(sender.en)} asks kube-apiserver for ${actions[target.action]!.en} Pod ${target.pod}${follow.en}${what.en}; kube-apiserver reads the Pod to find its node, then asks that node's kubelet`,
    zh: `${sender.zh}向 kube-apiserver 请求 Pod ${target.pod}${actions[target.action]!.zh}${follow.zh}${what.zh}；kube-apiserver 先读取 Pod 找到它所在的节点，再去问该节点的 kubelet`,
  };
}

export function podStreamResponse(record: TypedMessageView<'http.response'>, request: Message | undefined): Both | null {
  if (!streamTarget(requestPath(request))) return null;
  const { status, body } = record.payload;
  const from = componentText(record.from);
  const to = componentText(record.to);
  const message = typeof body === 'string' ? clip(body, 100) : clip(text(body, 'message') ?? '', 100);
  if (status >= 400) {
    return { en: `${cap(from.en)} answers ${status}: ${message}`, zh: `${from.zh}回答 ${status}：${message}` };
  }
  if (record.payload.stream) {
    return { en: `${cap(from.en)} opens a stream to ${to.en}: the output follows as chunks on this response`, zh: `${from.zh}向${to.zh}打开一个流：输出会以数据块的形式在这个响应里陆续送达` };
  }
  const lines = typeof body === 'string' ? body.split('\n').filter((l) => l !== '').length : 0;
  return { en: `${cap(from.en)} returns the log to ${to.en}: ${lines} line${lines === 1 ? '' : 's'}`, zh: `${from.zh}把日志返回给${to.zh}：共 ${lines} 行` };
}

const channels: Readonly<Record<number, Both>> = {
  1: { en: 'output (stdout)', zh: '标准输出（stdout）' },
  2: { en: 'error output (stderr)', zh: '标准错误（stderr）' },
  3: { en: 'the command\'s final status', zh: '命令的最终状态' },
};

export function podStreamData(record: TypedMessageView<'http.streamData'>): Both {
  const { channel } = record.payload;
  const data = clip(record.payload.data.replace(/\n$/, ''), 80);
  const from = componentText(record.from);
  const to = componentText(record.to);
  const what = channels[channel] ?? channels[1]!;
  return { en: `${cap(from.en)} streams ${what.en} to ${to.en}: ${data}`, zh: `${from.zh}向${to.zh}推送${what.zh}：${data}` };
}

/** The end of a log, exec or attach stream (the container stopped, or the command finished). */
export function podStreamEnd(record: Message, request: Message | undefined): Both | null {
  const target = streamTarget(requestPath(request));
  if (!target) return null;
  const from = componentText(record.from);
  const to = componentText(record.to);
  if (target.action === 'exec') {
    return { en: `${cap(from.en)} ends the exec stream to ${to.en}: the command has finished`, zh: `${from.zh}结束了发给${to.zh}的 exec 流：命令已执行完毕` };
  }
  return { en: `${cap(from.en)} ends the stream to ${to.en}: the container stopped`, zh: `${from.zh}结束了发给${to.zh}的流：容器已停止` };
}
