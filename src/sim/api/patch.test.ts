import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyJSONPatch, jsonPatchErrorStatus } from './json-patch.ts';
import { applyMergePatch } from './merge-patch.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';
import { strategicMergeErrorStatus } from './strategic-merge-meta.ts';

type JSONMap = Record<string, unknown>;

function smp(kind: string, original: JSONMap, patch: JSONMap): JSONMap {
  const r = applyStrategicMergePatch(kind, original, patch);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const deployment = (): JSONMap => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'nginx', labels: { app: 'nginx' }, finalizers: ['a'] },
  spec: {
    replicas: 2,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } },
  },
});

describe('strategic merge patch', () => {
  // Patch bodies recorded from kubectl apply (kubectl-wire.md §3.6).
  it('applies kubectl apply\'s image and replicas change', () => {
    const out = smp('Deployment', deployment(), { spec: { replicas: 4, template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ image: 'nginx:1.15', name: 'nginx' }] } } } });
    const spec = out.spec as JSONMap;
    expect(spec.replicas).toBe(4);
    expect((spec.template as JSONMap).spec).toEqual({ containers: [{ name: 'nginx', image: 'nginx:1.15', ports: [{ containerPort: 80, protocol: 'TCP' }] }] });
  });

  it('adds a label, drops ports, adds env and a second container, in $setElementOrder order', () => {
    const out = smp('Deployment', deployment(), {
      metadata: { labels: { tier: 'web' } },
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'sidecar' }], containers: [{ env: [{ name: 'A', value: '1' }], name: 'nginx', ports: null }, { image: 'busybox', name: 'sidecar' }] } } },
    });
    expect((out.metadata as JSONMap).labels).toEqual({ app: 'nginx', tier: 'web' });
    expect(((out.spec as JSONMap).template as JSONMap).spec).toEqual({ containers: [{ name: 'nginx', image: 'nginx:1.14.2', env: [{ name: 'A', value: '1' }] }, { image: 'busybox', name: 'sidecar' }] });

    const back = smp('Deployment', out, {
      metadata: { labels: { tier: null } },
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ env: null, name: 'nginx', ports: [{ containerPort: 80 }] }, { $patch: 'delete', name: 'sidecar' }] } } },
    });
    expect((back.metadata as JSONMap).labels).toEqual({ app: 'nginx' });
    // The re-added port has no protocol yet: the apiserver defaults it after the merge.
    expect(((back.spec as JSONMap).template as JSONMap).spec).toEqual({ containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] });
  });

  it('applies kubectl set image', () => {
    const out = smp('Deployment', deployment(), { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ image: 'nginx:1.16', name: 'nginx' }] } } } });
    expect((((out.spec as JSONMap).template as JSONMap).spec as { containers: JSONMap[] }).containers[0]!.image).toBe('nginx:1.16');
  });

  it('merges lists by key and primitive sets in upstream\'s order (patch order first where the server has no position), replaces plain lists', () => {
    const pod = { metadata: { finalizers: ['a', 'b'] }, spec: { containers: [{ name: 'a', command: ['x', 'y'] }, { name: 'b' }] } };
    const out = smp('Pod', pod, { metadata: { finalizers: ['c', 'a'] }, spec: { containers: [{ name: 'c' }, { name: 'a', command: ['z'] }] } });
    // mergeSortedSlice takes a patched item first whenever the server list does not know it.
    expect((out.metadata as JSONMap).finalizers).toEqual(['c', 'a', 'b']);
    expect((out.spec as JSONMap).containers).toEqual([{ name: 'c' }, { name: 'a', command: ['z'] }, { name: 'b' }]);
    const kept = smp('Pod', pod, { spec: { containers: [{ name: 'b', image: 'x' }] } });
    expect((kept.spec as JSONMap).containers).toEqual([{ name: 'a', command: ['x', 'y'] }, { name: 'b', image: 'x' }]);
  });

  it('honours $patch replace and delete, $retainKeys and $deleteFromPrimitiveList', () => {
    const pod = { metadata: { labels: { a: '1', b: '2' }, finalizers: ['x', 'y', 'z'] }, spec: { containers: [{ name: 'a' }, { name: 'b' }] } };
    expect((smp('Pod', pod, { metadata: { labels: { $patch: 'replace', c: '3' } } }).metadata as JSONMap).labels).toEqual({ c: '3' });
    expect((smp('Pod', pod, { spec: { containers: [{ $patch: 'replace' }, { name: 'n' }] } }).spec as JSONMap).containers).toEqual([{ name: 'n' }]);
    expect((smp('Pod', pod, { metadata: { $patch: 'delete' } }).metadata as JSONMap)).toEqual({});
    expect((smp('Pod', pod, { metadata: { '$deleteFromPrimitiveList/finalizers': ['y'] } }).metadata as JSONMap).finalizers).toEqual(['x', 'z']);
    const d = deployment();
    const recreate = smp('Deployment', d, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } });
    expect((recreate.spec as JSONMap).strategy).toEqual({ type: 'Recreate' });
  });

  it.each([
    [{ spec: { containers: [{ image: 'x' }] } }, 500, 'map: map[image:x] does not contain declared merge key: name'],
    [{ spec: { containers: [{ $patch: 'bogus', name: 'a' }] } }, 500, 'unknown patch type: bogus in map: map[$patch:bogus name:a]'],
    [{ metadata: { $retainKeys: 'name' } }, 400, 'invalid patch format of retainKeys'],
    [{ metadata: { $retainKeys: ['name'], labels: { a: 'b' } } }, 400, 'invalid patch format of retainKeys'],
    [{ spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b' }] } }, 500, "The order in patch list:\n[map[name:b]]\n doesn't match $setElementOrder list:\n[map[name:a]]\n"],
  ])('rejects %j', (patch, code, error) => {
    const r = applyStrategicMergePatch('Pod', { metadata: { name: 'p', labels: {} }, spec: { containers: [{ name: 'a' }] } }, patch);
    expect(r).toEqual({ ok: false, code, error });
    if (!r.ok) expect(strategicMergeErrorStatus(r).code).toBe(code);
  });

  it('is the identity for an empty patch', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom('a', 'b', 'app'), fc.string()), (labels) => {
      const original = { metadata: { labels }, spec: { containers: [{ name: 'c' }] } };
      expect(smp('Pod', original, {})).toEqual(original);
    }));
  });
});

describe('JSON merge patch', () => {
  // RFC 7386 appendix A examples.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    [{ spec: { replicas: 1, selector: { matchLabels: { app: 'x' } } } }, { spec: { replicas: 3 } }, { spec: { replicas: 3, selector: { matchLabels: { app: 'x' } } } }],
  ])('%j + %j = %j', (doc, patch, result) => {
    expect(applyMergePatch(doc, patch)).toEqual({ ok: true, value: result });
  });

  it('rejects a null or scalar patch as evanphx/json-patch does', () => {
    expect(applyMergePatch({}, null)).toEqual({ ok: false, error: 'Invalid JSON Patch' });
    expect(applyMergePatch({}, 5)).toEqual({ ok: false, error: 'Invalid JSON Patch' });
    expect(applyMergePatch({ a: 1 }, [1, null])).toEqual({ ok: true, value: [1, null] });
  });
});

describe('JSON patch', () => {
  const doc = { metadata: { labels: { app: 'x' } }, spec: { replicas: 1, containers: [{ name: 'a' }, { name: 'b' }] } };

  it('applies the RFC 6902 operations', () => {
    const r = applyJSONPatch(doc, [
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'add', path: '/metadata/labels/tier', value: 'web' },
      { op: 'add', path: '/spec/containers/-', value: { name: 'c' } },
      { op: 'remove', path: '/spec/containers/0' },
      { op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/copy' },
      { op: 'move', from: '/metadata/labels/copy', path: '/metadata/labels/moved' },
      { op: 'test', path: '/spec/containers/-1/name', value: 'c' },
      { op: 'add', path: '/metadata/labels/a~1b', value: 'slash' },
    ]);
    expect(r).toEqual({ ok: true, value: { metadata: { labels: { app: 'x', tier: 'web', moved: 'x', 'a/b': 'slash' } }, spec: { replicas: 3, containers: [{ name: 'b' }, { name: 'c' }] } } });
  });

  it.each([
    [[{ op: 'add', path: '/spec/nope/x', value: 1 }], 'add operation does not apply: doc is missing path: "/spec/nope/x": missing value'],
    [[{ op: 'remove', path: '/spec/nope' }], "error in remove for path: '/spec/nope': Unable to remove nonexistent key: nope: missing value"],
    [[{ op: 'test', path: '/spec/replicas', value: 2 }], 'testing value /spec/replicas failed: test failed'],
    [[{ op: 'remove', path: '/spec/containers/5' }], "error in remove for path: '/spec/containers/5': Unable to access invalid index: 5: invalid index referenced"],
    [[{ op: 'add', path: '/spec/containers/x', value: 1 }], "error in add for path: '/spec/containers/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax"],
    [[{ op: 'frobnicate', path: '/spec' }], 'Unexpected kind: frobnicate'],
    [[{ path: '/spec' }], 'Unexpected kind: unknown'],
  ])('reports %j', (patch, error) => {
    const r = applyJSONPatch(doc, patch);
    expect(r).toEqual({ ok: false, stage: 'apply', error });
    if (!r.ok) expect(jsonPatchErrorStatus(r).status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 });
  });

  it('adds a missing key on replace, as the v4 library does', () => {
    expect(applyJSONPatch({ a: {} }, [{ op: 'replace', path: '/a/b', value: 1 }])).toEqual({ ok: true, value: { a: { b: 1 } } });
  });

  it('rejects patches that do not decode with 400', () => {
    const r = applyJSONPatch(doc, { op: 'add' });
    expect(r).toEqual({ ok: false, stage: 'decode', error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' });
    if (!r.ok) expect(jsonPatchErrorStatus(r).code).toBe(400);
    expect(applyJSONPatch(doc, [1])).toEqual({ ok: false, stage: 'decode', error: 'json: cannot unmarshal number into Go value of type jsonpatch.Operation' });
  });

  it('does not modify its input', () => {
    const copy = JSON.parse(JSON.stringify(doc)) as unknown;
    applyJSONPatch(doc, [{ op: 'remove', path: '/spec' }]);
    expect(doc).toEqual(copy);
  });
});
