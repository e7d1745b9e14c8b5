// Property tests of the console: random and mutated command lines and manifests never throw (not in the
// parser, not in the session, not in the engine), every command ends with an exit code, and the
// manifest path never leaves a partial write: a manifest kubectl rejects before sending writes
// nothing, and every object kubectl reports created is in etcd, every one it reports failed is not.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../sim/api/manifest.ts';
import { createCluster } from '../../sim/cluster.ts';
import { parseKubectl } from './kubectl-args.ts';
import { kindName } from './kubectl-print.ts';
import { ConsoleSession } from './session.ts';
import { decodeStored } from '../../sim/apiserver/storage/codec.ts';

const words = [
  'kubectl', 'etcdctl', 'get', 'describe', 'create', 'apply', 'replace', 'delete', 'scale', 'set', 'image', 'rollout', 'status',
  'history', 'undo', 'version', 'po', 'pods', 'deploy', 'deployment/nginx', 'rs', 'nodes', 'ns', 'nginx', 'nginx=nginx:1.16',
  '-n', 'kube-system', '-A', '-l', 'app=nginx', 'app!=x', '-o', 'yaml', 'json', 'wide', 'name', 'bogus', '-w', '--show-labels',
  '-f', '-', '--replicas=3', '--replicas', '-1', '--cascade=orphan', '--cascade', '--as=alice', '--as', '--raw', '/api/v1/pods',
  '/registry', '--prefix', '--keys-only', '--rev', '3', '-w', 'watch', 'compaction', 'lease', 'list', '--to-revision=1', '-v=6',
  '-v', '8', '--', '=', "'", '"', '-', '--wait=false', '-oyaml', '-nkube-system', '-Aw', '--bogus', '-x',
];

const commandLine = fc.oneof(
  fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((ws) => ws.join(' ')),
  fc.string({ maxLength: 40 }),
  fc.tuple(fc.constantFrom('kubectl ', 'etcdctl '), fc.string({ maxLength: 30 })).map(([a, b]) => a + b),
);

const manifests = [
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`,
  `apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  containers:
  - name: c
    image: busybox
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: rs1
spec:
  replicas: 1
  selector:
    matchLabels:
      app: rs1
  template:
    metadata:
      labels:
        app: rs1
    spec:
      containers:
      - name: c
        image: nginx
`,
];

type Mutation = { kind: 'delete' | 'insert' | 'duplicateLine' | 'dropLine' | 'number'; at: number; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'duplicateLine', 'dropLine', 'number'),
  at: fc.nat(),
  text: fc.oneof(fc.constantFrom(':', '-', '[', ']', '{', '}', '#', ' ', '\n', "'", '"', '---\n', 'x', '  ', '\t', '&a', '*a', '!!int'), fc.string({ maxLength: 4 })),
});

function mutate(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const line = m.at % Math.max(1, lines.length);
  switch (m.kind) {
    case 'delete': { const i = m.at % Math.max(1, text.length); return text.slice(0, i) + text.slice(i + 1 + (m.text.length % 3)); }
    case 'insert': { const i = m.at % (text.length + 1); return text.slice(0, i) + m.text + text.slice(i); }
    case 'duplicateLine': return [...lines.slice(0, line + 1), lines[line]!, ...lines.slice(line + 1)].join('\n');
    case 'dropLine': return [...lines.slice(0, line), ...lines.slice(line + 1)].join('\n');
    case 'number': return text.replace(/\d+/, String(m.at % 5 === 0 ? -m.at : m.at));
  }
}

describe('console parser', () => {
  it('never throws on random command lines, and every rejection is a kubectl error text', () => {
    fc.assert(fc.property(commandLine, (line) => {
      const parsed = parseKubectl(line);
      if (!parsed.ok) expect(parsed.stderr.endsWith('\n')).toBe(true);
    }), { numRuns: 5_000 });
  });
});

describe('console session', () => {
  it('random command lines finish (or stay watching), never throwing into the engine', () => {
    const cluster = createCluster({ seed: 'fuzz-lines', nodes: 1, components: { controllerManager: false, scheduler: false, kubelets: false } });
    cluster.boot();
    const session = new ConsoleSession(cluster.engine, cluster.user, null);
    cluster.engine.onDelivery((m) => session.observe(m));
    let id = 0;
    fc.assert(fc.property(commandLine, fc.string({ maxLength: 200 }), (line, stdin) => {
      const mine = ++id;
      session.run(mine, line, stdin);
      cluster.engine.runUntilIdle(200_000);
      const events = session.flush().filter((e) => e.id === mine);
      const done = events.find((e) => e.done);
      if (done) expect(done.exitCode).toEqual(expect.any(Number));
      else session.interrupt(mine);
    }), { numRuns: 400 });
  });

  it('mutated manifests: rejected before sending writes nothing; each object is written whole or not at all', () => {
    const cluster = createCluster({ seed: 'fuzz-manifests', nodes: 1, components: { controllerManager: false, scheduler: false, kubelets: false } });
    cluster.boot();
    const session = new ConsoleSession(cluster.engine, cluster.user, null);
    let id = 0;
    fc.assert(fc.property(fc.constantFrom(...manifests), fc.array(mutation, { maxLength: 3 }), fc.constantFrom('create', 'apply', 'replace'), (base, ms, verb) => {
      const text = ms.reduce(mutate, base);
      const mine = ++id;
      const before = cluster.etcd.store.currentRev;
      session.run(mine, `kubectl ${verb} -f -`, text);
      cluster.engine.runUntilIdle(200_000);
      const events = session.flush().filter((e) => e.id === mine);
      const stdout = events.map((e) => e.stdout).join('');
      const done = events.find((e) => e.done);
      expect(done?.exitCode).toEqual(expect.any(Number));
      const manifest = parseManifest(text, 'STDIN');
      if (manifest.errors.length > 0) {
        expect(done?.exitCode).toBe(1);
        expect(cluster.etcd.store.currentRev).toBe(before);
        return;
      }
      for (const m of manifest.objects) {
        const name = String((m.object.metadata as { name?: unknown } | undefined)?.name ?? '');
        const reported = new RegExp(`^${kindName(m.resource).replace('.', '\\.')}/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (created|configured|replaced|unchanged)$`, 'm').test(stdout);
        const ns = m.resource.namespaced ? `${String((m.object.metadata as { namespace?: unknown } | undefined)?.namespace ?? 'default')}/` : '';
        const key = `/registry/${m.resource.storageResource}/${ns}${name}`;
        const stored = cluster.etcd.kv.range({ key }).kvs;
        if (reported) {
          expect(stored).toHaveLength(1);
          const value = decodeStored(stored[0]!.value) as { metadata: { name: string } };
          expect(value.metadata.name).toBe(name);
        }
      }
      // Whatever was written is whole: every stored object in the namespaces touched decodes as JSON.
      for (const kv of cluster.etcd.kv.range({ key: '/registry/', rangeEnd: '/registry0' }).kvs) expect(() => decodeStored(kv.value)).not.toThrow();
    }), { numRuns: 400 });
  });
});
