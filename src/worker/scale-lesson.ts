// The lesson of a scenario at scale, measured on the live cluster once the page has run the scenario
// (src/sim/scenarios/scale-lesson.ts measures; this sends its two lists as the user's own requests). Each
// list is a `userRequest` the host carries out like one from the page: logged on the timeline (so a
// reload or a fork replays it) and traced, so the learner can step to it; it is delivered at once, with
// everything else due meanwhile, until answered.

import type { LoggableCommand, ScaleLessonEvent, ScaleLessonView } from '../protocol/index.ts';
import { KubeApiserver } from '../sim/apiserver/server.ts';
import { measureScaleLesson, type LessonCluster, type ScaleLesson } from '../sim/scenarios/scale-lesson.ts';
import { httpKinds } from '../sim/wire/http.ts';
import type { HostedCluster } from './host/hosted-cluster.ts';

/** The protocol's lesson must stay the model's. */
const sameLesson = (lesson: ScaleLesson): ScaleLessonView => lesson;

/** `cluster` as the lesson reads it; throws when it has no kube-apiserver watch caches or etcd to read. */
function lessonCluster(cluster: HostedCluster): LessonCluster {
  const { engine, user, apiserver, etcd, scheduler } = cluster;
  if (!(apiserver instanceof KubeApiserver) || !etcd) throw new Error('this cluster has no modelled kube-apiserver and etcd to measure a list against');
  return { engine, user, apiserver, etcd, scheduler: scheduler ?? null };
}

/**
 * Measures the lesson on `cluster` at its head, sending each list through `act` (the host's user action,
 * which applies and logs it), and returns the event to post.
 */
export function scaleLessonEvent(cluster: HostedCluster, act: (command: LoggableCommand) => void): ScaleLessonEvent {
  const measured = lessonCluster(cluster);
  const { engine } = measured;
  const lesson = measureScaleLesson(measured, (request) => {
    const sentAt = engine.now;
    act({ type: 'userRequest', to: measured.apiserver.name, kind: httpKinds.request, payload: request });
    return { id: engine.lastMessageId, sentAt };
  });
  return { type: 'scaleLesson', lesson: sameLesson(lesson) };
}
