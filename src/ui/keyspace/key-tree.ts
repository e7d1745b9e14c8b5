// The /registry tree over a sorted key list, without touching every key: keys of one resource (and of
// one namespace inside it) are contiguous in etcd's order, so each group's extent is found by binary
// search for the end of its prefix. Building costs O(groups × log keys) (plus one step per
// cluster-scoped key), and row `i` is found by binary search over the blocks; 100,000 keys under a
// few dozen groups build in well under a millisecond.
//
// Worked example, keys = [/registry/namespaces/default, /registry/pods/default/a, /registry/pods/default/b]:
//   blocks  [resource namespaces (1)] [keys 0..1 flat] [resource pods (2)] [namespace default (2)] [keys 1..3 nested]
//   rows    0 namespaces · 1 default · 2 pods · 3 namespace default · 4 a · 5 b

export interface KeyPlace {
  /** e.g. `deployments`, or `(outside /registry)`. */
  readonly resource: string;
  /** The namespace; null for cluster-scoped objects and other keys. */
  readonly namespace: string | null;
  readonly name: string;
}

export const registryPrefix = '/registry/';
export const outsideRegistry = '(outside /registry)';

/** Where a key sits: `<prefix>/<resource>/<namespace>/<name>` or `<prefix>/<resource>/<name>`. */
export function placeOf(key: string): KeyPlace {
  if (!key.startsWith(registryPrefix)) return { resource: outsideRegistry, namespace: null, name: key };
  const parts = key.slice(registryPrefix.length).split('/');
  if (parts.length >= 3) return { resource: parts[0]!, namespace: parts[1]!, name: parts.slice(2).join('/') };
  if (parts.length === 2) return { resource: parts[0]!, namespace: null, name: parts[1]! };
  return { resource: parts[0]!, namespace: null, name: '' };
}

export type KeyspaceRow =
  | { readonly type: 'resource' | 'namespace'; readonly id: string; readonly label: string; readonly count: number; readonly collapsed: boolean }
  | { readonly type: 'key'; readonly id: string; readonly key: string; readonly name: string; readonly nested: boolean };

type Block =
  | { readonly type: 'header'; readonly row: KeyspaceRow }
  | { readonly type: 'keys'; readonly start: number; readonly end: number; readonly nested: boolean };

/** The first index in sorted `keys` whose key is ≥ `key`. */
export function lowerBound(keys: readonly string[], key: string, lo = 0, hi = keys.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest string after every string that starts with `prefix`. */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

export class KeyTree {
  private readonly blocks: Block[] = [];
  /** Row index of each block's first row. */
  private readonly offsets: number[] = [];
  readonly rowCount: number;
  /** Rows handed out, so that a row keeps its identity across renders (memoised rows skip work). */
  private readonly made = new Map<number, KeyspaceRow>();

  /** `keys` sorted in etcd's order; groups whose id is in `collapsed` show their header only. */
  constructor(private readonly keys: readonly string[], collapsed: ReadonlySet<string>) {
    const registryStart = lowerBound(keys, registryPrefix);
    const registryEnd = lowerBound(keys, prefixEnd(registryPrefix));
    this.outside(0, registryStart, 'outside-before', collapsed);
    for (let i = registryStart; i < registryEnd;) {
      const resource = placeOf(keys[i]!).resource;
      const prefix = `${registryPrefix}${resource}/`;
      const end = keys[i]!.startsWith(prefix) ? lowerBound(keys, prefixEnd(prefix), i, registryEnd) : i + 1;
      this.header('resource', resource, resource, end - i, collapsed);
      if (!collapsed.has(resource)) this.resourceKeys(resource, prefix, i, end, collapsed);
      i = end;
    }
    this.outside(registryEnd, keys.length, 'outside-after', collapsed);
    let rows = 0;
    for (const block of this.blocks) {
      this.offsets.push(rows);
      rows += block.type === 'header' ? 1 : block.end - block.start;
    }
    this.rowCount = rows;
  }

  row(index: number): KeyspaceRow {
    let row = this.made.get(index);
    if (!row) {
      row = this.makeRow(index);
      this.made.set(index, row);
    }
    return row;
  }

  private makeRow(index: number): KeyspaceRow {
    let lo = 0;
    let hi = this.offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.offsets[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    const block = this.blocks[lo]!;
    if (block.type === 'header') return block.row;
    const key = this.keys[block.start + index - this.offsets[lo]!]!;
    return { type: 'key', id: key, key, name: placeOf(key).name, nested: block.nested };
  }

  /** The row showing `key`, or -1 (absent, or inside a collapsed group). */
  rowOf(key: string): number {
    const at = lowerBound(this.keys, key);
    if (this.keys[at] !== key) return -1;
    for (let b = 0; b < this.blocks.length; b++) {
      const block = this.blocks[b]!;
      if (block.type === 'keys' && block.start <= at && at < block.end) return this.offsets[b]! + at - block.start;
    }
    return -1;
  }

  private header(type: 'resource' | 'namespace', id: string, label: string, count: number, collapsed: ReadonlySet<string>): void {
    this.blocks.push({ type: 'header', row: { type, id, label, count, collapsed: collapsed.has(id) } });
  }

  private outside(start: number, end: number, id: string, collapsed: ReadonlySet<string>): void {
    if (start >= end) return;
    this.header('resource', id, outsideRegistry, end - start, collapsed);
    if (!collapsed.has(id)) this.blocks.push({ type: 'keys', start, end, nested: false });
  }

  private resourceKeys(resource: string, prefix: string, start: number, end: number, collapsed: ReadonlySet<string>): void {
    const keys = this.keys;
    for (let i = start; i < end;) {
      const namespace = placeOf(keys[i]!).namespace;
      if (namespace === null) {
        // A run of cluster-scoped keys: one step per key.
        let j = i + 1;
        while (j < end && placeOf(keys[j]!).namespace === null) j++;
        this.blocks.push({ type: 'keys', start: i, end: j, nested: false });
        i = j;
        continue;
      }
      const nsPrefix = `${prefix}${namespace}/`;
      const nsEnd = lowerBound(keys, prefixEnd(nsPrefix), i, end);
      const id = `${resource}/${namespace}`;
      this.header('namespace', id, namespace, nsEnd - i, collapsed);
      if (!collapsed.has(id)) this.blocks.push({ type: 'keys', start: i, end: nsEnd, nested: true });
      i = nsEnd;
    }
  }
}
