// The status manager: generates a pod's API status from its containers (phase, conditions in the
// kubelet's order, container statuses) and writes it when it changed: GET the pod, merge, and PATCH the
// difference to `pods/<name>/status`; once a terminated pod's status is written, the final DELETE with
// grace 0 and the pod's UID as precondition.
// Models pkg/kubelet/status/status_manager.go (syncPod with needsUpdate, mergePodStatus; the final
// delete of canBeDeleted), pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, getPhase),
// pkg/kubelet/status/generate.go (GenerateContainersReadyCondition) and pkg/util/pod/pod.go
// (PatchPodStatus, status-patch.ts).
// Deviation: the status manager's 10 s syncBatch reconcile is not modelled; each change is synced at once.

import { isStatusError } from '../api/errors.ts';
import { formatTimestamp } from '../api/time.ts';
import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../api/types/core.ts';
import type { Status } from '../api/types/meta.ts';
import type { ClientHost, ResourceClient } from '../client/index.ts';
import type { Co } from '../engine/index.ts';
import type { PodWorker, RunningContainer } from './pod-workers.ts';
import { normalizeImage } from './simulated-runtime.ts';
import { mergePodStatus, podStatusPatch } from './status-patch.ts';

/**
 * getPhase: Pending while a container waits without having run; Running while one runs or, under
 * restartPolicy Always, while exited containers are to be restarted; Succeeded or Failed once all
 * stopped for good.
 */
function podPhase(pod: Pod, containers: readonly RunningContainer[]): PodStatus['phase'] {
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of containers) {
    if (c.state === 'running') running++;
    else if (c.state === 'terminated') {
      stopped++;
      if (c.terminated?.exitCode === 0) succeeded++;
    } else if (c.lastTerminated) stopped++;
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped === 0) return 'Pending';
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (policy === 'Always') return 'Running';
  if (stopped === succeeded) return 'Succeeded';
  return policy === 'Never' ? 'Failed' : 'Running';
}

/** Whether a container counts as ready: running, started and (with a readiness probe) passing it. */
function containerReady(c: RunningContainer): boolean {
  return c.state === 'running' && c.startedResult && c.readyResult;
}

/**
 * What the status manager keeps of the last status it wrote, to tell whether a new one differs: a 53-bit
 * hash of the status's JSON (two 32-bit multiply-xorshift lanes mixed into one), not the ~1 KiB JSON.
 * Two different statuses compare equal only if their hashes collide (about 2⁻⁵³ for a pair).
 */
export function statusKey(json: string): number {
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    a = Math.imul(a ^ c, 0x5bd1e995);
    b = Math.imul(b ^ c, 0x27d4eb2f);
  }
  a = Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) ^ Math.imul(b ^ (b >>> 13), 0x297a2d39);
  b = Math.imul(b ^ (b >>> 16), 0x2c1b3c6d) ^ Math.imul(a ^ (a >>> 13), 0x297a2d39);
  return (b & 0x1fffff) * 2 ** 32 + (a >>> 0);
}

export class StatusManager {
  /** `hostIP`: the node's InternalIP. */
  constructor(private readonly host: ClientHost, private readonly podsApi: ResourceClient<Pod>, private readonly hostIP: string) {}

  /** generateAPIPodStatus: phase, conditions in kubelet order, container statuses. */
  podStatus(pod: Pod, w: PodWorker): PodStatus {
    const t = formatTimestamp(this.host.epochMs + this.host.now);
    const terminated = w.containers.every((c) => c.state === 'terminated');
    const phase = terminated && w.terminating ? 'Succeeded' : podPhase(pod, w.containers);
    const unready = w.containers.filter((c) => !containerReady(c)).map((c) => c.name);
    const ready = unready.length === 0;
    const condition = (type: string, ok: boolean, reason?: string, message?: string): PodCondition => {
      const status = ok ? 'True' : 'False';
      const prev = w.conditionTimes[type];
      const fromPod = pod.status?.conditions?.find((x) => x.type === type);
      const time = prev && prev.status === status ? prev.time
        : (!prev && fromPod && fromPod.status === status && fromPod.lastTransitionTime ? fromPod.lastTransitionTime : t);
      w.conditionTimes[type] = { status, time };
      return { type, status, lastProbeTime: null, lastTransitionTime: time, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
    };
    // Models pkg/kubelet/status/generate.go GenerateContainersReadyCondition: a terminal pod is PodCompleted / PodFailed.
    const notReady: [string, string | undefined] = phase === 'Succeeded' ? ['PodCompleted', undefined]
      : phase === 'Failed' ? ['PodFailed', undefined]
        : ['ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`];
    const readyNow = ready && phase !== 'Succeeded' && phase !== 'Failed';
    const conditions = [
      condition('Initialized', true),
      condition('Ready', readyNow, readyNow ? undefined : notReady[0], readyNow ? undefined : notReady[1]),
      condition('ContainersReady', readyNow, readyNow ? undefined : notReady[0], readyNow ? undefined : notReady[1]),
      condition('PodScheduled', true),
    ];
    const image = (c: RunningContainer) => (c.imageID ? normalizeImage(c.image) : c.image);
    const containerStatuses: ContainerStatus[] = w.containers.map((c) => {
      const state = c.state === 'running' ? { running: { startedAt: c.startedAt } }
        : c.state === 'terminated' ? { terminated: c.terminated ?? { exitCode: 0, reason: 'Completed', startedAt: c.startedAt, finishedAt: t, containerID: c.containerID } }
          : { waiting: { reason: c.waitingReason, ...(c.waitingMessage ? { message: c.waitingMessage } : {}) } };
      const lastState = c.lastTerminated ? { terminated: c.lastTerminated } : {};
      return {
        name: c.name, state, lastState, ready: containerReady(c), restartCount: c.restartCount,
        image: image(c), imageID: c.imageID, ...(c.containerID ? { containerID: c.containerID } : {}), started: c.state === 'running' && c.startedResult,
      };
    });
    return {
      phase,
      conditions,
      // hostIPs is not set: the PodHostIPs feature gate is alpha (off) in 1.28.
      hostIP: this.hostIP,
      podIP: w.podIP, podIPs: [{ ip: w.podIP }],
      startTime: w.startTime,
      containerStatuses,
    };
  }

  /** syncPod: when the status changed (needsUpdate), GET the pod, merge (mergePodStatus), and PATCH the difference. */
  *patchStatus(pod: Pod, w: PodWorker): Co<void> {
    const status = this.podStatus(pod, w);
    const key = statusKey(JSON.stringify(status));
    if (key === w.lastStatus) return;
    w.lastStatus = key;
    try {
      const current = yield* this.podsApi.get(w.namespace, w.name);
      // The pod was deleted and created again under the same name: not this worker's any more.
      if (current.metadata.uid !== w.uid) return;
      const patch = podStatusPatch(w.uid, current.status, mergePodStatus(current.status, status));
      if (patch === null) return;
      yield* this.podsApi.patch(w.namespace, w.name, 'application/strategic-merge-patch+json', patch, { subresource: 'status' });
    } catch (err) {
      if (!isStatusError(err)) throw err;
    }
  }

  /** The final delete of a terminated pod: grace 0, only this UID (a pod made again under the name is not touched). */
  *deletePod(pod: Pod): Co<Pod | Status | undefined> {
    try {
      return yield* this.podsApi.delete(pod.metadata.namespace, pod.metadata.name ?? '', {
        gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? '' },
      });
    } catch (err) {
      if (!isStatusError(err)) throw err;
      return undefined;
    }
  }
}
