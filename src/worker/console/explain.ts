// `kubectl explain RESOURCE[.FIELD…] [--recursive]`: reads the group-version's OpenAPI v3 document from
// the server (GET /openapi/v3, then the document at its serverRelativeURL) and prints the kind's schema
// as kubectl's plaintext template does: GROUP/KIND/VERSION, the field's type, its description (with the
// description of the type it refers to), and the fields sorted by name with their types and descriptions
// (`-required-`), or only their names and types, nested, with --recursive.
// Models k8s.io/kubectl/pkg/explain/v2 (explain.go, templates/plaintext.tmpl, funcs.go) and
// github.com/mitchellh/go-wordwrap (WrapString, which the template's `wrap` calls).

import { findResource } from '../../sim/api/resources.ts';
import type { Co } from '../../sim/engine/index.ts';
import { send } from './http.ts';
import type { KubectlIO } from './kubectl.ts';

type Schema = Record<string, unknown>;
type Doc = Schema;

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** go-wordwrap's WrapString: breaks at spaces so lines stay within `lim` (longer words stay whole). */
export function wrapString(s: string, lim: number): string {
  let buf = '';
  let current = 0;
  let word = '';
  let space = '';
  for (const char of s) {
    if (char === '\n') {
      if (word.length === 0) {
        if (current + space.length <= lim) buf += space;
      } else {
        buf += space + word;
        word = '';
      }
      space = '';
      buf += char;
      current = 0;
    } else if (/\s/.test(char) && char !== '\u00a0') {
      if (space.length === 0 || word.length > 0) {
        current += space.length + [...word].length;
        buf += space + word;
        space = '';
        word = '';
      }
      space += char;
    } else {
      word += char;
      const wordLen = [...word].length;
      if (current + space.length + wordLen > lim && wordLen < lim) {
        buf += '\n';
        current = 0;
        space = '';
      }
    }
  }
  if (word.length === 0) {
    if (current + space.length <= lim) buf += space;
  } else {
    buf += space + word;
  }
  return buf;
}

function indent(amount: number, s: string): string {
  const pad = ' '.repeat(amount);
  return pad + s.split('\n').join(`\n${pad}`);
}

function resolveRef(ref: unknown, doc: Doc): Schema | null {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return null;
  let cur: unknown = doc;
  for (const k of ref.slice(1).split('/')) {
    if (k === '') continue;
    if (!isObj(cur) || !isObj(cur[k])) return null;
    cur = cur[k];
  }
  return cur as Schema;
}

const mapSchema = (s: Schema): Schema | null => (isObj(s.additionalProperties) ? s.additionalProperties : null);

function typeGuess(s: Schema, doc: Doc): string {
  if (isObj(s.items)) return `[]${typeGuess(s.items, doc)}`;
  const map = mapSchema(s);
  if (map) return `map[string]${typeGuess(map, doc)}`;
  const allOf = Array.isArray(s.allOf) ? (s.allOf as Schema[]) : [];
  if (allOf.length === 1 && s.properties === undefined) return typeGuess(allOf[0]!, doc);
  if (typeof s.$ref === 'string') {
    const target = resolveRef(s.$ref, doc);
    if (!target || !target.type || target.type === 'object') return s.$ref.split('/').pop()!.split('.').pop() || 'Object';
    return String(target.type);
  }
  return s.type === 'object' || !s.type ? 'Object' : String(s.type);
}

function description(s: Schema, doc: Doc): string {
  const resolved = resolveRef(s.$ref, doc) ?? s;
  let out = typeof resolved.description === 'string' && resolved.description !== '' ? `${resolved.description}\n` : '';
  for (const sub of (resolved.allOf as Schema[] | undefined) ?? []) out += description(sub, doc);
  if (isObj(resolved.items)) out += description(resolved.items, doc);
  const map = mapSchema(resolved);
  if (map) out += description(map, doc);
  return out;
}

function fieldDetail(name: string, container: Schema, short: boolean, level: number, doc: Doc): string {
  const ind = level * 2;
  const field = (container.properties as Record<string, Schema>)[name]!;
  let out = `${indent(ind, name)}\t<${typeGuess(field, doc)}>`;
  if (Array.isArray(container.required) && container.required.includes(name)) out += ' -required-';
  out += '\n';
  if (!short) {
    const text = typeof field.description === 'string' && field.description !== '' ? field.description : '<no description>';
    out += `${indent(ind + 2, wrapString(text, 78 - ind))}\n\n`;
  }
  return out;
}

function fieldList(s: Schema, level: number, history: ReadonlySet<string>, recursive: boolean, doc: Doc): string {
  const ref = typeof s.$ref === 'string' ? s.$ref : '';
  if (ref !== '' && history.has(ref)) return '';
  const next = new Set(history).add(ref);
  const resolved = resolveRef(ref, doc) ?? s;
  let out = '';
  const properties = isObj(resolved.properties) ? (resolved.properties as Record<string, Schema>) : {};
  for (const name of Object.keys(properties).sort()) {
    out += fieldDetail(name, resolved, recursive, level, doc);
    if (recursive) out += fieldList(properties[name]!, level + 1, next, recursive, doc);
  }
  for (const sub of (resolved.allOf as Schema[] | undefined) ?? []) out += fieldList(sub, level, next, recursive, doc);
  if (isObj(resolved.items)) out += fieldList(resolved.items, level, next, recursive, doc);
  const map = mapSchema(resolved);
  if (map) out += fieldList(map, level, next, recursive, doc);
  return out;
}

function output(s: Schema, path: readonly string[], history: ReadonlySet<string>, recursive: boolean, doc: Doc): string {
  const ref = typeof s.$ref === 'string' ? s.$ref : '';
  const next = new Set(history).add(ref);
  const resolved = resolveRef(ref, doc) ?? s;
  if (path.length === 0) {
    let out = `DESCRIPTION:\n${indent(4, wrapString(description(resolved, doc) || '<empty>', 76))}\n`;
    const fields = fieldList(resolved, 1, new Set(), recursive, doc);
    if (fields !== '') out += `FIELDS:\n${fields}`;
    return out;
  }
  if (ref !== '' && history.has(ref)) return '';
  const properties = isObj(resolved.properties) ? (resolved.properties as Record<string, Schema>) : null;
  if (properties && isObj(properties[path[0]!])) {
    const sub = properties[path[0]!]!;
    const head = path.length === 1 ? `FIELD: ${path[0]} <${typeGuess(sub, doc)}>\n\n\n` : '';
    return head + output(sub, path.slice(1), new Set(), recursive, doc);
  }
  if (isObj(resolved.items)) return output(resolved.items, path, next, recursive, doc);
  const map = mapSchema(resolved);
  if (map) return output(map, path, next, recursive, doc);
  for (const sub of (resolved.allOf as Schema[] | undefined) ?? []) {
    const out = output(sub, path, next, recursive, doc);
    if (out !== '') return out;
  }
  return '';
}

/** The explain text for a kind's schema in a document, or the error kubectl prints. */
export function explainText(doc: Doc, gvk: { group: string; version: string; kind: string }, path: readonly string[], recursive: boolean): { out: string; err?: string } {
  let out = `${gvk.group ? `GROUP:      ${gvk.group}\n` : ''}KIND:       ${gvk.kind}\nVERSION:    ${gvk.version}\n\n`;
  const schemas = isObj(doc.components) && isObj(doc.components.schemas) ? (doc.components.schemas as Record<string, Schema>) : {};
  for (const name of Object.keys(schemas).sort()) {
    const s = schemas[name]!;
    const gvks = Array.isArray(s['x-kubernetes-group-version-kind']) ? (s['x-kubernetes-group-version-kind'] as Schema[]) : [];
    if (!gvks.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) continue;
    const text = output(s, path, new Set(), recursive, doc);
    if (text === '') return { out, err: `error: field "${path[path.length - 1] ?? ''}" does not exist\n` };
    out += `${text}\n`;
    return { out };
  }
  return { out: '', err: `error: GVK ${gvk.group}/${gvk.version}, Kind=${gvk.kind} not found in OpenAPI schema\n` };
}

/** `kubectl explain`. */
export function* explain(io: KubectlIO, args: readonly string[], recursive: boolean): Co<number> {
  const typed = args[0];
  if (typed === undefined) {
    io.err('You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nSee \'kubectl explain -h\' for help and examples\n');
    return 1;
  }
  const [resourceName, ...path] = typed.split('.');
  // `deployments.apps.spec` is not accepted by explain's parser either: the first segment names the resource.
  const r = findResource(resourceName!);
  if (!r) {
    io.err(`the server doesn't have a resource type "${resourceName}"\n`);
    return 1;
  }
  const { response: index } = yield* send(io, { method: 'GET', path: '/openapi/v3', accept: 'application/json, */*' });
  const key = r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
  const url = (index.status === 200 && isObj(index.body) && isObj(index.body.paths) && isObj(index.body.paths[key]))
    ? String((index.body.paths[key] as Schema).serverRelativeURL ?? '') : '';
  if (url === '') {
    io.err(`error: couldn't find resource for "${r.group === '' ? '' : `${r.group}/`}${r.version}, Kind=${r.kind}"\n`);
    return 1;
  }
  const q = url.indexOf('?');
  const { response: document } = yield* send(io, { method: 'GET', path: q < 0 ? url : url.slice(0, q), query: q < 0 ? '' : url.slice(q + 1), accept: 'application/json' });
  if (document.status !== 200 || !isObj(document.body)) {
    io.err(`error: failed to fetch openapi document for ${key}\n`);
    return 1;
  }
  const result = explainText(document.body, { group: r.group, version: r.version, kind: r.kind }, path, recursive);
  io.out(result.out);
  if (result.err !== undefined) {
    io.err(result.err);
    return 1;
  }
  return 0;
}
