// Which node a learner means by what they typed into the graph's "Go to node" form (GoToNode.tsx): a
// node's name as the cluster spells it ("node-42"), its kubelet's component name ("kubelet/node-42"), or
// just its number ("42"), in any case and with spaces around it.

/** The node names a cluster has: a set of them, or a map keyed by them (GoToNode's boxes by node). */
interface NodeNames {
  has(name: string): boolean;
  keys(): Iterable<string>;
}

/** The node of `names` that `query` names, or null when none does. */
export function nodeNamed(query: string, names: NodeNames): string | null {
  const typed = query.trim().toLowerCase().replace(/^kubelet\//, '');
  if (typed === '') return null;
  if (names.has(typed)) return typed;
  if (/^\d+$/.test(typed)) {
    const numbered = `node-${String(Number(typed))}`;
    if (names.has(numbered)) return numbered;
  }
  for (const name of names.keys()) if (name.toLowerCase() === typed) return name;
  return null;
}

/** The first and last of `names` in the cluster's order, for the form's hint ("node-1 … node-5000"). */
export function nodeRange(names: readonly string[]): { readonly first: string; readonly last: string } | null {
  return names.length === 0 ? null : { first: names[0]!, last: names.at(-1)! };
}
