// YAML work the editor does before and after sending, loaded with the editor: syntax errors with their
// line and column (nothing is sent while there are any), locating a field the apiserver named
// (`spec.template.spec.containers[0].image`) in the text, and "reload and retry" — carrying the user's
// edits (as a JSON merge patch of what they changed) over to the freshly fetched object.
//
// The editor reads YAML as kubectl does (src/sim/api/manifest.ts, where the editor's apply goes): YAML
// 1.1 scalars, as sigs.k8s.io/yaml reads them through go-yaml v2 (`on`, `yes`, `y` are booleans, `0644`
// is octal), with `<<` merge keys; it writes YAML 1.1 too, so that what it writes reads back the same.

import { isMap, isSeq, LineCounter, parseAllDocuments, stringify, type Document, type Node } from 'yaml';

/** The options src/sim/api/manifest.ts parses manifests with. */
const kubectlYaml = { version: '1.1', merge: true } as const;

function documents(text: string, lineCounter: LineCounter): Document[] {
  const docs = parseAllDocuments(text, { ...kubectlYaml, lineCounter, prettyErrors: false });
  return Array.isArray(docs) ? docs : [docs];
}

export interface Position {
  readonly line: number;
  readonly column: number;
}

export interface SyntaxProblem extends Position {
  readonly message: string;
}

/** The `yaml` package's errors, with 1-based positions; empty when every document parses. */
export function syntaxProblems(text: string): SyntaxProblem[] {
  const lineCounter = new LineCounter();
  const problems: SyntaxProblem[] = [];
  for (const doc of documents(text, lineCounter)) {
    for (const e of doc.errors) {
      const p = lineCounter.linePos(e.pos[0]);
      problems.push({ line: p.line, column: p.col, message: e.message.split('\n')[0]! });
    }
  }
  return problems;
}

/** `a.b[0].c` → ['a', 'b', 0, 'c']. */
export function fieldPath(field: string): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return parts;
}

/**
 * Where `field` of the object starting on `objectLine` sits: its key's position, or the deepest part of
 * the path that exists, or the object's first line.
 */
export function locateField(text: string, objectLine: number, field: string | undefined): Position {
  const lineCounter = new LineCounter();
  const list = documents(text, lineCounter);
  const pos = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const doc = list.find((d: Document) => {
    if (!d.range) return false;
    const [start, , end] = d.range;
    return pos(start).line <= objectLine && objectLine <= pos(Math.max(start, end - 1)).line;
  }) ?? list[0];
  if (!doc || field === undefined) return { line: objectLine, column: 1 };
  let node: Node | null | undefined = doc.contents as Node | null;
  let best: Position = { line: objectLine, column: 1 };
  for (const part of fieldPath(field)) {
    if (typeof part === 'number' && isSeq(node)) {
      node = node.items[part] as Node | undefined;
      if (node?.range) best = pos(node.range[0]);
    } else if (typeof part === 'string' && isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === part);
      if (!pair) break;
      const key = pair.key as Node;
      if (key.range) best = pos(key.range[0]);
      node = pair.value as Node | null;
    } else {
      break;
    }
  }
  return best;
}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObj = (v: unknown): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 merge patch turning `from` into `to` (lists are replaced whole). */
export function mergePatchOf(from: Json, to: Json): Json | undefined {
  if (!isObj(from) || !isObj(to)) return JSON.stringify(from) === JSON.stringify(to) ? undefined : to;
  const patch: { [k: string]: Json } = {};
  for (const key of Object.keys(to)) {
    const sub = key in from ? mergePatchOf(from[key]!, to[key]!) : to[key]!;
    if (sub !== undefined) patch[key] = sub;
  }
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  return Object.keys(patch).length === 0 ? undefined : patch;
}

export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObj(patch)) return patch;
  const out: { [k: string]: Json } = isObj(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key] ?? null, value);
  }
  return out;
}

/** The value of a text that holds one YAML document without errors, read as kubectl reads it; else undefined. */
export function readDocument(text: string): Json | undefined {
  const docs = documents(text, new LineCounter());
  return docs.length === 1 && docs[0]!.errors.length === 0 ? (docs[0]!.toJS() as Json) : undefined;
}

/**
 * The user's edits (original → edited) applied to the object as it is now (`fresh`), keeping the fresh
 * resourceVersion, as YAML in kubectl's style. Null when a text does not parse as one object.
 */
export function carryEdits(original: string, edited: string, fresh: string): string | null {
  try {
    const [o, e, f] = [original, edited, fresh].map(readDocument);
    if (!isObj(o) || !isObj(e) || !isObj(f)) return null;
    const patch = mergePatchOf(o, e);
    if (isObj(patch) && isObj(patch.metadata)) delete patch.metadata.resourceVersion;
    const merged = patch === undefined ? f : applyMergePatch(f, patch);
    return stringify(merged, { ...kubectlYaml, sortMapEntries: true, indentSeq: false, lineWidth: 0 });
  } catch {
    return null;
  }
}
