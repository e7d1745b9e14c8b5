import { describe, expect, it } from 'vitest';
import { metasOfColumns, packKeyMetas, type Command, type SimStatus, type TraceBatchEvent, type WorkerEvent } from '../protocol/index.ts';
import { logPageLimit, traceTailLimit } from '../protocol/index.ts';
import { Component, Engine, type Message } from '../sim/engine/index.ts';
import { User } from '../sim/user/user.ts';
import { FakeClock } from './fake-clock.ts';
import { defaultSpeed, SimHost, type ClusterSpec, type HostedCluster, type Pacing } from './host.ts';
import { PageViewer } from './host-viewer.ts';
import { DrivenHost } from './host/driven-host.ts';
import { decodeStored } from '../sim/apiserver/storage/codec.ts';
import { createCluster } from '../sim/cluster.ts';


/** Stands in for etcd: answers every request with `<kind>.reply` echoing the payload. */
class Echo extends Component {
  failOn: string | null = null;

  receive(message: Message): void {
    if (message.kind === this.failOn) throw new Error(`echo cannot handle ${message.kind}`);
    // Words of this test's own, outside the model's message map: typed as the engine's synthetic token.
    this.reply(message, `${message.kind}.reply` as 'token', message.payload);
  }
}

function echoCluster(spec: ClusterSpec): HostedCluster & { echo: Echo } {
  const engine = new Engine({ seed: spec.seed });
  const user = engine.add(new User());
  const echo = engine.add(new Echo('etcd'));
  engine.link(user.name, echo.name, { latency: 5 });
  return {
    engine, user, echo,
    topology: {
      components: [
        { name: user.name, role: 'user', modelled: true },
        { name: echo.name, role: 'etcd', modelled: true },
        { name: 'kube-apiserver', role: 'kube-apiserver', modelled: false },
      ],
      links: [{ a: user.name, b: echo.name, latency: 5, jitter: 0 }],
    },
  };
}

function setup(pacing: Partial<Pacing> = {}) {
  const events: WorkerEvent[] = [];
  const clock = new FakeClock();
  const clusters: Array<ReturnType<typeof echoCluster>> = [];
  const host = new SimHost({
    // Timeline reports have their own tests (timeline.test.ts); these tests follow the playback events.
    post: (event) => {
      if (event.type !== 'timeline') events.push(structuredClone(event));
    },
    clock,
    initial: { seed: 'test', nodes: 1 },
    buildCluster: (spec) => {
      const cluster = echoCluster(spec);
      clusters.push(cluster);
      return cluster;
    },
    pacing,
  });
  const drain = (): WorkerEvent[] => events.splice(0);
  const send = (command: Command): WorkerEvent[] => {
    host.handle(command);
    return drain();
  };
  const put = (key: string) => ({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key, value: 'v' } }) as const;
  return { host, clock, send, drain, put, cluster: () => clusters.at(-1)! };
}

function lastStatus(events: readonly WorkerEvent[]): SimStatus {
  const status = events.filter((e) => e.type === 'status').at(-1);
  if (!status) throw new Error(`no status in ${JSON.stringify(events)}`);
  return status.status;
}

function batches(events: readonly WorkerEvent[]): TraceBatchEvent[] {
  return events.filter((e): e is TraceBatchEvent => e.type === 'traceBatch');
}

describe('SimHost commands', () => {
  it('hosts the real cluster by default, with 3 etcd members: every component drawn, the unmodelled ones marked', () => {
    const events: WorkerEvent[] = [];
    new SimHost({ post: (event) => events.push(event), clock: new FakeClock() });
    const ready = events[0];
    if (ready?.type !== 'ready') throw new Error('expected ready first');
    expect(ready).toMatchObject({ seed: 'podflow', nodes: 3, etcdMembers: 3 });
    expect(ready.topology.components.map((c) => c.role)).toEqual([
      'user', 'kube-apiserver', 'etcd', 'etcd', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'kubelet', 'kubelet',
    ]);
    expect(ready.topology.components.find((c) => c.role === 'user')?.modelled).toBe(true);
  });

  it('announces its cluster with ready and a paused status', () => {
    const { drain } = setup();
    const events = drain();
    // The story starts empty: booting is not part of it.
    expect(events.map((e) => e.type)).toEqual(['ready', 'story', 'status']);
    expect(events[1]).toEqual({ type: 'story', replace: true, milestones: [] });
    expect(events[0]).toMatchObject({ type: 'ready', seed: 'test', nodes: 1 });
    expect(events[0]?.type === 'ready' && events[0].topology.components.map((c) => c.name)).toEqual(['user', 'etcd', 'kube-apiserver']);
    expect(lastStatus(events)).toEqual({ step: 0, now: 0, pending: 0, idle: true, mode: 'paused', speed: defaultSpeed });
  });

  it('sends a user request, then delivers it and its reply one step at a time', () => {
    const { send, drain, put } = setup();
    drain();
    expect(lastStatus(send(put('/a')))).toMatchObject({ step: 0, pending: 1, idle: false });

    const first = send({ type: 'step', count: 1 });
    // The put was delivered and etcd's reply is in flight: both are tokens, the reply not delivered yet.
    // The user's etcdctl put reaching etcd is a milestone: the story event comes before the records.
    expect(first.map((e) => e.type)).toEqual(['story', 'traceBatch', 'flights', 'status']);
    const milestone = {
      step: 1, messageId: 1, at: 5, components: ['user', 'etcd'], kind: 'userAction', tool: 'etcdctl', summary: 'etcd.Put /a', object: null,
    };
    expect(first[0]).toEqual({ type: 'story', replace: false, milestones: [milestone] });
    expect(first.find((e) => e.type === 'flights')).toMatchObject({ stepped: [[1, 1]], added: [{ id: 2, kind: 'etcd.Put.reply', step: null }], removed: [] });
    expect(batches(first)[0]).toEqual({
      type: 'traceBatch',
      omitted: 0,
      records: [{
        step: 1, id: 1, from: 'user', to: 'etcd', kind: 'etcd.Put', payload: { key: '/a', value: 'v' },
        sentAt: 0, deliverAt: 5, cause: null, replyTo: null, background: false, level: 'milestone', milestone,
      }],
    });
    expect(lastStatus(first)).toMatchObject({ step: 1, now: 5, pending: 1 });

    const second = send({ type: 'step', count: 1 });
    expect(batches(second)[0]?.records).toMatchObject([{ step: 2, from: 'etcd', to: 'user', kind: 'etcd.Put.reply', cause: 1, replyTo: 1, level: 'request' }]);
    expect(lastStatus(second)).toEqual({ step: 2, now: 10, pending: 0, idle: true, mode: 'paused', speed: defaultSpeed });

    expect(send({ type: 'step', count: 1 }).map((e) => e.type)).toEqual(['status']);
  });

  it.each<[string, Command, RegExp]>([
    ['a request to a component that is not modelled', { type: 'userRequest', to: 'kube-apiserver', kind: 'http.request', payload: null }, /kube-apiserver is not modelled yet/],
    ['a request to no component', { type: 'userRequest', to: 'nobody', kind: 'x', payload: null }, /no component named nobody/],
    ['a step count of zero', { type: 'step', count: 0 }, /step count must be a positive integer, got 0/],
    ['a negative speed', { type: 'setSpeed', speed: -1 }, /speed must be a positive number/],
    ['too many nodes', { type: 'reset', seed: 'x', nodes: 5001 }, /node count must be at most 5000/],
    ['an empty seed', { type: 'reset', seed: '', nodes: 1 }, /seed must be a non-empty string/],
    ['a manifest of a kind nobody serves', { type: 'applyManifest', yaml: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}' },
      /no matches for kind "Widget" in version "example.com\/v1"/],
    ['a manifest that is not YAML', { type: 'applyManifest', yaml: 'kind: [' }, /error: error parsing STDIN: error converting YAML to JSON: /],
  ])('answers %s with an error naming the command, then the status', (_, command, message) => {
    const { send, drain } = setup();
    drain();
    const events = send(command);
    expect(events.map((e) => e.type)).toEqual(['error', 'status']);
    expect(events[0]).toMatchObject({ type: 'error', command: command.type, message: expect.stringMatching(message) });
  });

  it('builds a new cluster on reset', () => {
    const { send, drain, put } = setup();
    drain();
    send(put('/a'));
    send({ type: 'step', count: 1 });
    const events = send({ type: 'reset', seed: 7, nodes: 2 });
    expect(events.map((e) => e.type)).toEqual(['ready', 'story', 'status']);
    expect(events[1]).toEqual({ type: 'story', replace: true, milestones: [] });
    expect(events[0]).toMatchObject({ seed: 7, nodes: 2 });
    expect(lastStatus(events)).toMatchObject({ step: 0, now: 0, pending: 0 });
  });

  it('keeps the speed it is given', () => {
    const { send, drain } = setup();
    drain();
    expect(lastStatus(send({ type: 'setSpeed', speed: 2 })).speed).toBe(2);
  });
});

describe('SimHost batching', () => {
  it('ships a bounded tail of a large step and counts what it left out', () => {
    const { send, drain, put } = setup();
    drain();
    for (let i = 0; i < 1000; i++) send(put(`/k${i}`));
    const events = send({ type: 'step', count: 1500 });
    const [batch] = batches(events);
    expect(batch?.records).toHaveLength(traceTailLimit);
    expect(batch?.omitted).toBe(1500 - traceTailLimit);
    expect(batch?.records[0]?.step).toBe(1500 - traceTailLimit + 1);
    expect(batch?.records.at(-1)?.step).toBe(1500);
  });

  it('runs until idle in chunks, reporting each chunk, and can be paused between chunks', () => {
    const { send, drain, put, clock } = setup({ runChunkSteps: 300 });
    drain();
    for (let i = 0; i < 500; i++) send(put(`/k${i}`));

    const first = send({ type: 'runUntilIdle' });
    expect(batches(first)[0]).toMatchObject({ omitted: 300 - traceTailLimit });
    expect(lastStatus(first)).toMatchObject({ step: 300, mode: 'runningUntilIdle' });

    clock.fireNext();
    const second = drain();
    expect(lastStatus(second)).toMatchObject({ step: 600, mode: 'runningUntilIdle' });

    expect(lastStatus(send({ type: 'pause' }))).toMatchObject({ step: 600, mode: 'paused' });
    clock.advance(100);
    expect(drain()).toEqual([]);

    send({ type: 'runUntilIdle' });
    clock.fireNext();
    expect(clock.scheduled).toBe(0);
    expect(lastStatus(drain())).toEqual({ step: 1000, now: 10, pending: 0, idle: true, mode: 'paused', speed: defaultSpeed });
  });
});

describe('SimHost playback pacing', () => {
  it('advances virtual time by elapsed real time × speed on every tick', () => {
    const { send, drain, put, clock } = setup({ tickMs: 16 });
    drain();
    send({ type: 'setSpeed', speed: 0.25 });
    send(put('/a'));
    expect(lastStatus(send({ type: 'play' }))).toMatchObject({ mode: 'playing', now: 0 });

    clock.advance(16);
    expect(lastStatus(drain())).toMatchObject({ now: 4, step: 0, mode: 'playing' });
    clock.advance(16);
    const delivered = drain();
    expect(batches(delivered)[0]?.records).toMatchObject([{ step: 1, kind: 'etcd.Put', deliverAt: 5 }]);
    expect(lastStatus(delivered)).toMatchObject({ now: 8, step: 1 });
    clock.advance(160);
    expect(lastStatus(drain())).toMatchObject({ now: 48, step: 2, pending: 0, mode: 'playing' });
  });

  it('delivers the same steps in play mode as in step mode', () => {
    const stepped = setup();
    const played = setup();
    for (const host of [stepped, played]) {
      host.drain();
      for (let i = 0; i < 20; i++) host.send(host.put(`/k${i}`));
    }
    const steppedRecords = batches(stepped.send({ type: 'step', count: 40 })).flatMap((b) => b.records);

    played.send({ type: 'setSpeed', speed: 0.05 });
    played.send({ type: 'play' });
    played.clock.advance(1000);
    const playedRecords = batches(played.drain()).flatMap((b) => b.records);
    expect(playedRecords).toEqual(steppedRecords);
  });

  it('caps the virtual time a late tick may cover', () => {
    const { send, drain, clock } = setup({ tickMs: 16, maxTickElapsedMs: 100 });
    drain();
    send({ type: 'setSpeed', speed: 2 });
    send({ type: 'play' });
    clock.sleep(5000);
    clock.advance(0);
    expect(lastStatus(drain()).now).toBe(200);
  });

  it('stops ticking on pause and bounds the deliveries of one tick', () => {
    const { send, drain, put, clock } = setup({ tickMs: 16, maxStepsPerTick: 3 });
    drain();
    for (let i = 0; i < 10; i++) send(put(`/k${i}`));
    send({ type: 'setSpeed', speed: 100 });
    send({ type: 'play' });
    clock.advance(16);
    expect(lastStatus(drain())).toMatchObject({ step: 3, now: 5 });
    send({ type: 'pause' });
    expect(clock.scheduled).toBe(0);
    clock.advance(1000);
    expect(drain()).toEqual([]);
  });

  it('pauses and reports when the model throws while playing', () => {
    const { send, drain, put, clock, cluster } = setup();
    drain();
    cluster().echo.failOn = 'etcd.Put';
    send(put('/a'));
    send({ type: 'setSpeed', speed: 1 });
    send({ type: 'play' });
    clock.advance(16);
    const events = drain();
    expect(events.find((e) => e.type === 'error')).toEqual({ type: 'error', command: null, message: 'echo cannot handle etcd.Put' });
    expect(lastStatus(events).mode).toBe('paused');
    expect(clock.scheduled).toBe(0);
  });
});

describe('SimHost with the real cluster', () => {
  function realHost() {
    const events: WorkerEvent[] = [];
    const host = new SimHost({ post: (e) => e.type !== 'timeline' && events.push(e), clock: new FakeClock(), initial: { seed: 'real', nodes: 3 } });
    return { host, events };
  }

  it('ships log lines only while the Logs panel is shown, and on showing it what it kept meanwhile', () => {
    const { host, events } = realHost();
    const logLines = () => events.flatMap((e) => (e.type === 'logLines' ? [e] : []));
    // Hidden (the page's worker starts so): the request's etcd, audit and kubectl lines are kept, not shipped.
    host.handle({ type: 'consoleRun', id: 1, line: 'kubectl get po -v 6' });
    host.handle({ type: 'runUntilIdle' });
    expect(logLines()).toEqual([]);
    host.handle({ type: 'logsShown', shown: true });
    const caughtUp = logLines();
    expect(caughtUp).toHaveLength(1);
    const sources = new Set(caughtUp[0]!.lines.map((l) => l.source));
    expect([...sources].sort()).toEqual(['audit', 'etcd', 'kubectl']);
    expect(caughtUp[0]!.lines.some((l) => l.source === 'kubectl' && l.text.includes('GET https://127.0.0.1:6443/api/v1/namespaces/default/pods?limit=500 200 OK'))).toBe(true);
    // Shown: each report ships the new lines.
    events.length = 0;
    host.handle({ type: 'consoleRun', id: 2, line: 'kubectl get ns' });
    host.handle({ type: 'runUntilIdle' });
    expect(logLines().flatMap((e) => e.lines).some((l) => l.source === 'audit' && l.key === '/api/v1/namespaces')).toBe(true);
    // Hidden again: nothing more is shipped.
    host.handle({ type: 'logsShown', shown: false });
    events.length = 0;
    host.handle({ type: 'consoleRun', id: 3, line: 'kubectl get no' });
    host.handle({ type: 'runUntilIdle' });
    expect(logLines()).toEqual([]);
  });

  it('shows on showing the same lines a page that showed them all along holds', () => {
    const run = (shownFirst: boolean) => {
      const { host, events } = realHost();
      if (shownFirst) host.handle({ type: 'logsShown', shown: true });
      for (let i = 0; i < 12; i++) {
        host.handle({ type: 'consoleRun', id: i + 1, line: 'kubectl get po -A -v 6' });
        host.handle({ type: 'advance', ms: 5_000 });
      }
      host.handle({ type: 'logsShown', shown: true });
      const shipped = events.flatMap((e) => (e.type === 'logLines' ? [e] : []));
      return { lines: shipped.flatMap((e) => e.lines), omitted: shipped.reduce((n, e) => n + e.omitted, 0), events: shipped.length };
    };
    const allAlong = run(true);
    const onShowing = run(false);
    expect(onShowing.events).toBe(1);
    expect(allAlong.events).toBeGreaterThan(1);
    expect(allAlong.lines.length).toBeGreaterThan(100);
    expect(onShowing).toEqual({ ...allAlong, events: 1 });
  });

  it('keeps at most what the page keeps while the Logs panel is hidden, and counts the rest', () => {
    const { host, events } = realHost();
    host.handle({ type: 'advance', ms: 1_200_000 });
    host.handle({ type: 'logsShown', shown: true });
    const shipped = events.flatMap((e) => (e.type === 'logLines' ? [e] : []));
    expect(shipped).toHaveLength(1);
    expect(shipped[0]!.lines).toHaveLength(logPageLimit);
    expect(shipped[0]!.omitted).toBeGreaterThan(0);
    const steps = shipped[0]!.lines.map((l) => l.step);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
  });

  it('boots the cluster before it reports ready, and reports the boot steps', () => {
    const { events } = realHost();
    const ready = events.find((e) => e.type === 'ready');
    const status = events.filter((e) => e.type === 'status').at(-1);
    expect(ready?.type === 'ready' && ready.bootSteps).toBeGreaterThan(0);
    expect(status?.type === 'status' && status.status).toMatchObject({ idle: true });
    expect(status?.type === 'status' && ready?.type === 'ready' && status.status.step).toBe(ready?.type === 'ready' ? ready.bootSteps : -1);
    expect(events.some((e) => e.type === 'traceBatch')).toBe(false);
  });

  it('applies a manifest as kubectl create -f: one POST per document, as the admin', () => {
    const { host, events } = realHost();
    const atRest = events.filter((e) => e.type === 'status').at(-1);
    const background = atRest?.type === 'status' ? atRest.status.pending : -1;
    events.length = 0;
    host.handle({ type: 'applyManifest', yaml: [
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: nginx-deployment, labels: {app: nginx}}',
      'spec: {replicas: 1, selector: {matchLabels: {app: nginx}}, template: {metadata: {labels: {app: nginx}}, spec: {containers: [{name: nginx, image: "nginx:1.14.2"}]}}}',
      '---', 'apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: settings, namespace: kube-system}', 'data: {a: "1"}',
    ].join('\n') });
    // The two POSTs are in flight (tokens, not delivered yet).
    expect(events.map((e) => e.type)).toEqual(['flights', 'status']);
    expect(events[0]?.type === 'flights' && events[0].added.map((f) => [f.kind, f.from, f.step])).toEqual([['http.request', 'user', null], ['http.request', 'user', null]]);
    expect(events[1]?.type === 'status' && events[1].status.pending).toBe(background + 2);
    // Step (batches of one step each keep every record) until both answers are back; the controllers'
    // follow-up traffic interleaves and is checked elsewhere.
    const answered = () => events.flatMap((e) => (e.type === 'traceBatch' ? e.records : [])).filter((r) => r.kind === 'http.response' && r.to === 'user').length;
    for (let i = 0; i < 200 && answered() < 2; i++) host.handle({ type: 'step', count: 1 });
    const records = events.flatMap((e) => (e.type === 'traceBatch' ? e.records : []));
    const requests = records.filter((r) => r.kind === 'http.request' && r.from === 'user');
    expect(requests.map((r) => (r.payload as { path: string }).path)).toEqual([
      '/apis/apps/v1/namespaces/default/deployments', '/api/v1/namespaces/kube-system/configmaps',
    ]);
    const responses = records.filter((r) => r.kind === 'http.response' && r.to === 'user').map((r) => (r.payload as { status: number }).status);
    expect(responses).toEqual([201, 201]);
  });

  it('mirrors the keyspace: a snapshot after ready, then one diff per command with the writing step', () => {
    const { host, events } = realHost();
    const snapshot = events.find((e) => e.type === 'keyspaceSnapshot');
    expect(snapshot?.type === 'keyspaceSnapshot' && snapshot.current).toBe(true);
    const keys = snapshot?.type === 'keyspaceSnapshot' ? metasOfColumns(snapshot.entries).map((e) => e.key) : [];
    expect(keys).toContain('/registry/namespaces/default');
    expect([...keys].sort()).toEqual(keys);
    const bootRevision = snapshot?.type === 'keyspaceSnapshot' ? snapshot.revision : 0;
    events.length = 0;
    host.handle({ type: 'applyManifest', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: "1"}' });
    host.handle({ type: 'runUntilIdle' });
    const diffs = events.filter((e) => e.type === 'keyspaceDiff');
    expect(diffs).toHaveLength(1);
    const diff = diffs[0]!;
    const change = diff.type === 'keyspaceDiff' ? diff.changes.find((c) => c.key === '/registry/configmaps/default/settings') : undefined;
    expect(change).toMatchObject({ deleted: false, version: 1, createRevision: bootRevision + 1, modRevision: bootRevision + 1 });
    const txn = events.flatMap((e) => (e.type === 'traceBatch' ? e.records : [])).find((r) => r.kind === 'etcd.Txn');
    expect(change?.step).toBe(txn?.step);
    expect(change?.deleted === false && decodeStored(change.value)).toMatchObject({ kind: 'ConfigMap', data: { a: '1' } });

    events.length = 0;
    host.handle({ type: 'keyspaceAt', revision: bootRevision });
    const past = events.find((e) => e.type === 'keyspaceSnapshot');
    expect(past).toMatchObject({ revision: bootRevision, current: false, compacted: false });
    expect(past?.type === 'keyspaceSnapshot' && metasOfColumns(past.entries).map((e) => e.key)).toEqual(keys);
  });

  it('reports compaction in the next diff and answers a compacted revision as unavailable', () => {
    const { host, events } = realHost();
    const snapshot = events.find((e) => e.type === 'keyspaceSnapshot');
    const revision = snapshot?.type === 'keyspaceSnapshot' ? snapshot.revision : 0;
    events.length = 0;
    host.handle({ type: 'userRequest', to: 'etcd', kind: 'etcd.Compact', payload: { revision } });
    host.handle({ type: 'runUntilIdle' });
    expect(events.find((e) => e.type === 'keyspaceDiff')).toMatchObject({ changes: [], compactRevision: revision });
    events.length = 0;
    host.handle({ type: 'keyspaceAt', revision: revision - 1 });
    expect(events[0]).toEqual({ type: 'keyspaceSnapshot', revision: revision - 1, current: false, compacted: true, compactRevision: revision, entries: packKeyMetas([]) });
  });

  it('ships snapshots without values and reads the value of a version the page asks about, until compaction takes it', () => {
    const { host, events } = realHost();
    const put = (value: string): number => {
      host.handle({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: '/x', value } });
      host.handle({ type: 'runUntilIdle' });
      return host.keyspaceTracker!.entriesAt(host.timeline.revisionAt(host.timeline.head)).find((e) => e.key === '/x')!.modRevision;
    };
    const first = put('one');
    const second = put('three');
    events.length = 0;
    // A seek to the step shown ships the whole keyspace.
    host.handle({ type: 'seek', step: host.timeline.head });
    const snapshot = events.filter((e) => e.type === 'keyspaceSnapshot').at(-1);
    const shipped = snapshot?.type === 'keyspaceSnapshot' ? metasOfColumns(snapshot.entries).find((e) => e.key === '/x') : undefined;
    expect(shipped).toEqual({ key: '/x', createRevision: first, modRevision: second, version: 2, lease: '0', size: 5 });
    // Every key of it as etcd holds it, less the value.
    const held = host.keyspaceTracker!.entriesAt(snapshot?.revision ?? 0);
    expect(snapshot?.type === 'keyspaceSnapshot' && metasOfColumns(snapshot.entries)).toEqual(held.map(({ value, ...meta }) => ({ ...meta, size: value.length })));
    // Its pods came with it, from the keyspace tracker.
    expect(events.filter((e) => e.type === 'pods').at(-1)).toMatchObject({ replace: true });

    const ask = (command: Omit<Extract<Command, { type: 'describeValue' }>, 'type' | 'key'>) => {
      events.length = 0;
      host.handle({ type: 'describeValue', key: '/x', ...command });
      return events.find((e) => e.type === 'valueDescription' || e.type === 'error');
    };
    expect(ask({ modRevision: second, value: null, previous: { modRevision: first } }))
      .toMatchObject({ type: 'valueDescription', modRevision: second, mediaType: 'bytes', size: 5, printed: 'three', previousText: 'one' });
    expect(ask({ modRevision: second, value: 'three', previous: { value: 'one' } })).toMatchObject({ printed: 'three', previousText: 'one' });
    // Compacted at the newest revision: the newest version survives, the one it superseded is gone.
    host.handle({ type: 'userRequest', to: 'etcd', kind: 'etcd.Compact', payload: { revision: host.keyspaceTracker!.at(host.timeline.revisionAt(host.timeline.head)).revision } });
    host.handle({ type: 'runUntilIdle' });
    expect(ask({ modRevision: second, value: null, previous: { modRevision: first } })).toMatchObject({ type: 'valueDescription', printed: 'three', previousText: null });
    expect(ask({ modRevision: first, value: null, previous: null })).toMatchObject({ type: 'error', message: `the value of /x at revision ${first} is compacted` });
  });

  it('answers a keyspace request out of range with an error', () => {
    const { host, events } = realHost();
    events.length = 0;
    host.handle({ type: 'keyspaceAt', revision: 1e9 });
    expect(events[0]).toMatchObject({ type: 'error', command: 'keyspaceAt' });
  });
});

describe('a driven host (the server runs the cluster, the host reports it)', () => {
  function driven() {
    const events: WorkerEvent[] = [];
    const acts: Array<() => boolean> = [];
    const spec = { seed: 'test', nodes: 1 };
    const cluster = echoCluster(spec);
    const host = new DrivenHost({
      post: (event) => events.push(structuredClone(event)),
      spec,
      cluster,
      driver: { act: (_command, apply) => acts.push(apply), speed: 1 },
    });
    const put = (key: string) => cluster.user.request('etcd', 'etcd.Put', { key });
    return { host, events, acts, cluster: () => cluster, put, drain: () => events.splice(0) };
  }
  const statusOf = (events: readonly WorkerEvent[]) => (events.filter((e) => e.type === 'status').at(-1) as { status: SimStatus }).status;

  it('follows the head as the driver delivers', () => {
    const { host, cluster, put, drain } = driven();
    expect(statusOf(drain()).mode).toBe('playing');
    put('a');
    cluster().engine.runUntilIdle();
    host.pulse();
    const followed = drain();
    expect(statusOf(followed).step).toBe(cluster().engine.step);
    expect(followed.some((e) => e.type === 'traceBatch' && e.records.length === 2)).toBe(true);
    host.handle({ type: 'pause' });
    expect(drain().find((e) => e.type === 'error')).toMatchObject({ command: 'pause', message: expect.stringContaining("a page's own view") });
  });

  it('gives each page a view of its own: one pauses and steps back and forward while the other follows the head', () => {
    const { host, cluster, put, drain } = driven();
    // Each page's events, as a page attached to the server gets them (the host's pass through its viewer).
    const pages = [0, 1].map(() => {
      const events: WorkerEvent[] = [];
      const viewer = new PageViewer(host, (event) => events.push(structuredClone(event)));
      return { viewer, events, drain: () => events.splice(0) };
    });
    const [a, b] = pages as [typeof pages[0], typeof pages[0]];
    const pulse = () => {
      host.pulse();
      for (const event of drain()) for (const page of pages) page.viewer.pass(event);
    };
    drain();
    put('a');
    cluster().engine.runUntilIdle();
    pulse();
    expect(statusOf(a.drain())).toMatchObject({ mode: 'playing', step: 2 });
    expect(statusOf(b.drain())).toMatchObject({ mode: 'playing', step: 2 });

    expect(a.viewer.handle({ type: 'pause' })).toBe(true);
    expect(statusOf(a.drain())).toMatchObject({ mode: 'paused', step: 2 });
    expect(b.events).toEqual([]);
    put('b');
    cluster().engine.runUntilIdle();
    pulse();
    // The head grew: page a's timeline says so, its view did not move and nothing of the head reached it.
    const whilePaused = a.drain();
    expect(statusOf(whilePaused)).toMatchObject({ mode: 'paused', step: 2 });
    expect(whilePaused.some((e) => e.type === 'traceBatch' || e.type === 'flights')).toBe(false);
    expect(whilePaused.find((e) => e.type === 'timeline')).toMatchObject({ position: 2, head: 4, live: false });
    // Page b follows the head.
    const following = b.drain();
    expect(statusOf(following)).toMatchObject({ mode: 'playing', step: 4 });
    expect(following.find((e) => e.type === 'traceBatch')).toMatchObject({ records: [{ step: 3, kind: 'etcd.Put' }, { step: 4, kind: 'etcd.Put.reply' }] });

    a.viewer.handle({ type: 'stepBack', count: 2 });
    const back = a.drain();
    expect(back.find((e) => e.type === 'traceBatch')).toMatchObject({ replace: true, records: [] });
    expect(back.find((e) => e.type === 'timeline')).toMatchObject({ position: 0, head: 4, live: false });
    a.viewer.handle({ type: 'step', count: 3 });
    const stepped = a.drain();
    expect(stepped.find((e) => e.type === 'traceBatch')).toMatchObject({ records: [{ step: 1 }, { step: 2 }, { step: 3 }] });
    expect(statusOf(stepped)).toMatchObject({ mode: 'paused', step: 3 });
    a.viewer.handle({ type: 'seek', step: 99 });
    expect(a.drain()).toEqual([{ type: 'error', command: 'seek', message: 'step must be an integer from 0 to 4, got 99' }]);
    expect(b.events).toEqual([]);
    expect(host.timeline.position).toBe(4);

    // Play shows page a the head again (the whole view, replacing), and it follows on.
    a.viewer.handle({ type: 'play' });
    const again = a.drain();
    expect(again.find((e) => e.type === 'traceBatch')).toMatchObject({ replace: true });
    expect(statusOf(again)).toMatchObject({ mode: 'playing', step: 4 });
    put('c');
    cluster().engine.runUntilIdle();
    pulse();
    expect(statusOf(a.drain()).step).toBe(6);
    expect(statusOf(b.drain()).step).toBe(6);
  });

  it('a user action from a held page shows it the head and goes to the host', () => {
    const { host, acts, drain } = driven();
    const events: WorkerEvent[] = [];
    const viewer = new PageViewer(host, (event) => events.push(event));
    drain();
    viewer.handle({ type: 'pause' });
    expect(viewer.following).toBe(false);
    expect(viewer.handle({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: 'k' } })).toBe(false);
    expect(viewer.following).toBe(true);
    host.handle({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: 'k' } });
    expect(acts).toHaveLength(1);
  });

  it('refuses what would run or rebuild the cluster, and hands user actions to the driver', () => {
    const { host, acts, cluster, drain } = driven();
    drain();
    for (const command of [{ type: 'reset', seed: 'x', nodes: 1 }, { type: 'runUntilIdle' }, { type: 'setSpeed', speed: 2 }, { type: 'fork', branch: null }] as const) {
      host.handle(command);
      expect(drain().find((e) => e.type === 'error')).toMatchObject({ command: command.type, message: expect.stringContaining('not available while attached to a server') });
    }
    host.handle({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: 'k' } });
    expect(cluster().engine.pending).toBe(0);
    expect(acts).toHaveLength(1);
    expect(acts[0]!()).toBe(true);
    expect(cluster().engine.pending).toBe(1);
    expect(host.timeline.log).toHaveLength(1);
    host.handle({ type: 'userRequest', to: 'nowhere', kind: 'etcd.Put', payload: {} });
    expect(acts[1]!()).toBe(false);
    expect(drain().find((e) => e.type === 'error')).toMatchObject({ command: 'userRequest', message: 'no component named nowhere' });
  });

  it('gives a page that attaches the view from ready on, without disturbing the others', () => {
    const { host, cluster, put, drain } = driven();
    put('a');
    cluster().engine.runUntilIdle();
    host.pulse();
    drain();
    const snapshot = host.snapshot();
    expect(snapshot.map((e) => e.type)).toEqual(['ready', 'story', 'traceBatch', 'flights', 'timeline', 'insides', 'status']);
    expect(snapshot[3]).toMatchObject({ replace: true });
    expect(snapshot[2]).toMatchObject({ replace: true, omitted: 0 });
    expect((snapshot[2] as TraceBatchEvent).records.map((r) => r.kind)).toEqual(['etcd.Put', 'etcd.Put.reply']);
    host.pulse();
    expect(drain().map((e) => e.type)).toEqual(['status']);
  });
});

describe('SimHost reset that fails', () => {
  it('leaves the live cluster, its step and its insides as they were, and goes on', () => {
    const events: WorkerEvent[] = [];
    const host = new SimHost({
      post: (event) => events.push(event),
      clock: new FakeClock(),
      initial: { seed: 'keep', nodes: 1 },
      buildCluster: (spec) => {
        const cluster = createCluster(spec);
        // A cluster of 2 nodes fails in its boot (its 50th delivery throws), as a model error would.
        if (spec.nodes === 2) cluster.engine.onDelivery(() => {
          if (cluster.engine.step === 50) throw new Error('boot failed');
        });
        return cluster;
      },
    });
    const head = host.timeline.head;
    const insides = host.insides.at(head);
    expect(Object.keys(insides ?? {})).toContain('kube-apiserver');
    events.length = 0;
    host.handle({ type: 'reset', seed: 'keep', nodes: 2 });
    expect(events.filter((e) => e.type === 'ready')).toEqual([]);
    expect(events.some((e) => e.type === 'error' && /boot failed/.test(JSON.stringify(e)))).toBe(true);
    expect(host.timeline.head).toBe(head);
    expect(host.insides.at(head)).toEqual(insides);
    // The live cluster still takes a manifest and runs it.
    host.handle({ type: 'applyManifest', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: after}\ndata: {a: "1"}\n' });
    host.handle({ type: 'runUntilIdle' });
    expect(host.timeline.head).toBeGreaterThan(head);
    expect(host.insides.at(host.timeline.head)).not.toBeNull();
  });
});

