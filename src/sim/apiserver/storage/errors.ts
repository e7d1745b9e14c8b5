// Storage errors are typed values, produced by the etcd3 store and the watch cache and translated once,
// by the registry, into Kubernetes Status errors (`interpret*Error`). Their texts are the ones
// kube-apiserver 1.28 puts in Status messages when a storage error leaks through (e.g. a precondition
// failure inside a 409).
// Models k8s.io/apiserver/pkg/storage/errors.go and pkg/storage/errors/storage.go.

import { newAlreadyExists, newConflict, newNotFound } from '../../api/errors.ts';
import type { GroupResource } from '../../api/gvk.ts';

export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'ResourceVersionConflicts'
  | 'InvalidObj'
  | 'Unreachable'
  | 'InvalidError'
  | 'TooLargeResourceVersion'
  | 'Compacted';

/** Numeric codes as pkg/storage/errors.go numbers them (they appear in messages: `Code: 4`). */
const numericCode: Record<StorageErrorCode, number> = {
  KeyNotFound: 1,
  KeyExists: 2,
  ResourceVersionConflicts: 3,
  InvalidObj: 4,
  Unreachable: 5,
  InvalidError: 6,
  TooLargeResourceVersion: 7,
  Compacted: 8,
};

export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    readonly resourceVersion: number,
    readonly additional: string = '',
  ) {
    super(storageErrorMessage(code, key, resourceVersion, additional));
  }
}

function storageErrorMessage(code: StorageErrorCode, key: string, rv: number, additional: string): string {
  const n = numericCode[code];
  return `StorageError: ${describe(code)}, Code: ${n}, Key: ${key}, ResourceVersion: ${rv}, AdditionalErrorMsg: ${additional}`;
}

function describe(code: StorageErrorCode): string {
  switch (code) {
    case 'KeyNotFound': return 'key not found';
    case 'KeyExists': return 'key exists';
    case 'ResourceVersionConflicts': return 'resource version conflicts';
    case 'InvalidObj': return 'invalid object';
    case 'Unreachable': return 'server unreachable';
    case 'InvalidError': return 'invalid error';
    case 'TooLargeResourceVersion': return 'too large resource version';
    case 'Compacted': return 'compacted';
  }
}

export const storageErrors = {
  keyNotFound: (key: string, rv = 0) => new StorageError('KeyNotFound', key, rv),
  keyExists: (key: string, rv = 0) => new StorageError('KeyExists', key, rv),
  invalidObj: (key: string, rv: number, msg: string) => new StorageError('InvalidObj', key, rv, msg),
  unreachable: (key: string, msg: string) => new StorageError('Unreachable', key, 0, msg),
};

/** Thrown by `Preconditions.check`. Models storage.NewInvalidObjError for precondition failures. */
export function preconditionFailed(key: string, field: 'UID' | 'ResourceVersion', expected: string, actual: string): StorageError {
  return storageErrors.invalidObj(key, 0,
    `Precondition failed: ${field} in precondition: ${expected}, ${field} in object meta: ${actual}`);
}

/** A resourceVersion the storage cannot parse. Its message is what ends up in the 500's Status. */
export class InvalidResourceVersion extends Error {
  override readonly name = 'InvalidResourceVersion';
  constructor(readonly resourceVersion: string) {
    super(`resourceVersion: Invalid value: ${JSON.stringify(resourceVersion)}: strconv.ParseUint: parsing ${JSON.stringify(resourceVersion)}: invalid syntax`);
  }
}

// Models pkg/storage/errors/storage.go InterpretCreateError, InterpretGetError, InterpretUpdateError,
// InterpretDeleteError: KeyExists → AlreadyExists, KeyNotFound → NotFound, InvalidObj → Conflict.
export function interpretStorageError(err: unknown, gr: GroupResource, name: string): unknown {
  if (!(err instanceof StorageError)) return err;
  switch (err.code) {
    case 'KeyNotFound': return newNotFound(gr, name);
    case 'KeyExists': return newAlreadyExists(gr, name);
    case 'InvalidObj': return newConflict(gr, name, err.message);
    default: return err;
  }
}
