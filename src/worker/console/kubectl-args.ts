// Parses a kubectl command line into what to do, with kubectl's own usage errors: the verbs and flags
// Podflow's console supports (get, describe, create, apply, replace, delete, scale, set image, rollout
// status|history|undo, version, api-resources) and the global flags (-n, -A, -v, --as).
// Models k8s.io/kubectl/pkg/cmd (cobra/pflag flag handling: `--flag value`, `--flag=value`, `-f value`,
// `-fvalue`, grouped boolean shorthands) and the texts of cobra's errors
// (`error: unknown flag: --foo`, `error: unknown shorthand flag: 'x' in -x`).

import { splitArgs } from '../../sim/go/shell.ts';

export type KubectlVerb =
  | 'get' | 'describe' | 'create' | 'apply' | 'replace' | 'delete' | 'scale' | 'set image'
  | 'rollout status' | 'rollout history' | 'rollout undo' | 'version' | 'explain' | 'auth can-i' | 'auth whoami';

export interface KubectlFlags {
  readonly namespace?: string;
  readonly allNamespaces: boolean;
  readonly selector?: string;
  readonly output?: string;
  readonly watch: boolean;
  readonly showLabels: boolean;
  readonly filename?: string;
  readonly replicas?: number;
  readonly cascade: 'background' | 'foreground' | 'orphan';
  readonly as?: string;
  readonly raw?: string;
  readonly verbosity: number;
  readonly toRevision?: number;
  readonly wait: boolean;
  /** `get --sort-by`: a JSONPath over each object. */
  readonly sortBy?: string;
  /** `explain --recursive`. */
  readonly recursive: boolean;
  /** `auth can-i --list`, `--quiet`, `--no-headers`, `--subresource`. */
  readonly list: boolean;
  readonly quiet: boolean;
  readonly noHeaders: boolean;
  readonly subresource?: string;
}

export interface KubectlInvocation {
  readonly verb: KubectlVerb;
  /** Positional arguments after the verb. */
  readonly args: readonly string[];
  readonly flags: KubectlFlags;
}

export type ParsedKubectl = { readonly ok: true; readonly command: KubectlInvocation } | { readonly ok: false; readonly stderr: string };

interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  /** Takes a value (else boolean). */
  readonly value: boolean;
}

const globalFlags: readonly FlagSpec[] = [
  { name: 'namespace', short: 'n', value: true },
  { name: 'v', short: 'v', value: true },
  { name: 'as', value: true },
];

const verbFlags: Readonly<Record<KubectlVerb, readonly FlagSpec[]>> = {
  'get': [
    { name: 'all-namespaces', short: 'A', value: false }, { name: 'selector', short: 'l', value: true },
    { name: 'output', short: 'o', value: true }, { name: 'watch', short: 'w', value: false },
    { name: 'show-labels', value: false }, { name: 'raw', value: true }, { name: 'sort-by', value: true },
  ],
  'describe': [{ name: 'all-namespaces', short: 'A', value: false }, { name: 'selector', short: 'l', value: true }],
  'create': [{ name: 'filename', short: 'f', value: true }, { name: 'output', short: 'o', value: true }],
  'apply': [{ name: 'filename', short: 'f', value: true }, { name: 'output', short: 'o', value: true }],
  'replace': [{ name: 'filename', short: 'f', value: true }, { name: 'output', short: 'o', value: true }],
  'delete': [
    { name: 'filename', short: 'f', value: true }, { name: 'cascade', value: true }, { name: 'selector', short: 'l', value: true },
    { name: 'wait', value: false },
  ],
  'scale': [{ name: 'replicas', value: true }],
  'set image': [],
  'rollout status': [{ name: 'watch', short: 'w', value: false }],
  'rollout history': [],
  'rollout undo': [{ name: 'to-revision', value: true }],
  'version': [{ name: 'output', short: 'o', value: true }],
  'explain': [{ name: 'recursive', value: false }, { name: 'api-version', value: true }, { name: 'output', short: 'o', value: true }],
  'auth can-i': [
    { name: 'all-namespaces', short: 'A', value: false }, { name: 'list', value: false }, { name: 'quiet', short: 'q', value: false },
    { name: 'no-headers', value: false }, { name: 'subresource', value: true },
  ],
  'auth whoami': [{ name: 'output', short: 'o', value: true }],
};

/** Every verb as typed, for completion. */
export const kubectlVerbs: readonly string[] = ['get', 'describe', 'create', 'apply', 'replace', 'delete', 'scale', 'set', 'rollout', 'version', 'explain', 'auth'];

/**
 * kubectl 1.28's other commands: real, but not modelled in Podflow's console. Naming one gets a plain
 * "not modelled" message rather than cobra's "unknown command" with suggestions.
 */
const notModelled: readonly string[] = [
  'annotate', 'api-resources', 'api-versions', 'attach', 'autoscale', 'certificate', 'cluster-info', 'completion', 'config', 'cordon', 'cp',
  'debug', 'diff', 'drain', 'edit', 'events', 'exec', 'expose', 'kustomize', 'label', 'logs', 'options', 'patch', 'plugin', 'port-forward',
  'proxy', 'taint', 'top', 'uncordon', 'wait',
];

/** Every kubectl 1.28 command name, for cobra's suggestions (run, logs and exec are parsed before this file: kubectl-run.ts, kubectl-pods.ts). */
const allCommands: readonly string[] = [...kubectlVerbs, 'run', ...notModelled].sort();

/** Levenshtein distance, as cobra's ld(). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
    }
  }
  return d[a.length]![b.length]!;
}

/** cobra's SuggestionsFor with kubectl's minimum distance 2: close names and names it is a prefix of. */
export function suggestionsFor(typed: string): string[] {
  return allCommands.filter((c) => distance(typed, c) <= 2 || c.startsWith(typed.toLowerCase()));
}

/** The message for a real kubectl command the console does not model (null when it is not one). */
export function notModelledMessage(verb: string): string | null {
  if (!notModelled.includes(verb)) return null;
  return `error: "kubectl ${verb}" is not modelled in Podflow's console. It models get, describe, create, apply, replace, delete, run, scale, set image, rollout, logs, exec, explain, auth can-i, auth whoami and version.\n`;
}

function resolveVerb(words: string[]): { verb: KubectlVerb; used: number } | string {
  const [first, second] = words;
  if (first === undefined) return 'kubectl controls the Kubernetes cluster manager.\n\nerror: a command is required (get, describe, create, apply, replace, delete, scale, set image, rollout)\n';
  if (first === 'set') {
    if (second === 'image') return { verb: 'set image', used: 2 };
    return `error: unknown command "${second ?? ''}" for "kubectl set"\n`;
  }
  if (first === 'rollout') {
    if (second === 'status' || second === 'history' || second === 'undo') return { verb: `rollout ${second}`, used: 2 };
    return `error: unknown command "${second ?? ''}" for "kubectl rollout"\n`;
  }
  if (first === 'auth') {
    if (second === 'can-i' || second === 'whoami') return { verb: `auth ${second}`, used: 2 };
    if (second === 'reconcile') return notModelledMessage('auth reconcile') ?? 'error: "kubectl auth reconcile" is not modelled in Podflow\'s console.\n';
    return `error: unknown command "${second ?? ''}" for "kubectl auth"\n`;
  }
  if (Object.hasOwn(verbFlags, first)) return { verb: first as KubectlVerb, used: 1 };
  const unmodelled = notModelledMessage(first);
  if (unmodelled !== null) return unmodelled;
  const suggestions = suggestionsFor(first);
  const didYouMean = suggestions.length > 0 ? `\n\nDid you mean this?\n${suggestions.map((c) => `\t${c}\n`).join('')}` : '\n';
  return `error: unknown command "${first}" for "kubectl"${didYouMean}Run 'kubectl --help' for usage.\n`;
}

/** Parses `kubectl …` (the leading `kubectl` is optional). */
export function parseKubectl(line: string | readonly string[]): ParsedKubectl {
  const words = typeof line === 'string' ? splitArgs(line) : [...line];
  if (words[0] === 'kubectl') words.shift();
  // Global flags may come before the verb: find the first word that is not a flag or a flag's value.
  const before: string[] = [];
  while (words.length > 0 && words[0]!.startsWith('-')) {
    const w = words.shift()!;
    before.push(w);
    const spec = lookup(globalFlags, w);
    if (spec?.value && !w.includes('=') && !/^-[a-zA-Z].+/.test(w) && words.length > 0) before.push(words.shift()!);
  }
  const verb = resolveVerb(words);
  if (typeof verb === 'string') return { ok: false, stderr: verb };
  const rest = [...before, ...words.slice(verb.used)];
  const specs = [...globalFlags, ...verbFlags[verb.verb]];
  const values = new Map<string, string>();
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (w === '--') { args.push(...rest.slice(i + 1)); break; }
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const name = eq < 0 ? w.slice(2) : w.slice(2, eq);
      const spec = specs.find((s) => s.name === name);
      if (!spec) return usage(verb.verb, `unknown flag: --${name}`);
      if (!spec.value) {
        const v = eq < 0 ? 'true' : w.slice(eq + 1);
        if (v !== 'true' && v !== 'false') return usage(verb.verb, `invalid argument "${v}" for "--${name}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`);
        values.set(spec.name, v);
      } else if (eq >= 0) {
        values.set(spec.name, w.slice(eq + 1));
      } else if (i + 1 < rest.length) {
        values.set(spec.name, rest[++i]!);
      } else {
        return usage(verb.verb, `flag needs an argument: --${name}`);
      }
    } else if (w.startsWith('-') && w.length > 1) {
      // Shorthands: `-A`, `-w`, grouped booleans `-Aw`, `-n ns`, `-nns`, `-n=ns`, `-oyaml`.
      for (let j = 1; j < w.length; j++) {
        const c = w[j]!;
        const spec = specs.find((s) => s.short === c);
        if (!spec) return usage(verb.verb, `unknown shorthand flag: '${c}' in ${w}`);
        if (!spec.value) { values.set(spec.name, 'true'); continue; }
        let value = w.slice(j + 1);
        if (value.startsWith('=')) value = value.slice(1);
        if (value === '' && j + 1 === w.length) {
          if (i + 1 >= rest.length) return usage(verb.verb, `flag needs an argument: '${c}' in -${c}`);
          value = rest[++i]!;
        }
        values.set(spec.name, value);
        break;
      }
    } else {
      args.push(w);
    }
  }
  return flagsOf(verb.verb, args, values);
}

function lookup(specs: readonly FlagSpec[], word: string): FlagSpec | undefined {
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
    return specs.find((s) => s.name === name);
  }
  return specs.find((s) => s.short === word[1]);
}

function usage(verb: KubectlVerb, message: string): ParsedKubectl {
  return { ok: false, stderr: `error: ${message}\nSee 'kubectl ${verb} --help' for usage.\n` };
}

function flagsOf(verb: KubectlVerb, args: string[], values: Map<string, string>): ParsedKubectl {
  const int = (name: string): number | undefined | string => {
    const v = values.get(name);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) return `invalid argument "${v}" for "--${name}" flag: strconv.ParseInt: parsing "${v}": invalid syntax`;
    return Number(v);
  };
  const verbosity = int('v');
  if (typeof verbosity === 'string') return usage(verb, verbosity);
  const replicas = int('replicas');
  if (typeof replicas === 'string') return usage(verb, replicas);
  const toRevision = int('to-revision');
  if (typeof toRevision === 'string') return usage(verb, toRevision);
  const cascade = values.get('cascade') ?? 'background';
  const cascadeValue = cascade === 'true' ? 'background' : cascade === 'false' ? 'orphan' : cascade;
  if (cascadeValue !== 'background' && cascadeValue !== 'foreground' && cascadeValue !== 'orphan') {
    return { ok: false, stderr: `error: invalid cascade value (${cascade}). Must be "background", "foreground", or "orphan".\n` };
  }
  const output = values.get('output');
  const outputs = verb === 'get' ? ['yaml', 'json', 'wide', 'name', 'jsonpath'] : verb === 'explain' ? ['plaintext'] : verb === 'auth whoami' ? ['json', 'yaml'] : ['yaml', 'json', 'name'];
  if (verb === 'get' && (output === 'jsonpath' || output === 'jsonpath=')) {
    return { ok: false, stderr: 'error: template format specified but no template given\n' };
  }
  if (output !== undefined && !outputs.includes(output) && !(verb === 'get' && output.startsWith('jsonpath='))) {
    return { ok: false, stderr: `error: unable to match a printer suitable for the output format "${output}", allowed formats are: ${outputs.join(',')}\n` };
  }
  const namespace = values.get('namespace');
  if (namespace === '') return { ok: false, stderr: 'error: a resource cannot be retrieved by name across all namespaces\n' };
  const flags: KubectlFlags = {
    allNamespaces: values.get('all-namespaces') === 'true',
    watch: values.get('watch') === 'true',
    showLabels: values.get('show-labels') === 'true',
    cascade: cascadeValue,
    verbosity: verbosity ?? 0,
    wait: values.get('wait') !== 'false',
    recursive: values.get('recursive') === 'true',
    list: values.get('list') === 'true',
    quiet: values.get('quiet') === 'true',
    noHeaders: values.get('no-headers') === 'true',
    ...(values.has('sort-by') ? { sortBy: values.get('sort-by')! } : {}),
    ...(values.has('subresource') ? { subresource: values.get('subresource')! } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(values.has('selector') ? { selector: values.get('selector')! } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(values.has('filename') ? { filename: values.get('filename')! } : {}),
    ...(replicas !== undefined ? { replicas } : {}),
    ...(values.has('as') ? { as: values.get('as')! } : {}),
    ...(values.has('raw') ? { raw: values.get('raw')! } : {}),
    ...(toRevision !== undefined ? { toRevision } : {}),
  };
  return { ok: true, command: { verb, args, flags } };
}
