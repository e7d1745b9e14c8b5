// The protobuf codec beside JSON for the nginx Pod as the model stores it (after seeds/000's nginx
// Deployment has run: scheduled, Running, with managedFields; resourceVersion cleared as etcd3 storage
// clears it): bytes, and objects encoded and decoded per second. JSON encode is JSON.stringify plus
// UTF-8; JSON decode is JSON.parse, and JSON.parse followed by the model's Go-faithful decoder
// (decodeStruct), which is what a JSON body from a client costs the apiserver.

import { decodeStruct } from '../src/sim/api/decode.ts';
import { decodeProtobuf, encodeProtobuf } from '../src/sim/api/protobuf/index.ts';
import { encodeProtobufReadBack } from '../src/sim/api/protobuf/round-trip.ts';
import { copyJson } from '../src/sim/api/json-copy.ts';
import type { KubeObject } from '../src/sim/api/types/meta.ts';
import { createCluster } from '../src/sim/cluster.ts';
import { scenarioById } from '../src/sim/scenarios/catalog.ts';
import { runScenario } from '../src/sim/scenarios/runner.ts';
import { adminCall } from '../src/sim/testing/http.ts';
import { bestOf, type Benchmark, type BenchFigure } from './harness.ts';

function nginxPod(): KubeObject {
  const cluster = createCluster({ seed: 'bench-codec' });
  cluster.boot();
  runScenario(cluster, scenarioById('nginx-deployment')!);
  const r = adminCall(cluster, 'GET', '/api/v1/namespaces/default/pods');
  const list = (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as { items: KubeObject[] };
  const pod = { ...list.items[0]!, kind: 'Pod', apiVersion: 'v1' };
  delete pod.metadata.resourceVersion;
  return pod;
}

const n = 5_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function rate(fn: () => void): number {
  const ms = bestOf(() => { for (let i = 0; i < n; i++) fn(); }, 5);
  return n / (ms / 1000);
}

export const benchmarks: Benchmark[] = [
  {
    group: 'codec',
    name: 'nginx Pod: protobuf vs JSON',
    run(): BenchFigure[] {
      const pod = nginxPod();
      const proto = encodeProtobuf(pod);
      const json = encoder.encode(JSON.stringify(pod));
      const check = decodeProtobuf(proto);
      if (!check.ok || JSON.stringify(check.object) !== JSON.stringify(decodeStruct('Pod', pod).ok ? (decodeStruct('Pod', pod) as { value: { object: unknown } }).value.object : null)) {
        throw new Error('codec bench: the Pod does not round-trip');
      }
      if (JSON.stringify(encodeProtobufReadBack(pod).readBack) !== JSON.stringify(check.object)) throw new Error('codec bench: the read-back is not the decode');
      let sink = 0;
      const protoEncode = rate(() => { sink += encodeProtobuf(pod).length; });
      const protoDecode = rate(() => { if (decodeProtobuf(proto).ok) sink++; });
      const roundTrip = rate(() => { if (encodeProtobufReadBack(pod).readBack !== undefined) sink++; });
      const copy = rate(() => { sink += copyJson(pod) === pod ? 0 : 1; });
      const jsonEncode = rate(() => { sink += encoder.encode(JSON.stringify(pod)).length; });
      const jsonDecode = rate(() => { sink += (JSON.parse(decoder.decode(json)) as object) === null ? 0 : 1; });
      const jsonDecodeGo = rate(() => { if (decodeStruct('Pod', JSON.parse(decoder.decode(json))).ok) sink++; });
      if (sink === 0) throw new Error('unreachable');
      return [
        { name: 'nginx Pod, protobuf bytes (k8s\\0 + Unknown)', value: proto.length, unit: 'B' },
        { name: 'nginx Pod, JSON bytes', value: json.length, unit: 'B', note: `protobuf is ${(100 * proto.length / json.length).toFixed(0)}% of JSON` },
        { name: 'protobuf encode', value: protoEncode, unit: 'objects/s', note: `${((protoEncode * proto.length) / 2 ** 20).toFixed(1)} MiB/s` },
        { name: 'protobuf decode (to the model\'s JSON shape)', value: protoDecode, unit: 'objects/s', note: `${((protoDecode * proto.length) / 2 ** 20).toFixed(1)} MiB/s` },
        { name: 'protobuf encode and its read-back in one walk (encodeProtobufReadBack: the bytes and what decoding them gives)', value: roundTrip, unit: 'objects/s', note: `${(protoEncode > 0 ? roundTrip / protoEncode : 0).toFixed(2)}× the encode alone` },
        { name: 'copyJson (a deep copy)', value: copy, unit: 'objects/s' },
        { name: 'JSON encode (stringify + UTF-8)', value: jsonEncode, unit: 'objects/s' },
        { name: 'JSON decode (UTF-8 + parse)', value: jsonDecode, unit: 'objects/s' },
        { name: 'JSON decode + Go-faithful decodeStruct', value: jsonDecodeGo, unit: 'objects/s' },
      ];
    },
  },
];
