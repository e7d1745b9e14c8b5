import { describe, expect, it } from 'vitest';
import type { Milestone, MilestoneKind, ObjectRef } from '../../protocol/story.ts';
import { languages } from './captions.ts';
import { milestoneText, shortLimit, shortName } from './milestones.ts';

const base = { step: 412, messageId: 900, at: 1234, components: ['kube-apiserver', 'etcd'] };
const pod: ObjectRef = { resource: 'pods', kind: 'Pod', namespace: 'default', name: 'nginx-deployment-7f4d79f7d7-fxzwz' };
const rs: ObjectRef = { resource: 'replicasets', kind: 'ReplicaSet', namespace: 'default', name: 'nginx-deployment-7f4d79f7d7' };
const deploy: ObjectRef = { resource: 'deployments', kind: 'Deployment', namespace: 'default', name: 'nginx-deployment' };
const node: ObjectRef = { resource: 'nodes', kind: 'Node', namespace: null, name: 'node-3' };

/** What each milestone's words must name: the object, node, revision, image… as they appear on the page. */
interface Case {
  readonly milestone: Milestone;
  readonly names: readonly string[];
}

// One or more of every kind; the Record type makes a new kind in story.ts fail to compile here.
const cases: Readonly<Record<MilestoneKind, readonly Case[]>> = {
  userAction: [
    { milestone: { ...base, kind: 'userAction', tool: 'kubectl', summary: 'kubectl create -f nginx-deployment.yaml', object: deploy }, names: ['kubectl create -f nginx-deployment.yaml', 'kube-apiserver'] },
    { milestone: { ...base, kind: 'userAction', tool: 'etcdctl', summary: 'etcdctl get /registry --prefix --keys-only', object: null }, names: ['etcdctl get /registry', 'etcd'] },
    { milestone: { ...base, kind: 'userAction', tool: 'fault', summary: 'node node-3 goes down', object: null }, names: ['node-3'] },
  ],
  objectCreated: [
    { milestone: { ...base, kind: 'objectCreated', object: deploy, key: '/registry/deployments/default/nginx-deployment', revision: 26, owner: null }, names: ['Deployment nginx-deployment', '26', '/registry/deployments/default/nginx-deployment'] },
    { milestone: { ...base, kind: 'objectCreated', object: rs, key: '/registry/replicasets/default/nginx-deployment-7f4d79f7d7', revision: 28, owner: deploy }, names: ['ReplicaSet nginx-deployment-7f4d79f7d7', 'Deployment nginx-deployment', '28'] },
  ],
  podCreated: [
    { milestone: { ...base, kind: 'podCreated', object: pod, key: '/registry/pods/default/nginx-deployment-7f4d79f7d7-fxzwz', revision: 31, owner: rs, node: null, phase: 'Pending' }, names: [pod.name, 'Pending', '31', rs.name] },
    { milestone: { ...base, kind: 'podCreated', object: { ...pod, namespace: 'kube-system', name: 'static' }, key: '/registry/pods/kube-system/static', revision: 5, owner: null, node: 'node-1', phase: 'Pending' }, names: ['kube-system/static', 'node-1', '5'] },
  ],
  specChanged: [
    { milestone: { ...base, kind: 'specChanged', object: deploy, revision: 50, generation: 2, change: 'replicas 3 → 5' }, names: ['Deployment nginx-deployment', 'replicas 3 → 5', '50', 'generation 2'] },
    { milestone: { ...base, kind: 'specChanged', object: deploy, revision: 51, generation: 3, change: '' }, names: ['Deployment nginx-deployment', '51'] },
  ],
  watchSeen: [
    { milestone: { ...base, kind: 'watchSeen', watcher: 'kube-controller-manager', eventType: 'ADDED', object: deploy, revision: 26 }, names: ['Deployment nginx-deployment', '26', 'ADDED', 'kube-controller-manager'] },
    { milestone: { ...base, kind: 'watchSeen', watcher: 'kube-scheduler', eventType: 'ADDED', object: pod, revision: 31 }, names: [pod.name, '31', 'kube-scheduler'] },
    { milestone: { ...base, kind: 'watchSeen', watcher: 'kubelet/node-2', eventType: 'MODIFIED', object: pod, revision: 33 }, names: [pod.name, '33', 'node-2', 'kubelet'] },
    { milestone: { ...base, kind: 'watchSeen', watcher: 'kube-controller-manager', eventType: 'DELETED', object: pod, revision: 70 }, names: [pod.name, '70', 'DELETED'] },
  ],
  podBound: [{ milestone: { ...base, kind: 'podBound', object: pod, node: 'node-2', revision: 31 }, names: ['kube-scheduler', pod.name, 'node-2', '31'] }],
  containerStep: [
    ...(['pulling', 'pulled', 'created', 'started', 'killing'] as const).map((action): Case => ({
      milestone: { ...base, kind: 'containerStep', object: pod, node: 'node-2', action, container: 'nginx', image: 'nginx:1.14.2' },
      names: [pod.name, 'node-2', action === 'pulling' || action === 'pulled' ? 'nginx:1.14.2' : 'nginx'],
    })),
    { milestone: { ...base, kind: 'containerStep', object: pod, node: 'node-2', action: 'started', container: null, image: null }, names: [pod.name, 'node-2'] },
  ],
  podPhase: [
    { milestone: { ...base, kind: 'podPhase', object: pod, node: 'node-2', phase: 'Running', ready: true, revision: 43 }, names: [pod.name, 'node-2', '43', 'Running', 'Ready'] },
    { milestone: { ...base, kind: 'podPhase', object: pod, node: 'node-2', phase: 'Running', ready: false, revision: 42 }, names: [pod.name, 'node-2', '42', 'Running'] },
    { milestone: { ...base, kind: 'podPhase', object: pod, node: 'node-2', phase: 'Failed', ready: false, revision: 60 }, names: [pod.name, 'Failed', '60'] },
    { milestone: { ...base, kind: 'podPhase', object: pod, node: null, phase: 'Pending', ready: false, revision: 31 }, names: [pod.name, 'Pending', '31'] },
  ],
  deploymentAvailable: [
    { milestone: { ...base, kind: 'deploymentAvailable', object: deploy, available: true, readyReplicas: 3, replicas: 3, revision: 60 }, names: ['Deployment nginx-deployment', '3/3', '60', 'Available'] },
    { milestone: { ...base, kind: 'deploymentAvailable', object: deploy, available: false, readyReplicas: 1, replicas: 3, revision: 45 }, names: ['Deployment nginx-deployment', '1/3', '45'] },
  ],
  objectDeleted: [{ milestone: { ...base, kind: 'objectDeleted', object: pod, key: '/registry/pods/default/nginx-deployment-7f4d79f7d7-fxzwz', revision: 70 }, names: [pod.name, '70'] }],
  terminating: [{ milestone: { ...base, kind: 'terminating', object: pod, revision: 65 }, names: [pod.name, '65', 'deletionTimestamp'] }],
  failedScheduling: [{ milestone: { ...base, kind: 'failedScheduling', object: pod, message: '0/3 nodes are available: 3 Insufficient cpu.' }, names: [pod.name, 'FailedScheduling', '0/3 nodes are available'] }],
  imagePullBackOff: [
    { milestone: { ...base, kind: 'imagePullBackOff', object: pod, node: 'node-2', image: 'nginx:no-such-tag', message: 'Back-off pulling image "nginx:no-such-tag"' }, names: [pod.name, 'node-2', 'nginx:no-such-tag', 'ImagePullBackOff'] },
    { milestone: { ...base, kind: 'imagePullBackOff', object: pod, node: 'node-2', image: null, message: '' }, names: [pod.name, 'node-2', 'ImagePullBackOff'] },
  ],
  crashLoopBackOff: [{ milestone: { ...base, kind: 'crashLoopBackOff', object: pod, node: 'node-1', container: 'nginx', message: 'back-off 10s restarting failed container=nginx' }, names: [pod.name, 'node-1', 'nginx', 'CrashLoopBackOff'] }],
  conflict: [
    { milestone: { ...base, kind: 'conflict', client: 'kube-controller-manager', object: rs, message: 'Operation cannot be fulfilled on replicasets.apps "nginx-deployment-7f4d79f7d7": the object has been modified' }, names: ['409', rs.name, 'kube-controller-manager'] },
    { milestone: { ...base, kind: 'conflict', client: 'user', object: null, message: '' }, names: ['409', 'kubectl'] },
  ],
  relist: [{ milestone: { ...base, kind: 'relist', client: 'kube-apiserver', resource: 'pods', message: 'too old resource version: 12 (40)' }, names: ['410', 'pods', 'kube-apiserver'] }],
  eviction: [
    { milestone: { ...base, kind: 'eviction', object: pod, node: 'node-3', message: 'Marking for deletion Pod default/nginx-deployment-7f4d79f7d7-fxzwz' }, names: [pod.name, 'node-3'] },
    { milestone: { ...base, kind: 'eviction', object: node, node: 'node-3', message: 'Node node-3 status is now: NodeNotReady' }, names: ['node-3', 'NotReady'] },
  ],
  requestFailed: [
    { milestone: { ...base, kind: 'requestFailed', client: 'user', status: 422, reason: 'Invalid', message: 'Deployment.apps "x" is invalid' }, names: ['kubectl', '422', 'Invalid'] },
    { milestone: { ...base, kind: 'requestFailed', client: 'kube-apiserver', status: 0, reason: 'compare failed', message: '' }, names: ['kube-apiserver', 'compare failed'] },
  ],
};

const han = /[\u4e00-\u9fff]/;
const leaks = [/undefined/, /\bnull\b/, /\[object/, /NaN/, /\s{2,}/, /^\s|\s$/];

describe('milestoneText', () => {
  for (const [kind, list] of Object.entries(cases)) {
    list.forEach(({ milestone, names }, i) => {
      for (const language of languages) {
        it(`${kind} #${i + 1} in ${language}: a plain title naming its facts and a short label`, () => {
          const { title, short } = milestoneText(milestone, language);
          for (const name of names) expect(title, `${title} should name ${name}`).toContain(name);
          expect(short.length, short).toBeLessThanOrEqual(shortLimit);
          expect(short.length).toBeGreaterThan(3);
          for (const text of [title, short]) for (const leak of leaks) expect(text, `${text} leaks ${leak}`).not.toMatch(leak);
          if (language === 'zh') expect(title).toMatch(han);
          else expect(title).not.toMatch(han);
        });
      }
    });
  }

  it('gives the examples of the brief', () => {
    const bound = cases.podBound[0]!.milestone;
    expect(milestoneText(bound, 'en').title).toBe('kube-scheduler bound Pod nginx-deployment-7f4d79f7d7-fxzwz to node-2 (etcd revision 31)');
    expect(milestoneText(bound, 'zh').title).toBe('kube-scheduler 把 Pod nginx-deployment-7f4d79f7d7-fxzwz 绑定到 node-2（etcd revision 31）');
    const running = cases.podPhase[0]!.milestone;
    expect(milestoneText(running, 'en').title).toBe('Pod nginx-deployment-7f4d79f7d7-fxzwz is Running and Ready on node-2 (etcd revision 43)');
    expect(milestoneText(running, 'en').short).toBe('…-fxzwz Running, Ready');
  });

  it('tells the pods of one ReplicaSet apart in short labels', () => {
    const other = { ...pod, name: 'nginx-deployment-7f4d79f7d7-k2m9q' };
    const a = milestoneText({ ...cases.podBound[0]!.milestone, object: pod } as Milestone, 'en').short;
    const b = milestoneText({ ...cases.podBound[0]!.milestone, object: other } as Milestone, 'en').short;
    expect(a).not.toBe(b);
  });

  it('shortens names to their generated suffix, and keeps short names whole', () => {
    expect(shortName('nginx-deployment-7f4d79f7d7-fxzwz', 14)).toBe('…-fxzwz');
    expect(shortName('node-2', 14)).toBe('node-2');
    expect(shortName('averyveryverylongnamewithoutdashes', 10)).toBe('averyvery…');
  });
});
