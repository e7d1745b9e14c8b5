// Faults: what a user (or a teacher's scenario) can break in a running cluster. A fault is plain data,
// so the worker can receive it as a command and a timeline can replay it. Injecting one sends the user
// component a command message (no cause: a user action, the root of a cause chain); the fault takes
// effect when that message is delivered, so everything it sets off is caused by it in the trace.
//
//   stop / start        a component process (kube-scheduler, kube-controller-manager, kubelet/<node>;
//                       etcd and kube-apiserver are refused):
//                       a stopped one receives nothing and does nothing; started again, it comes back as
//                       the real process does after a restart (lists again, then watches)
//   nodeDown / nodeUp   the machine: its kubelet stops heartbeating and reporting and its containers
//                       are lost; back up, the kubelet restarts, reports Ready, and runs its pods again
//   compactEtcd         `etcdctl compact <current revision>`: older revisions are gone (watchers that
//                       are behind get "required revision has been compacted")
//   breakEtcdWatches    kube-apiserver's gRPC watch stream to etcd breaks (a network blip, an etcd
//                       restart): clientv3 creates every watch again from the revision after the last
//                       one it saw; after a compaction those are gone, so the watch cache gets 410 and
//                       relists, and its clients, whose resourceVersions are now too old, relist too
//   dropWatches         kube-apiserver ends open watch streams (of one component, or all): clients
//                       watch again from their last resourceVersion
//   linkLatency         a link's one-way latency (and jitter) from now on
//   imageUnpullable     pulls of an image fail on every node (ErrImagePull, then ImagePullBackOff)
//   imageCrashes        containers of an image exit after some seconds with an exit code (CrashLoopBackOff)
//   etcdMemberStop /    an etcd member's process (clusters of 3 or 5 members): stopped, its clients'
//   etcdMemberStart     connections close and it refuses new ones; started, it comes back from its WAL
//                       as a follower
//   etcdKillLeader      stops whichever member leads when the fault is delivered
//   etcdPartition /     a member cut off from the other members (clients still reach it); healed, every
//   etcdHeal            member hears every other again
//   etcdSlowDisk        a member's fsync takes this long from now on (0: back to normal)

import type { Cluster } from './cluster.ts';
import { EtcdServer, etcdKinds } from './etcd/index.ts';
import type { Component, Message } from './engine/index.ts';

export type Fault =
  | { readonly type: 'stop'; readonly component: string }
  | { readonly type: 'start'; readonly component: string }
  | { readonly type: 'nodeDown'; readonly node: string }
  | { readonly type: 'nodeUp'; readonly node: string }
  | { readonly type: 'compactEtcd' }
  | { readonly type: 'breakEtcdWatches' }
  | { readonly type: 'dropWatches'; readonly component?: string }
  | { readonly type: 'linkLatency'; readonly a: string; readonly b: string; readonly latency: number; readonly jitter?: number }
  | { readonly type: 'imageUnpullable'; readonly image: string }
  | { readonly type: 'imageCrashes'; readonly image: string; readonly afterSeconds: number; readonly exitCode: number }
  | { readonly type: 'etcdMemberStop'; readonly member: string }
  | { readonly type: 'etcdMemberStart'; readonly member: string }
  | { readonly type: 'etcdKillLeader' }
  | { readonly type: 'etcdPartition'; readonly member: string }
  | { readonly type: 'etcdHeal' }
  | { readonly type: 'etcdSlowDisk'; readonly member: string; readonly fsyncMs: number };

/** What an image's containers do by default when made to crash: run 5 s, exit with code 1. */
export const defaultCrash = { afterSeconds: 5, exitCode: 1 } as const;

/** The same faults as methods (`cluster.faults`), for scenario steps and callers that prefer verbs. */
export interface ClusterFaults {
  stop(component: string): Message<Fault>;
  start(component: string): Message<Fault>;
  nodeDown(node: string): Message<Fault>;
  nodeUp(node: string): Message<Fault>;
  compactNow(): Message<Fault>;
  breakEtcdWatches(): Message<Fault>;
  dropWatches(component?: string): Message<Fault>;
  linkLatency(a: string, b: string, latency: number, jitter?: number): Message<Fault>;
  markImageUnpullable(image: string): Message<Fault>;
  crashImage(image: string, afterSeconds?: number, exitCode?: number): Message<Fault>;
  stopEtcdMember(member: string): Message<Fault>;
  startEtcdMember(member: string): Message<Fault>;
  killEtcdLeader(): Message<Fault>;
  partitionEtcdMember(member: string): Message<Fault>;
  healEtcd(): Message<Fault>;
  slowEtcdDisk(member: string, fsyncMs: number): Message<Fault>;
}

export function clusterFaults(cluster: Cluster<Component>): ClusterFaults {
  const inject = (fault: Fault) => injectFault(cluster, fault);
  return {
    stop: (component) => inject({ type: 'stop', component }),
    start: (component) => inject({ type: 'start', component }),
    nodeDown: (node) => inject({ type: 'nodeDown', node }),
    nodeUp: (node) => inject({ type: 'nodeUp', node }),
    compactNow: () => inject({ type: 'compactEtcd' }),
    breakEtcdWatches: () => inject({ type: 'breakEtcdWatches' }),
    dropWatches: (component) => inject(component === undefined ? { type: 'dropWatches' } : { type: 'dropWatches', component }),
    linkLatency: (a, b, latency, jitter) => inject({ type: 'linkLatency', a, b, latency, ...(jitter !== undefined ? { jitter } : {}) }),
    markImageUnpullable: (image) => inject({ type: 'imageUnpullable', image }),
    crashImage: (image, afterSeconds = defaultCrash.afterSeconds, exitCode = defaultCrash.exitCode) =>
      inject({ type: 'imageCrashes', image, afterSeconds, exitCode }),
    stopEtcdMember: (member) => inject({ type: 'etcdMemberStop', member }),
    startEtcdMember: (member) => inject({ type: 'etcdMemberStart', member }),
    killEtcdLeader: () => inject({ type: 'etcdKillLeader' }),
    partitionEtcdMember: (member) => inject({ type: 'etcdPartition', member }),
    healEtcd: () => inject({ type: 'etcdHeal' }),
    slowEtcdDisk: (member, fsyncMs) => inject({ type: 'etcdSlowDisk', member, fsyncMs }),
  };
}

/** The kind of the user command message that carries a fault. */
export const faultKind = 'user.fault';

/**
 * The components a stop/start fault may name: the workload processes, which restart as their real
 * counterparts do. etcd and kube-apiserver have no restart model (their state would be lost).
 */
export function isRestartable(component: string): boolean {
  return component === 'kube-scheduler' || component === 'kube-controller-manager' || component.startsWith('kubelet/');
}

/** Injects `fault`: queues the user command now; it takes effect when delivered (at once, no latency). */
export function injectFault(cluster: Cluster<Component>, fault: Fault): Message<Fault> {
  if ((fault.type === 'stop' || fault.type === 'start') && (!isRestartable(fault.component) || !cluster.engine.component(fault.component))) {
    throw new Error(`fault ${fault.type}: ${fault.component} is not a component that can be stopped and started`);
  }
  if (fault.type === 'nodeDown' || fault.type === 'nodeUp') kubeletOf(cluster, fault.node);
  if (fault.type.startsWith('etcd') && cluster.etcdMembers.length === 1) throw new Error(`fault ${fault.type}: etcd is a single member`);
  if ('member' in fault) memberOf(cluster, fault.member);
  return cluster.user.command(faultKind, fault, () => applyFault(cluster, fault));
}

function kubeletOf(cluster: Cluster<Component>, node: string) {
  const kubelet = cluster.kubelets.find((k) => k.node === node);
  if (!kubelet) throw new Error(`fault: no kubelet on node ${node}`);
  return kubelet;
}

/** The etcd faults act on the model's etcd; a cluster on a real etcd has none. */
function modelEtcd(cluster: Cluster<Component>): EtcdServer {
  if (!(cluster.etcd instanceof EtcdServer)) throw new Error(`${cluster.etcd.name} is not the model's etcd: etcd faults need it`);
  return cluster.etcd;
}

/** The model's etcd members (none on a real etcd, whose members are processes of their own). */
function modelMembers(cluster: Cluster<Component>): EtcdServer[] {
  return cluster.etcdMembers.filter((m): m is EtcdServer => m instanceof EtcdServer);
}

function memberOf(cluster: Cluster<Component>, member: string): EtcdServer {
  const found = cluster.etcdMembers.find((m) => m.name === member);
  if (!(found instanceof EtcdServer)) throw new Error(`fault: no etcd member ${member} of the model`);
  return found;
}

function applyFault(cluster: Cluster<Component>, fault: Fault): void {
  const { engine } = cluster;
  switch (fault.type) {
    case 'stop':
      engine.stopComponent(fault.component);
      return;
    case 'start':
      engine.startComponent(fault.component);
      return;
    case 'nodeDown': {
      const kubelet = kubeletOf(cluster, fault.node);
      kubelet.loseContainers();
      engine.stopComponent(kubelet.name);
      return;
    }
    case 'nodeUp':
      engine.startComponent(kubeletOf(cluster, fault.node).name);
      return;
    case 'compactEtcd':
      cluster.user.requestFromCommand(cluster.etcd.name, etcdKinds.compact, { revision: modelEtcd(cluster).kv.store.rev() });
      return;
    case 'breakEtcdWatches':
      modelEtcd(cluster).breakWatchStreams(cluster.apiserver.name);
      return;
    case 'dropWatches':
      cluster.apiserver.dropWatches(fault.component);
      return;
    case 'linkLatency':
      engine.setLinkLatency(fault.a, fault.b, { latency: fault.latency, ...(fault.jitter !== undefined ? { jitter: fault.jitter } : {}) });
      return;
    case 'imageUnpullable':
      for (const kubelet of cluster.kubelets) kubelet.markUnpullable(fault.image);
      return;
    case 'imageCrashes':
      for (const kubelet of cluster.kubelets) kubelet.makeImageCrash(fault.image, { afterMs: fault.afterSeconds * 1000, exitCode: fault.exitCode });
      return;
    case 'etcdMemberStop':
      memberOf(cluster, fault.member).crash();
      return;
    case 'etcdMemberStart':
      memberOf(cluster, fault.member).restart();
      return;
    case 'etcdKillLeader':
      modelMembers(cluster).find((m) => m.raft?.state === 'StateLeader')?.crash();
      return;
    case 'etcdPartition': {
      const isolated = memberOf(cluster, fault.member);
      for (const other of modelMembers(cluster)) {
        if (other === isolated) continue;
        other.unreachable.add(isolated.name);
        isolated.unreachable.add(other.name);
      }
      return;
    }
    case 'etcdHeal':
      for (const member of modelMembers(cluster)) member.unreachable.clear();
      return;
    case 'etcdSlowDisk':
      memberOf(cluster, fault.member).setFsync(fault.fsyncMs);
      return;
  }
}
