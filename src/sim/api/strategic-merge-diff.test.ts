import { describe, expect, it } from 'vitest';
import { threeWayMergePatch, twoWayMergePatch, type JSONMap } from './strategic-merge-diff.ts';

describe('strategic merge diff: merge keys from the schema\'s patchMergeKey tags', () => {
  it('merges a Service\'s ports by port and a container\'s by containerPort', () => {
    const service = (target: number): JSONMap => ({ spec: { ports: [{ port: 80, targetPort: target }, { port: 443, targetPort: 8443 }] } });
    expect(twoWayMergePatch('Service', service(8080), service(9090))).toEqual({
      spec: { ports: [{ port: 80, targetPort: 9090 }], '$setElementOrder/ports': [{ port: 80 }, { port: 443 }] },
    });
    const pod = (name: string): JSONMap => ({ spec: { containers: [{ name: 'web', ports: [{ containerPort: 80, name }] }] } });
    expect(twoWayMergePatch('Pod', pod('http'), pod('web'))).toEqual({
      spec: {
        containers: [{ name: 'web', ports: [{ containerPort: 80, name: 'web' }], '$setElementOrder/ports': [{ containerPort: 80 }] }],
        '$setElementOrder/containers': [{ name: 'web' }],
      },
    });
  });

  it('follows the schema down lists and maps (a Deployment\'s pod template, a pod\'s status conditions)', () => {
    const deployment = (image: string): JSONMap => ({ spec: { template: { spec: { containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image }] } } } });
    expect(twoWayMergePatch('Deployment', deployment('nginx:1'), deployment('nginx:2'))).toEqual({
      spec: { template: { spec: { containers: [{ name: 'b', image: 'nginx:2' }], '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }] } } },
    });
    const pod = (status: string): JSONMap => ({ status: { conditions: [{ type: 'Ready', status }, { type: 'PodScheduled', status: 'True' }] } });
    expect(twoWayMergePatch('Pod', pod('False'), pod('True'))).toEqual({
      status: { conditions: [{ type: 'Ready', status: 'True' }], '$setElementOrder/conditions': [{ type: 'Ready' }, { type: 'PodScheduled' }] },
    });
  });

  it('merges topologySpreadConstraints by topologyKey and replaces readinessGates whole, as their tags say', () => {
    const spec = (skew: number, gate: string): JSONMap => ({
      spec: {
        topologySpreadConstraints: [{ topologyKey: 'zone', maxSkew: skew, whenUnsatisfiable: 'DoNotSchedule' }],
        readinessGates: [{ conditionType: 'a' }, { conditionType: gate }],
      },
    });
    expect(twoWayMergePatch('Pod', spec(1, 'b'), spec(2, 'c'))).toEqual({
      spec: {
        topologySpreadConstraints: [{ topologyKey: 'zone', maxSkew: 2 }],
        '$setElementOrder/topologySpreadConstraints': [{ topologyKey: 'zone' }],
        readinessGates: [{ conditionType: 'a' }, { conditionType: 'c' }],
      },
    });
  });

  it('replaces whole the lists of fields the schema does not know, and of kinds it does not know', () => {
    const unknown = (v: number): JSONMap => ({ spec: { extras: [{ name: 'x', v }] } });
    expect(twoWayMergePatch('Pod', unknown(1), unknown(2))).toEqual({ spec: { extras: [{ name: 'x', v: 2 }] } });
    const widget = (v: number): JSONMap => ({ spec: { containers: [{ name: 'x', v }] } });
    expect(twoWayMergePatch('Widget', widget(1), widget(2))).toEqual({ spec: { containers: [{ name: 'x', v: 2 }] } });
  });

  it('three-way: deletions from the last applied, changes from the live object, merged element by element', () => {
    const original: JSONMap = { metadata: { ownerReferences: [{ uid: 'u1', name: 'a' }, { uid: 'u2', name: 'b' }] } };
    const modified: JSONMap = { metadata: { ownerReferences: [{ uid: 'u1', name: 'a2' }] } };
    const current: JSONMap = { metadata: { ownerReferences: [{ uid: 'u1', name: 'a' }, { uid: 'u2', name: 'b' }] } };
    expect(threeWayMergePatch('ConfigMap', original, modified, current)).toEqual({
      metadata: {
        ownerReferences: [{ $patch: 'delete', uid: 'u2' }, { uid: 'u1', name: 'a2' }],
        '$setElementOrder/ownerReferences': [{ uid: 'u1' }],
      },
    });
  });
});
