// What a `?dryRun=All` write does instead of writing: it reads as usual and answers what would be stored.
// Models k8s.io/apiserver/pkg/registry/generic/registry/dryrun.go (DryRunnableStorage).

import type { KubeObject } from '../../api/types/meta.ts';
import { copyJson } from '../../api/json-copy.ts';
import type { Co } from '../../engine/index.ts';
import { StorageError } from '../storage/errors.ts';
import { checkPreconditions, type Preconditions, type Storage } from '../storage/interface.ts';

/** Create: KeyExists when the key is taken, else a copy of the object. */
export function* dryRunCreate(storage: Storage, key: string, obj: KubeObject): Co<KubeObject> {
  const existing = yield* storage.get(key, { resourceVersion: '', ignoreNotFound: true });
  if (existing) throw new StorageError('KeyExists', key, 0);
  return copyJson(obj);
}

/** GuaranteedUpdate: one try on a copy of the stored object (an empty one when missing and allowed). */
export function* dryRunUpdate(storage: Storage, key: string, opts: { readonly ignoreNotFound: boolean; readonly preconditions?: Preconditions },
  tryUpdate: (current: KubeObject) => Co<KubeObject>): Co<KubeObject> {
  const current = (yield* storage.get(key, { resourceVersion: '', ignoreNotFound: opts.ignoreNotFound })) ?? ({ metadata: {} } as KubeObject);
  checkPreconditions(opts.preconditions, key, current);
  return yield* tryUpdate(copyJson(current));
}
