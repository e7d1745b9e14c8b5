// What a scenario at scale teaches, measured by the worker once the scenario has finished (the shapes of
// src/sim/scenarios/scale-lesson.ts `ScaleLesson`): two lists of every Pod sent as the user — one read
// from etcd, one with resourceVersion=0 served from kube-apiserver's watch cache — with what each cost
// and the steps the learner can go to, the Pods' watch-cache window, Pods and Events stored in etcd, and
// kube-scheduler's attempts per virtual second.

/** One list of every Pod, as the model answered it. */
export interface ListCostView {
  /** Where kube-apiserver served it from. */
  readonly source: 'etcd' | 'watch cache';
  /** The request's query (`''` reads etcd; `resourceVersion=0` may be served from the watch cache). */
  readonly query: string;
  readonly status: number;
  /** Pods in the answer. */
  readonly items: number;
  /** Bytes of the answer's body. */
  readonly responseBytes: number;
  /** Bytes of keys and values etcd returned to kube-apiserver for it (0 when served from the cache). */
  readonly etcdBytes: number;
  /** Virtual milliseconds from the request leaving the user to the answer arriving. */
  readonly ms: number;
  /** The steps that delivered the request to kube-apiserver and its answer to the user. */
  readonly requestStep: number;
  readonly answerStep: number;
}

export interface ScaleLessonView {
  /** etcd's list first, then the watch cache's. */
  readonly lists: readonly ListCostView[];
  /** The Pods' watch cache: events in its window, the window's capacity, objects in its current state. */
  readonly podWatchCache: { readonly events: number; readonly capacity: number; readonly objects: number } | null;
  /** Pods and Events stored in etcd. */
  readonly pods: number;
  readonly events: number;
  /** kube-scheduler's attempts kept and their rate over the span they cover (attempts per virtual second). */
  readonly scheduler: { readonly attempts: number; readonly perSecond: number };
}

/**
 * Measures the lesson at the head (paused; an error at a past step): sends both lists as the user, one
 * after the other, each logged on the timeline like any user request and delivered until answered, then
 * posts `scaleLesson`.
 */
export interface MeasureScaleLessonCommand {
  readonly type: 'measureScaleLesson';
}

export interface ScaleLessonEvent {
  readonly type: 'scaleLesson';
  readonly lesson: ScaleLessonView;
}
