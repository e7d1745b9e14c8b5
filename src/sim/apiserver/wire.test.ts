// What kube-apiserver does with the bytes on the wire: request media types (415), strict decoding's
// duplicate fields, the negotiated response serializer (objects, lists, errors), protobuf bodies in and
// out, protobuf watch frames, and the pods/eviction subresource kubectl drain uses.

import { describe, expect, it } from 'vitest';
import { decodeProtobuf, encodeProtobuf } from '../api/protobuf/index.ts';
import type { Pod } from '../api/types/core.ts';
import type { KubeObject, Status } from '../api/types/meta.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpResponse, type HttpWatchEvent } from '../wire/http.ts';
import { decodeWatchFrames, encodeBody, encodeWatchEvent, goJson } from './wire-encoding.ts';

function bootedCluster(): Cluster {
  const cluster = createCluster({ seed: 'wire', nodes: 1 });
  cluster.boot();
  expect(cluster.apiserver.ready).toBe(true);
  return cluster;
}

function call(cluster: Cluster, method: HttpMethod, path: string, options: { body?: string | Uint8Array; query?: string; headers?: Record<string, string> } = {}): HttpResponse {
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query: options.query ?? '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', 'content-type': 'application/json', ...options.headers },
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  cluster.engine.runUntilIdle();
  const reply = cluster.user.received().find((r) => r.requestId === request.id);
  if (!reply) throw new Error(`no response to ${method} ${path}`);
  return reply.message.payload as HttpResponse;
}

/** A protobuf body as the Node server hands it over: one char per byte. */
function byteString(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

const configMapJson = (name: string, extra = ''): string => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"a":"1"${extra}}}`;

describe('request bodies', () => {
  it('a text/plain (or any unserved) body is 415 with the real message; nothing is stored', () => {
    const cluster = bootedCluster();
    const r = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMapJson('plain'), headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({
      kind: 'Status', status: 'Failure', reason: 'UnsupportedMediaType', code: 415,
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/plain').status).toBe(404);
  });

  it('a body that does not parse names its first bytes as summarizeData does (text from `{`, hex otherwise)', () => {
    const cluster = bootedCluster();
    const broken = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: '{"kind":' });
    expect([broken.status, (broken.body as Status).message]).toEqual([400, expect.stringMatching(/^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: .+ \(\{"kind":\)$/)]);
    const array = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: '[1,2]' });
    expect((array.body as Status).message).toMatch(/ \(5b312c325d\)$/);
  });

  it('duplicate JSON fields: refused under Strict, warned under Warn (with unknown fields, in document order), silent under Ignore', () => {
    const cluster = bootedCluster();
    const dup = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"NAME","labels":{"x":"1","x":"2"}},"bogus":1,"data":{"a":"1","a":"2"}}';
    const strict = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: dup.replace('NAME', 'strict'), query: 'fieldValidation=Strict' });
    expect(strict.status).toBe(400);
    expect((strict.body as Status).message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.labels.x", unknown field "bogus", duplicate field "data.a"');
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/strict').status).toBe(404);

    const warn = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: dup.replace('NAME', 'warn'), query: 'fieldValidation=Warn' });
    expect(warn.status).toBe(201);
    expect(warn.headers.warning).toBe('299 - "duplicate field \\"metadata.labels.x\\"", 299 - "unknown field \\"bogus\\"", 299 - "duplicate field \\"data.a\\""');
    // The last value wins, as Go's decoder leaves it.
    expect((warn.body as { data: unknown }).data).toEqual({ a: '2' });

    const ignore = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: dup.replace('NAME', 'ignore'), query: 'fieldValidation=Ignore' });
    expect(ignore.status).toBe(201);
    expect(ignore.headers.warning).toBeUndefined();
  });

  it('a nested duplicate is named by its path; a repeated unknown key is reported once, as unknown', () => {
    const cluster = bootedCluster();
    const body = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":1,"replicas":2,"foo":1,"foo":2,'
      + '"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx","image":"nginx:2"}]}}}}';
    const r = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body, query: 'fieldValidation=Strict' });
    expect(r.status).toBe(400);
    expect((r.body as Status).message).toBe('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "spec.replicas", unknown field "spec.foo", duplicate field "spec.template.spec.containers[0].image"');
  });

  it('repeated YAML keys: the strict YAML decoder\'s words under Strict, a warning under Warn, the last value otherwise', () => {
    const cluster = bootedCluster();
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: NAME\ndata:\n  a: "1"\n  a: "2"\n';
    const headers = { 'content-type': 'application/yaml' };
    const strict = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: yaml.replace('NAME', 's'), query: 'fieldValidation=Strict', headers });
    expect([strict.status, (strict.body as Status).message]).toEqual([400, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: yaml: unmarshal errors:\n  line 7: key "a" already set in map']);
    const warn = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: yaml.replace('NAME', 'w'), query: 'fieldValidation=Warn', headers });
    expect(warn.status).toBe(201);
    expect(warn.headers.warning).toBe('299 - "yaml: unmarshal errors:\\n  line 7: key \\"a\\" already set in map"');
    expect((warn.body as { data: unknown }).data).toEqual({ a: '2' });
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: yaml.replace('NAME', 'i'), query: 'fieldValidation=Ignore', headers }).status).toBe(201);
  });

  it('a protobuf body creates the object; bytes that are not protobuf are a 400 naming the kind and the first bytes', () => {
    const cluster = bootedCluster();
    const bytes = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-protobuf' }, data: { a: 'b' } } as KubeObject);
    const created = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: byteString(bytes), headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/vnd.kubernetes.protobuf, */*' },
    });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(created.body).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'from-protobuf' }, data: { a: 'b' } });
    // As Uint8Array too (interfaces.md §5).
    const fromBytes = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-bytes' } } as KubeObject), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
    });
    expect(fromBytes.status).toBe(201);
    // An update (PUT) in protobuf too; a patch never is (415 naming the patch types).
    const current = created.body as KubeObject & { data: Record<string, string> };
    const put = call(cluster, 'PUT', '/api/v1/namespaces/default/configmaps/from-protobuf', {
      body: byteString(encodeProtobuf({ ...current, data: { a: 'c' } } as KubeObject)), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
    });
    expect([put.status, (put.body as { data: unknown }).data]).toEqual([200, { a: 'c' }]);
    const patch = call(cluster, 'PATCH', '/api/v1/namespaces/default/configmaps/from-protobuf', { body: byteString(bytes), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' } });
    expect([patch.status, (patch.body as Status).message]).toEqual([415, 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml']);

    const bad = call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMapJson('not-protobuf'), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' } });
    expect(bad.status).toBe(400);
    expect((bad.body as Status).message).toMatch(/^the object provided is unrecognized \(must be of type ConfigMap\): .+ \(\{"apiVersion":"v1","kind":"Con \.\.\.\)$/);
  });
});

describe('DeleteOptions bodies', () => {
  it('a protobuf DeleteOptions body is read like a JSON one (its kind and apiVersion are not options)', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMapJson('keep') });
    const options = encodeProtobuf({ apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] } as unknown as KubeObject);
    const dry = call(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps/keep', { body: byteString(options), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' } });
    expect(dry.status).toBe(200);
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/keep').status).toBe(200);
    const text = call(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps/keep', { body: '{"dryRun":["All"]}', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const real = call(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps/keep', { body: byteString(encodeProtobuf({ apiVersion: 'v1', kind: 'DeleteOptions' })), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' } });
    expect(real.status).toBe(200);
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/keep').status).toBe(404);
  });
});

describe('responses in the negotiated serializer', () => {
  it('objects, lists and errors are protobuf when the Accept asks for it, and decode back to what JSON would say', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMapJson('cm') });
    const accept = { accept: 'application/vnd.kubernetes.protobuf, */*' };
    const json = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/cm');
    const proto = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/cm', { headers: accept });
    expect(proto.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const bytes = encodeBody(proto.headers['content-type'], proto.body) as Uint8Array;
    expect([...bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    const decoded = decodeProtobuf(bytes);
    expect(decoded.ok && decoded.object).toEqual(json.body);

    const list = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps', { headers: accept });
    expect(list.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(list.body).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1' });

    const missing = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/none', { headers: accept });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const status = decodeProtobuf(encodeBody(missing.headers['content-type'], missing.body) as Uint8Array);
    expect(status.ok && status.object).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'configmaps "none" not found' });

    // Discovery and other non-resource answers keep their own types.
    expect(call(cluster, 'GET', '/version', { headers: accept }).headers['content-type']).toBe('application/json');
  });

  it('a Table is asked for with q-values and never in protobuf; YAML is served with sorted keys', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMapJson('cm') });
    const table = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps', { headers: { accept: 'application/json;q=0.9, application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    const beta = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps', { headers: { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' } });
    expect(beta.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1' });
    const notProto = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps', { headers: { accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json' } });
    expect(notProto.body).toMatchObject({ kind: 'ConfigMapList' });
    expect(notProto.headers['content-type']).toBe('application/json');
    const yaml = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/cm', { headers: { accept: 'application/yaml' } });
    expect(yaml.headers['content-type']).toBe('application/yaml');
    expect(encodeBody(yaml.headers['content-type'], yaml.body)).toMatch(/^apiVersion: v1\ndata:\n {2}a: "1"\nkind: ConfigMap\nmetadata:\n/);
    const partial = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps', { headers: { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' } });
    expect(partial.body).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' });
    // cm, and the root-CA publisher's kube-root-ca.crt.
    expect((partial.body as { items: { kind: string; metadata: { name: string } }[] }).items.map((i) => `${i.kind}/${i.metadata.name}`)).toEqual(['PartialObjectMetadata/cm', 'PartialObjectMetadata/kube-root-ca.crt']);
  });

  it('JSON is written as Go writes it: HTML-safe escapes and a trailing newline (indented for pretty, without)', () => {
    expect(goJson({ a: '<b>&</b>' })).toBe('{"a":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"}\n');
    expect(goJson({ a: 1 }, true)).toBe('{\n  "a": 1\n}');
  });
});

describe('protobuf watch streams', () => {
  it('frames each event as a 4-byte length and a WatchEvent whose object is the enveloped encoding', () => {
    const cluster = bootedCluster();
    const request = cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: 'watch=true&resourceVersion=0',
      headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/vnd.kubernetes.protobuf, */*' },
    });
    cluster.engine.runUntilIdle();
    call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMapJson('watched') });
    call(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps/watched');
    const replies = cluster.user.received().filter((r) => r.requestId === request.id);
    const opened = replies.find((r) => r.message.kind === httpKinds.response)!.message.payload as HttpResponse;
    expect(opened.headers['content-type']).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    const events = replies.filter((r) => r.message.kind === httpKinds.watchEvent).map((r) => r.message.payload as HttpWatchEvent);
    const wire = events.map((e) => encodeWatchEvent(opened.headers['content-type'], e) as Uint8Array);
    const stream = new Uint8Array(wire.reduce((n, w) => n + w.length, 0));
    wire.reduce((at, w) => (stream.set(w, at), at + w.length), 0);
    // Read back as client-go does, even split mid-frame.
    const cut = wire[0]!.length + 3;
    const first = decodeWatchFrames(stream.subarray(0, cut));
    expect(first.events).toHaveLength(1);
    expect(first.rest).toHaveLength(3);
    const { events: frames, rest } = decodeWatchFrames(stream);
    expect(rest).toHaveLength(0);
    expect(frames.map((f) => f.type)).toEqual(events.map((e) => e.type));
    expect(frames.map((f) => f.type)).toEqual(expect.arrayContaining(['ADDED', 'DELETED']));
    frames.forEach((f, i) => {
      const object = decodeProtobuf(f.raw);
      expect(object.ok && object.object).toEqual(events[i]!.object);
    });
    // Length prefix is big-endian and covers the WatchEvent exactly.
    expect(new DataView(stream.buffer).getUint32(0, false)).toBe(wire[0]!.length - 4);
  });
});

describe('metadata-only watches', () => {
  it('as=PartialObjectMetadata streams metadata; asked in protobuf (which the codec cannot write for it) it streams JSON', () => {
    const cluster = bootedCluster();
    const request = cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: 'watch=true&resourceVersion=0',
      headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' },
    });
    cluster.engine.runUntilIdle();
    call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMapJson('meta') });
    const replies = cluster.user.received().filter((r) => r.requestId === request.id);
    const opened = replies.find((r) => r.message.kind === httpKinds.response)!.message.payload as HttpResponse;
    expect(opened.headers['content-type']).toBe('application/json');
    const events = replies.filter((r) => r.message.kind === httpKinds.watchEvent).map((r) => r.message.payload as HttpWatchEvent);
    expect(events.map((e) => e.object)).toContainEqual(expect.objectContaining({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'meta' }) }));
    expect(events.every((e) => !('data' in (e.object as object)))).toBe(true);
  });
});

describe('pods/eviction (kubectl drain)', () => {
  function runningPod(cluster: Cluster, name: string): Pod {
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }) });
    return call(cluster, 'GET', `/api/v1/namespaces/default/pods/${name}`).body as Pod;
  }

  it('evicts a pod without a PodDisruptionBudget: 201 Success, the DisruptionTarget condition, then a graceful delete', () => {
    const cluster = bootedCluster();
    const pod = runningPod(cluster, 'evict-me');
    expect(pod.status?.phase).toBe('Running');
    const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'evict-me', namespace: 'default' } };
    const watch = cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'GET', path: '/api/v1/namespaces/default/pods', query: `watch=true&resourceVersion=${pod.metadata.resourceVersion ?? ''}`,
      headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json' },
    });
    cluster.engine.runUntilIdle();
    const response = call(cluster, 'POST', '/api/v1/namespaces/default/pods/evict-me/eviction', { body: JSON.stringify(eviction) });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const events = cluster.user.received().filter((r) => r.requestId === watch.id && r.message.kind === httpKinds.watchEvent)
      .map((r) => r.message.payload as HttpWatchEvent & { object: Pod });
    // First the condition (a status write), then the graceful delete marks the pod, then it is gone.
    const disruption = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
    expect(events[0]!.type).toBe('MODIFIED');
    expect(events[0]!.object.status?.conditions).toContainEqual(expect.objectContaining(disruption));
    expect(events[0]!.object.metadata.deletionTimestamp).toBeUndefined();
    expect(events[1]!.object.metadata.deletionTimestamp).toBeDefined();
    expect(events[1]!.object.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(events.at(-1)!.type).toBe('DELETED');
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/pods/evict-me').status).toBe(404);
  });

  it('refuses an Eviction naming another pod, and answers 404 for a missing pod', () => {
    const cluster = bootedCluster();
    runningPod(cluster, 'p');
    const other = call(cluster, 'POST', '/api/v1/namespaces/default/pods/p/eviction', { body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'q' } }) });
    expect([other.status, (other.body as Status).message]).toEqual([400, 'name in URL does not match name in Eviction object']);
    const missing = call(cluster, 'POST', '/api/v1/namespaces/default/pods/none/eviction', { body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'none' } }) });
    expect([missing.status, (missing.body as Status).message]).toEqual([404, 'pods "none" not found']);
    // A dry run changes nothing.
    const dry = call(cluster, 'POST', '/api/v1/namespaces/default/pods/p/eviction', { query: 'dryRun=All', body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' } }) });
    expect(dry.status).toBe(201);
    expect((call(cluster, 'GET', '/api/v1/namespaces/default/pods/p').body as Pod).metadata.deletionTimestamp).toBeUndefined();
  });
});
