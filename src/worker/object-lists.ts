// The objects tab's lists: for each resource it shows, the keys stored at a revision, sorted as etcd ranges
// them. Its counts, its window of rows and the selected object's place are read from these, so an answer
// costs the window, not the resource: at 30,000 Pods a fresh read of the pods' and events' keys took the
// worker 0.5–0.9 s, four times a second while stepping with the tab open. Moving to another revision
// applies the keys written between the two (each looked up at the new revision), as the keyspace tracker
// moves the page's mirror; a long move, or one into history etcd compacted, reads the lists afresh.

import { prefixEnd, type KeyspaceSource } from './keyspace.ts';
import { partitionPoint } from './sorted.ts';

/** Past this many keys written between two revisions, the lists are read afresh (at least this share of what they hold). */
const minRefresh = 256;
const refreshShare = 1 / 8;

/** The place of `key` in `keys` (sorted), or where it would go. */
export function placeOf(keys: readonly string[], key: string): number {
  return partitionPoint(keys.length, (i) => keys[i]! < key);
}

export class ObjectLists {
  private revision = -1;
  private readonly lists = new Map<string, string[]>();

  constructor(private readonly etcd: KeyspaceSource, private readonly prefixes: readonly string[]) {}

  /** The keys under `prefix` (one of the prefixes given) at `revision`, in byte order. */
  keys(prefix: string, revision: number): readonly string[] {
    this.moveTo(revision);
    return this.lists.get(prefix) ?? [];
  }

  private moveTo(revision: number): void {
    if (revision === this.revision) return;
    const { store } = this.etcd;
    const readable = this.revision >= 0 && Math.min(this.revision, revision) >= Math.max(1, store.compactMainRev);
    if (!readable || !this.follow(revision)) {
      for (const prefix of this.prefixes) {
        const keys: string[] = [];
        store.forEachMeta(prefix, prefixEnd(prefix), revision, (meta) => keys.push(meta.key));
        this.lists.set(prefix, keys);
      }
    }
    this.revision = revision;
  }

  /** Applies the keys written between the held revision and `revision`; false when there were too many. */
  private follow(revision: number): boolean {
    const { store } = this.etcd;
    let held = 0;
    for (const list of this.lists.values()) held += list.length;
    const bound = Math.max(minRefresh, held * refreshShare);
    // Each revision writes at least one key: a move across more revisions than the bound writes more keys.
    if (Math.abs(revision - this.revision) > bound) return false;
    const written = new Set<string>();
    // Keys only: a filter that says no is shown each key without its value being rebuilt.
    store.backend.rangeRevisions(Math.min(this.revision, revision) + 1, Math.max(this.revision, revision) + 1, () => undefined, (key) => {
      if (this.prefixes.some((prefix) => key.startsWith(prefix))) written.add(key);
      return false;
    });
    if (written.size > bound) return false;
    for (const key of written) {
      const list = this.lists.get(this.prefixes.find((prefix) => key.startsWith(prefix))!)!;
      let stored = false;
      store.forEachMeta(key, undefined, revision, () => (stored = true));
      const at = placeOf(list, key);
      const listed = list[at] === key;
      if (stored && !listed) list.splice(at, 0, key);
      else if (!stored && listed) list.splice(at, 1);
    }
    return true;
  }
}
