// The kubelet's runtime manager: what syncing a pod does with the runtime. The sandbox first, then each
// container in order: its image ensured, created (Created), started (Started), its postStart hook and
// its probes. A container that exits is restarted under its policy with the per-container back-off
// (10 s doubling to 5 min, CrashLoopBackOff while waiting; an entry idle for 2 × max starts over). A pod
// being deleted has its containers stopped in parallel (preStop hook, SIGTERM; a process that ignores it
// is killed at the end of the grace period), its last status written, then the final delete.
// Models pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod, computePodActions, doBackOff with
// pkg/util/flowcontrol/backoff.go), kuberuntime_container.go (startContainer, killContainer,
// executePreStopHook) and pkg/kubelet/kubelet.go (SyncPod, SyncTerminatingPod).

import { formatTimestamp } from '../api/time.ts';
import type { Pod } from '../api/types/core.ts';
import { podType, typed, type ClientHost, type EventRecorder } from '../client/index.ts';
import type { Co, Duration } from '../engine/index.ts';
import { goDuration, podDescription, podKey } from './format.ts';
import type { ImageManager } from './image-manager.ts';
import type { PodSyncer, PodWorker, RunningContainer } from './pod-workers.ts';
import type { ProberManager } from './prober-manager.ts';
import { runHook, type LifecycleHandler, type ProbeTarget } from './prober.ts';
import { runtimeDurations } from './runtime-service.ts';
import type { SimulatedRuntime } from './simulated-runtime.ts';
import type { StatusManager } from './status-manager.ts';

/** The kubelet's parts the runtime manager drives. */
interface RuntimeManagerParts {
  readonly runtime: SimulatedRuntime;
  readonly imageManager: ImageManager;
  readonly statusManager: StatusManager;
  readonly prober: ProberManager;
  isCurrent(w: PodWorker): boolean;
}

export class KubeGenericRuntimeManager implements PodSyncer {
  /** `sourceIP`: the node's bridge address, where probes and hooks come from. */
  constructor(private readonly host: ClientHost, private readonly recorder: EventRecorder, private readonly parts: RuntimeManagerParts,
    private readonly sourceIP: string) {}

  // Models pkg/kubelet/kubelet.go SyncPod and kuberuntime_manager.go SyncPod (sandbox, then containers in order).
  *syncPod(pod: Pod, w: PodWorker): Co<void> {
    yield* this.patchStatus(pod, w);
    if (!w.containers.some((c) => c.containerID)) yield* this.parts.runtime.runPodSandbox(pod);
    for (const c of w.containers) {
      if (w.terminating) return;
      if (c.state === 'running') continue;
      const started = yield* this.startContainer(pod, w, c);
      if (!started) return;
    }
    if (w.terminating) return;
    yield* this.patchStatus(pod, w);
  }

  patchStatus(pod: Pod, w: PodWorker): Co<void> {
    return this.parts.statusManager.patchStatus(pod, w);
  }

  deletePod(pod: Pod): Co<unknown> {
    return this.parts.statusManager.deletePod(pod);
  }

  stopContainerProcess(c: RunningContainer): void {
    this.parts.runtime.killContainerProcess(c);
  }

  allocatePodIP(): string {
    return this.parts.runtime.allocatePodIP();
  }

  /** Where a probe or hook of the container connects, and what it runs in. */
  probeTarget(w: PodWorker, c: RunningContainer): ProbeTarget {
    return {
      podIP: w.podIP, containerName: c.name, ports: c.spec.ports ?? [], server: c.server, ctx: this.parts.runtime.contextOf(w, c),
      sourceIP: this.sourceIP,
      log: (stream, text) => c.log.write(this.host.epochMs + this.host.now, stream, text),
    };
  }

  /** EnsureImageExists, then create and start one container. False when the pull failed or the pod is going away. */
  private *startContainer(pod: Pod, w: PodWorker, c: RunningContainer): Co<boolean> {
    const spec = c.spec;
    const ok = yield* this.parts.imageManager.ensureImageExists(pod, w, c, spec.imagePullPolicy);
    if (!ok || w.terminating) return false;
    const { runtime } = this.parts;
    yield* runtime.createContainer(pod, c);
    c.step = 'starting';
    this.recorder.event(typed(pod, podType), 'Normal', 'Created', `Created container ${c.name}`);
    if (!(yield* runtime.startContainer(w, pod, c))) return false;
    if (c.lastFromStatus) {
      // The runtime knows no earlier container of it: its status has no last state (restoredCounts).
      c.lastTerminated = undefined;
      c.lastFromStatus = undefined;
    }
    c.readyResult = !spec.readinessProbe;
    c.startedResult = !spec.startupProbe;
    this.recorder.event(typed(pod, podType), 'Normal', 'Started', `Started container ${c.name}`);
    const instance = c.instance;
    runtime.startMainProcess(pod, w, c);
    const postStart = (spec.lifecycle as { postStart?: LifecycleHandler } | undefined)?.postStart;
    if (postStart) {
      const hook = runHook(postStart, this.probeTarget(w, c), podDescription(w));
      if (hook.ms > 0) yield* this.host.sleep(hook.ms, { reason: 'post-start-hook', pod: podKey(pod), container: c.name });
      if (c.instance !== instance || w.terminating) return false;
      if (hook.error !== null) {
        // Models kuberuntime_container.go startContainer: FailedPostStartHook, then killContainer.
        this.recorder.event(typed(pod, podType), 'Warning', 'FailedPostStartHook', hook.error);
        const exitCode = yield* this.killContainer(pod, w, c, 'FailedPostStartHook', this.gracePeriodMs(pod));
        yield* this.containerDied(pod, w, c, exitCode, c.instance);
        return true;
      }
    }
    this.parts.prober.startProbes(pod, w, c);
    return true;
  }

  /** A failed liveness or startup probe: the container is killed and goes through its restart policy. */
  *killForRestart(pod: Pod, w: PodWorker, c: RunningContainer, message: string, graceMs: Duration): Co<void> {
    const exitCode = yield* this.killContainer(pod, w, c, message, graceMs);
    yield* this.containerDied(pod, w, c, exitCode, c.instance);
  }

  /**
   * Kills one running container: the Killing event, the preStop hook, then SIGTERM; a process that
   * ignores SIGTERM is killed when the grace period ends (exit code 137). Returns the exit code.
   */
  // Models kuberuntime_container.go killContainer and executePreStopHook.
  private *killContainer(pod: Pod, w: PodWorker, c: RunningContainer, message: string | null, graceMs: number): Co<number> {
    this.recorder.event(typed(pod, podType), 'Normal', 'Killing', message ?? `Stopping container ${c.name}`);
    const hookMs = this.runPreStop(pod, w, c, graceMs);
    const stop = this.parts.runtime.stopContainer(c, graceMs, hookMs);
    yield* this.host.sleep(stop.ms, { reason: 'container-stop', pod: podKey(pod), container: c.name });
    return stop.exitCode;
  }

  /** Runs the preStop hook (its failure is a FailedPreStopHook event); returns how long it ran. */
  private runPreStop(pod: Pod, w: PodWorker, c: RunningContainer, graceMs: number): number {
    const preStop = (c.spec.lifecycle as { preStop?: LifecycleHandler } | undefined)?.preStop;
    if (!preStop || c.state !== 'running') return 0;
    const hook = runHook(preStop, this.probeTarget(w, c), podDescription(w));
    if (hook.error !== null) this.recorder.event(typed(pod, podType), 'Warning', 'FailedPreStopHook', hook.error);
    return Math.min(hook.ms, graceMs);
  }

  // Models kuberuntime_manager.go computePodActions/doBackOff and pkg/util/flowcontrol/backoff.go
  // (IsInBackOffSince, Next: 10 s doubling to 5 min; an entry idle for 2 × max starts over).
  *containerDied(pod: Pod, w: PodWorker, c: RunningContainer, exitCode: number, instance: number): Co<void> {
    if (w.terminating || !this.parts.isCurrent(w) || c.state !== 'running') return;
    if (c.instance !== instance) return;
    this.parts.runtime.killContainerProcess(c);
    const finishedAt = this.host.now;
    c.state = 'terminated';
    c.terminated = {
      exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: c.startedAt,
      finishedAt: formatTimestamp(this.host.epochMs + finishedAt), containerID: c.containerID,
    };
    yield* this.patchStatus(pod, w);
    if (w.terminating || !this.parts.isCurrent(w)) return;
    const entry = c.restartBackoff;
    const policy = pod.spec.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && exitCode === 0)) return;
    c.lastTerminated = c.terminated;
    if (entry === undefined || finishedAt - entry.lastUpdate > 2 * runtimeDurations.crashLoopBackOffMax) {
      // Not in back-off: Next() starts the entry at 10 s and the container restarts at once.
      c.restartBackoff = { backoff: runtimeDurations.crashLoopBackOffInitial, lastUpdate: finishedAt };
      yield* this.restartContainer(pod, w, c);
      return;
    }
    const podDesc = podDescription(w);
    this.recorder.event(typed(pod, podType), 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podDesc}`);
    c.terminated = undefined;
    c.state = 'waiting';
    c.waitingReason = 'CrashLoopBackOff';
    c.waitingMessage = `back-off ${goDuration(entry.backoff)} restarting failed container=${c.name} pod=${podDesc}`;
    yield* this.patchStatus(pod, w);
    this.host.after(Math.max(0, finishedAt + entry.backoff - this.host.now), 'crashloop-backoff', () => {
      if (w.terminating || !this.parts.isCurrent(w)) return;
      c.restartBackoff = { backoff: Math.min(entry.backoff * 2, runtimeDurations.crashLoopBackOffMax), lastUpdate: finishedAt };
      this.host.spawn(this.restartContainer(pod, w, c));
    }, { background: true });
  }

  private *restartContainer(pod: Pod, w: PodWorker, c: RunningContainer): Co<void> {
    c.restartCount++;
    const started = yield* this.startContainer(pod, w, c);
    if (started && !w.terminating) yield* this.patchStatus(pod, w);
  }

  // Models kuberuntime_container.go killContainer (Killing event) and status_manager.go's final DELETE.
  // Containers are stopped in parallel: each runs its preStop hook, then gets SIGTERM; one that ignores it
  // (sleep, a shell) is killed when the grace period ends.
  *syncTerminatingPod(pod: Pod, w: PodWorker): Co<void> {
    const grace = this.gracePeriodMs(pod);
    const running = w.containers.filter((c) => c.state === 'running');
    for (const c of running) this.recorder.event(typed(pod, podType), 'Normal', 'Killing', `Stopping container ${c.name}`);
    const stops = running.map((c) => this.parts.runtime.stopContainer(c, grace, this.runPreStop(pod, w, c, grace)));
    if (running.length > 0) yield* this.host.sleep(Math.max(...stops.map((s) => s.ms)), { reason: 'container-stop', pod: podKey(pod) });
    const finishedAt = formatTimestamp(this.host.epochMs + this.host.now);
    running.forEach((c, i) => {
      const exitCode = stops[i]!.exitCode;
      c.state = 'terminated';
      c.terminated = { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: c.startedAt, finishedAt, containerID: c.containerID };
    });
    yield* this.patchStatus(pod, w);
    yield* this.deletePod(pod);
  }

  private gracePeriodMs(pod: Pod): number {
    return (pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
  }
}
