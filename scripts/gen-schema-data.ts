// Writes src/sim/api/schema-data.ts, the wire schema of every served kind, from the Go struct
// definitions of k8s.io/api and k8s.io/apimachinery (their JSON and patch tags).
//
// Inputs (release-1.28):
//   https://github.com/kubernetes/api           tag v0.28.15, commit efcef04c33c1bd224bd25650bafeadae87fe0fb6
//   https://github.com/kubernetes/apimachinery  tag v0.28.15, commit 551d1393109a55f07ec6c615a9baa572729b484a
// the files named in `packages` below. Fetch them with
//   git clone --depth 1 -b v0.28.15 https://github.com/kubernetes/api
//   git clone --depth 1 -b v0.28.15 https://github.com/kubernetes/apimachinery
// (or the session's `fetch github:kubernetes/api` mirror and `git archive v0.28.15`), then
//   npx tsx scripts/gen-schema-data.ts <k8s.io/api dir> <k8s.io/apimachinery dir>
//
// What it does: parses every `type X struct { … }` and every named non-struct type (`type Protocol
// string`, `type ResourceList map[ResourceName]resource.Quantity`) of those files, walks the structs
// reachable from `roots` (the served kinds and the option and status kinds the API reads and writes),
// and writes each struct's fields in declaration order as schema-data.ts's notation says. Types that
// the decoder treats as values of their own (`special`) are not walked into. A struct name two
// packages share is kept plain for the first package listed and qualified with its package for the
// others (`discovery.EndpointPort`), as scripts/gen-field-numbers.ts names protobuf messages.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** [json name, type, 'o' when omitempty, patchStrategy, patchMergeKey], as schema-data.ts declares it. */
export type Field = readonly [json: string, type: string, omitempty?: '' | 'o', patchStrategy?: string, patchMergeKey?: string];

interface Package {
  /** Short name: qualifies a struct whose name an earlier package has. */
  readonly name: string;
  /** Go import path. */
  readonly importPath: string;
  /** The repository holding it and its files there. */
  readonly repo: 'api' | 'apimachinery';
  readonly files: readonly string[];
}

export const packages: readonly Package[] = [
  { name: 'meta', importPath: 'k8s.io/apimachinery/pkg/apis/meta/v1', repo: 'apimachinery', files: ['pkg/apis/meta/v1/types.go'] },
  { name: 'types', importPath: 'k8s.io/apimachinery/pkg/types', repo: 'apimachinery', files: ['pkg/types/uid.go'] },
  ...['core', 'apps', 'autoscaling', 'batch', 'coordination', 'rbac', 'discovery', 'networking', 'scheduling',
    'authorization', 'authentication'].map((name): Package => (
    { name, importPath: `k8s.io/api/${name}/v1`, repo: 'api', files: [`${name}/v1/types.go`] })),
];

/** Go types the decoder knows as values (schema-data.ts's `Time`, `Quantity`…), by import path and name. */
const special: Readonly<Record<string, string>> = {
  'k8s.io/apimachinery/pkg/apis/meta/v1.Time': 'Time',
  'k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime': 'MicroTime',
  'k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1': 'Raw',
  'k8s.io/apimachinery/pkg/runtime.RawExtension': 'Raw',
  'k8s.io/apimachinery/pkg/api/resource.Quantity': 'Quantity',
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': 'IntOrString',
};

const basic = new Set(['string', 'bool', 'int32', 'int64', 'float64']);

/** The structs walked from, by package: every served kind and the kinds the API reads or writes beside them. */
export const roots: ReadonlyArray<readonly [pkg: string, names: readonly string[]]> = [
  ['meta', ['DeleteOptions', 'Status']],
  ['core', ['Binding', 'ComponentStatus', 'ConfigMap', 'Endpoints', 'Event', 'Namespace', 'Node', 'PersistentVolume', 'Pod',
    'RangeAllocation', 'ReplicationController', 'Secret', 'Service', 'ServiceAccount']],
  ['apps', ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet']],
  ['autoscaling', ['Scale']],
  ['batch', ['CronJob', 'Job']],
  ['coordination', ['Lease']],
  ['rbac', ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']],
  ['discovery', ['EndpointSlice']],
  ['networking', ['Ingress']],
  ['scheduling', ['PriorityClass']],
  ['authorization', ['SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SubjectAccessReview']],
  ['authentication', ['SelfSubjectReview']],
];

interface GoField { readonly name: string | undefined; readonly type: string; readonly tag: string }
interface ParsedPackage {
  readonly structs: Map<string, GoField[]>;
  /** Named non-struct types and aliases: name → Go type. */
  readonly named: Map<string, string>;
  /** Import alias → import path, per file (merged: the files of one package agree). */
  readonly imports: Map<string, string>;
}

/** Parses the struct and named-type declarations and the imports of one package's Go files. */
export function parseGo(sources: readonly string[]): ParsedPackage {
  const parsed: ParsedPackage = { structs: new Map(), named: new Map(), imports: new Map() };
  for (const source of sources) {
    let fields: GoField[] | undefined;
    let inImports = false;
    let inComment = false;
    for (const raw of source.split('\n')) {
      const line = raw.replace(/\s+$/, '');
      if (fields !== undefined) {
        if (line === '}') { fields = undefined; continue; }
        const text = line.trim();
        if (inComment || text.startsWith('/*')) { inComment = !text.endsWith('*/'); continue; }
        if (text === '' || text.startsWith('//')) continue;
        const field = /^(?:(\w+)\s+)?([\w.*[\]{}]+)\s*(?:`([^`]*)`)?\s*(?:\/\/.*)?$/.exec(text);
        if (field === null) throw new Error(`unparsed struct field: ${text}`);
        fields.push({ name: field[1], type: field[2]!, tag: field[3] ?? '' });
        continue;
      }
      if (line === 'import (') { inImports = true; continue; }
      if (inImports) {
        if (line === ')') { inImports = false; continue; }
        const imp = /^\s*(?:(\w+)\s+)?"([^"]+)"$/.exec(line);
        if (imp !== null) parsed.imports.set(imp[1] ?? imp[2]!.slice(imp[2]!.lastIndexOf('/') + 1), imp[2]!);
        continue;
      }
      const struct = /^type (\w+) struct \{$/.exec(line);
      if (struct !== null) { fields = []; parsed.structs.set(struct[1]!, fields); continue; }
      const named = /^type (\w+) (?:= )?([\w.*[\]]+)\s*(?:\/\/.*)?$/.exec(line);
      if (named !== null) parsed.named.set(named[1]!, named[2]!);
    }
  }
  return parsed;
}

function tagValue(tag: string, key: string): string | undefined {
  return new RegExp(`(?:^|\\s)${key}:"([^"]*)"`).exec(tag)?.[1];
}

/** The generated structs, keyed by their schema-data.ts names, in code-unit order. */
export function generate(sources: ReadonlyMap<string, readonly string[]>,
  rootNames: typeof roots = roots): Map<string, Field[]> {
  const parsed = new Map<string, ParsedPackage>();
  const byPath = new Map<string, string>();
  for (const pkg of packages) {
    const files = sources.get(pkg.name);
    if (files === undefined) continue;
    parsed.set(pkg.name, parseGo(files));
    byPath.set(pkg.importPath, pkg.name);
  }
  const keyOf = new Map<string, string>();
  const plain = new Set<string>();
  for (const pkg of packages) {
    for (const name of parsed.get(pkg.name)?.structs.keys() ?? []) {
      keyOf.set(`${pkg.name}.${name}`, plain.has(name) ? `${pkg.name}.${name}` : name);
      plain.add(name);
    }
  }
  const out = new Map<string, Field[]>();
  const queue: Array<readonly [string, string]> = rootNames.flatMap(([pkg, names]) => names.map((n) => [pkg, n] as const));

  const resolve = (pkg: string, type: string): string => {
    if (type.startsWith('*')) return `*${resolve(pkg, type.slice(1))}`;
    if (type === '[]byte') return 'bytes';
    if (type.startsWith('[]')) return `[]${resolve(pkg, type.slice(2))}`;
    const map = /^map\[([\w.]+)\](.+)$/.exec(type);
    if (map !== null) {
      if (resolve(pkg, map[1]!) !== 'string') throw new Error(`map key not a string: ${type}`);
      return `map[string]${resolve(pkg, map[2]!)}`;
    }
    if (basic.has(type)) return type;
    const dot = type.indexOf('.');
    const path = dot < 0 ? packages.find((p) => p.name === pkg)!.importPath
      : parsed.get(pkg)!.imports.get(type.slice(0, dot)) ?? type.slice(0, dot);
    const name = type.slice(dot + 1);
    const known = special[`${path}.${name}`];
    if (known !== undefined) return known;
    const owner = byPath.get(path);
    if (owner === undefined) throw new Error(`${pkg}: ${type} is in a package not read (${path})`);
    const ownerPackage = parsed.get(owner)!;
    if (ownerPackage.structs.has(name)) {
      queue.push([owner, name]);
      return keyOf.get(`${owner}.${name}`)!;
    }
    const underlying = ownerPackage.named.get(name);
    if (underlying === undefined) throw new Error(`${owner}: unknown type ${name}`);
    return resolve(owner, underlying);
  };

  while (queue.length > 0) {
    const [pkg, name] = queue.shift()!;
    const key = keyOf.get(`${pkg}.${name}`);
    if (key === undefined) throw new Error(`${pkg}: no struct ${name}`);
    if (out.has(key)) continue;
    const fields: Field[] = [];
    out.set(key, fields);
    for (const field of parsed.get(pkg)!.structs.get(name)!) {
      const json = tagValue(field.tag, 'json');
      if (json === '-') continue;
      if (json === undefined && field.name !== undefined) throw new Error(`${pkg}.${name}.${field.name}: no json tag`);
      const [jsonName = '', ...options] = (json ?? '').split(',');
      const type = resolve(pkg, field.type);
      if (jsonName === '') {
        if (field.name !== undefined || !options.includes('inline') && json !== undefined) {
          throw new Error(`${pkg}.${name}: a field without a JSON name that is not an embedded inline struct`);
        }
        fields.push(['...', type]);
        continue;
      }
      const spec: [string, string, ('' | 'o')?, string?, string?] = [jsonName, type];
      const strategy = tagValue(field.tag, 'patchStrategy');
      const mergeKey = tagValue(field.tag, 'patchMergeKey');
      if (options.includes('omitempty') || strategy !== undefined || mergeKey !== undefined) {
        spec.push(options.includes('omitempty') ? 'o' : '');
      }
      if (strategy !== undefined || mergeKey !== undefined) spec.push(strategy ?? '', mergeKey ?? '');
      fields.push(spec);
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const quote = (s: string): string => `'${s}'`;
const key = (k: string): string => (/^[A-Za-z_]\w*$/.test(k) ? k : quote(k));

/** schema-data.ts's text for the generated structs. */
export function render(structs: ReadonlyMap<string, readonly Field[]>): string {
  const body = [...structs].map(([name, fields]) => [
    `  ${key(name)}: [`,
    ...fields.map((f) => `    [${f.map((x = '') => quote(x)).join(', ')}],`),
    '  ],',
  ].join('\n')).join('\n');
  return `// Generated by scripts/gen-schema-data.ts; do not edit, regenerate. Inputs (release-1.28):
//   https://github.com/kubernetes/api           tag v0.28.15, commit efcef04c33c1bd224bd25650bafeadae87fe0fb6
//   https://github.com/kubernetes/apimachinery  tag v0.28.15, commit 551d1393109a55f07ec6c615a9baa572729b484a
${packages.flatMap((p) => p.files.map((f) => `//   ${p.repo === 'api' ? 'k8s.io/api' : 'k8s.io/apimachinery'}/${f}`)).join('\n')}
// (the script's header says how to fetch them).
//
// The wire schema of every served kind: for each Go struct of the API, its fields in declaration
// order with their JSON name, type, \`omitempty\`, and strategic-merge-patch strategy and merge key.
// Decoding uses it to find unknown fields and type mismatches, to canonicalize objects the way a Go
// decode/encode round trip does, and to merge strategic patches. Every struct reachable from a served
// kind is listed.
//
// Type notation: \`string\`, \`bool\`, \`int32\`, \`int64\`, \`float64\`; \`Time\` (metav1.Time, seconds),
// \`MicroTime\`, \`Quantity\`, \`IntOrString\`, \`Raw\` (any JSON), \`bytes\` (base64); \`*T\` pointer,
// \`[]T\` list, \`map[string]T\` map; any other name is a struct below. A field \`['...', 'T']\` inlines
// the fields of struct T (Go's embedded \`json:",inline"\`).

/** [json name, type, 'o' when omitempty, patchStrategy, patchMergeKey]. */
export type FieldSpec = readonly [json: string, type: string, omitempty?: '' | 'o', patchStrategy?: string, patchMergeKey?: string];

export const structs: Readonly<Record<string, readonly FieldSpec[]>> = {
${body}
};
`;
}

/** Reads each package's files from the two repositories' checkouts. */
export function readSources(apiDir: string, apimachineryDir: string): Map<string, string[]> {
  return new Map(packages.map((p) => [p.name,
    p.files.map((f) => readFileSync(join(p.repo === 'api' ? apiDir : apimachineryDir, f), 'utf8'))]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [apiDir, apimachineryDir] = process.argv.slice(2);
  if (apiDir === undefined || apimachineryDir === undefined) {
    throw new Error('usage: gen-schema-data.ts <k8s.io/api dir> <k8s.io/apimachinery dir>');
  }
  writeFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'sim', 'api', 'schema-data.ts'),
    render(generate(readSources(apiDir, apimachineryDir))));
}
