// The catalog's scenarios at scale: one Deployment large enough that what is cheap for one Pod shows its
// cost. "1,000 Pods on 50 nodes" fits a tab in minutes; the Kubernetes scale envelope's sizes (1,000 nodes
// and 30,000 Pods, 5,000 nodes and 150,000 Pods) are in scale-big.ts. Each names the nodes and Pods it
// ends with, so the page can show their progress while it runs; all are built by `scaleScenario`
// (scale-build.ts).

import { bigScaleScenarios } from './scale-big.ts';
import { scaleScenario } from './scale-build.ts';
import type { Scenario } from './scenario.ts';

const scale1000 = scaleScenario('scale-1000-pods', { nodes: 50, pods: 1000 }, { en: '1,000 Pods on 50 nodes', zh: '50 个节点上的 1,000 个 Pod' }, {
  en: 'One Deployment of 1,000 replicas on 50 nodes. The ReplicaSet controller creates Pods in doubling batches (1, 2, 4 …), at most 500 a sync; '
    + 'kube-scheduler filters and scores all 50 nodes for each Pod, one Pod a cycle; every Pod brings its own Events (Scheduled, Pulled, Created, Started), '
    + 'so Events outnumber Pods. Lists differ in cost: informers list with resourceVersion=0 from kube-apiserver\'s watch cache, while '
    + '`kubectl get pods` reads etcd, 500 keys a page. The node boxes count their Pods per state; zoom in for a dot per Pod.',
  zh: '50 个节点上一个 1,000 副本的 Deployment。ReplicaSet 控制器按倍增的批次（1、2、4……）创建 Pod，每次同步最多 500 个；'
    + 'kube-scheduler 为每个 Pod 过滤并打分全部 50 个节点，每个周期调度一个 Pod；每个 Pod 都带来自己的 Event（Scheduled、Pulled、Created、Started），'
    + '所以 Event 比 Pod 还多。List 的代价各不相同：informer 以 resourceVersion=0 从 kube-apiserver 的 watch cache 列出，'
    + '而 `kubectl get pods` 读 etcd，每页 500 个键。节点框按状态统计 Pod 数；放大后每个 Pod 一个点。',
});

export const scaleScenarios: readonly Scenario[] = [scale1000, ...bigScaleScenarios];
