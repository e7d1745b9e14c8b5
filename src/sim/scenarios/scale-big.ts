// The catalog's scenarios at the sizes Kubernetes is tested at: 1,000 nodes and 30,000 Pods, and the scale
// envelope itself, 5,000 nodes and 150,000 Pods (kubernetes/community sig-scalability's thresholds; at most
// 110 Pods a node). Their texts are built from the size, so the tests run the same scenario, texts and
// all, at a few nodes. What they teach is measured by the model at the end (scale-lesson.ts), not stated
// as figures here: the texts say where to look.

import { numFeasibleNodesToFind } from '../scheduler/nodes-to-find.ts';
import { scaleScenario, type ScaleSize } from './scale-build.ts';
import type { LocalizedText, Scenario } from './scenario.ts';

const count = (n: number): string => n.toLocaleString('en-US');

function title({ nodes, pods }: ScaleSize): LocalizedText {
  return { en: `${count(nodes)} nodes, ${count(pods)} Pods`, zh: `${count(nodes)} 个节点、${count(pods)} 个 Pod` };
}

function description({ nodes, pods }: ScaleSize): LocalizedText {
  const perNode = count(Math.ceil(pods / nodes));
  const toFind = numFeasibleNodesToFind(0, nodes);
  const share = Math.round((toFind / nodes) * 100);
  return {
    en: `One Deployment of ${count(pods)} replicas on ${count(nodes)} nodes, about ${perNode} Pods a node (Kubernetes is tested up to 5,000 nodes, 150,000 Pods and 110 Pods a node). `
      + `What grows with size: for every Pod kube-scheduler checks the nodes in turn until ${count(toFind)} fit (percentageOfNodesToScore: ${share} % of all ${count(nodes)} nodes) and scores those, one Pod a cycle, so its attempts per second fall as nodes are added (the scheduler tab); `
      + 'every Pod writes its own Events (Scheduled, Pulled, Created, Started), so Events outnumber Pods (the keyspace); '
      + 'the Pods\' watch cache doubles its window while changes arrive faster than they age, and a watch from a resourceVersion older than the window gets 410 Gone (kube-apiserver\'s insides); '
      + 'a list from etcd (`kubectl get pods` without a resourceVersion) reads every Pod\'s bytes, 500 keys a page, while an informer\'s list with resourceVersion=0 is served from the watch cache. '
      + 'This is long: the page estimates its time and memory first and asks before starting; Stop pauses it.',
    zh: `${count(nodes)} 个节点上一个 ${count(pods)} 副本的 Deployment，每个节点约 ${perNode} 个 Pod（Kubernetes 测试到 5,000 个节点、150,000 个 Pod、每节点 110 个 Pod）。`
      + `随规模增长的：kube-scheduler 为每个 Pod 依次检查节点，直到 ${count(toFind)} 个可行（percentageOfNodesToScore：全部 ${count(nodes)} 个节点的 ${share}%）并为它们打分，每个周期调度一个 Pod，所以节点越多每秒尝试越少（调度器标签页）；`
      + '每个 Pod 都写自己的 Event（Scheduled、Pulled、Created、Started），所以 Event 比 Pod 还多（键空间）；'
      + 'Pod 的 watch cache 在变更来得比老化快时把窗口加倍，从早于窗口的 resourceVersion 开始的 watch 得到 410 Gone（kube-apiserver 内部）；'
      + '从 etcd 的 list（不带 resourceVersion 的 `kubectl get pods`）读出每个 Pod 的字节，每页 500 个键，而 informer 以 resourceVersion=0 的 list 由 watch cache 应答。'
      + '它运行很久：页面先估算所需的时间和内存并在开始前询问；“停止”会暂停它。',
  };
}

/** The scenario of `size` (`id` defaults to `scale-<pods>-pods`). */
export function bigScaleScenario(size: ScaleSize, id = `scale-${size.pods}-pods`): Scenario {
  return scaleScenario(id, size, title(size), description(size));
}

const bigScaleSizes: readonly ScaleSize[] = [{ nodes: 1000, pods: 30_000 }, { nodes: 5000, pods: 150_000 }];

export const bigScaleScenarios: readonly Scenario[] = bigScaleSizes.map((size) => bigScaleScenario(size));
