// The container runtime as the kubelet reaches it: a CRI-shaped RuntimeService (sandboxes and
// containers) and ImageService (images), implemented by the simulated runtime (simulated-runtime.ts)
// with virtual durations. A `SyncContext` stands for the context the kubelet passes each call: cancelled
// once the pod is being killed, so a start or a pull under way does not complete.
// Models k8s.io/cri-api/pkg/apis/services.go (RuntimeService: RunPodSandbox, CreateContainer,
// StartContainer, StopContainer; ImageManagerService: PullImage, ImageStatus, ListImages).
//
// Deviation: the kubelet records Started before the main process takes its first step, so starting the
// process is a call of its own after StartContainer.

import type { Pod } from '../api/types/core.ts';
import type { Co, Duration } from '../engine/index.ts';
import type { ImageConfig } from './image-registry.ts';
import type { PodWorker, RunningContainer } from './pod-workers.ts';

/** Virtual durations of the simulated runtime and the kubelet's loops (ms). */
export const runtimeDurations = {
  sandbox: 400,
  pullMin: 1500,
  pullSpread: 3000,
  create: 60,
  start: 80,
  stop: 300,
  leaseRenewInterval: 10_000,
  leaseDurationSeconds: 40,
  imagePullBackOffInitial: 10_000,
  imagePullBackOffMax: 300_000,
  /** Container restart back-off (kubelet.go: backOffPeriod 10 s, MaxContainerBackOff 300 s). */
  crashLoopBackOffInitial: 10_000,
  crashLoopBackOffMax: 300_000,
} as const;

/** The context of a call: cancelled once the pod is being killed. */
export interface SyncContext {
  readonly terminating: boolean;
}

/** How a stop signal ends: how long until the container has stopped, and its exit code. */
export interface StopResult {
  readonly ms: Duration;
  readonly exitCode: number;
}

export interface RuntimeService {
  runPodSandbox(pod: Pod): Co<void>;
  /** Creates the container (it gets its containerID). */
  createContainer(pod: Pod, c: RunningContainer): Co<void>;
  /** Starts it: false when the pod's context was cancelled meanwhile (the container never runs). */
  startContainer(ctx: SyncContext, pod: Pod, c: RunningContainer): Co<boolean>;
  /** Runs the main process of a container just started (its command, or the image's crash). */
  startMainProcess(pod: Pod, w: PodWorker, c: RunningContainer): void;
  /**
   * Sends SIGTERM (the process and its probes stop); a process that ignores it is killed at the end of
   * the grace period. `hookMs` is how long the preStop hook ran first.
   */
  stopContainer(c: RunningContainer, graceMs: Duration, hookMs: Duration): StopResult;
  /** The process and its probes stop at once (the pod is gone from the API). */
  killContainerProcess(c: RunningContainer): void;
}

/** A pull's outcome: the image's config, or the registry's error. */
export type PullResult = { readonly ok: true; readonly took: Duration; readonly config: ImageConfig | undefined } | { readonly ok: false; readonly took: Duration; readonly error: string } | null;

export interface ImageService {
  /** Pulls the container's image (`repository:tag`, checked): null when the pod's context was cancelled during the pull. */
  pullImage(ctx: SyncContext, pod: Pod, c: RunningContainer, repository: string, tag: string): Co<PullResult>;
  /** Whether the image (as the pod spec writes it) is on the node. */
  imageStatus(image: string): boolean;
  /** The image's reference with its digest, as the runtime reports it (`docker.io/library/nginx@sha256:…`). */
  imageRef(image: string): string;
  /** The images on the node, as the spec wrote them, in the order they came. */
  listImages(): readonly string[];
}
