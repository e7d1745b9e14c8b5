// Pods: status starts as Pending with a computed QoS class; updates may not touch status; the status
// subresource may touch nothing else; deletion is graceful once the pod is on a node.
// Models k8s pkg/registry/core/pod/strategy.go (podStrategy, podStatusStrategy, CheckGracefulDelete)
// and pkg/apis/core/helper/qos/qos.go (GetPodQOS).

import type { Container, Pod, PodQOSClass } from '../../api/types/core.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { validateStatusUpdate } from '../../api/validation/index.ts';
import { resourceInfo, strategy } from './base.ts';
import type { StatusStrategy } from './strategy.ts';

export const podStrategy = strategy(resourceInfo('', 'pods'), {
  returnDeletedObject: true,
  prepareForCreate(obj) {
    const pod = obj as Pod;
    pod.status = { phase: 'Pending', qosClass: podQOSClass(pod) };
  },
  prepareForUpdate(obj, old) {
    (obj as Pod).status = (old as Pod).status;
  },
  gracePeriod(obj, requested) {
    const pod = obj as Pod;
    let period = requested ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    if (!pod.spec?.nodeName) period = 0;
    if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') period = 0;
    if (period < 0) period = 1;
    return period;
  },
});

export const podStatusStrategy: StatusStrategy = {
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    const pod = obj as Pod;
    const oldPod = old as Pod;
    pod.spec = oldPod.spec;
    delete pod.metadata.deletionTimestamp;
    if (oldPod.metadata.deletionTimestamp !== undefined) pod.metadata.deletionTimestamp = oldPod.metadata.deletionTimestamp;
    if (oldPod.metadata.ownerReferences !== undefined) pod.metadata.ownerReferences = oldPod.metadata.ownerReferences;
    else delete pod.metadata.ownerReferences;
    // The QoS class is set at creation and immutable; a status write without it keeps the stored one.
    if (!pod.status?.qosClass && oldPod.status?.qosClass) pod.status = { ...pod.status, qosClass: oldPod.status.qosClass };
  },
  validateUpdate: (obj, old) => validateStatusUpdate({ group: '', version: 'v1', kind: 'Pod' }, obj, old),
};

/** BestEffort without any request or limit; Guaranteed when every container's cpu and memory limits equal their requests. */
export function podQOSClass(pod: Pod): PodQOSClass {
  const containers: Container[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const requests = c.resources?.requests ?? {};
    const limits = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      if (limits[r] === undefined || (requests[r] !== undefined && requests[r] !== limits[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
