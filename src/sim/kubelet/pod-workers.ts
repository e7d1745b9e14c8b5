// The pod workers: one per pod bound to this node, keyed by UID, each holding the pod's containers as
// the kubelet tracks them. UpdatePod decides what a pod's change means: a new pod is synced (its sandbox
// and containers started), a pod given a deletionTimestamp is terminated (its containers killed with the
// grace period, then the final delete), a pod gone from the API has its containers stopped at once.
// Models pkg/kubelet/pod_workers.go (UpdatePod: SyncPod, SyncTerminatingPod; the podSyncer interface)
// and kubelet.go HandlePodRemoves.

import { formatTimestamp } from '../api/time.ts';
import type { Container, ContainerStateTerminated, ContainerStatus, Pod } from '../api/types/core.ts';
import { podType, typed, type ClientHost, type EventRecorder } from '../client/index.ts';
import type { Co, Duration } from '../engine/index.ts';
import { ContainerLog } from './container-log.ts';
import type { ImageConfig, ImageServer } from './image-registry.ts';
import type { ProbeWorker } from './prober-manager.ts';
import { runtimeDurations } from './runtime-service.ts';

type Termination = ContainerStateTerminated;

/**
 * One container of a pod worker: the runtime's side (its ID, process, log, files) and the kubelet's
 * (restart count, waiting reason, probe results), as the status manager reads them together.
 */
export interface RunningContainer {
  name: string;
  image: string;
  spec: Container;
  /** The image's config once pulled or found on the node. */
  config?: ImageConfig;
  /** The current instance's log, and the one before it (`--previous`). */
  log: ContainerLog;
  previousLog?: ContainerLog;
  /** The container's writable files (image files plus what its processes wrote). */
  files: Map<string, string>;
  /** Bumped at every start and stop: timers of an older instance find it changed and do nothing. */
  instance: number;
  /** What the main process serves once it is up; null while it serves nothing. */
  server: ImageServer | null;
  /** Whether the main process stops at SIGTERM (servers) or only at SIGKILL after the grace period (sleep, sh). */
  handlesTerm: boolean;
  probes: ProbeWorker[];
  /** Readiness probe result (true without a readiness probe). */
  readyResult: boolean;
  /** Startup probe result (true without a startup probe). */
  startedResult: boolean;
  /** The program's pending wake-up (its sleep) until it fires; re-armed when the kubelet restarts (its timers died with it). */
  wake?: { readonly at: number; readonly resume: () => void };
  containerID: string;
  imageID: string;
  startedAt: string | null;
  state: 'waiting' | 'running' | 'terminated';
  waitingReason: string;
  waitingMessage?: string;
  restartCount: number;
  /** The current termination, while state is 'terminated'. */
  terminated?: Termination;
  /** The previous termination (status lastState). */
  lastTerminated?: Termination;
  /** Set when lastTerminated came from the pod's status, not from this runtime (see restoredCounts). */
  lastFromStatus?: true;
  /** The runtime step of the newest start under way, for the UI; unset until its image is pulled or checked. */
  step?: 'pulling' | 'creating' | 'starting';
  /** Its restart back-off (flowcontrol.Backoff's entry for the container), from its first restart on. */
  restartBackoff?: BackoffEntry;
}

/** One entry of flowcontrol.Backoff: the current back-off and the time of the event that set it. */
interface BackoffEntry {
  backoff: Duration;
  lastUpdate: number;
}

export interface PodWorker {
  uid: string;
  namespace: string;
  name: string;
  startTime: string;
  podIP: string;
  containers: RunningContainer[];
  /**
   * The status manager's cache for this pod: the last status written, as `statusKey` of its JSON
   * (undefined for none yet).
   */
  lastStatus: number | undefined;
  /** Set once the pod is being killed: every step under way stops at its next check (the sync's context is cancelled). */
  terminating: boolean;
  /** The status manager's cache for this pod: each condition's status and transition time, by condition type. */
  conditionTimes: Record<string, { status: string; time: string } | undefined>;
  pullBackoff: Duration;
  /** The pod as last seen (for the server and probes). */
  pod: Pod;
}

/** A pod's container start in progress on a kubelet, as the UI shows it. */
export interface ContainerStep {
  /** `namespace/name`. */
  readonly pod: string;
  readonly container: string;
  /** `sandbox`, `pulling`, `creating`, `starting`, `stopping`, or the waiting reason (`ImagePullBackOff`, `CrashLoopBackOff`…). */
  readonly step: string;
}

/** What the workers call to act on a pod (pod_workers.go podSyncer, and the status manager's writes). */
export interface PodSyncer {
  /** Starts the pod's sandbox and containers. */
  syncPod(pod: Pod, w: PodWorker): Co<void>;
  /** Kills the containers with the grace period, then deletes the pod. */
  syncTerminatingPod(pod: Pod, w: PodWorker): Co<void>;
  /** Writes the pod's status when it changed. */
  patchStatus(pod: Pod, w: PodWorker): Co<void>;
  /** The final DELETE (grace 0, UID precondition). */
  deletePod(pod: Pod): Co<unknown>;
  /** The runtime stops the container's process (SIGTERM); the container stops on its own. */
  stopContainerProcess(c: RunningContainer): void;
  /** The next pod IP of the node's pod CIDR. */
  allocatePodIP(): string;
}

/**
 * A new worker's restart count and last termination, from the container's status in the API when the
 * pod ran before this kubelet's runtime knew it (the node rebooted, or the kubelet came up on a new
 * machine): both carry over; a container that was running and is gone from the runtime was terminated,
 * reason unknown, and counts one restart more, so the pod stays Running instead of going back to Pending.
 * `lastFromStatus` marks a last termination the runtime does not have: once the container runs again, its
 * status comes from the runtime, which knows no earlier container, and lastState is empty.
 */
// Models pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses (the old statuses as defaults; a
// previously running container not found in the runtime: ContainerStatusUnknown, exit code 137).
// Deviation: upstream then takes the restart count of the started container from its log directory
// (calcRestartCountByLogDir: the logs outlive a reboot); here it carries on from the status.
function restoredCounts(old: ContainerStatus | undefined, deleting: boolean): Pick<RunningContainer, 'restartCount' | 'lastTerminated' | 'lastFromStatus'> {
  if (!old) return { restartCount: 0 };
  // A terminated state is kept as the last termination (upstream shows it as the state until the container starts).
  if (old.state?.terminated) return { restartCount: old.restartCount, lastTerminated: old.state.terminated, lastFromStatus: true };
  const last = old.lastState?.terminated;
  if (last) return { restartCount: old.restartCount, lastTerminated: last, lastFromStatus: true };
  if (!old.state?.running) return { restartCount: old.restartCount };
  return {
    restartCount: old.restartCount + (deleting ? 0 : 1),
    lastTerminated: {
      exitCode: 137, reason: 'ContainerStatusUnknown',
      message: 'The container could not be located when the pod was deleted.  The container used to be Running',
      startedAt: null, finishedAt: null,
    },
    lastFromStatus: true,
  };
}

export class PodWorkers {
  private readonly workers = new Map<string, PodWorker>();

  constructor(private readonly host: ClientHost, private readonly recorder: EventRecorder, private readonly syncer: PodSyncer) {}

  /** Whether `w` is still the pod's worker (not removed, nor replaced after a restart). */
  isCurrent(w: PodWorker): boolean {
    return this.workers.get(w.uid) === w;
  }

  all(): IterableIterator<PodWorker> {
    return this.workers.values();
  }

  workerOf(namespace: string, name: string): PodWorker | undefined {
    for (const w of this.workers.values()) if (w.namespace === namespace && w.name === name) return w;
    return undefined;
  }

  /** The node lost power: every container is gone. */
  clear(): void {
    this.workers.clear();
  }

  /** A restarted kubelet keeps the pods whose containers all ran on (the runtime outlived it); the others start over. */
  keepRunning(): PodWorker[] {
    const kept: PodWorker[] = [];
    for (const [uid, w] of this.workers) {
      if (w.terminating || !w.containers.every((c) => c.state === 'running')) this.workers.delete(uid);
      else kept.push(w);
    }
    return kept;
  }

  /**
   * UpdatePod: a pod added or changed. Deleting: its worker terminates it (a pod without a worker is
   * deleted at once); terminal: nothing; a kept pod after a restart: its status is written again; new:
   * a worker syncs it.
   */
  updatePod(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const worker = this.workers.get(uid);
    if (worker) worker.pod = pod;
    if (pod.metadata.deletionTimestamp) {
      if (worker && !worker.terminating) {
        worker.terminating = true;
        this.host.spawn(this.syncer.syncTerminatingPod(pod, worker));
      } else if (!worker) {
        this.host.spawn(this.syncer.deletePod(pod));
      }
      return;
    }
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    if (worker && worker.lastStatus === undefined && worker.containers.every((c) => c.state === 'running')) {
      this.host.spawn(this.syncer.patchStatus(pod, worker));
      return;
    }
    if (!worker) {
      const old = new Map((pod.status?.containerStatuses ?? []).map((cs) => [cs.name, cs]));
      const w: PodWorker = {
        uid, namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name ?? '',
        // The status manager keeps a start time once written (updateStatusInternal).
        startTime: pod.status?.startTime ?? formatTimestamp(this.host.epochMs + this.host.now),
        podIP: this.syncer.allocatePodIP(),
        containers: pod.spec.containers.map((c): RunningContainer => ({
          name: c.name, image: c.image ?? '', spec: c, containerID: '', imageID: '', startedAt: null,
          state: 'waiting', waitingReason: 'ContainerCreating',
          ...restoredCounts(old.get(c.name), pod.metadata.deletionTimestamp != null),
          log: new ContainerLog(), files: new Map(), instance: 0, server: null, handlesTerm: true, probes: [],
          readyResult: !c.readinessProbe, startedResult: !c.startupProbe,
        })),
        lastStatus: undefined, terminating: false, conditionTimes: {}, pullBackoff: runtimeDurations.imagePullBackOffInitial, pod,
      };
      this.workers.set(uid, w);
      this.host.spawn(this.syncer.syncPod(pod, w));
    }
  }

  /**
   * The pod is gone from the API (a grace-0 delete, or the kubelet's own final delete): its containers
   * still running are stopped, with the Killing event the real kubelet records.
   */
  // Models pkg/kubelet/kubelet.go HandlePodRemoves → pod_workers.go (kill with the pod's grace) and
  // kuberuntime_container.go killContainer ("Stopping container X").
  removePod(pod: Pod): void {
    const w = this.workers.get(pod.metadata.uid ?? '');
    if (!w) return;
    this.workers.delete(w.uid);
    if (w.terminating) return;
    w.terminating = true;
    for (const c of w.containers) {
      if (c.state !== 'running') continue;
      this.recorder.event(typed(pod, podType), 'Normal', 'Killing', `Stopping container ${c.name}`);
      this.syncer.stopContainerProcess(c);
    }
  }

  /**
   * The first container of each pod that is not running yet or is being stopped, with the runtime step it
   * is at; read-only, for the UI. Before its image is pulled a new pod is creating its sandbox.
   */
  containerSteps(): ContainerStep[] {
    // Sampled after every delivery to the kubelet: no allocation for the pods whose containers all run.
    const steps: ContainerStep[] = [];
    for (const w of this.workers.values()) {
      let waiting: RunningContainer | undefined;
      let running = false;
      for (const c of w.containers) {
        if (c.state === 'running') running = true;
        else if (c.state === 'waiting' && waiting === undefined) waiting = c;
      }
      if (w.terminating) {
        if (running) steps.push({ pod: `${w.namespace}/${w.name}`, container: w.containers[0]?.name ?? '', step: 'stopping' });
        continue;
      }
      if (waiting === undefined) continue;
      const step = waiting.waitingReason !== 'ContainerCreating' ? waiting.waitingReason : waiting.step ?? (waiting.containerID ? 'pulling' : 'sandbox');
      steps.push({ pod: `${w.namespace}/${w.name}`, container: waiting.name, step });
    }
    return steps;
  }
}
