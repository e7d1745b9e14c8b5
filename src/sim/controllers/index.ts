// kube-controller-manager and its controllers: the public entry points.

export {
  allControllers, joinKind, KubeControllerManager, kubeControllerManagerName, type ControllerContext, type ControllerName,
  type KubeControllerManagerOptions,
} from './kube-controller-manager.ts';
export { GarbageCollector, garbageCollectorControllerName, monitoredResources } from './garbagecollector/garbage-collector.ts';
export {
  NodeLifecycleController, nodeLifecycleControllerName, nodeMonitorGracePeriod, nodeMonitorPeriod, taintKeys,
} from './nodelifecycle/node-lifecycle-controller.ts';
export { NamespaceController, namespaceControllerName, namespaceDeletionGracePeriod } from './namespace/namespace-controller.ts';
export { NoExecuteTaintManager } from './nodelifecycle/taint-manager.ts';
export { ReplicaSetController, replicaSetControllerName } from './replicaset/replicaset-controller.ts';
export { DeploymentController, deploymentControllerName, deploymentMaxRetries } from './deployment/deployment-controller.ts';
export { computePodTemplateHash } from './deployment/pod-template-hash.ts';
export { ControllerExpectations, expectationsTimeout, burstReplicas, isPodAvailable, isPodReady } from './controller-utils.ts';
