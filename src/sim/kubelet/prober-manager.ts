// The prober manager: one worker per probe of a running container. The first probe runs at
// initialDelaySeconds after the start, then every periodSeconds; a result counts once it came
// failureThreshold (or successThreshold) times in a row. Liveness and readiness wait for the startup
// probe. A readiness change or a started container is a status write; a failed liveness or startup probe
// kills the container (it restarts under its back-off). Each failure is an Unhealthy event.
// Models pkg/kubelet/prober/prober_manager.go (AddPod) and worker.go (run, doProbe), and
// kuberuntime_manager.go computePodActions (a failed liveness or startup probe kills the container).
// Deviation: upstream workers tick from the pod's addition (their phase is not the container's start).

import type { Pod, Probe } from '../api/types/core.ts';
import { podType, typed, type ClientHost, type EventRecorder, type TimerHandle } from '../client/index.ts';
import type { Co, Duration } from '../engine/index.ts';
import type { PodWorker, RunningContainer } from './pod-workers.ts';
import { runProbe, type ProbeTarget } from './prober.ts';

/** One probe worker's state: the last result and how many times in a row it came. */
export interface ProbeWorker {
  readonly type: 'startup' | 'liveness' | 'readiness';
  readonly probe: Probe;
  last: boolean | null;
  run: number;
  timer: TimerHandle | null;
}

const probeTypes = { startup: 'Startup', liveness: 'Liveness', readiness: 'Readiness' } as const;

/** What the prober reads and calls back. */
interface ProberHost {
  /** Where a probe of the container connects and what it runs in. */
  probeTarget(w: PodWorker, c: RunningContainer): ProbeTarget;
  isCurrent(w: PodWorker): boolean;
  patchStatus(pod: Pod, w: PodWorker): Co<void>;
  /** A failed liveness or startup probe: kill the container with `graceMs` (and let it restart). */
  killForRestart(pod: Pod, w: PodWorker, c: RunningContainer, message: string, graceMs: Duration): Co<void>;
}

export class ProberManager {
  constructor(private readonly host: ClientHost, private readonly recorder: EventRecorder, private readonly kubelet: ProberHost) {}

  /** AddPod for one container just started: its probes' workers, liveness and readiness first. */
  startProbes(pod: Pod, w: PodWorker, c: RunningContainer): void {
    const instance = c.instance;
    // Liveness and readiness first: at an instant where the startup probe succeeds they have already
    // looked and wait their next period, as upstream's workers (which skip until started) do.
    for (const type of ['liveness', 'readiness', 'startup'] as const) {
      const probe = c.spec[`${type}Probe`];
      if (!probe) continue;
      const worker: ProbeWorker = { type, probe, last: null, run: 0, timer: null };
      c.probes.push(worker);
      worker.timer = this.host.after((probe.initialDelaySeconds ?? 0) * 1000, `${type}-probe`, () => this.probeTick(pod, w, c, worker, instance), { background: true });
    }
  }

  private probeTick(pod: Pod, w: PodWorker, c: RunningContainer, worker: ProbeWorker, instance: number): void {
    if (c.instance !== instance || c.state !== 'running' || !this.kubelet.isCurrent(w) || w.terminating) return;
    const period = (worker.probe.periodSeconds ?? 10) * 1000;
    const again = () => {
      worker.timer = this.host.after(period, `${worker.type}-probe`, () => this.probeTick(pod, w, c, worker, instance), { background: true });
    };
    if (worker.type !== 'startup' && !c.startedResult) {
      again();
      return;
    }
    const result = runProbe(worker.probe, this.kubelet.probeTarget(w, c));
    if (!result.ok) this.recorder.event(typed(w.pod, podType), 'Warning', 'Unhealthy', `${probeTypes[worker.type]} probe failed: ${result.output}`);
    worker.run = worker.last === result.ok ? worker.run + 1 : 1;
    worker.last = result.ok;
    const threshold = result.ok ? worker.probe.successThreshold ?? 1 : worker.probe.failureThreshold ?? 3;
    if (worker.run < threshold) {
      again();
      return;
    }
    if (worker.type === 'readiness') {
      if (c.readyResult !== result.ok) {
        c.readyResult = result.ok;
        this.host.spawn(this.kubelet.patchStatus(w.pod, w));
      }
      again();
      return;
    }
    if (result.ok) {
      if (worker.type === 'startup' && !c.startedResult) {
        // The startup probe is done: liveness and readiness take over.
        c.startedResult = true;
        this.host.spawn(this.kubelet.patchStatus(w.pod, w));
        return;
      }
      again();
      return;
    }
    const message = `Container ${c.name} failed ${worker.type} probe, will be restarted`;
    this.host.spawn(this.kubelet.killForRestart(w.pod, w, c, message, (worker.probe.terminationGracePeriodSeconds ?? w.pod.spec.terminationGracePeriodSeconds ?? 30) * 1000));
  }
}
