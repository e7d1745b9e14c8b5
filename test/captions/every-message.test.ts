// Every message the model can send has a plain and a technical caption in English and 中文, with no
// internal identifier of the model in either. The messages are not listed by hand: every scenario of
// the catalog and every fault runs on a cluster, plus the requests only a console user sends (etcdctl
// straight to etcd, impersonation, reads at a resourceVersion, refused requests), and every delivered
// message is captioned with the context the page gives it (the request a response answers, the message
// that caused it). Failures are reported once per variant (kind and the payload fields that change the
// text), with one example. Every kind sent is one the message map declares (src/sim/messages), and every
// declared kind is sent and captioned (the captioners' tables are total over the map: the compiler holds
// that; this holds the raft kinds, captioned by type in raft.ts).

import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../src/protocol/index.ts';
import { builtinTokens } from '../../src/sim/wire/credentials.ts';
import { httpKinds, type HttpMethod } from '../../src/sim/wire/http.ts';
import { createCluster, type Cluster } from '../../src/sim/cluster.ts';
import type { Message } from '../../src/sim/engine/index.ts';
import { clusterMessageKinds, type EtcdClientKind, type MessageMap, type PayloadOf } from '../../src/sim/messages/index.ts';
import { etcdKinds } from '../../src/sim/etcd/index.ts';
import type { Fault } from '../../src/sim/faults.ts';
import { nginxDeploymentYaml } from '../../src/sim/scenarios/manifests.ts';
import { scenarios } from '../../src/sim/scenarios/catalog.ts';
import { ScenarioRunner } from '../../src/sim/scenarios/runner.ts';
import type { Scenario } from '../../src/sim/scenarios/scenario.ts';
import { describeStep, languages, type CaptionContext } from '../../src/ui/captions/captions.ts';
import { child, count, fields, flag, list, text } from '../../src/ui/captions/payload.ts';
import { timerKnown } from '../../src/ui/captions/plain.ts';
import { raftPlainKinds } from '../../src/ui/captions/raft.ts';

/** The model's own names, which a caption must never show. */
const forbidden: readonly RegExp[] = [
  /engine\./, /kcm\./, /\.done\b/, /apiserver\./, /cacher/i, /undefined/, /\[object/, /\bNaN\b/, /\bnull\b/,
  /workqueue/i, /\bjoin\b/, /wake-up\b.*\bnull/,
  /(?:^|[\s(:])\?(?:$|[\s),])/, // a field shown as a bare `?`
  /:\s*$/, /\(\s*\)/, /（\s*）/, // an empty tail or empty brackets: a field that was missing
];

/**
 * camelCase words a plain caption may show: real Kubernetes and etcd field names a learner meets in
 * kubectl and etcdctl output. Any other camelCase word is an internal name.
 */
const fieldNames = new Set(['resourceVersion', 'nodeName', 'deletionTimestamp', 'generateName', 'ownerReferences', 'mod_revision', 'spec.nodeName', 'postStart', 'preStop']);
const camelCase = /\b[a-z]+[A-Z][A-Za-z]*\b/g;

const han = /[\u4e00-\u9fff]/;

/** The fields of a payload that change the words of its caption. */
function variant(m: Message): string {
  const p = m.payload;
  const node = (s: string) => s.replace(/\/node-\d+$/, '/N');
  switch (m.kind) {
    case 'timer': {
      const data = child(p, 'data');
      return `timer ${node(m.to)} ${text(p, 'name')} ${text(data, 'reason') ?? (data === null ? 'null' : typeof data)}`;
    }
    case 'user.fault': return `fault ${text(p, 'type')}${text(p, 'component') ? ' component' : ''}`;
    case 'http.request': {
      const q = new URLSearchParams(text(p, 'query') ?? '');
      const parts = (text(p, 'path') ?? '').split('/').filter(Boolean);
      const shape = parts.map((s, i) => (i > 0 && parts[i - 1] === 'namespaces') || /-|\d/.test(s) ? '*' : s).join('/');
      return `http.request ${node(m.from)} ${text(p, 'method')} ${shape} watch=${q.get('watch') ?? ''} rv=${q.get('resourceVersion') === '0' ? '0' : q.has('resourceVersion') ? 'N' : ''}`;
    }
    case 'http.response': {
      const b = child(p, 'body');
      return `http.response ${count(p, 'status')} stream=${Boolean(flag(p, 'stream'))} ${text(b, 'kind') ?? typeof b}`;
    }
    case 'http.watchEvent': return `http.watchEvent ${node(m.to)} ${text(p, 'type')} ${text(child(p, 'object'), 'kind')}`;
    case 'http.watchEnd': return `http.watchEnd ${text(p, 'reason')}`;
    case 'etcd.WatchResponse': {
      const r = child(p, 'response');
      const events = list(r, 'events');
      return `etcd.WatchResponse created=${flag(r, 'created')} canceled=${flag(r, 'canceled')} events=${Math.min(2, events.length)} ${text(events[0], 'type') ?? ''}`;
    }
    case 'etcd.TxnResponse': return `etcd.TxnResponse ok=${flag(p, 'ok')} ${text(child(p, 'write'), 'branch')} changed=${flag(child(p, 'write'), 'changed')}`;
    case 'etcd.Txn': {
      const compares = list(p, 'compare').map((c) => `${text(c, 'target')}${count(c, 'modRevision') === 0 ? '0' : 'N'}`).join(',');
      return `etcd.Txn ${compares} ${Object.keys(fields(list(p, 'success')[0]) ?? {}).join()}`;
    }
    case 'kcm.join': case 'kcm.join.done': return `${m.kind} ${(text(p, 'label') ?? '').replace(/\d+/g, 'N').replace(/ (for|of) .*/, '')}`;
    default: return `${m.kind} ok=${flag(p, 'ok')}`;
  }
}

interface Walk {
  /** Variant → one delivered message of it, with its context. */
  readonly variants: Map<string, { record: TraceRecord; context: CaptionContext }>;
}

function walk(): Walk {
  const variants = new Map<string, { record: TraceRecord; context: CaptionContext }>();
  const watchOne = (cluster: Cluster, run: () => void) => {
    const held = new Map<number, TraceRecord>();
    const stop = cluster.engine.onDelivery((m) => {
      const record: TraceRecord = { ...m, step: cluster.engine.step };
      held.set(m.id, record);
      const key = variant(m);
      if (variants.has(key)) return;
      const request = m.replyTo !== null ? held.get(m.replyTo) : undefined;
      const cause = m.cause !== null ? held.get(m.cause) : undefined;
      variants.set(key, { record, context: { request, cause } });
    });
    run();
    stop();
  };
  for (const scenario of [...scenarios, faultTour]) {
    const cluster = createCluster({ seed: `captions-${scenario.id}` });
    watchOne(cluster, () => {
      cluster.boot();
      new ScenarioRunner(cluster, scenario).runAll();
    });
  }
  const cluster = createCluster({ seed: 'captions-console' });
  watchOne(cluster, () => {
    cluster.boot();
    consoleRequests(cluster);
  });
  const containers = createCluster({ seed: 'captions-containers' });
  watchOne(containers, () => {
    containers.boot();
    containerRequests(containers);
  });
  const members = createCluster({ seed: 'captions-members', etcdMembers: 3, components: { controllerManager: false, scheduler: false, kubelets: false } });
  watchOne(members, () => {
    members.engine.runUntilIdle();
    memberFaults(members);
  });
  return { variants };
}

/** Talking to containers: probes and hooks at work, a log, a followed log, an exec, their refusals. */
function containerRequests(cluster: Cluster): void {
  const send = (method: HttpMethod, path: string, query = '', body?: unknown, headers: Record<string, string> = {}) => cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query,
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: '*/*', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const pods = '/api/v1/namespaces/default/pods';
  send('POST', pods, '', {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probed' },
    spec: {
      containers: [{
        name: 'web', image: 'nginx:1.14.2',
        livenessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 2 },
        readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 2 },
        startupProbe: { exec: { command: ['true'] }, periodSeconds: 1 },
        lifecycle: { postStart: { exec: { command: ['sleep', '1'] } }, preStop: { exec: { command: ['sleep', '1'] } } },
      }, { name: 'ticker', image: 'busybox:1.36', command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] }],
    },
  });
  cluster.engine.runFor(12_000);
  send('GET', `${pods}/probed/log`, 'container=web');
  const follow = send('GET', `${pods}/probed/log`, 'container=ticker&follow=true');
  cluster.engine.runFor(3_000);
  cluster.user.request('kube-apiserver', httpKinds.cancel, { requestId: follow.id });
  send('POST', `${pods}/probed/exec`, 'command=nginx&command=-v&container=web&stdout=true&stderr=true', undefined, { connection: 'Upgrade', upgrade: 'websocket' });
  send('POST', `${pods}/probed/exec`, 'command=ls', undefined);
  send('GET', `${pods}/probed/log`, 'container=nope');
  send('DELETE', `${pods}/probed`);
  cluster.engine.runFor(5_000);
}

const nginx = { file: 'nginx.yml', yaml: nginxDeploymentYaml };
const fault = (f: Fault) => ({ do: 'fault' as const, fault: f });

/** The faults no catalog scenario uses, each on a running Deployment. */
const faultTour: Scenario = {
  id: 'fault-tour',
  title: { en: 'Every fault', zh: '所有故障' },
  description: { en: 'Every fault, one after another.', zh: '依次注入每种故障。' },
  source: 'seeds/000',
  manifests: [nginx],
  steps: [
    { do: 'create', file: nginx.file }, { do: 'runUntilIdle' },
    fault({ type: 'stop', component: 'kube-scheduler' }), { do: 'advance', ms: 1_000 },
    fault({ type: 'start', component: 'kube-scheduler' }), { do: 'runUntilIdle' },
    fault({ type: 'nodeDown', node: 'node-2' }), { do: 'advance', ms: 60_000 },
    fault({ type: 'nodeUp', node: 'node-2' }), { do: 'runUntilIdle' },
    fault({ type: 'linkLatency', a: 'kubelet/node-1', b: 'kube-apiserver', latency: 40 }),
    fault({ type: 'dropWatches', component: 'kube-scheduler' }), { do: 'runUntilIdle' },
    fault({ type: 'dropWatches' }), { do: 'runUntilIdle' },
    fault({ type: 'compactEtcd' }), fault({ type: 'breakEtcdWatches' }), { do: 'advance', ms: 5_000 }, { do: 'runUntilIdle' },
  ],
};

/** etcd as three members: reads and writes on followers, member faults, a quorum loss and its recovery. */
function memberFaults(cluster: Cluster): void {
  const follower = cluster.etcdMembers.find((m) => m.raft?.state === 'StateFollower')!.name;
  const leader = () => cluster.etcdMembers.find((m) => m.raft?.state === 'StateLeader')!.name;
  cluster.user.request(follower, etcdKinds.put, { key: '/demo/a', value: '1' });
  cluster.user.request(follower, etcdKinds.range, { key: '/demo/a' });
  cluster.engine.runUntilIdle();
  cluster.faults.slowEtcdDisk(follower, 200);
  cluster.user.request(leader(), etcdKinds.put, { key: '/demo/b', value: '2' });
  cluster.engine.runFor(1_000);
  cluster.faults.slowEtcdDisk(follower, 0);
  cluster.faults.partitionEtcdMember(follower);
  cluster.engine.runFor(3_000);
  cluster.faults.healEtcd();
  cluster.faults.killEtcdLeader();
  cluster.engine.runFor(3_000);
  const down = cluster.etcdMembers.find((m) => m.down)!.name;
  cluster.faults.stopEtcdMember(leader());
  cluster.engine.runFor(10);
  const alone = cluster.etcdMembers.find((m) => !m.down)!.name;
  cluster.user.request(alone, etcdKinds.put, { key: '/demo/c', value: '3' });
  cluster.user.request(down, etcdKinds.range, { key: '/demo/a' });
  cluster.engine.runFor(8_000);
  for (const m of cluster.etcdMembers) cluster.faults.startEtcdMember(m.name);
  cluster.engine.runFor(5_000);
  cluster.engine.runUntilIdle();
}

/** What a console user can send beyond the scenarios: etcdctl, impersonation, reads at a resourceVersion, refusals. */
function consoleRequests(cluster: Cluster): void {
  const send = (method: HttpMethod, path: string, query = '', body?: unknown, headers: Record<string, string> = {}) => {
    cluster.user.request('kube-apiserver', httpKinds.request, {
      method, path, query,
      headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  };
  const http = (...args: Parameters<typeof send>) => {
    send(...args);
    cluster.engine.runUntilIdle();
  };
  const etcd = <K extends EtcdClientKind>(kind: K, payload: MessageMap[K]) => {
    cluster.user.request(cluster.etcd.name, kind, payload);
    cluster.engine.runUntilIdle();
  };
  // A read at a resourceVersion the watch cache has not reached yet waits for the next write.
  send('GET', '/api/v1/namespaces/default/configmaps', `resourceVersion=${cluster.etcd.kv.store.rev() + 1}`);
  http('POST', '/api/v1/namespaces/default/configmaps', '', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'next' } });
  http('GET', '/api/v1/namespaces/default/pods', 'resourceVersion=0');
  http('GET', '/api/v1/namespaces/default/pods');
  http('GET', '/api/v1/namespaces/default/pods/nope');
  http('GET', '/api/v1/namespaces/default/pods', '', undefined, { 'impersonate-user': 'jane' });
  http('GET', '/api/v1/namespaces/default/pods', '', undefined, { authorization: 'Bearer wrong' });
  http('POST', '/api/v1/namespaces/default/configmaps', '', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Not_Valid' } });
  http('POST', '/api/v1/namespaces/default/configmaps', '', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice' } });
  http('POST', '/api/v1/namespaces/default/configmaps', '', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice' } });
  http('PUT', '/api/v1/namespaces/default/configmaps/twice', '', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice', resourceVersion: '1' } });
  http('DELETE', '/api/v1/namespaces/default/configmaps/twice');
  etcd(etcdKinds.put, { key: '/demo/greeting', value: 'hello' });
  etcd(etcdKinds.range, { key: '/demo/', rangeEnd: '/demo0' });
  etcd(etcdKinds.range, { key: '/registry/', rangeEnd: '/registry0', countOnly: true });
  etcd(etcdKinds.deleteRange, { key: '/demo/greeting' });
  etcd(etcdKinds.deleteRange, { key: '/demo/none' });
  cluster.user.request(cluster.etcd.name, etcdKinds.leaseGrant, { TTL: 60 });
  cluster.engine.runUntilIdle();
  const granted = cluster.user.received().at(-1)?.message.payload;
  const ID = text(child(granted, 'response'), 'ID') ?? '0';
  etcd(etcdKinds.put, { key: '/demo/leased', value: 'x', lease: ID });
  etcd(etcdKinds.leaseKeepAlive, { ID });
  etcd(etcdKinds.leaseTimeToLive, { ID, keys: true });
  etcd(etcdKinds.leaseLeases, {});
  etcd(etcdKinds.leaseRevoke, { ID });
  etcd(etcdKinds.leaseTimeToLive, { ID });
  etcd(etcdKinds.watch, { stream: 'etcdctl', request: { createRequest: { key: '/demo/', rangeEnd: '/demo0' } } });
  etcd(etcdKinds.put, { key: '/demo/watched', value: 'y' });
  etcd(etcdKinds.watchClose, { stream: 'etcdctl' });
  // etcdctl endpoint status and member list.
  etcd(etcdKinds.status, {});
  etcd(etcdKinds.memberList, {});
}

describe('captions of every message the model sends', () => {
  const { variants } = walk();

  it('walks the whole vocabulary: every HTTP, kube-apiserver stage, etcd and timer kind the scenarios use', () => {
    const kinds = new Set([...variants.values()].map((v) => v.record.kind));
    for (const kind of ['http.request', 'http.response', 'http.watchEvent', 'http.watchEnd', 'http.cancel', 'apiserver.authentication',
      'apiserver.audit', 'apiserver.max-in-flight', 'apiserver.authorization', 'apiserver.admission.mutating', 'apiserver.registry.strategy',
      'apiserver.admission.validating', 'etcd.Txn', 'etcd.TxnResponse', 'etcd.Range', 'etcd.RangeResponse', 'etcd.Watch', 'etcd.WatchResponse',
      'etcd.WatchStreamError', 'etcd.LeaseGrant', 'etcd.LeaseGrantResponse', 'etcd.Compact', 'etcd.CompactResponse', 'etcd.Put', 'etcd.PutResponse',
      'etcd.DeleteRange', 'etcd.DeleteRangeResponse', 'apiserver.impersonation', 'apiserver.waitForCache', 'apiserver.waitForCacheResponse',
      'user.fault', 'kcm.join', 'kcm.join.done', 'timer', 'etcd.LeaseRevoke', 'etcd.LeaseRevokeResponse', 'etcd.LeaseKeepAlive',
      'etcd.LeaseKeepAliveResponse', 'etcd.LeaseTimeToLive', 'etcd.LeaseTimeToLiveResponse', 'etcd.LeaseLeases', 'etcd.LeaseLeasesResponse', 'etcd.WatchClose',
      // No MsgPreVote: etcd 3.4 runs raft without pre-vote (`--pre-vote` defaults to false), as the model does.
      'etcd.raft.MsgVote', 'etcd.raft.MsgVoteResp', 'etcd.raft.MsgApp', 'etcd.raft.MsgAppResp',
      'etcd.raft.MsgHeartbeat', 'etcd.raft.MsgHeartbeatResp', 'etcd.raft.MsgProp', 'etcd.raft.MsgReadIndex', 'etcd.raft.MsgReadIndexResp']) {
      expect(kinds, kind).toContain(kind);
    }
    const faults = [...variants.keys()].filter((k) => k.startsWith('fault ')).map((k) => k.split(' ')[1]);
    expect(new Set(faults)).toEqual(new Set(['stop', 'start', 'nodeDown', 'nodeUp', 'compactEtcd', 'breakEtcdWatches', 'dropWatches', 'linkLatency', 'imageUnpullable', 'imageCrashes',
      'etcdMemberStop', 'etcdMemberStart', 'etcdKillLeader', 'etcdPartition', 'etcdHeal', 'etcdSlowDisk']));
    expect(variants.size).toBeGreaterThan(150);
  });

  it('sends only kinds of the message map, and sends every kind it declares', () => {
    const declared = new Set<string>(clusterMessageKinds);
    const sent = new Set([...variants.values()].map((v) => v.record.kind));
    expect([...sent].filter((kind) => !declared.has(kind))).toEqual([]);
    // Declared but never produced by these runs: a leader never sends a follower a snapshot in them, and the
    // members run raft without pre-vote as etcd 3.4 does by default (--pre-vote=false; the raft model has the option).
    expect([...declared].filter((kind) => !sent.has(kind)).sort()).toEqual(['etcd.raft.MsgPreVote', 'etcd.raft.MsgPreVoteResp', 'etcd.raft.MsgSnap']);
  });

  it('has words of its own for every declared kind, timer and wake-up reason', () => {
    const declared = clusterMessageKinds.filter((kind) => !kind.startsWith('etcd.raft.') || raftPlainKinds.includes(kind));
    expect(declared).toEqual(clusterMessageKinds);
    const missing = [...variants.values()].map((v) => v.record).filter((r) => {
      const p = r.payload as PayloadOf<'timer'>;
      return r.kind === 'timer' && !timerKnown(p.name, p.data);
    }).map((r) => `${r.kind} ${JSON.stringify(r.payload).slice(0, 80)}`);
    expect(missing).toEqual([]);
  });

  it('gives each a plain and a technical line in English and 中文, with no internal identifier', () => {
    const problems: string[] = [];
    for (const [key, { record, context }] of variants) {
      const lines = languages.map((language) => ({ language, ...describeStep(record, language, context) }));
      for (const { language, plain, technical } of lines) {
        for (const [which, line] of [['plain', plain], ['technical', technical]] as const) {
          if (line.trim().length < 12) problems.push(`${key} ${language} ${which}: too short: ${line}`);
          for (const pattern of forbidden) if (pattern.test(line)) problems.push(`${key} ${language} ${which}: ${pattern}: ${line}`);
          if (language === 'zh' && which === 'plain' && !han.test(line)) problems.push(`${key} zh plain: no Chinese: ${line}`);
        }
        for (const word of plain.match(camelCase) ?? []) if (!fieldNames.has(word)) problems.push(`${key} ${language} plain: camelCase ${word}: ${plain}`);
        if (plain === technical) problems.push(`${key} ${language}: plain equals technical: ${plain}`);
      }
      if (lines[0]!.plain === lines[1]!.plain) problems.push(`${key}: the same plain line in both languages`);
      if (lines[0]!.language === 'en' && han.test(lines[0]!.plain)) problems.push(`${key} en plain: Chinese in English: ${lines[0]!.plain}`);
    }
    expect(problems).toEqual([]);
  });

  it('say in plain words that the Pod is Running and Ready, on the steps where it becomes so', () => {
    const cluster = createCluster({ seed: 'captions-running' });
    const held = new Map<number, TraceRecord>();
    const said: { en: string; zh: string; kind: string }[] = [];
    cluster.engine.onDelivery((m) => {
      const record: TraceRecord = { ...m, step: cluster.engine.step };
      held.set(m.id, record);
      const context = { request: m.replyTo !== null ? held.get(m.replyTo) : undefined, cause: m.cause !== null ? held.get(m.cause) : undefined };
      said.push({ kind: m.kind, en: describeStep(record, 'en', context).plain, zh: describeStep(record, 'zh', context).plain });
    });
    cluster.boot();
    new ScenarioRunner(cluster, scenarios.find((s) => s.id === 'nginx-deployment')!).runAll();
    const running = said.filter((s) => /Running and Ready on node-\d/.test(s.en) || /phase Running, Ready/.test(s.en));
    // The kubelet's status report, the Txn that stores it, kube-apiserver's answer, and the watch events that tell the others.
    expect(new Set(running.map((s) => s.kind))).toEqual(new Set(['http.request', 'etcd.Txn', 'http.response', 'http.watchEvent']));
    for (const s of running) expect(s.zh).toMatch(/Running/);
    expect(running.some((s) => s.en.startsWith('The kubelet on node-') && s.en.includes('reports the status of Pod nginx-deployment-'))).toBe(true);
  });
});
