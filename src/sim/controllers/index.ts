// kube-controller-manager and its controllers: the public entry points.

export { KubeControllerManager } from './kube-controller-manager.ts';
