// The kubelet (one per node) and its simulated container runtime.

export { goDuration, Kubelet, normalizeImage, runtimeDurations, type KubeletOptions } from './kubelet.ts';
