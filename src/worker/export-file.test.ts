// Export files and share links: a round trip gives the cluster back; malformed and hostile input is refused
// with an ImportError naming what is wrong (fuzzed with thousands of mutated exports), and an import through
// the saved-cluster commands is all or nothing.

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClusterExportFile, Command, WorkerEvent } from '../protocol/index.ts';
import { exportFile, ImportError, parseExportFile, parseShareFragment, shareFragment, validateExport } from './export-file.ts';
import { SimHost, type HostClock } from './host.ts';
import { ClusterStore } from './persistence.ts';
import { SavedClusters } from './saved-clusters.ts';

const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

/** A small real session: a ConfigMap and an etcdctl put, some steps after each. */
function session(): ClusterExportFile {
  const host = new SimHost({ post: () => undefined, clock: stillClock, initial: { seed: 'export', nodes: 1 } });
  host.handle({ type: 'applyManifest', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: exported}\ndata: {a: "1"}' });
  host.handle({ type: 'step', count: 12 });
  host.handle({ type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: { key: '/k', value: 'v' } });
  host.handle({ type: 'step', count: 6 });
  return exportFile({ name: 'demo', seed: 'export', nodes: 1, created: 1_700_000_000_000, headStep: host.timeline.head }, host.timeline.log);
}

const valid = session();
const validText = JSON.stringify(valid);

/** Applies a mutation at a path of the JSON tree: replace the value, or delete the key / element. */
function mutate(value: unknown, path: readonly number[], replacement: { delete: boolean; value: unknown }): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return replacement.delete ? undefined : replacement.value;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement.value;
    const i = head! % value.length;
    const copy = [...value];
    const next = mutate(copy[i], rest, replacement);
    if (next === undefined) copy.splice(i, 1);
    else copy[i] = next;
    return copy;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement.value;
  const key = keys[head! % keys.length]!;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const next = mutate(copy[key], rest, replacement);
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy;
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('tree' as const), path: fc.array(fc.nat(), { maxLength: 6 }), delete: fc.boolean(), value: fc.oneof(fc.jsonValue(), fc.constantFrom(-1, 1e308, 0.5, '', '__proto__', null, [], {})) }),
  fc.record({ kind: fc.constant('text' as const), at: fc.nat(), cut: fc.nat({ max: 40 }), insert: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('name' as const), name: fc.string({ maxLength: 30 }) }),
  fc.record({ kind: fc.constant('key' as const), path: fc.array(fc.nat(), { maxLength: 5 }), key: fc.constantFrom('__proto__', 'constructor', 'extra', 'format', 'step', 'type') }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function apply(m: Mutation): string {
  if (m.kind === 'text') {
    const at = m.at % (validText.length + 1);
    return validText.slice(0, at) + m.insert + validText.slice(at + m.cut);
  }
  if (m.kind === 'name') return JSON.stringify({ ...valid, name: m.name });
  if (m.kind === 'key') {
    const added = mutate(JSON.parse(validText), m.path, { delete: false, value: undefined });
    // Add a key at the root or inside the first command's payload, written as raw JSON text so __proto__ survives.
    const text = JSON.stringify(added ?? {});
    return text.startsWith('{') ? `{"${m.key}":{"polluted":true},${text.slice(1)}` : text;
  }
  return JSON.stringify(mutate(JSON.parse(validText), m.path, { delete: m.delete, value: m.value })) ?? '';
}

describe('export file', () => {
  it('round-trips a session through the file and through a share link', () => {
    expect(parseExportFile(JSON.stringify(valid))).toEqual(valid);
    const fragment = shareFragment(valid);
    expect(fragment).toMatch(/^#cluster=[A-Za-z0-9_-]+$/);
    expect(parseShareFragment(fragment!)).toEqual(valid);
    expect(parseShareFragment(fragment!.slice(1))).toEqual(valid);
  });

  it('refuses hostile files with a message naming the problem', () => {
    const cases: Array<[string, RegExp]> = [
      ['not json', /not a JSON file/],
      ['[]', /the file must be an object/],
      [JSON.stringify({ ...valid, format: 'other' }), /not a Podflow cluster/],
      [JSON.stringify({ ...valid, version: 2 }), /unsupported version 2/],
      [JSON.stringify({ ...valid, nodes: 5001 }), /nodes must be an integer from 1 to 5000/],
      [JSON.stringify({ ...valid, extra: 1 }), /unexpected field "extra"/],
      [`{"__proto__":{"admin":true},${validText.slice(1)}`, /unexpected field "__proto__"/],
      [JSON.stringify({ ...valid, commands: [...valid.commands].reverse() }), /out of order/],
      [JSON.stringify({ ...valid, commands: [{ step: 1, at: 0, command: { type: 'eval', code: 'x' } }] }), /must be "applyManifest", "userRequest", "consoleRun", "consoleInterrupt" or "fault"/],
      [JSON.stringify({ ...valid, commands: [{ step: 1e9, at: 0, command: valid.commands[0]!.command }] }), /step must be an integer/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseExportFile(text)).toThrow(ImportError);
      expect(() => parseExportFile(text)).toThrow(message);
    }
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = { deep };
    const nested = { ...valid, commands: [{ step: valid.headStep, at: 1e9, command: { type: 'userRequest', to: 'etcd', kind: 'etcd.Put', payload: deep } }] };
    expect(() => validateExport(nested)).toThrow(/nested too deeply/);
    expect(() => parseShareFragment('#cluster=%%%')).toThrow(/damaged/);
    expect(() => parseShareFragment('#other=abc')).toThrow(/#cluster=/);
  });

  it('fuzz: thousands of mutated exports are either refused with an ImportError or read as a valid file', () => {
    fc.assert(fc.property(mutation, (m) => {
      const text = apply(m);
      let result: ClusterExportFile;
      try {
        result = parseExportFile(text);
      } catch (error) {
        expect(error).toBeInstanceOf(ImportError);
        return;
      }
      // Accepted: it is a complete, valid file (checking it again changes nothing).
      expect(validateExport(JSON.parse(JSON.stringify(result)))).toEqual(result);
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    }), { numRuns: 4_000, seed: 6 });
  });
});

/** A host with saved clusters, on the IndexedDB of the test. */
async function importer(idPrefix: string) {
  const events: WorkerEvent[] = [];
  const host = new SimHost({ post: (e) => events.push(e), clock: stillClock, initial: { seed: 'importer', nodes: 1 } });
  let n = 0;
  const saved = new SavedClusters({ host, locks: { acquire: async () => () => undefined }, now: () => 0, newId: () => `${idPrefix}${++n}`, openStore: () => ClusterStore.open() });
  await saved.start();
  /** Runs a command with the events cleared first, and waits until the saved clusters are quiet. */
  const run = async (command: Command): Promise<void> => {
    events.length = 0;
    host.handle(command);
    for (let i = 0; i < 10; i++) {
      await saved.idle();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  /** Exports the open cluster, then imports its file and its link, checking each import; returns the file. */
  const exportAndReimport = async (check: (imported: readonly WorkerEvent[]) => void): Promise<string> => {
    await run({ type: 'exportCluster', id: saved['saver'].open!.id });
    const exported = events.find((e) => e.type === 'clusterExport');
    if (exported?.type !== 'clusterExport') throw new Error('no export');
    const json = exported.json;
    for (const [source, text] of [['file', json], ['link', exported.shareFragment!]] as const) {
      await run({ type: 'importCluster', source, text });
      expect(events.find((e) => e.type === 'error')).toBeUndefined();
      check(events);
    }
    return json;
  };
  return { events, host, run, exportAndReimport };
}

describe('import through the saved-cluster commands', () => {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
  });

  it('a JSON-storage cluster exports as JSON and imports as JSON, by file and by link; protobuf stays the default', async () => {
    const { events, host, run, exportAndReimport } = await importer('j');
    const storedValue = (key: string) => host.keyspaceTracker?.entriesAt(host.timeline.revisionAt(host.timeline.head)).find((e) => e.key === key)?.value;
    const key = '/registry/configmaps/default/kept';
    await run({ type: 'createCluster', name: 'as json', seed: 'json-export', nodes: 1, storageMediaType: 'json' });
    await run({ type: 'applyManifest', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kept}\ndata: {a: "1"}' });
    await run({ type: 'step', count: 15 });
    expect(storedValue(key)?.startsWith('{"kind":"ConfigMap"')).toBe(true);
    const json = await exportAndReimport((imported) => {
      expect(imported.find((e) => e.type === 'ready')).toMatchObject({ storageMediaType: 'json' });
      expect(storedValue(key)?.startsWith('{"kind":"ConfigMap"')).toBe(true);
    });
    expect(JSON.parse(json)).toMatchObject({ storageMediaType: 'json' });
    // A file without the field (a protobuf cluster's, or one written before the option) replays as protobuf.
    const plain = JSON.parse(json) as Record<string, unknown>;
    delete plain.storageMediaType;
    await run({ type: 'importCluster', source: 'file', text: JSON.stringify(plain) });
    expect(events.find((e) => e.type === 'ready')).not.toHaveProperty('storageMediaType');
    expect(storedValue(key)?.startsWith('k8s\0')).toBe(true);
  }, 60_000);

  it('a 3-member cluster is saved, exported and imported (file and link) with its 3 members; a file without the field has one', async () => {
    const { events, run, exportAndReimport } = await importer('m');
    const etcdOf = (event: WorkerEvent | undefined) => (event?.type === 'ready' ? event.topology.components.filter((c) => c.role === 'etcd').map((c) => c.name) : null);
    await run({ type: 'createCluster', name: 'three', seed: 'members-export', nodes: 1, etcdMembers: 3 });
    expect(events.find((e) => e.type === 'ready')).toMatchObject({ etcdMembers: 3 });
    expect(etcdOf(events.find((e) => e.type === 'ready'))).toEqual(['etcd-1', 'etcd-2', 'etcd-3']);
    const listed = events.filter((e) => e.type === 'clusters').at(-1);
    expect(listed?.type === 'clusters' && listed.clusters.find((c) => c.name === 'three')).toMatchObject({ etcdMembers: 3 });
    const json = await exportAndReimport((imported) => expect(etcdOf(imported.find((e) => e.type === 'ready'))).toEqual(['etcd-1', 'etcd-2', 'etcd-3']));
    expect(JSON.parse(json)).toMatchObject({ etcdMembers: 3 });
    const plain = JSON.parse(json) as Record<string, unknown>;
    delete plain.etcdMembers;
    await run({ type: 'importCluster', source: 'file', text: JSON.stringify(plain) });
    expect(etcdOf(events.find((e) => e.type === 'ready'))).toEqual(['etcd']);
    expect(() => validateExport({ ...plain, etcdMembers: 2 })).toThrow('import: etcdMembers must be 1, 3 or 5');
  }, 120_000);

  it('fuzz: a mutated import is stored whole and opened, or refused leaving the saved clusters unchanged', async () => {
    const { events, host, run } = await importer('id');
    const store = await ClusterStore.open();
    let accepted = 0;
    let refused = 0;
    await fc.assert(fc.asyncProperty(mutation, async (m) => {
      const text = apply(m);
      const before = await store.list();
      await run({ type: 'importCluster', source: 'file', text });
      const after = await store.list();
      const error = events.find((e) => e.type === 'error');
      if (error) {
        expect(error).toMatchObject({ command: 'importCluster' });
        expect(error.type === 'error' && error.message).toMatch(/^import: /);
        expect(after.map((c) => [c.id, c.commands])).toEqual(before.map((c) => [c.id, c.commands]));
        refused++;
        return;
      }
      const file = parseExportFile(text);
      const added = after.filter((c) => !before.some((b) => b.id === c.id));
      expect(added).toHaveLength(1);
      const loaded = await store.load(added[0]!.id);
      expect(loaded?.log).toEqual(file.commands);
      expect(host.timeline.log).toEqual(file.commands);
      expect(host.timeline.head).toBe(file.headStep);
      accepted++;
    }), { numRuns: 150, seed: 7 });
    // Both outcomes were exercised.
    expect(accepted).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(50);
  }, 120_000);
});
