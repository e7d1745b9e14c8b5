// The lesson of a scenario at scale, measured by the worker's host after the scenario has run: its two
// lists are the user's own requests, logged on the timeline and traced at the steps the lesson names, and
// the numbers are the model's (etcd's bytes for the list from etcd, none for the watch cache's).

import { describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse } from '../sim/wire/http.ts';
import { webDeployment } from '../sim/scenarios/scale-build.ts';
import { manualHost } from './testing.ts';

describe('the lesson of a scenario at scale, measured by the host', () => {
  it('lists every Pod from etcd and from the watch cache as the user, at steps the page can go to', () => {
    const { host, send, last, errors, status } = manualHost({ initial: { seed: 'lesson', nodes: 4 } });
    send({ type: 'applyManifest', yaml: webDeployment(40).yaml });
    send({ type: 'runUntilIdle' });
    expect(status()).toMatchObject({ mode: 'paused', idle: true });
    const logged = host.timeline.log.length;
    const head = host.timeline.head;

    send({ type: 'measureScaleLesson' });
    expect(errors()).toEqual([]);
    const lesson = last('scaleLesson')!.lesson;
    const [etcd, cache] = lesson.lists;
    expect(etcd).toMatchObject({ source: 'etcd', query: '', status: 200, items: 40 });
    expect(etcd!.etcdBytes).toBeGreaterThan(40 * 500);
    expect(cache).toMatchObject({ source: 'watch cache', query: 'resourceVersion=0', status: 200, items: 40, etcdBytes: 0 });
    expect(etcd!.ms).toBeGreaterThan(cache!.ms);
    expect(lesson).toMatchObject({ pods: 40, podWatchCache: { objects: 40 } });
    expect(lesson.events).toBeGreaterThan(40);
    expect(lesson.scheduler.attempts).toBeGreaterThanOrEqual(40);
    expect(lesson.scheduler.perSecond).toBeGreaterThan(0);

    // Measured after the scenario, one list after the other, each a user request on the timeline.
    expect(head).toBeLessThan(etcd!.requestStep);
    expect(etcd!.requestStep).toBeLessThan(etcd!.answerStep);
    expect(etcd!.answerStep).toBeLessThan(cache!.requestStep);
    expect(cache!.requestStep).toBeLessThan(cache!.answerStep);
    const commands = host.timeline.log.slice(logged);
    expect(commands.map((c) => [c.command.type, ((c.command as { payload?: HttpRequest }).payload)?.query])).toEqual([['userRequest', ''], ['userRequest', 'resourceVersion=0']]);
    expect(host.timeline.markers.filter((m) => m.kind === 'command').slice(-2).map((m) => m.label)).toEqual(['http.request → kube-apiserver', 'http.request → kube-apiserver']);

    // The steps it names deliver the requests to kube-apiserver and their answers to the user.
    for (const list of [etcd!, cache!]) {
      const request = host.engine.trace.at(list.requestStep)!;
      expect(request).toMatchObject({ from: 'user', to: 'kube-apiserver', kind: 'http.request' });
      expect((request.payload as HttpRequest)).toMatchObject({ method: 'GET', path: '/api/v1/pods', query: list.query });
      const answer = host.engine.trace.at(list.answerStep)!;
      expect(answer).toMatchObject({ from: 'kube-apiserver', to: 'user', replyTo: request.id });
      expect((answer.payload as HttpResponse).status).toBe(200);
    }

    // The page can go to them.
    send({ type: 'seek', step: etcd!.requestStep });
    expect(status().step).toBe(etcd!.requestStep);
    expect(host.timeline.position).toBe(etcd!.requestStep);

    // A reload replays them from the log: the same lists at the same steps.
    const end = host.timeline.head;
    host.restore(host.spec, host.timeline.log, end);
    send({ type: 'runUntilIdle' });
    expect(errors()).toEqual([]);
    for (const list of [etcd!, cache!]) {
      expect(host.engine.trace.at(list.requestStep)).toMatchObject({ to: 'kube-apiserver', payload: { path: '/api/v1/pods', query: list.query } });
      expect(host.engine.trace.at(list.answerStep)).toMatchObject({ from: 'kube-apiserver', to: 'user', payload: { status: 200 } });
    }
  }, 300_000);

  it('is measured at the newest step only', () => {
    const { host, send, errors } = manualHost({ initial: { seed: 'lesson', nodes: 1 } });
    send({ type: 'seek', step: host.timeline.head - 1 });
    const logged = host.timeline.log.length;
    send({ type: 'measureScaleLesson' });
    expect(errors().at(-1)).toMatchObject({ command: 'measureScaleLesson', message: 'the lesson is measured at the newest step: go to it first' });
    expect(host.timeline.log).toHaveLength(logged);
  });
});
