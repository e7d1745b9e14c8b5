// Short forms of names for the component boxes, where a line holds about 30 characters at 11 px: an
// etcd key without its `/registry` prefix and with its name's middle elided, a pod's `namespace/name`
// without the default namespace and with its generated middle elided. The full text goes in the
// element's accessible name and tooltip.

/** `nginx-deployment-66b6c48dd5-4jw2p` → `nginx-deployment-…-4jw2p` when longer than `max`. */
export function shortName(name: string, max = 24): string {
  if (name.length <= max) return name;
  const parts = name.split('-');
  if (parts.length >= 3) {
    const head = parts[0]!;
    const tail = parts.at(-1)!;
    // Keep as many leading segments as fit before the last one.
    let kept = head;
    for (const part of parts.slice(1, -1)) {
      if (`${kept}-${part}-…-${tail}`.length > max) break;
      kept = `${kept}-${part}`;
    }
    const short = `${kept}-…-${tail}`;
    if (short.length <= max) return short;
    // Still too long: keep the end of the last segment (a pod's suffix, a ReplicaSet's template hash).
    if (max - head.length - 3 >= 4) return `${head}-…${tail.slice(-(max - head.length - 2))}`;
  }
  return `${name.slice(0, max - 7)}…${name.slice(-6)}`;
}

/** A pod's `namespace/name` as shown: the default namespace is left out, the name shortened. */
export function shortPod(namespacedName: string, max = 24): string {
  const slash = namespacedName.indexOf('/');
  const namespace = slash < 0 ? '' : namespacedName.slice(0, slash);
  const name = namespacedName.slice(slash + 1);
  return namespace === '' || namespace === 'default' ? shortName(name, max) : `${namespace}/${shortName(name, Math.max(8, max - namespace.length - 1))}`;
}

/**
 * An etcd key as shown: without `/registry/`, and when still longer than `max`, with the namespace elided
 * and then the name's generated middle: `/registry/pods/default/nginx-deployment-66b6c48dd5-4jw2p` →
 * `pods/…/nginx-deployment-…-4jw2p`.
 */
export function shortKey(key: string, max = 34): string {
  const trimmed = key.startsWith('/registry/') ? key.slice('/registry/'.length) : key;
  if (trimmed.length <= max) return trimmed;
  const parts = trimmed.split('/');
  if (parts.length < 3) return shortName(trimmed, max);
  const resource = parts[0]!;
  const name = parts.at(-1)!;
  const elided = `${resource}/…/${name}`;
  return elided.length <= max ? elided : `${resource}/…/${shortName(name, Math.max(10, max - resource.length - 3))}`;
}
