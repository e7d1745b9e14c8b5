// Attributes a V8 heap snapshot (as bench/flow-profile.ts writes one) to what holds it: computes the
// dominator tree (Cooper, Harvey and Kennedy's iterative algorithm over the strong edges), then prints
// (1) the classes whose instances retain the most, counting an instance only when no instance of the same
// class dominates it, and (2) for each object, its properties' retained sizes summed as `Class.property`
// over the objects the property's target is dominated by. Not a benchmark: a tool for docs/performance.md.
// `npx tsx bench/flow-heap.ts <file.heapsnapshot> [rows]`; snapshots past V8's string limit are read
// as bytes, so the file is never one JavaScript string.

import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) throw new Error('usage: flow-heap.ts <file.heapsnapshot> [rows]');
const rows = Number(process.argv[3] ?? 40);
const bytes = readFileSync(file);

function indexOf(token: string, from = 0): number {
  const at = bytes.indexOf(token, from, 'latin1');
  if (at < 0) throw new Error(`${token} not found in ${file}`);
  return at;
}

/** Parses the array of unsigned integers that starts at `[` at or after `from`. */
function numbers(from: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let i = bytes.indexOf(0x5b, from) + 1;
  let n = 0;
  let value = -1;
  for (; ; i++) {
    const c = bytes[i]!;
    if (c >= 0x30 && c <= 0x39) value = (value < 0 ? 0 : value * 10) + (c - 0x30);
    else {
      if (value >= 0) out[n++] = value;
      value = -1;
      if (c === 0x5d) break;
    }
  }
  if (n !== count) throw new Error(`expected ${count} numbers, read ${n}`);
  return out;
}

/** The JSON strings of the array that starts at `[` at or after `from`. */
function strings(from: number): string[] {
  const out: string[] = [];
  let i = bytes.indexOf(0x5b, from) + 1;
  for (;;) {
    while (bytes[i] !== 0x22 && bytes[i] !== 0x5d) i++;
    if (bytes[i] === 0x5d) return out;
    let j = i + 1;
    while (bytes[j] !== 0x22) j += bytes[j] === 0x5c ? 2 : 1;
    out.push(JSON.parse(bytes.toString('utf8', i, j + 1)) as string);
    i = j + 1;
  }
}

const headerEnd = indexOf('"nodes":');
const header = JSON.parse(bytes.toString('utf8', 0, headerEnd).replace(/,\s*$/, '') + '}') as {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number; edge_count: number };
};
const { meta, node_count: nodeCount, edge_count: edgeCount } = header.snapshot;
const nf = meta.node_fields.length;
const ef = meta.edge_fields.length;
const nodes = numbers(headerEnd, nodeCount * nf);
const edges = numbers(indexOf('"edges":', headerEnd), edgeCount * ef);
const names = strings(indexOf('"strings":', headerEnd));
const [typeOf, nameOf, , sizeOf, edgesOf] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number, number];
const [edgeType, edgeName, edgeTo] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const weak = edgeTypes.indexOf('weak');
const shortcut = edgeTypes.indexOf('shortcut');
const propertyType = edgeTypes.indexOf('property');
const objectType = nodeTypes.indexOf('object');

const firstEdge = new Uint32Array(nodeCount + 1);
for (let n = 0; n < nodeCount; n++) firstEdge[n + 1] = firstEdge[n]! + nodes[n * nf + edgesOf]!;
const strong = (e: number): boolean => edges[e * ef + edgeType] !== weak && edges[e * ef + edgeType] !== shortcut;
const target = (e: number): number => edges[e * ef + edgeTo]! / nf;

// Postorder from the root (node 0) over strong edges, iteratively.
const post = new Int32Array(nodeCount).fill(-1);
const order = new Uint32Array(nodeCount);
let visited = 0;
{
  const stack = new Uint32Array(nodeCount);
  const cursor = new Uint32Array(nodeCount);
  const seen = new Uint8Array(nodeCount);
  let top = 0;
  stack[top++] = 0;
  seen[0] = 1;
  cursor[0] = firstEdge[0]!;
  while (top > 0) {
    const n = stack[top - 1]!;
    if (cursor[n]! < firstEdge[n + 1]!) {
      const e = cursor[n]!++;
      if (!strong(e)) continue;
      const t = target(e);
      if (seen[t]) continue;
      seen[t] = 1;
      cursor[t] = firstEdge[t]!;
      stack[top++] = t;
    } else {
      top--;
      post[n] = visited;
      order[visited++] = n;
    }
  }
}

// Predecessors (strong edges between reachable nodes), as CSR.
const predCount = new Uint32Array(nodeCount + 1);
for (let n = 0; n < nodeCount; n++) {
  if (post[n]! < 0) continue;
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e++) if (strong(e) && post[target(e)]! >= 0) predCount[target(e) + 1]!++;
}
for (let n = 0; n < nodeCount; n++) predCount[n + 1]! += predCount[n]!;
const preds = new Uint32Array(predCount[nodeCount]!);
{
  const fill = predCount.slice(0, nodeCount);
  for (let n = 0; n < nodeCount; n++) {
    if (post[n]! < 0) continue;
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e++) if (strong(e) && post[target(e)]! >= 0) preds[fill[target(e)]!++] = n;
  }
}

// Immediate dominators, by postorder number.
const idom = new Int32Array(visited).fill(-1);
const root = visited - 1;
idom[root] = root;
for (let changed = true; changed;) {
  changed = false;
  for (let p = root - 1; p >= 0; p--) {
    const n = order[p]!;
    let candidate = -1;
    for (let i = predCount[n]!; i < predCount[n + 1]!; i++) {
      let other = post[preds[i]!]!;
      if (idom[other] === -1) continue;
      if (candidate === -1) { candidate = other; continue; }
      let a = candidate;
      while (a !== other) {
        while (a < other) a = idom[a]!;
        while (other < a) other = idom[other]!;
      }
      candidate = a;
    }
    if (candidate !== -1 && idom[p] !== candidate) { idom[p] = candidate; changed = true; }
  }
}

// Retained sizes: children before parents in postorder.
const retained = new Float64Array(visited);
for (let p = 0; p < visited; p++) retained[p] = nodes[order[p]! * nf + sizeOf]!;
for (let p = 0; p < root; p++) retained[idom[p]!]! += retained[p]!;

const className = (n: number): string => {
  const type = nodeTypes[nodes[n * nf + typeOf]!]!;
  return type === 'object' ? names[nodes[n * nf + nameOf]!]! : `(${type})`;
};
const mib = (n: number): string => (n / 1024 / 1024).toFixed(1).padStart(8);

// (1) Classes by top-level retained size: walk the dominator tree from the root keeping ancestor classes.
const childCount = new Uint32Array(visited + 1);
for (let p = 0; p < root; p++) childCount[idom[p]! + 1]!++;
for (let p = 0; p < visited; p++) childCount[p + 1]! += childCount[p]!;
const children = new Uint32Array(root);
{
  const fill = childCount.slice(0, visited);
  for (let p = 0; p < root; p++) children[fill[idom[p]!]!++] = p;
}
const byClass = new Map<string, { retained: number; count: number }>();
// `PODFLOW_HEAP_WITHIN=Kubelet` limits table (2) to what instances of that class dominate.
const within = process.env.PODFLOW_HEAP_WITHIN;
const inside = new Uint8Array(visited);
{
  const open = new Map<string, number>();
  const stack: Array<[number, boolean]> = [[root, false]];
  while (stack.length > 0) {
    const [p, leaving] = stack.pop()!;
    const name = className(order[p]!);
    if (leaving) {
      open.set(name, open.get(name)! - 1);
      continue;
    }
    if (within === undefined || open.get(within) || name === within) inside[p] = 1;
    if (!open.get(name)) {
      const entry = byClass.get(name) ?? { retained: 0, count: 0 };
      entry.retained += retained[p]!;
      entry.count++;
      byClass.set(name, entry);
    }
    open.set(name, (open.get(name) ?? 0) + 1);
    stack.push([p, true]);
    for (let i = childCount[p]!; i < childCount[p + 1]!; i++) stack.push([children[i]!, false]);
  }
}
console.log(`${file}: ${nodeCount} nodes, ${edgeCount} edges, ${mib(retained[root]!).trim()} MiB reachable`);
console.log('\nclasses by retained size (instances not dominated by one of their own class)');
for (const [name, e] of [...byClass].filter(([n]) => !n.startsWith('(')).sort((a, b) => b[1].retained - a[1].retained).slice(0, rows)) {
  console.log(`${mib(e.retained)} MiB  ${String(e.count).padStart(9)}  ${name}`);
}

// Strings and other non-object nodes by type: a concatenated (cons) string is a tree of pieces that
// holds every piece until it is flattened, so many of them mean strings built by `+` and kept.
const byType = new Map<string, { self: number; count: number }>();
for (let n = 0; n < nodeCount; n++) {
  if (post[n]! < 0) continue;
  const type = nodeTypes[nodes[n * nf + typeOf]!]!;
  const entry = byType.get(type) ?? { self: 0, count: 0 };
  entry.self += nodes[n * nf + sizeOf]!;
  entry.count++;
  byType.set(type, entry);
}
console.log('\nreachable nodes by V8 type (self sizes)');
for (const [type, e] of [...byType].sort((a, b) => b[1].self - a[1].self)) console.log(`${mib(e.self)} MiB  ${String(e.count).padStart(9)}  ${type}`);

// Concatenated strings by the property (or element) that holds them, counting each string's root only.
const consType = nodeTypes.indexOf('concatenated string');
const byHolder = new Map<string, { retained: number; count: number }>();
for (let n = 0; n < nodeCount; n++) {
  if (post[n]! < 0 || nodes[n * nf + typeOf] === consType) continue;
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e++) {
    const t = target(e);
    if (!strong(e) || post[t]! < 0 || nodes[t * nf + typeOf] !== consType) continue;
    const key = edges[e * ef + edgeType] === propertyType ? `${className(n)}.${names[edges[e * ef + edgeName]!]}` : `${className(n)}[]`;
    const entry = byHolder.get(key) ?? { retained: 0, count: 0 };
    entry.retained += retained[post[t]!]!;
    entry.count++;
    byHolder.set(key, entry);
  }
}
console.log('\nconcatenated strings by holder (retained, each string counted from its root)');
for (const [key, e] of [...byHolder].sort((a, b) => b[1].retained - a[1].retained).slice(0, rows)) console.log(`${mib(e.retained)} MiB  ${String(e.count).padStart(9)}  ${key}`);

// (2) Class.property: retained size of property targets that the property's holder dominates.
const byProperty = new Map<string, number>();
for (let n = 0; n < nodeCount; n++) {
  if (post[n]! < 0 || nodes[n * nf + typeOf] !== objectType) continue;
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e++) {
    if (edges[e * ef + edgeType] !== propertyType) continue;
    const t = target(e);
    if (post[t]! < 0 || idom[post[t]!] !== post[n] || !inside[post[n]!]) continue;
    const key = `${className(n)}.${names[edges[e * ef + edgeName]!]}`;
    byProperty.set(key, (byProperty.get(key) ?? 0) + retained[post[t]!]!);
  }
}
console.log(`\nproperties by retained size (targets their holder dominates), summed per Class.property${within === undefined ? '' : `, within ${within}`}`);
for (const [key, size] of [...byProperty].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${mib(size)} MiB  ${key}`);

// (3) What no single object holds: the dominator tree's top (below the synthetic roots), by class, with
// the name of an edge into one instance, so shared structures (module scopes, memos, objects two holders
// share) show beside the cluster.
const syntheticType = nodeTypes.indexOf('synthetic');
const top = new Map<string, { retained: number; count: number; via: string }>();
const edgeInto = (p: number): string => {
  const n = order[p]!;
  for (let i = predCount[n]!; i < predCount[n + 1]!; i++) {
    const from = preds[i]!;
    for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e++) {
      if (target(e) !== n || !strong(e)) continue;
      const name = edges[e * ef + edgeType] === propertyType || edgeTypes[edges[e * ef + edgeType]!] === 'context' ? names[edges[e * ef + edgeName]!] : '[]';
      return `${className(from)}.${name}`;
    }
  }
  return '';
};
{
  const stack = [root];
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (let i = childCount[p]!; i < childCount[p + 1]!; i++) {
      const c = children[i]!;
      if (nodes[order[c]! * nf + typeOf] === syntheticType) stack.push(c);
      else {
        const name = className(order[c]!);
        const entry = top.get(name) ?? { retained: 0, count: 0, via: '' };
        entry.retained += retained[c]!;
        entry.count++;
        if (retained[c]! > 1 << 20 && entry.via.length < 200) entry.via += `${edgeInto(c)} (${mib(retained[c]!).trim()}) `;
        top.set(name, entry);
      }
    }
  }
}
console.log('\nthe dominator tree\'s top (below the synthetic roots), by class; edges into instances over 1 MiB');
for (const [name, e] of [...top].sort((a, b) => b[1].retained - a[1].retained).slice(0, rows)) console.log(`${mib(e.retained)} MiB  ${String(e.count).padStart(9)}  ${name}  ${e.via}`);
