// The kubelet (one per node): pod workers, status manager, runtime manager over a CRI-shaped simulated
// runtime, prober, node status and node lease.

export { Kubelet } from './kubelet.ts';
