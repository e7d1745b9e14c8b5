// The node status of a kubelet: the Node it registers (labels, pod CIDR, capacity and allocatable, the
// four conditions, addresses, node info, the images on the node) and, when the Node already exists (a
// restart), the fresh conditions patched into its status at once.
// Models pkg/kubelet/kubelet_node_status.go (registerWithAPIServer, initialNode, tryRegisterWithAPIServer,
// tryUpdateNodeStatus) and pkg/kubelet/nodestatus/setters.go (the conditions' reasons and messages).
// Not modelled: the 10 s "only when changed" status loop (nothing else changes it, so it would never
// write) and the 5 min status report.

import { isStatusError } from '../api/errors.ts';
import { formatTimestamp } from '../api/time.ts';
import type { Node } from '../api/types/core.ts';
import type { ClientHost, ResourceClient } from '../client/index.ts';
import type { Co } from '../engine/index.ts';
import type { ImageService } from './runtime-service.ts';
import { normalizeImage } from './simulated-runtime.ts';

interface NodeStatusOptions {
  readonly node: string;
  /** The node's index (1-based): its pod CIDR `10.244.<index-1>.0/24` and InternalIP `172.18.0.<index+1>`. */
  readonly index: number;
  readonly cpu?: string;
  readonly memory?: string;
  readonly pods?: string;
  readonly labels?: Record<string, string>;
  readonly taints?: NonNullable<Node['spec']>['taints'];
}

/** registerWithAPIServer's first step and its bound: the wait doubles after each try, up to 7 s. */
const registerStepMs = 100;
const registerStepMaxMs = 7_000;

export class NodeStatusUpdater {
  /** The Node is in the API (created, or found at a restart). */
  registered = false;
  /** The Node's UID (the node lease's owner). */
  nodeUid = '';

  constructor(private readonly host: ClientHost, private readonly nodes: ResourceClient<Node>, private readonly options: NodeStatusOptions,
    private readonly images: ImageService) {}

  get podCIDR(): string {
    return `10.244.${this.options.index - 1}.0/24`;
  }

  get internalIP(): string {
    return `172.18.0.${this.options.index + 1}`;
  }

  // Models pkg/kubelet/kubelet_node_status.go initialNode and the nodestatus setters.
  nodeObject(): Node {
    const { node, labels, taints } = this.options;
    const t = formatTimestamp(this.host.epochMs + this.host.now);
    const cpu = this.options.cpu ?? '4';
    const memory = this.options.memory ?? '8Gi';
    const pods = this.options.pods ?? '110';
    const condition = (type: string, status: 'True' | 'False', reason: string, message: string) => ({
      type, status, lastHeartbeatTime: t, lastTransitionTime: t, reason, message,
    });
    return {
      apiVersion: 'v1', kind: 'Node',
      metadata: {
        name: node,
        labels: {
          'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': node, 'kubernetes.io/os': 'linux',
          ...labels,
        },
        annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
      },
      spec: { podCIDR: this.podCIDR, podCIDRs: [this.podCIDR], ...(taints ? { taints } : {}) },
      status: {
        capacity: { cpu, 'ephemeral-storage': '102625208Ki', 'hugepages-2Mi': '0', memory, pods },
        allocatable: { cpu, 'ephemeral-storage': '102625208Ki', 'hugepages-2Mi': '0', memory, pods },
        conditions: [
          condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
          condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
          condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
          condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
        ],
        addresses: [{ type: 'InternalIP', address: this.internalIP }, { type: 'Hostname', address: node }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: '', systemUUID: '', bootID: '', kernelVersion: '6.5.0', osImage: 'Debian GNU/Linux 12 (bookworm)',
          containerRuntimeVersion: 'containerd://1.7.1', kubeletVersion: 'v1.28.15', kubeProxyVersion: 'v1.28.15',
          operatingSystem: 'linux', architecture: 'amd64',
        },
        images: this.images.listImages().map((i) => ({ names: [normalizeImage(i)], sizeBytes: 50_000_000 })),
      },
    };
  }

  /**
   * registerWithAPIServer: tries to register until it has, waiting 200 ms, 400 ms, … (doubling, at most
   * 7 s) after each failed try (a 429 from a thousand kubelets registering at once, once the client's own
   * Retry-After retries are spent). Upstream also sleeps 100 ms before the first try; the model tries at
   * once (every seed's boot starts with it).
   */
  *registerNode(): Co<void> {
    let step = registerStepMs;
    while (!(yield* this.tryRegister())) {
      step = Math.min(2 * step, registerStepMaxMs);
      yield* this.host.sleep(step, { reason: 'register-node' });
    }
    this.registered = true;
  }

  /**
   * tryRegisterWithAPIServer: create the Node; if it exists (a restart), read its UID and patch fresh
   * conditions. False when the API answered with an error ("Unable to register node with API server").
   */
  private *tryRegister(): Co<boolean> {
    const nodes = this.nodes;
    try {
      this.nodeUid = (yield* nodes.create(undefined, this.nodeObject())).metadata.uid ?? '';
      return true;
    } catch (err) {
      if (!isStatusError(err)) throw err;
      if (err.code !== 409) return false;
    }
    try {
      this.nodeUid = (yield* nodes.get(undefined, this.options.node)).metadata.uid ?? '';
    } catch (err) {
      if (!isStatusError(err)) throw err;
      return false;
    }
    // The node exists (a restart): tryUpdateNodeStatus reports fresh conditions at once.
    try {
      yield* nodes.patch(undefined, this.options.node, 'application/strategic-merge-patch+json',
        { status: { conditions: this.nodeObject().status?.conditions } }, { subresource: 'status' });
    } catch (patchErr) {
      if (!isStatusError(patchErr)) throw patchErr;
    }
    return true;
  }
}
