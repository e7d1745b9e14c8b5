// The simulated container runtime (containerd as the kubelet sees it through the CRI): sandboxes take
// 400 ms, a create 60 ms, a start 80 ms, a pull 1.5–4.5 s; a container runs its program in virtual time
// (programs.ts: `sleep 10` ends after ten seconds, nginx serves until stopped) or, for an image made to
// crash, exits after its run time; images are resolved in the modelled registry (image-registry.ts).
// A process that ends is reported to the kubelet (as the PLEG's ContainerDied would be).
// Models containerd's CRI plugin behind k8s.io/cri-api RuntimeService and ImageService (runtime-service.ts).

import { formatTimestamp } from '../api/time.ts';
import type { Pod } from '../api/types/core.ts';
import type { ClientHost } from '../client/index.ts';
import type { Co, Duration } from '../engine/index.ts';
import { ContainerLog } from './container-log.ts';
import { imageServers, localImage, notFoundError, resolveImage } from './image-registry.ts';
import { podKey } from './format.ts';
import type { PodWorker, RunningContainer } from './pod-workers.ts';
import { containerArgv, mainProgram, runMain } from './programs.ts';
import type { ContainerContext, Program } from './programs/program.ts';
import { runtimeDurations, type ImageService, type PullResult, type RuntimeService, type StopResult, type SyncContext } from './runtime-service.ts';

/** How the containers of a crashing image end: after `afterMs` of running, with `exitCode`. */
export interface CrashBehaviour {
  readonly afterMs: Duration;
  readonly exitCode: number;
}

/** The fully qualified reference a container runtime reports (`nginx:1.14.2` → `docker.io/library/nginx:1.14.2`). */
export function normalizeImage(image: string): string {
  let ref = image;
  const slash = ref.indexOf('/');
  const first = slash < 0 ? '' : ref.slice(0, slash);
  if (slash < 0) ref = `docker.io/library/${ref}`;
  else if (!first.includes('.') && !first.includes(':') && first !== 'localhost') ref = `docker.io/${ref}`;
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  if (!last.includes(':') && !ref.includes('@')) ref = `${ref}:latest`;
  return ref;
}

/** The container context programs see: the pod's name, IP, env and the container's files. */
function envOf(pod: Pod, c: RunningContainer): [string, string][] {
  const env = new Map<string, string>([...(c.config?.env ?? []), ['HOSTNAME', pod.metadata.name ?? '']]);
  for (const e of c.spec.env ?? []) if (e.value !== undefined) env.set(e.name, e.value);
  env.set('KUBERNETES_SERVICE_HOST', '10.96.0.1');
  env.set('KUBERNETES_SERVICE_PORT', '443');
  env.set('KUBERNETES_SERVICE_PORT_HTTPS', '443');
  env.set('KUBERNETES_PORT', 'tcp://10.96.0.1:443');
  env.set('KUBERNETES_PORT_443_TCP', 'tcp://10.96.0.1:443');
  env.set('KUBERNETES_PORT_443_TCP_PROTO', 'tcp');
  env.set('KUBERNETES_PORT_443_TCP_PORT', '443');
  env.set('KUBERNETES_PORT_443_TCP_ADDR', '10.96.0.1');
  env.set('HOME', '/root');
  return [...env];
}

/** What the runtime tells the kubelet, and asks it. */
interface RuntimeEvents {
  /** A container's process ended with `exitCode` (PLEG ContainerDied); `instance` is the run that ended. */
  containerDied(pod: Pod, w: PodWorker, c: RunningContainer, exitCode: number, instance: number): Co<void>;
  /** Whether the pod's worker is still the kubelet's (a removed pod's processes stop at their next step). */
  isCurrent(w: PodWorker): boolean;
}

interface SimulatedRuntimeOptions {
  /** The node's index (1-based): pod IPs are `10.244.<index-1>.<n>`. */
  readonly index: number;
  /** The node's cpu count as the programs see it (`nproc`). */
  readonly cpu: string | undefined;
  readonly images: readonly string[];
  readonly unpullableImages: readonly string[];
}

export class SimulatedRuntime implements RuntimeService, ImageService {
  private readonly images: Set<string>;
  private readonly unpullable: Set<string>;
  private readonly crashing = new Map<string, CrashBehaviour>();
  private nextIP = 2;

  constructor(private readonly host: ClientHost, private readonly options: SimulatedRuntimeOptions, private readonly events: RuntimeEvents) {
    this.images = new Set(options.images);
    this.unpullable = new Set(options.unpullableImages);
  }

  /** Pulls of `image` fail from now on (ErrImagePull, then ImagePullBackOff). */
  markUnpullable(image: string): void {
    this.unpullable.add(image);
  }

  /** Containers of `image` started from now on exit after `crash.afterMs` with `crash.exitCode`. */
  makeImageCrash(image: string, crash: CrashBehaviour): void {
    this.crashing.set(image, crash);
  }

  /** The next IP of the node's pod CIDR (the CNI plugin's, at sandbox creation). */
  allocatePodIP(): string {
    return `10.244.${this.options.index - 1}.${this.nextIP++}`;
  }

  *runPodSandbox(pod: Pod): Co<void> {
    yield* this.host.sleep(runtimeDurations.sandbox, { reason: 'pod-sandbox', pod: podKey(pod) });
  }

  *createContainer(pod: Pod, c: RunningContainer): Co<void> {
    yield* this.host.sleep(runtimeDurations.create, { reason: 'container-create', pod: podKey(pod), container: c.name });
    c.containerID = `containerd://${this.hex(64)}`;
  }

  *startContainer(ctx: SyncContext, pod: Pod, c: RunningContainer): Co<boolean> {
    yield* this.host.sleep(runtimeDurations.start, { reason: 'container-start', pod: podKey(pod), container: c.name });
    if (ctx.terminating) return false;
    c.state = 'running';
    c.terminated = undefined;
    c.startedAt = this.timestamp();
    c.instance++;
    if (c.restartCount > 0) {
      c.previousLog = c.log;
      c.log = new ContainerLog();
    }
    c.server = null;
    return true;
  }

  startMainProcess(pod: Pod, w: PodWorker, c: RunningContainer): void {
    const instance = c.instance;
    const crash = this.crashing.get(c.image);
    if (crash) {
      // A container's run is background work: a pod in CrashLoopBackOff leaves the engine idle between restarts.
      c.handlesTerm = true;
      this.host.after(crash.afterMs, 'container-exit', () => this.host.spawn(this.events.containerDied(pod, w, c, crash.exitCode, instance)), { background: true });
      return;
    }
    const argv = containerArgv(c.config ?? localImage(normalizeImage(c.image).replace(/:[^:/]+$/, ''), 'latest'), c.spec.command, c.spec.args);
    const program = runMain(argv, this.contextOf(w, c));
    const main = mainProgram(argv);
    // Servers stop at SIGTERM; a shell or sleep as PID 1 ignores it and is killed at the end of the grace period.
    c.handlesTerm = !['sh', 'bash', 'ash', 'sleep', ''].includes(main);
    this.drive(pod, w, c, program, instance, main);
  }

  stopContainer(c: RunningContainer, graceMs: Duration, hookMs: Duration): StopResult {
    this.killContainerProcess(c);
    const ms = Math.min(graceMs, hookMs + (c.handlesTerm ? runtimeDurations.stop : graceMs));
    return { ms, exitCode: c.handlesTerm && ms < graceMs ? 0 : 137 };
  }

  /** Stops the container's process and probes (their timers find the instance changed). */
  killContainerProcess(c: RunningContainer): void {
    c.instance++;
    for (const p of c.probes) p.timer?.cancel();
    c.probes = [];
    c.server = null;
  }

  /** A restarted kubelet: the process ran on, but its pending wake-up was a timer of the old process: armed again. */
  resumeProcess(c: RunningContainer): void {
    const wake = c.wake;
    if (wake) this.host.after(Math.max(0, wake.at - this.host.now), 'container-process', wake.resume, { background: true });
  }

  *pullImage(ctx: SyncContext, pod: Pod, c: RunningContainer, repository: string, tag: string): Co<PullResult> {
    const took = runtimeDurations.pullMin + this.host.rng.int(runtimeDurations.pullSpread);
    yield* this.host.sleep(took, { reason: 'image-pull', pod: podKey(pod), container: c.name, image: c.image });
    if (ctx.terminating) return null;
    const found = resolveImage(repository, tag);
    const failure = this.unpullable.has(c.image) ? notFoundError(normalizeImage(c.image)) : found.ok ? null : found.error;
    if (failure !== null) return { ok: false, took, error: failure };
    this.images.add(c.image);
    return { ok: true, took, config: found.ok ? found.image : undefined };
  }

  imageStatus(image: string): boolean {
    return this.images.has(image);
  }

  imageRef(image: string): string {
    return `${normalizeImage(image).replace(/:[^:/]+$/, '')}@sha256:${this.hex(64)}`;
  }

  listImages(): readonly string[] {
    return [...this.images];
  }

  /** What the container's programs see: its pod's name and IP, its env, its files, the node's clock and cpus. */
  contextOf(w: PodWorker, c: RunningContainer): ContainerContext {
    const config = c.config ?? localImage(normalizeImage(c.image).replace(/:[^:/]+$/, ''), 'latest');
    if (c.files.size === 0) for (const [k, v] of Object.entries(config.files)) c.files.set(k, v);
    const cpus = Number(this.options.cpu ?? '4');
    return {
      podName: w.pod.spec.hostname ?? w.name, podIP: w.podIP, image: config, env: envOf(w.pod, c), files: c.files,
      now: () => this.host.epochMs + this.host.now, cpus: Number.isFinite(cpus) ? cpus : 4,
    };
  }

  /** Runs the program's steps up to its next sleep, its serving, or its end (then the container exits). */
  private drive(pod: Pod, w: PodWorker, c: RunningContainer, program: Program, instance: number, main: string): void {
    for (;;) {
      if (c.instance !== instance || !this.events.isCurrent(w)) return;
      const next = program.next();
      if (next.done) {
        const exitCode = next.value;
        this.host.after(0, 'container-exit', () => this.host.spawn(this.events.containerDied(pod, w, c, exitCode, instance)), { background: true });
        return;
      }
      const step = next.value;
      if (step.kind === 'print') {
        c.log.write(this.host.epochMs + this.host.now, step.stream, step.text);
      } else if (step.kind === 'sleep') {
        const resume = () => {
          c.wake = undefined;
          this.drive(pod, w, c, program, instance, main);
        };
        c.wake = { at: this.host.now + step.ms, resume };
        this.host.after(step.ms, 'container-process', resume, { background: true });
        return;
      } else {
        const repository = c.config?.repository ?? '';
        const serverProgram = ['nginx', 'httpd-foreground', 'redis-server', 'mysqld', 'user-service'].includes(main);
        c.server = serverProgram ? imageServers[repository] ?? null : null;
        return;
      }
    }
  }

  private timestamp(): string {
    return formatTimestamp(this.host.epochMs + this.host.now);
  }

  private hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.host.rng.int(16)];
    return s;
  }
}
