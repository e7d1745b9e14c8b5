// The scenarios a user can pick: the seeds' own flows first, then what Kubernetes does next with them
// (scale, roll out, heal, delete) and what goes wrong (no node fits, a node dies, history compacted).

import { bigPodYaml, myReplicaSetYaml, nginxDeploymentYaml, userServiceDeploymentYaml, userServicePodYaml } from './manifests.ts';
import { scaleScenarios } from './scale.ts';
import type { Scenario, ScenarioManifest } from './scenario.ts';

const nginx: ScenarioManifest = { file: 'nginx.yml', yaml: nginxDeploymentYaml };
const replicaSet: ScenarioManifest = { file: 'replicaset.yaml', yaml: myReplicaSetYaml };
const userServicePod: ScenarioManifest = { file: 'user-service.yaml', yaml: userServicePodYaml };
const userService: ScenarioManifest = { file: 'user-service-deployment.yaml', yaml: userServiceDeploymentYaml };
const bigPod: ScenarioManifest = { file: 'big-pod.yaml', yaml: bigPodYaml };

/** Five minutes of virtual time: longer than a node's 40 s lease and the 300 s not-ready toleration. */
const sixMinutes = 6 * 60 * 1000;

export const scenarios: readonly Scenario[] = [
  {
    id: 'nginx-deployment',
    title: { en: 'nginx Deployment', zh: 'nginx Deployment' },
    description: {
      en: 'kubectl create -f nginx.yml: Deployment → ReplicaSet → Pod → scheduled → Running, every etcd Txn in view.',
      zh: 'kubectl create -f nginx.yml：Deployment → ReplicaSet → Pod → 调度 → Running，每个 etcd Txn 都看得见。',
    },
    source: 'seeds/000',
    manifests: [nginx],
    steps: [{ do: 'create', file: nginx.file }, { do: 'runUntilIdle' }],
  },
  {
    id: 'my-replicaset',
    title: { en: 'my-replicaset ReplicaSet', zh: 'my-replicaset ReplicaSet' },
    description: {
      en: 'The Pod creation flow, steps 0–12: a ReplicaSet of 2 pods from POST to status Running.',
      zh: 'Pod 创建流程步骤 0–12：一个 2 副本的 ReplicaSet，从 POST 到 Running 状态。',
    },
    source: 'seeds/004',
    manifests: [replicaSet],
    steps: [{ do: 'create', file: replicaSet.file }, { do: 'runUntilIdle' }],
  },
  {
    id: 'user-service-pod',
    title: { en: 'user-service Pod', zh: 'user-service Pod' },
    description: {
      en: 'A bare Pod with three containers (user, MySQL, Redis): scheduled, pulled, created, started.',
      zh: '一个包含三个容器（user、MySQL、Redis）的裸 Pod：调度、拉取镜像、创建、启动。',
    },
    source: 'seeds/003',
    manifests: [userServicePod],
    steps: [{ do: 'create', file: userServicePod.file }, { do: 'runUntilIdle' }],
  },
  {
    id: 'user-service-deployment',
    title: { en: 'user-service Deployment', zh: 'user-service Deployment' },
    description: {
      en: 'The same three containers as a Deployment of 3 replicas, spread over the nodes.',
      zh: '同样的三个容器，改由 3 副本的 Deployment 管理，分布到各个节点。',
    },
    source: 'seeds/003',
    manifests: [userService],
    steps: [{ do: 'create', file: userService.file }, { do: 'runUntilIdle' }],
  },
  {
    id: 'scale',
    title: { en: 'Scale a Deployment', zh: '扩缩容 Deployment' },
    description: {
      en: 'kubectl scale the nginx Deployment to 3, then back to 1: the ReplicaSet adds pods, then removes the surplus.',
      zh: '用 kubectl scale 把 nginx Deployment 扩到 3 个副本，再缩回 1 个：ReplicaSet 先加 Pod，再删掉多余的。',
    },
    source: 'seeds/000',
    manifests: [nginx],
    steps: [
      { do: 'create', file: nginx.file }, { do: 'runUntilIdle' },
      { do: 'scale', resource: 'deployment', name: 'nginx-deployment', replicas: 3 }, { do: 'runUntilIdle' },
      { do: 'scale', resource: 'deployment', name: 'nginx-deployment', replicas: 1 }, { do: 'runUntilIdle' },
    ],
  },
  {
    id: 'rolling-update',
    title: { en: 'Rolling update', zh: '滚动更新' },
    description: {
      en: 'kubectl set image deployment/user-service redis=redis:6.0: a new ReplicaSet scales up while the old one scales down.',
      zh: 'kubectl set image deployment/user-service redis=redis:6.0：新 ReplicaSet 扩容，旧 ReplicaSet 同时缩容。',
    },
    source: 'seeds/003',
    manifests: [userService],
    steps: [
      { do: 'create', file: userService.file }, { do: 'runUntilIdle' },
      { do: 'setImage', resource: 'deployment', name: 'user-service', container: 'redis', image: 'redis:6.0' }, { do: 'runUntilIdle' },
    ],
  },
  {
    id: 'self-healing',
    title: { en: 'Delete a managed pod', zh: '删除受管 Pod（自愈）' },
    description: {
      en: 'Delete one pod of my-replicaset: the ReplicaSet controller sees it go and creates a replacement.',
      zh: '删除 my-replicaset 的一个 Pod：ReplicaSet 控制器发现少了一个，立即补建。',
    },
    source: 'seeds/004',
    manifests: [replicaSet],
    steps: [
      { do: 'create', file: replicaSet.file }, { do: 'runUntilIdle' },
      { do: 'deleteOnePod', labelSelector: 'app=my-app' }, { do: 'runUntilIdle' },
    ],
  },
  {
    id: 'cascade-delete',
    title: { en: 'Cascade delete', zh: '级联删除' },
    description: {
      en: 'kubectl delete deployment user-service: the garbage collector removes its ReplicaSet, then its pods.',
      zh: 'kubectl delete deployment user-service：垃圾回收器随后删除它的 ReplicaSet，再删除 Pod。',
    },
    source: 'seeds/003',
    manifests: [userService],
    steps: [
      { do: 'create', file: userService.file }, { do: 'runUntilIdle' },
      { do: 'delete', resource: 'deployment', name: 'user-service' }, { do: 'runUntilIdle' },
    ],
  },
  {
    id: 'orphan-delete',
    title: { en: 'Delete, orphaning dependents', zh: '删除并保留从属对象（orphan）' },
    description: {
      en: 'kubectl delete deployment --cascade=orphan: the ReplicaSet and its pods stay, without an owner.',
      zh: 'kubectl delete deployment --cascade=orphan：ReplicaSet 和 Pod 保留下来，只是不再有属主。',
    },
    source: 'seeds/000',
    manifests: [nginx],
    steps: [
      { do: 'create', file: nginx.file }, { do: 'runUntilIdle' },
      { do: 'delete', resource: 'deployment', name: 'nginx-deployment', propagationPolicy: 'Orphan' }, { do: 'runUntilIdle' },
    ],
  },
  {
    id: 'unschedulable-pod',
    title: { en: 'An unschedulable pod', zh: '无法调度的 Pod' },
    description: {
      en: 'A pod asking for 8 CPUs on 4-CPU nodes: FailedScheduling "0/3 nodes are available: 3 Insufficient cpu…", and it stays Pending.',
      zh: '一个请求 8 核 CPU 的 Pod，而节点只有 4 核：FailedScheduling「0/3 nodes are available: 3 Insufficient cpu…」，一直 Pending。',
    },
    manifests: [bigPod],
    steps: [{ do: 'create', file: bigPod.file }, { do: 'runUntilIdle' }, { do: 'advance', ms: 30_000 }],
  },
  {
    id: 'node-down',
    title: { en: 'A node goes down', zh: '节点宕机' },
    description: {
      en: 'node-1 stops renewing its lease: after 40 s it is NotReady and tainted; after 300 s its pods are evicted and replaced elsewhere.',
      zh: 'node-1 不再续约 Lease：40 秒后变为 NotReady 并被打上污点；300 秒后其上的 Pod 被驱逐，并在其他节点重建。',
    },
    source: 'seeds/003',
    manifests: [userService],
    steps: [
      { do: 'create', file: userService.file }, { do: 'runUntilIdle' },
      { do: 'fault', fault: { type: 'nodeDown', node: 'node-1' } }, { do: 'advance', ms: sixMinutes }, { do: 'runUntilIdle' },
    ],
  },
  {
    id: 'compaction',
    title: { en: 'Compaction, then every watch dropped', zh: '压缩 etcd，再断开所有 watch' },
    description: {
      en: 'etcdctl compact at the current revision, then kube-apiserver drops every watch: clients watch again from their last resourceVersion, served by the watch cache.',
      zh: '在当前版本执行 etcdctl compact，然后 kube-apiserver 断开所有 watch：客户端从各自最后的 resourceVersion 重新 watch，由 watch cache 提供。',
    },
    source: 'seeds/000',
    manifests: [nginx],
    steps: [
      { do: 'create', file: nginx.file }, { do: 'runUntilIdle' },
      { do: 'fault', fault: { type: 'compactEtcd' } }, { do: 'fault', fault: { type: 'dropWatches' } }, { do: 'runUntilIdle' },
      { do: 'scale', resource: 'deployment', name: 'nginx-deployment', replicas: 3 }, { do: 'runUntilIdle' },
    ],
  },
  {
    id: 'compaction-broken-watch',
    title: { en: 'Compaction, then a broken etcd watch stream: 410 and relist', zh: '压缩 etcd，再断开 etcd watch 流：410 与重新 list' },
    description: {
      en: "etcdctl compact, then kube-apiserver's watch stream to etcd breaks: the watches resume from compacted revisions, the watch cache gets 410 and relists, and so do the informers it served.",
      zh: 'etcdctl compact 之后，kube-apiserver 到 etcd 的 watch 流断开：watch 从已压缩的 revision 恢复，watch cache 收到 410 并重新 list，它服务的 informer 也随之重新 list。',
    },
    source: 'seeds/000',
    manifests: [nginx],
    steps: [
      { do: 'create', file: nginx.file }, { do: 'runUntilIdle' },
      { do: 'fault', fault: { type: 'compactEtcd' } }, { do: 'fault', fault: { type: 'breakEtcdWatches' } }, { do: 'advance', ms: 5_000 },
      { do: 'scale', resource: 'deployment', name: 'nginx-deployment', replicas: 3 }, { do: 'runUntilIdle' },
    ],
  },
  {
    id: 'bad-rollout',
    title: { en: 'A rollout to an image that cannot be pulled', zh: '镜像拉取失败的滚动更新' },
    description: {
      en: 'set image nginx=nginx:1.16.1, which no node can pull: the new pod goes ErrImagePull → ImagePullBackOff, the old one keeps serving.',
      zh: 'set image nginx=nginx:1.16.1，而该镜像无法拉取：新 Pod 进入 ErrImagePull → ImagePullBackOff，旧 Pod 继续提供服务。',
    },
    source: 'seeds/000',
    manifests: [nginx],
    steps: [
      { do: 'create', file: nginx.file }, { do: 'runUntilIdle' },
      { do: 'fault', fault: { type: 'imageUnpullable', image: 'nginx:1.16.1' } },
      { do: 'setImage', resource: 'deployment', name: 'nginx-deployment', container: 'nginx', image: 'nginx:1.16.1' },
      { do: 'advance', ms: 60_000 },
    ],
  },
  {
    id: 'crash-loop',
    title: { en: 'A container that keeps crashing', zh: '不断崩溃的容器' },
    description: {
      en: 'my-replicaset\'s nginx exits with code 1 ten seconds after each start: restarts with a growing back-off, CrashLoopBackOff.',
      zh: 'my-replicaset 的 nginx 每次启动 10 秒后以退出码 1 退出：按递增的退避时间重启，进入 CrashLoopBackOff。',
    },
    source: 'seeds/004',
    manifests: [replicaSet],
    steps: [
      { do: 'fault', fault: { type: 'imageCrashes', image: 'nginx', afterSeconds: 10, exitCode: 1 } },
      { do: 'create', file: replicaSet.file }, { do: 'advance', ms: 120_000 },
    ],
  },
];

/**
 * What the page offers: the teaching flows, then the scenarios at scale (scale.ts). Tests that run every
 * flow run `scenarios`; the scale ones have their own test, as each takes minutes.
 */
export const catalog: readonly Scenario[] = [...scenarios, ...scaleScenarios];

/** The scenario with this id. */
export function scenarioById(id: string): Scenario | undefined {
  return catalog.find((s) => s.id === id);
}
