// The story in the host: records posted carry their level and milestone, story events follow the
// timeline (new milestones after each report; replace on ready, fork and restore), stepLevel moves at
// each level at the head and in the past, and play at a level advances one unit per paced tick.

import { describe, expect, it } from 'vitest';
import type { Command, Milestone, StepLevel, StoryEvent, TimelineEvent, TraceRecord, WorkerEvent } from '../../protocol/index.ts';
import { stepLevelRank } from '../../protocol/index.ts';
import { nginxDeploymentYaml } from '../../sim/scenarios/manifests.ts';
import { FakeClock } from '../fake-clock.ts';
import { defaultSpeed, SimHost } from '../host.ts';


function setup() {
  const events: WorkerEvent[] = [];
  const clock = new FakeClock();
  const host = new SimHost({ post: (event) => events.push(event), clock, initial: { seed: 'podflow', nodes: 3 } });
  const drain = (): WorkerEvent[] => events.splice(0);
  const send = (command: Command): WorkerEvent[] => {
    host.handle(command);
    return drain();
  };
  /** Runs queued background tasks (fork replays) to the end. */
  const settle = (): WorkerEvent[] => {
    for (let i = 0; i < 10_000 && host.busy; i++) clock.advance(1);
    return drain();
  };
  return { host, clock, send, drain, settle };
}

const stories = (events: readonly WorkerEvent[]) => events.filter((e): e is StoryEvent => e.type === 'story');
const records = (events: readonly WorkerEvent[]): TraceRecord[] => events.flatMap((e) => (e.type === 'traceBatch' ? e.records : []));
const timelineOf = (events: readonly WorkerEvent[]) => events.filter((e): e is TimelineEvent => e.type === 'timeline').at(-1)!;
const isRunning = (m: Milestone) => m.kind === 'podPhase' && m.phase === 'Running' && m.ready;

describe('the story in the host', () => {
  it('starts each cluster with an empty story (booting is not part of it)', () => {
    const { drain } = setup();
    const events = drain();
    expect(events[0]?.type).toBe('ready');
    expect(stories(events)).toEqual([{ type: 'story', replace: true, milestones: [] }]);
  });

  it('reaches the Pod Running and Ready within 15 "next milestone" steps of Create, each posted with its records', () => {
    const { host, send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const seen: Milestone[] = [];
    let clicks = 0;
    while (!seen.some(isRunning) && clicks < 15) {
      clicks++;
      const events = send({ type: 'stepLevel', level: 'milestone', direction: 'forward' });
      const fresh = stories(events).flatMap((e) => e.milestones);
      seen.push(...fresh);
      const last = records(events).at(-1)!;
      // The step shown is the milestone just reached, posted with it.
      expect(last.level).toBe('milestone');
      expect(last.milestone).toEqual(fresh.at(-1));
      expect(timelineOf(events).position).toBe(last.step);
      // Every step delivered on the way is a finer level.
      for (const r of records(events).slice(0, -1)) expect(r.level).not.toBe('milestone');
    }
    expect(seen.some(isRunning)).toBe(true);
    expect(clicks).toBeLessThanOrEqual(15);
    expect(seen[0]).toMatchObject({ kind: 'userAction', tool: 'kubectl' });
    expect(host.story.milestones).toEqual(seen);
  });

  it('posts every record with its level, and the story event with the milestones among them', () => {
    const { send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const events = send({ type: 'step', count: 300 });
    const posted = records(events);
    expect(posted.length).toBeGreaterThan(200);
    expect(posted.every((r) => r.level !== undefined)).toBe(true);
    const milestones = stories(events).flatMap((e) => e.milestones);
    expect(posted.filter((r) => r.level === 'milestone').map((r) => r.milestone)).toEqual(milestones.filter((m) => posted.some((r) => r.step === m.step)));
    expect(posted.filter((r) => r.kind.startsWith('apiserver.')).every((r) => r.level === 'internal')).toBe(true);
  });

  it.each<StepLevel>(['internal', 'request', 'milestone'])('steps forward and back at the %s level, at the head and in the past', (level) => {
    const { host, send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const rank = stepLevelRank[level];
    const record = host.story;
    // Forward at the head: runs the engine to the next step at the level, past every finer one.
    const positions: number[] = [];
    let from = host.timeline.position;
    for (let i = 0; i < 6; i++) {
      send({ type: 'stepLevel', level, direction: 'forward' });
      const at = host.timeline.position;
      expect(host.timeline.live).toBe(true);
      expect(record.rankAt(at)).toBeGreaterThanOrEqual(rank);
      for (let s = from + 1; s < at; s++) expect(record.rankAt(s)).toBeLessThan(rank);
      positions.push(at);
      from = at;
    }
    if (level === 'internal') expect(positions).toEqual(positions.map((_, i) => positions[0]! + i));
    // Back: a seek to the previous step at the level, the engine untouched.
    const head = host.timeline.head;
    for (let i = positions.length - 2; i >= 0; i--) {
      const events = send({ type: 'stepLevel', level, direction: 'back' });
      expect(host.timeline.position).toBe(positions[i]);
      expect(events.find((e) => e.type === 'traceBatch')).toMatchObject({ replace: true });
      expect(records(events).at(-1)).toMatchObject({ step: positions[i], level: expect.any(String) });
    }
    // Forward in the past: served from the recorded steps, the engine untouched.
    for (let i = 1; i < positions.length; i++) {
      send({ type: 'stepLevel', level, direction: 'forward' });
      expect(host.timeline.position).toBe(positions[i]);
      expect(host.timeline.head).toBe(head);
    }
    expect(host.timeline.live).toBe(true);
  });

  it('from an idle cluster looks ahead through background work at most a bounded span of virtual time', () => {
    const { host, send, drain } = setup();
    drain();
    const [before, startStep] = [host.engine.now, host.engine.step];
    const events = send({ type: 'stepLevel', level: 'milestone', direction: 'forward' });
    // Heartbeats and lease renewals are never milestones: nothing is found within ten minutes.
    expect(stories(events).flatMap((e) => e.milestones)).toEqual([]);
    expect(host.engine.now - before).toBeGreaterThanOrEqual(10 * 60 * 1000);
    expect(host.engine.now - before).toBeLessThan(11 * 60 * 1000);
    // The page is told what was searched, so it can say why nothing new is shown.
    const status = events.filter((e) => e.type === 'status').at(-1)!.status;
    expect(status.nothingAhead).toEqual({ level: 'milestone', steps: host.engine.step - startStep, virtualMs: host.engine.now - before });
    // At the request level the next lease renewal is found, and the note is gone.
    const next = send({ type: 'stepLevel', level: 'request', direction: 'forward' });
    expect(host.story.levelAt(host.timeline.position)).toBe('request');
    expect(next.filter((e) => e.type === 'status').at(-1)!.status.nothingAhead).toBeUndefined();
  });

  it('a search that finds its step carries no note of nothing ahead', () => {
    const { send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const events = send({ type: 'stepLevel', level: 'milestone', direction: 'forward' });
    expect(records(events).at(-1)!.level).toBe('milestone');
    expect(events.filter((e) => e.type === 'status').at(-1)!.status.nothingAhead).toBeUndefined();
  });

  it('stops at the back end: no earlier step at the level leaves the position where it is', () => {
    const { host, send, drain } = setup();
    drain();
    const at = host.timeline.position;
    send({ type: 'stepLevel', level: 'milestone', direction: 'back' });
    expect(host.timeline.position).toBe(at);
  });

  it('plays at the milestone level one milestone per paced second, until nothing more comes', () => {
    const { host, clock, send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    send({ type: 'play', level: 'milestone' });
    const count = () => host.story.milestones.length;
    expect(count()).toBe(1);
    clock.advance(999);
    expect(count()).toBe(1);
    clock.advance(1);
    expect(count()).toBe(2);
    // Twice the default speed: half the interval, from the next unit on.
    send({ type: 'setSpeed', speed: 2 * defaultSpeed });
    clock.advance(1000);
    expect(count()).toBe(3);
    clock.advance(499);
    expect(count()).toBe(3);
    clock.advance(1);
    expect(count()).toBe(4);
    clock.advance(60_000);
    expect(host.story.milestones.some(isRunning)).toBe(true);
    // The flow is told; the cluster is idle and playing stopped.
    expect(host.status()).toMatchObject({ mode: 'paused', idle: true });
    const told = count();
    clock.advance(60_000);
    expect(count()).toBe(told);
  });

  it('plays at the request level from a past step through the recorded steps first', () => {
    const { host, clock, send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    send({ type: 'runUntilIdle' });
    const head = host.timeline.head;
    const start = host.story.milestones[0]!.step;
    send({ type: 'seek', step: start });
    send({ type: 'play', level: 'request' });
    const first = host.timeline.position;
    expect(first).toBe(host.story.next(start, 'request'));
    clock.advance(350);
    expect(host.timeline.position).toBe(host.story.next(first, 'request'));
    expect(host.timeline.head).toBe(head);
    send({ type: 'pause' });
    expect(host.status().mode).toBe('paused');
  });

  it('replays a fork identically: the story is replaced by the same milestones up to the fork point', () => {
    const { host, send, drain, settle } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    send({ type: 'runUntilIdle' });
    settle();
    const before = [...host.story.milestones];
    const at = before.find(isRunning)!.step - 1;
    send({ type: 'seek', step: at });
    const events = [...send({ type: 'fork', branch: null }), ...settle()];
    const replaced = stories(events).find((e) => e.replace)!;
    expect(replaced.milestones).toEqual(before.filter((m) => m.step <= at));
    expect(host.timeline.head).toBe(at);
    // The same future again, milestone for milestone.
    send({ type: 'runUntilIdle' });
    settle();
    expect(host.story.milestones).toEqual(before);
  });

  it('replays a restore identically: a saved log rebuilds the same story', () => {
    const original = setup();
    original.drain();
    original.send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    original.send({ type: 'runUntilIdle' });
    original.settle();
    const { host } = original;
    const restored = setup();
    restored.drain();
    restored.host.restore(host.spec, host.timeline.log, host.timeline.head);
    const events = [...restored.drain(), ...restored.settle()];
    expect(restored.host.story.milestones).toEqual(host.story.milestones);
    expect(stories(events).filter((e) => e.replace).at(-1)?.milestones).toEqual(host.story.milestones);
    for (let step = 1; step <= host.timeline.head; step++) expect(restored.host.story.levelAt(step)).toBe(host.story.levelAt(step));
  });

  it('gives delivered flights their level; flights still in the air have none', () => {
    const { send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    send({ type: 'stepLevel', level: 'milestone', direction: 'forward' });
    // The next milestone (the Deployment stored) is a few deliveries on: those sent and delivered on the
    // way are shipped as delivered flights.
    const events = send({ type: 'stepLevel', level: 'milestone', direction: 'forward' });
    const flights = events.flatMap((e) => (e.type === 'flights' ? e.added : []));
    const delivered = flights.filter((f) => f.step !== null);
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered.every((f) => f.level !== undefined)).toBe(true);
    expect(delivered.find((f) => f.level === 'milestone')?.milestone).toMatchObject({ kind: 'objectCreated' });
    expect(flights.filter((f) => f.step === null).every((f) => f.level === undefined)).toBe(true);
  });

  it('marks a user request answered 409 (the object exists) as a conflict', () => {
    const { host, send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    send({ type: 'runUntilIdle' });
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    send({ type: 'runUntilIdle' });
    expect(host.story.milestones.at(-1)).toMatchObject({
      kind: 'conflict', client: 'user', object: { kind: 'Deployment', name: 'nginx-deployment' },
      message: 'deployments.apps "nginx-deployment" already exists',
    });
  });

  it('gives a cause chain its levels', () => {
    const { host, send, drain } = setup();
    drain();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    send({ type: 'runUntilIdle' });
    const running = host.story.milestones.find(isRunning)!;
    const events = send({ type: 'causeChain', id: running.messageId });
    const chain = events.find((e) => e.type === 'causeChain');
    if (chain?.type !== 'causeChain') throw new Error('no cause chain');
    expect(chain.chain[0]).toMatchObject({ id: running.messageId, level: 'milestone', milestone: running });
    expect(chain.chain.every((r) => r.level !== undefined)).toBe(true);
  });
});
