// What kube-apiserver does with "." and ".." in a resource path. Nothing resolves them (Go's net/http and
// go-restful pass URL.Path on as it is, `%2e%2e` decoded to ".."), so they arrive as a name or a namespace:
// - a name that is not a valid path segment ("." or "..", or holding "/" or "%") is refused by the
//   registry's key function: 400 `Name parameter invalid: "..": may not be '..'`;
// - a namespace of "." or ".." makes a storage key with a dot segment, which the etcd3 store refuses
//   before talking to etcd: a 500 whose message is `invalid key: "/configmaps/.."` (a plain error turned
//   into a Status with no reason).
// Either way no other namespace's objects and no other resource are ever reached.
// Models k8s.io/apiserver/pkg/registry/generic/registry/store.go (NamespaceKeyFunc, NoNamespaceKeyFunc),
// pkg/storage/etcd3/store.go (prepareKey) and pkg/endpoints/handlers/responsewriters/status.go
// (ErrorToAPIStatus for errors that are not Status errors).

import { newBadRequest, type StatusError } from '../../api/errors.ts';
import type { RequestInfo } from '../../api/request-info.ts';
import { storageKey, type ResourceInfo } from '../../api/resources.ts';
import { validatePathSegmentName } from '../../api/validation/names.ts';

/** The error a request's name or namespace meets in the registry or the etcd3 store, or null. */
export function pathSegmentError(info: RequestInfo, r: ResourceInfo): StatusError | Error | null {
  if (info.name !== '') {
    const msgs = validatePathSegmentName(info.name, false);
    if (msgs.length > 0) return newBadRequest(`Name parameter invalid: ${goQuote(info.name)}: ${msgs.join(';')}`);
  }
  if (!r.namespaced || r.resource === 'namespaces' || info.verb === 'watch' || info.verb === 'create') return null;
  const ns = info.namespace;
  if (ns !== '.' && ns !== '..') return null;
  // The key the store would prepare, without the `/registry` prefix and without a trailing slash.
  const key = info.name !== '' ? storageKey('', r, ns, info.name) : storageKey('', r, ns).replace(/\/$/, '');
  return new Error(`invalid key: ${goQuote(key)}`);
}

/** Go's %q for the printable strings these are. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}
