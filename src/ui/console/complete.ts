// Tab completion for the console: the tool, kubectl verbs, resource types (with kubectl's short
// names) and the names of objects that exist, read from etcd's keyspace (`/registry/<resource>/<ns>/<name>`),
// the files `-f` can read (the scenarios' manifests), and etcdctl's commands and key prefixes.

/** Resource types as kubectl accepts them, with the etcd resource their objects are stored under. */
const resourceTypes: Readonly<Record<string, string>> = {
  pods: 'pods', pod: 'pods', po: 'pods',
  deployments: 'deployments', deployment: 'deployments', deploy: 'deployments',
  replicasets: 'replicasets', replicaset: 'replicasets', rs: 'replicasets',
  nodes: 'minions', node: 'minions', no: 'minions',
  namespaces: 'namespaces', namespace: 'namespaces', ns: 'namespaces',
  events: 'events', event: 'events', ev: 'events',
  services: 'services', service: 'services', svc: 'services',
  configmaps: 'configmaps', configmap: 'configmaps', cm: 'configmaps',
  leases: 'leases', lease: 'leases',
  serviceaccounts: 'serviceaccounts', sa: 'serviceaccounts',
};

const kubectlVerbs = ['get', 'describe', 'create', 'apply', 'replace', 'delete', 'run', 'logs', 'exec', 'scale', 'set image', 'rollout status', 'rollout history', 'rollout undo', 'version'];
const etcdctlCommands = ['get', 'put', 'del', 'watch', 'compaction', 'lease list', 'lease grant', 'lease revoke', 'lease timetolive'];
const typesTaking = new Set(['get', 'describe', 'delete', 'scale', 'image', 'status', 'history', 'undo']);

export interface Completion {
  /** The line with the completed word (the common prefix of the candidates). */
  readonly line: string;
  /** Every candidate when there is more than one. */
  readonly candidates: readonly string[];
}

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0]!;
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** Object names of one etcd resource in a namespace (or cluster-scoped). */
export function namesOf(keys: readonly string[], storageResource: string, namespace: string): string[] {
  const names = new Set<string>();
  const prefix = `/registry/${storageResource}/`;
  for (const key of keys) {
    if (!key.startsWith(prefix)) continue;
    const parts = key.slice(prefix.length).split('/');
    if (parts.length === 2 && parts[0] === namespace) names.add(parts[1]!);
    else if (parts.length === 1) names.add(parts[0]!);
  }
  return [...names].sort();
}

export function complete(line: string, keys: readonly string[], files: readonly string[] = []): Completion {
  const words = line.split(/\s+/);
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1).filter((w) => w !== '');
  const finish = (candidates: string[]): Completion => {
    const matching = [...new Set(candidates)].filter((c) => c.startsWith(current)).sort();
    if (matching.length === 0) return { line, candidates: [] };
    const word = matching.length === 1 ? `${matching[0]} ` : commonPrefix(matching);
    return { line: `${line.slice(0, line.length - current.length)}${word}`, candidates: matching.length > 1 ? matching : [] };
  };
  if (before.length === 0) return finish(['kubectl', 'etcdctl']);
  const [tool, ...args] = before;
  const positional = args.filter((a) => !a.startsWith('-'));
  if (tool === 'etcdctl') {
    if (positional.length === 0) return finish(etcdctlCommands.map((c) => c.split(' ')[0]!));
    const prefixes = new Set<string>();
    for (const key of keys) {
      const parts = key.split('/');
      for (let i = 2; i <= parts.length; i++) prefixes.add(parts.slice(0, i).join('/') + (i < parts.length ? '/' : ''));
    }
    return finish([...prefixes]);
  }
  if (tool !== 'kubectl') return { line, candidates: [] };
  if (before.at(-1) === '-f' || before.at(-1) === '--filename') return finish([...files]);
  if (positional.length === 0) return finish(kubectlVerbs.map((v) => v.split(' ')[0]!));
  if ((positional[0] === 'set' || positional[0] === 'rollout') && positional.length === 1) {
    return finish(kubectlVerbs.filter((v) => v.startsWith(`${positional[0]} `)).map((v) => v.split(' ')[1]!));
  }
  const verb = positional[positional.length === 1 ? 0 : positional[0] === 'set' || positional[0] === 'rollout' ? 1 : 0]!;
  if (!typesTaking.has(verb)) return { line, candidates: [] };
  const namespaceFlag = args.findIndex((a) => a === '-n' || a === '--namespace');
  const namespace = namespaceFlag >= 0 ? args[namespaceFlag + 1] ?? 'default' : 'default';
  const typeIndex = positional[0] === 'set' || positional[0] === 'rollout' ? 2 : 1;
  const typed = positional[typeIndex];
  if (typed === undefined) {
    const slash = current.indexOf('/');
    if (slash >= 0) {
      const type = current.slice(0, slash);
      const storage = resourceTypes[type.toLowerCase()];
      return storage ? finish(namesOf(keys, storage, namespace).map((n) => `${type}/${n}`)) : { line, candidates: [] };
    }
    return finish(Object.keys(resourceTypes));
  }
  const storage = resourceTypes[typed.toLowerCase()];
  return storage ? finish(namesOf(keys, storage, namespace)) : { line, candidates: [] };
}
