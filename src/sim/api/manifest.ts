// Manifests as `kubectl create -f` reads them: multi-document YAML (YAML 1.1 scalars, as Go's yaml
// library resolves them: `yes` is true) or JSON, empty documents skipped, `kind: List` expanded. Each
// object gets its group-version-kind checked the way kubectl checks it before sending anything, with
// kubectl's texts (`error validating data: kind not set`, `resource mapping not found … no matches for
// kind "Foo" in version "v1"`), and fields the schema does not know are located by line and column so
// an editor can mark them (the apiserver rejects them under fieldValidation=Strict).
// Models k8s.io/kubectl/pkg/validation (getObjectKind), k8s.io/cli-runtime/pkg/resource (mapper.go,
// visitor.go) and k8s.io/apimachinery/pkg/api/meta (NoKindMatchError). YAML syntax errors carry the
// `yaml` package's wording, not Go's.

import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, visit, type Document, type Node } from 'yaml';
import { decodeStruct } from './decode.ts';
import { parseGroupVersion, type GroupVersionKind } from './gvk.ts';
import { resourceForKind, type ResourceInfo } from './resources.ts';
import { goQuote } from '../go/strconv.ts';
import type { KubeObject } from './types/meta.ts';

export interface SourcePosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

export interface ManifestError extends SourcePosition {
  readonly message: string;
}

export interface UnknownField extends SourcePosition {
  /** As the apiserver reports it: `spec.template.spec.containers[0].foo`. */
  readonly path: string;
}

export interface ManifestObject {
  /** The object as written (not defaulted, not canonicalized). */
  readonly object: KubeObject;
  readonly gvk: GroupVersionKind;
  readonly resource: ResourceInfo;
  /** Where the document (or List item) starts. */
  readonly position: SourcePosition;
  readonly unknownFields: readonly UnknownField[];
}

export interface Manifest {
  readonly objects: readonly ManifestObject[];
  /** Any error means kubectl would send nothing. */
  readonly errors: readonly ManifestError[];
}

const stopValidateMessage = 'if you choose to ignore these errors, turn validation off with --validate=false';

/** The Go JSON rendering kubectl embeds in decode errors: keys sorted (a YAML→JSON conversion). */
function sortedJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJSON((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** kubectl's getObjectKind checks, aggregated as Go aggregates errors. */
function objectKindErrors(obj: Record<string, unknown>): string[] {
  const errs: string[] = [];
  const apiVersion = obj.apiVersion;
  if (apiVersion === undefined || apiVersion === null) errs.push('apiVersion not set');
  else if (typeof apiVersion !== 'string') errs.push("apiVersion isn't string type");
  else {
    const gv = parseGroupVersion(apiVersion);
    if ('error' in gv) errs.push(gv.error);
  }
  const kind = obj.kind;
  if (kind === undefined || kind === null) errs.push('kind not set');
  else if (typeof kind !== 'string') errs.push("kind isn't string type");
  return errs;
}

function aggregate(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

/** Finds the YAML node holding the key of a field path (`spec.containers[0].foo`), for its position. */
function keyOffset(doc: Document, path: string, base: readonly (string | number)[]): number | undefined {
  const segments: (string | number)[] = [...base];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (m === null) return undefined;
    segments.push(m[1]!);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) segments.push(Number(idx[1]));
  }
  let node: unknown = doc.contents;
  let offset: number | undefined;
  for (const seg of segments) {
    if (typeof seg === 'number' && isSeq(node)) {
      node = node.items[seg];
      offset = (node as Node | undefined)?.range?.[0];
    } else if (typeof seg === 'string' && isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === seg);
      if (pair === undefined) return offset;
      offset = (pair.key as Node).range?.[0];
      node = pair.value;
    } else {
      return offset;
    }
  }
  return offset;
}

/** The first alias in `doc` whose anchor is not defined before it (toJS would throw on it). */
function firstUnresolvedAlias(doc: Document): { name: string; offset: number | undefined } | undefined {
  let found: { name: string; offset: number | undefined } | undefined;
  visit(doc, {
    Alias(_, alias) {
      if (alias.resolve(doc) !== undefined) return undefined;
      found = { name: alias.source, offset: alias.range?.[0] };
      return visit.BREAK;
    },
  });
  return found;
}

/**
 * Reads a manifest the way `kubectl create -f <source>` does before sending requests. With
 * `validate` false (kubectl `--validate=false`) a missing kind is still fatal but reported as a
 * decode error, and the apiVersion checks are skipped.
 */
export function parseManifest(text: string, source: string, validate = true): Manifest {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, version: '1.1', prettyErrors: false, merge: true });
  const objects: ManifestObject[] = [];
  const errors: ManifestError[] = [];
  const at = (offset: number | undefined): SourcePosition => {
    const p = lineCounter.linePos(offset ?? 0);
    return { line: p.line, column: p.col };
  };
  const documents = Array.isArray(docs) ? docs : [docs];

  for (const doc of documents) {
    if (doc.errors.length > 0) {
      for (const e of doc.errors) errors.push({ ...at(e.pos[0]), message: `error parsing ${source}: error converting YAML to JSON: ${e.message}` });
      continue;
    }
    const unknownAnchor = firstUnresolvedAlias(doc);
    if (unknownAnchor !== undefined) {
      // go-yaml's composer: an alias whose anchor is not (yet) defined.
      errors.push({ ...at(unknownAnchor.offset), message: `error parsing ${source}: error converting YAML to JSON: yaml: unknown anchor '${unknownAnchor.name}' referenced` });
      continue;
    }
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) {
      errors.push({ ...at(doc.range[0]), message: `error validating ${goQuote(source)}: error validating data: invalid object to validate; ${stopValidateMessage}` });
      continue;
    }
    const obj = value as Record<string, unknown>;
    const items: [Record<string, unknown>, (string | number)[]][] = obj.kind === 'List' && Array.isArray(obj.items)
      ? (obj.items as unknown[]).map((item, i) => [item as Record<string, unknown>, ['items', i]])
      : [[obj, []]];
    for (const [item, base] of items) {
      const position = at(base.length === 0 ? doc.contents?.range?.[0] : keyOffset(doc, `items[${base[1]}]`, []));
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        errors.push({ ...position, message: `error validating ${goQuote(source)}: error validating data: invalid object to validate; ${stopValidateMessage}` });
        continue;
      }
      const kindErrors = objectKindErrors(item);
      if (validate && kindErrors.length > 0) {
        errors.push({ ...position, message: `error validating ${goQuote(source)}: error validating data: ${aggregate(kindErrors)}; ${stopValidateMessage}` });
        continue;
      }
      if (typeof item.kind !== 'string' || item.kind === '') {
        errors.push({ ...position, message: `unable to decode ${goQuote(source)}: Object 'Kind' is missing in '${sortedJSON(item)}'` });
        continue;
      }
      const gv = parseGroupVersion(typeof item.apiVersion === 'string' ? item.apiVersion : '');
      const gvk = 'error' in gv ? { group: '', version: '', kind: item.kind } : { ...gv, kind: item.kind };
      const resource = resourceForKind(gvk);
      if (resource === undefined) {
        const meta = (item.metadata ?? {}) as Record<string, unknown>;
        const name = typeof meta.name === 'string' ? meta.name : '';
        const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
        const version = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
        errors.push({
          ...position,
          message: `resource mapping not found for name: ${goQuote(name)} namespace: ${goQuote(namespace)} from ${goQuote(source)}: `
            + `no matches for kind ${goQuote(gvk.kind)} in version ${goQuote(version)}\nensure CRDs are installed first`,
        });
        continue;
      }
      const decoded = decodeStruct(gvk.kind, item);
      const unknownFields = decoded.ok
        ? decoded.value.unknownFields.map((path) => ({ path, ...at(keyOffset(doc, path, base)) }))
        : [];
      objects.push({ object: item as unknown as KubeObject, gvk, resource, position, unknownFields });
    }
  }
  return { objects, errors };
}
