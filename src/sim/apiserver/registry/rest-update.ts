// rest.BeforeUpdate's fills of what an update may leave out.
// Models k8s.io/apiserver/pkg/registry/rest/update.go (BeforeUpdate).

import type { KubeObject } from '../../api/types/meta.ts';

/**
 * rest.BeforeUpdate's fills: an update may leave out the namespace (the request's), the UID and the
 * creationTimestamp (the stored object's); a `kubectl replace` of a plain manifest does.
 */
export function fillFromExisting(obj: KubeObject, current: KubeObject, namespace: string | undefined): void {
  const meta = obj.metadata;
  if (namespace !== undefined && !meta.namespace) meta.namespace = namespace;
  if (!meta.uid && current.metadata.uid) meta.uid = current.metadata.uid;
  if (current.metadata.creationTimestamp) meta.creationTimestamp = current.metadata.creationTimestamp;
  // An update can never remove or change a deletion timestamp, nor remove the grace period seconds.
  const old = current.metadata;
  if (old.deletionTimestamp !== undefined && old.deletionTimestamp !== null && meta.deletionTimestamp !== old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined && old.deletionGracePeriodSeconds !== null && (meta.deletionGracePeriodSeconds === undefined || meta.deletionGracePeriodSeconds === null)) {
    meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  }
}
