// The kubelet's image manager: before a container is created its image is checked (InvalidImageName),
// then found on the node or pulled (by the pull policy), with the Pulling / Pulled / Failed / BackOff
// events; a failed pull is ErrImagePull, then ImagePullBackOff, and the pod is synced again after the
// back-off (10 s doubling to 5 min).
// Models pkg/kubelet/images/image_manager.go (EnsureImageExists, applyDefaultImageTag, pull back-off)
// and kuberuntime_container.go's image events.

import type { Pod } from '../api/types/core.ts';
import { podType, typed, type ClientHost, type EventRecorder } from '../client/index.ts';
import type { Co } from '../engine/index.ts';
import { goDuration } from './format.ts';
import { applyDefaultImageTag, localImage, resolveImage } from './image-registry.ts';
import type { PodWorker, RunningContainer } from './pod-workers.ts';
import { runtimeDurations, type ImageService } from './runtime-service.ts';

/** What the image manager calls back: a status write after each failure, the pod's sync after back-off. */
interface ImageManagerHost {
  patchStatus(pod: Pod, w: PodWorker): Co<void>;
  /** Whether the pod's worker is still the kubelet's. */
  isCurrent(w: PodWorker): boolean;
  /** Syncs the pod again (after the pull back-off). */
  syncPod(pod: Pod, w: PodWorker): Co<void>;
}

export class ImageManager {
  constructor(private readonly host: ClientHost, private readonly recorder: EventRecorder, private readonly images: ImageService,
    private readonly kubelet: ImageManagerHost) {}

  /** EnsureImageExists: true when the image is there (found or pulled); false when it failed or the pod is going away. */
  *ensureImageExists(pod: Pod, w: PodWorker, c: RunningContainer, policy: string | undefined): Co<boolean> {
    const reference = applyDefaultImageTag(c.image);
    if (!reference.ok) {
      this.recorder.event(typed(pod, podType), 'Warning', 'InspectFailed', reference.message);
      this.recorder.event(typed(pod, podType), 'Warning', 'Failed', 'Error: InvalidImageName');
      c.waitingReason = 'InvalidImageName';
      c.waitingMessage = reference.message;
      yield* this.kubelet.patchStatus(pod, w);
      return false;
    }
    const present = this.images.imageStatus(c.image);
    const pullPolicy = policy ?? (c.image.includes(':') && !c.image.endsWith(':latest') ? 'IfNotPresent' : 'Always');
    if (present && pullPolicy !== 'Always') {
      this.recorder.event(typed(pod, podType), 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`);
      const found = resolveImage(reference.repository, reference.tag);
      c.config = found.ok ? found.image : localImage(reference.repository, reference.tag);
    } else {
      this.recorder.event(typed(pod, podType), 'Normal', 'Pulling', `Pulling image "${c.image}"`);
      c.step = 'pulling';
      const pulled = yield* this.images.pullImage(w, pod, c, reference.repository, reference.tag);
      if (pulled === null) return false;
      if (!pulled.ok) {
        yield* this.pullFailed(pod, w, c, pulled.error);
        return false;
      }
      if (pulled.config) c.config = pulled.config;
      this.recorder.event(typed(pod, podType), 'Normal', 'Pulled', `Successfully pulled image "${c.image}" in ${goDuration(pulled.took)} (${goDuration(pulled.took)} including waiting)`);
    }
    c.imageID = this.images.imageRef(c.image);
    c.step = 'creating';
    return true;
  }

  /** ErrImagePull, then ImagePullBackOff; the retry is background work (a pod stuck in ImagePullBackOff leaves the engine idle). */
  private *pullFailed(pod: Pod, w: PodWorker, c: RunningContainer, message: string): Co<void> {
    this.recorder.event(typed(pod, podType), 'Warning', 'Failed', `Failed to pull image "${c.image}": ${message}`);
    this.recorder.event(typed(pod, podType), 'Warning', 'Failed', 'Error: ErrImagePull');
    c.waitingReason = 'ErrImagePull';
    c.waitingMessage = `Failed to pull image "${c.image}": ${message}`;
    yield* this.kubelet.patchStatus(pod, w);
    if (w.terminating) return;
    this.recorder.event(typed(pod, podType), 'Normal', 'BackOff', `Back-off pulling image "${c.image}"`);
    this.recorder.event(typed(pod, podType), 'Warning', 'Failed', 'Error: ImagePullBackOff');
    c.waitingReason = 'ImagePullBackOff';
    c.waitingMessage = `Back-off pulling image "${c.image}"`;
    yield* this.kubelet.patchStatus(pod, w);
    const delay = w.pullBackoff;
    w.pullBackoff = Math.min(w.pullBackoff * 2, runtimeDurations.imagePullBackOffMax);
    this.host.after(delay, 'image-pull-backoff', () => {
      if (!w.terminating && this.kubelet.isCurrent(w)) this.host.spawn(this.kubelet.syncPod(pod, w));
    }, { background: true });
  }
}
