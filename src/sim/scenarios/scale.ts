// The catalog's scenarios at scale: one Deployment large enough that what is cheap for one Pod shows its
// cost, spread over as many nodes as the page offers (the protocol's maxNodes). Each names the Pods it ends
// with, so the page can show their progress while it runs. Larger sizes (1,000 nodes and 30,000 Pods,
// 5,000 nodes and 150,000 Pods) wait for the model's speed and memory per Pod (issue 20).

import type { Scenario, ScenarioManifest } from './scenario.ts';

/** `web`: 1,000 replicas of nginx:1.14.2. */
const web1000: ScenarioManifest = {
  file: 'web-1000.yaml',
  yaml: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 1000
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.14.2
`,
};

export const scaleScenarios: readonly Scenario[] = [
  {
    id: 'scale-1000-pods',
    title: { en: '1,000 Pods on 50 nodes', zh: '50 个节点上的 1,000 个 Pod' },
    description: {
      en: 'One Deployment of 1,000 replicas on 50 nodes (the most the page offers). The ReplicaSet controller creates Pods in doubling batches (1, 2, 4 …), at most 500 a sync; '
        + 'kube-scheduler filters and scores all 50 nodes for each Pod, one Pod a cycle; every Pod brings its own Events (Scheduled, Pulled, Created, Started), '
        + 'so Events outnumber Pods. Lists differ in cost: informers list with resourceVersion=0 from kube-apiserver\'s watch cache, while '
        + '`kubectl get pods` reads etcd, 500 keys a page. The node boxes count their Pods per state; zoom in for a dot per Pod.',
      zh: '50 个节点（页面提供的上限）上一个 1,000 副本的 Deployment。ReplicaSet 控制器按倍增的批次（1、2、4……）创建 Pod，每次同步最多 500 个；'
        + 'kube-scheduler 为每个 Pod 过滤并打分全部 50 个节点，每个周期调度一个 Pod；每个 Pod 都带来自己的 Event（Scheduled、Pulled、Created、Started），'
        + '所以 Event 比 Pod 还多。List 的代价各不相同：informer 以 resourceVersion=0 从 kube-apiserver 的 watch cache 列出，'
        + '而 `kubectl get pods` 读 etcd，每页 500 个键。节点框按状态统计 Pod 数；放大后每个 Pod 一个点。',
    },
    nodes: 50,
    pods: 1000,
    manifests: [web1000],
    steps: [{ do: 'create', file: web1000.file }, { do: 'runUntilIdle' }],
  },
];
