// The kubelet (one per node) and its simulated container runtime.

export { Kubelet } from './kubelet.ts';
