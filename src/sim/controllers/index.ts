// kube-controller-manager and its controllers: the public entry points.

export {
  joinKind, KubeControllerManager, kubeControllerManagerName, type ControllerContext, type KubeControllerManagerOptions,
} from './kube-controller-manager.ts';
export { ReplicaSetController, replicaSetControllerName } from './replicaset/replicaset-controller.ts';
export { DeploymentController, deploymentControllerName, deploymentMaxRetries } from './deployment/deployment-controller.ts';
export { computePodTemplateHash } from './deployment/pod-template-hash.ts';
export { ControllerExpectations, expectationsTimeout, burstReplicas, isPodAvailable, isPodReady } from './controller-utils.ts';
