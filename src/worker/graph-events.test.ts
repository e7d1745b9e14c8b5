// What the graph draws beyond the topology, as the host ships it: the pods on their nodes (`pods`
// events, from the same keyspace changes and snapshots as the keyspace panel) and the tokens near the
// playhead (`flights` events, delivered or still in flight at the step shown).

import { describe, expect, it } from 'vitest';
import type { Command, Flight, FlightsEvent, PodChip, PodsEvent, WorkerEvent } from '../protocol/index.ts';
import { Component, Engine } from '../sim/engine/index.ts';
import { nginxDeploymentYaml } from '../sim/scenarios/manifests.ts';
import { FlightTracker, flightsAt, type FlightPosition } from './flights.ts';
import { followerTrail, headFlightPosition } from './host-viewer.ts';
import { SimHost, type HostClock } from './host.ts';
import { inspect } from './queries.ts';
import { labelPayload } from './token-payload.ts';

const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

/** A host on a booted 3-node cluster, folding its `pods` and `flights` events as the UI does. */
function graphHost(seed = 'graph') {
  const pods = new Map<string, PodChip>();
  const flights = new Map<number, Flight>();
  const events: WorkerEvent[] = [];
  const fold = (e: WorkerEvent) => {
    events.push(e);
    if (e.type === 'pods') foldPods(pods, e);
    if (e.type === 'flights') foldFlights(flights, e);
  };
  const host = new SimHost({ post: fold, clock: stillClock, initial: { seed, nodes: 3 } });
  const send = (command: Command) => {
    events.length = 0;
    host.handle(command);
    return [...events];
  };
  return { host, pods, flights, send };
}

function foldPods(pods: Map<string, PodChip>, e: PodsEvent): void {
  if (e.replace) pods.clear();
  for (const key of e.removed) pods.delete(key);
  for (const pod of e.upserted) pods.set(pod.key, pod);
}

function foldFlights(flights: Map<number, Flight>, e: FlightsEvent): void {
  if (e.replace) flights.clear();
  for (const id of e.removed) flights.delete(id);
  for (const flight of e.added) flights.set(flight.id, flight);
  for (const [id, step] of e.stepped) flights.set(id, { ...flights.get(id)!, step });
}

/** The pods as the objects panel prints them at the step shown: name → [node, STATUS]. */
function objectsPanelPods(host: SimHost): Map<string, [string, string]> {
  const at = { step: host.timeline.position, ...host.timeline.sample(host.timeline.position) };
  const objects = inspect(host.hostedCluster, ['objects'], at, { objects: { resource: 'pods' } }).objects!;
  const table = objects.tables.find((t) => t.resource === 'pods')!;
  const node = table.columns.indexOf('Node');
  const status = table.columns.indexOf('Status');
  return new Map(objects.rows.map((r) => [r.name, [r.cells[node]!, r.cells[status]!]]));
}

function chips(pods: Map<string, PodChip>): Map<string, [string, string]> {
  return new Map([...pods.values()].map((p) => [p.name, [p.node ?? '<none>', p.status]]));
}

describe('pods on their nodes', () => {
  it('a pod appears unbound, is bound to the node the scheduler chose, turns Running; the past shows the past', () => {
    const { host, pods, send } = graphHost();
    expect(pods.size).toBe(0);
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const seen: string[] = [];
    const stepAt = new Map<string, number>();
    for (let i = 0; i < 400 && !(pods.size === 1 && [...pods.values()][0]!.ready); i++) {
      send({ type: 'step', count: 1 });
      for (const pod of pods.values()) {
        const state = `${pod.node ?? 'unbound'} ${pod.status}${pod.ready ? ' ready' : ''}`;
        if (seen.at(-1) !== state) {
          seen.push(state);
          stepAt.set(state, host.timeline.position);
        }
      }
      // At every step the chips are what the objects panel prints.
      expect(chips(pods)).toEqual(objectsPanelPods(host));
    }
    const pod = [...pods.values()][0]!;
    const bound = host.hostedCluster.scheduler?.attemptLog.records.find((a) => a.pod.endsWith(pod.name));
    expect(pod.node).toBe(bound?.selected);
    expect(pod).toMatchObject({ phase: 'Running', status: 'Running', ready: true, deleting: false, namespace: 'default' });
    expect(seen[0]).toBe('unbound Pending');
    expect(seen).toContain(`${pod.node} ContainerCreating`);
    expect(seen.at(-1)).toBe(`${pod.node} Running ready`);

    // Back to the step where the pod was still unbound: a replacement showing exactly that.
    send({ type: 'seek', step: stepAt.get('unbound Pending')! });
    expect([...pods.values()].map((p) => [p.name, p.node, p.status])).toEqual([[pod.name, null, 'Pending']]);
    expect(chips(pods)).toEqual(objectsPanelPods(host));
    // Before the create: no pod at all.
    send({ type: 'seek', step: host.timeline.bootSteps });
    expect(pods.size).toBe(0);
    // Forward through recorded steps ships diffs again, back to the head.
    send({ type: 'step', count: host.timeline.head - host.timeline.position });
    expect(chips(pods)).toEqual(new Map([[pod.name, [pod.node, 'Running']]]));
  });
});

describe('tokens near the playhead', () => {
  it('a message sent and not yet delivered is a flight (step null) until the step that delivers it', () => {
    const { host, flights, send } = graphHost();
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const post = [...flights.values()].find((f) => f.from === 'user' && f.kind === 'http.request');
    expect(post).toMatchObject({ to: 'kube-apiserver', step: null });
    expect(post?.payload).toMatchObject({ method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments' });
    send({ type: 'step', count: 1 });
    expect(flights.get(post!.id)?.step).toBe(host.timeline.head);
  });

  it('while playing, flights carry only what their label reads; on pause they are shipped again whole', () => {
    const { flights, send } = graphHost('graph-play');
    send({ type: 'play' });
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const post = [...flights.values()].find((f) => f.from === 'user' && f.kind === 'http.request')!;
    expect(post).toMatchObject({ payload: { method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments' }, payloadOmitted: true, step: null });
    expect(post.payload).not.toHaveProperty('body');
    const paused = send({ type: 'pause' });
    expect(paused.some((e) => e.type === 'flights' && e.added.some((f) => f.id === post.id))).toBe(true);
    expect(flights.get(post.id)?.payloadOmitted).toBeUndefined();
    expect(flights.get(post.id)?.payload).toMatchObject({ method: 'POST' });
  });

  it('in the past, the flights at a step are those shown live at that step', () => {
    const { host, flights, send } = graphHost('graph-past');
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const live = new Map<number, string>();
    const from = (now: number) => now - 2 * host.engine.longestLink();
    // The UI's flights (folded diffs) are each what the step shown makes of them: delivered by it or not.
    const held = (f: Map<number, Flight>) => [...f.values()].map((x) => `${x.id}@${x.step}`).sort();
    const known = (at: FlightPosition) => {
      const all = new Set(flightsAt(host.engine, at, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY).map((n) => `${n.message.id}@${n.step}`));
      return held(flights).filter((s) => all.has(s));
    };
    for (let i = 0; i < 60; i++) {
      send({ type: 'step', count: 1 });
      const at = { step: host.engine.step, now: host.engine.now, sent: host.engine.lastMessageId, live: true };
      live.set(host.engine.step, flightsAt(host.engine, at, from(at.now)).map((n) => `${n.message.id}@${n.step}`).join(' '));
      expect(held(flights)).toEqual(known(at));
    }
    expect([...live.values()].some((s) => s.includes('@null'))).toBe(true);
    for (const [step, shown] of live) {
      send({ type: 'seek', step });
      const sample = host.timeline.sample(step);
      const at = { step, now: sample.now, sent: sample.sent!, live: false };
      expect(flightsAt(host.engine, at, from(sample.now)).map((n) => `${n.message.id}@${n.step}`).join(' '), `step ${step}`).toBe(shown);
      expect(held(flights)).toEqual(known(at));
    }
  });

  it('at a past step, flights it delivered carry only their label, whole once a Step back makes one in flight again', () => {
    const { host, flights, send } = graphHost('graph-past-light');
    send({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    const start = host.timeline.head;
    send({ type: 'step', count: 300 });
    const step = start + 40;
    send({ type: 'seek', step });
    const held = [...flights.values()];
    // Those the page held whole from the head stay so; the others it delivered are light.
    const delivered = held.filter((f) => f.step !== null && f.payloadOmitted);
    expect(delivered.length).toBeGreaterThan(0);
    for (const flight of held) {
      const message = host.engine.trace.at(flight.step ?? 0);
      if (flight.step === null) expect(flight.payloadOmitted).toBeUndefined();
      else if (flight.payloadOmitted) expect(flight.payload).toEqual(labelPayload(message!));
      else expect(flight.payload).toBe(message!.payload);
    }
    // A Step forward at the past position re-ships none of them; a step back ships whole the one it un-delivers.
    const forward = send({ type: 'step', count: 1 }).find((e) => e.type === 'flights');
    expect(forward?.type === 'flights' ? forward.added.filter((f) => delivered.some((d) => d.id === f.id)) : []).toEqual([]);
    const newest = delivered.reduce((a, b) => (b.step! > a.step! ? b : a));
    send({ type: 'seek', step: newest.step! - 1 });
    expect(flights.get(newest.id)).toMatchObject({ step: null, payload: host.engine.trace.at(newest.step!)!.payload });
    expect(flights.get(newest.id)?.payloadOmitted).toBeUndefined();
  });
});

/** An engine with two components that ignore what they receive, linked a → b with a 5 ms latency. */
function quietLink(seed: string): { engine: Engine; a: Quiet } {
  const engine = new Engine({ seed });
  const a = engine.add(new Quiet('a'));
  engine.add(new Quiet('b'));
  engine.link('a', 'b', { latency: 5 });
  return { engine, a };
}

/** Words of this test's own, outside the model's message map: typed as the engine's synthetic token. */
function probe(kind: string): 'token' {
  return kind as 'token';
}

describe('flights over the limit', () => {
  it('keeps those in flight at the playhead first, then those to come, then those gone', () => {
    const { engine, a } = quietLink('flights');
    // Sent at 0, 2 and 4 (a timer moves the clock): delivered at 5, 7 and 9.
    const sent = [engine.send(a.name, 'b', probe('m0'), null)];
    engine.setTimer('a', 2, 't', null);
    engine.run({ maxSteps: 1 });
    sent.push(engine.send(a.name, 'b', probe('m1'), null));
    engine.setTimer('a', 2, 't', null);
    engine.run({ maxSteps: 1 });
    sent.push(engine.send(a.name, 'b', probe('m2'), null));
    engine.run({ until: 6 });
    const at = { step: engine.step, now: engine.now, sent: engine.lastMessageId, live: true };
    const ids = (limit: number, playhead: number) => flightsAt(engine, { ...at, playhead }, 0, limit).map((n) => [n.message.kind, n.step === null]);
    expect(ids(3, 6)).toEqual([['m0', false], ['m1', true], ['m2', true]]);
    // At 6: m1 and m2 are in flight, m0 (delivered at 5) is gone.
    expect(ids(2, 6)).toEqual([['m1', true], ['m2', true]]);
    // At 4.5 (playing, trailing the engine): m0, m1 and m2 are all in flight; the soonest delivered first.
    expect(ids(1, 4.5)).toEqual([['m0', false]]);
    // At 8: only m2 is in flight; then m1 (gone at 7) before nothing else.
    expect(ids(1, 8)).toEqual([['m2', true]]);
  });
});

describe('flights for a page that trails the reports', () => {
  it('a driven host holds each flight until a playhead trailing by up to followerTrail has passed it', () => {
    const run = (trail: number) => {
      const { engine, a } = quietLink('trail');
      const tracker = new FlightTracker();
      engine.send(a.name, 'b', probe('m0'), null);
      engine.run({ until: 6 });
      const first = tracker.report(engine, headFlightPosition(engine, trail))!;
      expect(first.added.map((f) => [f.kind, f.step])).toEqual([['m0', 1]]);
      // Reports every 33 ms: by 100 ms the page's playhead may still be short of 5 (it skips only past 500).
      for (let now = 39; now <= 100; now += 33) {
        engine.setTimer('a', 33, 't', null);
        engine.run({ until: now });
        const later = tracker.report(engine, headFlightPosition(engine, trail));
        if (later?.removed.length) return `removed at ${engine.now}`;
      }
      return 'held';
    };
    expect(followerTrail(1)).toBe(1_000);
    expect(followerTrail(0.5)).toBe(500);
    expect(run(followerTrail(1))).toBe('held');
    // Without it, a flight goes once it is older than two longest flights and one report's advance (43 ms).
    expect(run(0)).toBe('removed at 72');
  });
});

describe('flights while playing', () => {
  it('holds a flight until two reports later, past the clock the page\'s playhead may trail', () => {
    const { engine, a } = quietLink('played');
    const playing = new FlightTracker();
    const paused = new FlightTracker();
    engine.send(a.name, 'b', probe('m0'), null);
    engine.run({ until: 6 });
    const removedAt: Record<string, number> = {};
    for (let now = 6; now <= 138; now += 33) {
      if (now > 6) {
        engine.setTimer('a', 33, 't', null);
        engine.run({ until: now });
      }
      // Playing: flights carry only their label (withPayloads false).
      if (playing.report(engine, headFlightPosition(engine), false)?.removed.length) removedAt.playing ??= engine.now;
      if (paused.report(engine, headFlightPosition(engine))?.removed.length) removedAt.paused ??= engine.now;
    }
    // Delivered at 5: while playing still held at 72, when the page's playhead is no further back than
    // 39 − 5 (the report before the last, less the longest flight); gone at 105.
    expect(removedAt).toEqual({ paused: 72, playing: 105 });
  });
});

class Quiet extends Component {
  receive(): void {}
}

describe('flights at a step the trace no longer retains', () => {
  it('reads only retained records', () => {
    const engine = new Engine({ seed: 'flights-retained', traceLimit: 5 });
    const a = engine.add(new Quiet('a'));
    engine.add(new Quiet('b'));
    engine.link('a', 'b', { latency: 5 });
    for (let i = 0; i < 40; i++) {
      engine.send(a.name, 'b', probe(`m${i}`), null);
      engine.run({ maxSteps: 1 });
    }
    expect(engine.trace.firstStep).toBeGreaterThan(30);
    const reads: number[] = [];
    const at = engine.trace.at.bind(engine.trace);
    engine.trace.at = (step: number) => {
      reads.push(step);
      return at(step);
    };
    const found = flightsAt(engine, { step: 2, now: 0, sent: engine.lastMessageId, live: false }, Number.NEGATIVE_INFINITY);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((step) => step < engine.trace.firstStep || step > engine.trace.lastStep)).toEqual([]);
    // Every message was sent by then and the horizon reaches past the newest delivery: all retained ones.
    expect(found.map((n) => n.step)).toEqual([36, 37, 38, 39, 40].slice(0, found.length));
  });
});
