// kubectl's `-o jsonpath=TEMPLATE`: text with `{…}` actions evaluated against the object (or, for a
// list, `{"kind":"List","items":[…]}`). Actions: `.field` / `['field']`, `..` (recursive descent), `*`,
// `[n]`, `[start:end:step]`, `[*]`, unions `[a,b]`, filters `[?(@.x == "y")]` (==, !=, <, >, <=, >=,
// =~ and existence), quoted text (`{"\n"}`), `{range …}…{end}`. Each action prints its results joined by
// spaces: strings as they are, numbers and booleans as Go prints them, maps and lists as compact JSON.
// Missing keys print nothing (kubectl's default --allow-missing-template-keys=true).
// Models k8s.io/client-go/util/jsonpath (parser.go, jsonpath.go) as kubectl's JSONPathPrinter uses it.
// Deviation: a wildcard or recursive descent over a map visits its keys in sorted order (Go's map
// order is random).

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

type Step =
  | { readonly type: 'field'; readonly name: string }
  | { readonly type: 'wildcard' }
  | { readonly type: 'recursive' }
  | { readonly type: 'slice'; readonly start: number | null; readonly end: number | null; readonly endDerived: boolean; readonly step: number | null }
  | { readonly type: 'union'; readonly branches: readonly Step[][] }
  | { readonly type: 'filter'; readonly left: readonly Step[]; readonly op: string; readonly right: readonly Step[] }
  | { readonly type: 'literal'; readonly value: JsonValue };

/** A parsed template: text, actions, and range blocks. */
type Part =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'action'; readonly steps: readonly Step[] }
  | { readonly type: 'range'; readonly steps: readonly Step[]; readonly body: readonly Part[] }
  /** An `{end}` outside any range: parses, and fails when executed (as client-go's). */
  | { readonly type: 'stray-end' };

export class JsonPathError extends Error {}

/** Evaluates `template` against `data`; throws JsonPathError for a template kubectl would refuse. */
export function executeJsonPath(template: string, data: JsonValue): string {
  return render(parseTemplate(template), data);
}

/** Parses a template; throws JsonPathError with client-go's message on bad syntax. */
export function parseTemplate(template: string): Part[] {
  const root: Part[] = [];
  const stack: { parts: Part[]; steps: readonly Step[] }[] = [];
  let parts = root;
  let pos = 0;
  while (pos < template.length) {
    const open = template.indexOf('{', pos);
    if (open < 0) {
      parts.push({ type: 'text', text: template.slice(pos) });
      break;
    }
    if (open > pos) parts.push({ type: 'text', text: template.slice(pos, open) });
    const { steps, identifier, end } = parseAction(template, open + 1);
    pos = end;
    if (identifier === 'range') {
      const body: Part[] = [];
      stack.push({ parts, steps });
      parts = body;
    } else if (identifier === 'end') {
      const frame = stack.pop();
      if (frame === undefined) {
        parts.push({ type: 'stray-end' });
        continue;
      }
      frame.parts.push({ type: 'range', steps: frame.steps, body: parts });
      parts = frame.parts;
    } else {
      parts.push({ type: 'action', steps });
    }
  }
  // An unclosed range runs to the end of the template, as client-go's does.
  while (stack.length > 0) {
    const frame = stack.pop()!;
    frame.parts.push({ type: 'range', steps: frame.steps, body: parts });
    parts = frame.parts;
  }
  return root;
}

const isSpace = (c: string) => c === ' ' || c === '\t';
const isEndOfLine = (c: string) => c === '\r' || c === '\n';
const isTerminator = (c: string | undefined) =>
  c === undefined || isSpace(c) || isEndOfLine(c) || '.,[]$@{}'.includes(c);
const isAlphaNumeric = (c: string) => /^[\p{L}\p{Nd}_]$/u.test(c);

/** Parses the inside of one `{…}` starting at `start`; returns its steps and where the action ends. */
function parseAction(text: string, start: number): { steps: Step[]; identifier: string | null; end: number } {
  const steps: Step[] = [];
  let identifier: string | null = null;
  let pos = start;
  for (;;) {
    const rest = text.slice(pos);
    if (rest.startsWith('}')) return { steps, identifier, end: pos + 1 };
    if (rest.startsWith('[?(')) {
      const parsed = parseFilter(text, pos + 3);
      steps.push(parsed.step);
      pos = parsed.end;
      continue;
    }
    if (rest.startsWith('..')) {
      if (steps.at(-1)?.type === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
      steps.push({ type: 'recursive' });
      pos += 2;
      const c = text[pos];
      if (c !== undefined && isAlphaNumeric(c)) {
        const field = scanField(text, pos);
        steps.push(field.step);
        pos = field.end;
      }
      continue;
    }
    const c = text[pos];
    if (c === undefined || isEndOfLine(c)) throw new JsonPathError('unclosed action');
    if (c === ' ' || c === '@' || c === '$') {
      pos++;
    } else if (c === '[') {
      const parsed = parseArray(text, pos);
      steps.push(...parsed.steps);
      pos = parsed.end;
    } else if (c === '"' || c === "'") {
      const parsed = parseQuote(text, pos, c);
      steps.push({ type: 'literal', value: parsed.value });
      pos = parsed.end;
    } else if (c === '.') {
      const field = scanField(text, pos + 1);
      steps.push(field.step);
      pos = field.end;
    } else if (c === '+' || c === '-' || /\d/.test(c)) {
      let end = pos + 1;
      while (end < text.length && /[\d.]/.test(text[end]!)) end++;
      const value = Number(text.slice(pos, end));
      if (!Number.isFinite(value)) throw new JsonPathError(`cannot parse number ${text.slice(pos, end)}`);
      steps.push({ type: 'literal', value });
      pos = end;
    } else if (isAlphaNumeric(c)) {
      let end = pos;
      while (!isTerminator(text[end])) end++;
      const word = text.slice(pos, end);
      if (word === 'true' || word === 'false') steps.push({ type: 'literal', value: word === 'true' });
      else if (word === 'range' || word === 'end') identifier = word;
      else throw new JsonPathError(`unrecognized identifier ${word}`);
      pos = end;
    } else {
      throw new JsonPathError(`unrecognized character in action: U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} '${c}'`);
    }
  }
}

/** `.name` up to the next unescaped terminator; `*` is the wildcard. */
function scanField(text: string, start: number): { step: Step; end: number } {
  let pos = start;
  while (pos < text.length) {
    const c = text[pos]!;
    if (c === '\\') pos += 2;
    else if (isTerminator(c)) break;
    else pos++;
  }
  const value = text.slice(start, pos);
  return { step: value === '*' ? { type: 'wildcard' } : { type: 'field', name: value.replaceAll('\\', '') }, end: pos };
}

function parseArray(text: string, start: number): { steps: Step[]; end: number } {
  let pos = start + 1;
  while (text[pos] !== ']') {
    if (pos >= text.length || text[pos] === '\n') throw new JsonPathError('unterminated array');
    pos++;
  }
  let inner = text.slice(start + 1, pos);
  const end = pos + 1;
  if (inner === '*') inner = ':';
  const parts = inner.split(',');
  if (parts.length > 1) {
    return { steps: [{ type: 'union', branches: parts.map((p) => parseAction(`[${p.trim()}]}`, 0).steps) }], end };
  }
  const dictKey = /^'([^']*)'$/.exec(inner);
  if (dictKey) return { steps: parseAction(`.${dictKey[1]}}`, 0).steps, end };
  const slice = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/.exec(inner);
  if (!slice) throw new JsonPathError(`invalid array index ${inner}`);
  const number = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s));
  const first = number(slice[1]);
  const second = slice[2] === undefined ? undefined : slice[2].slice(1);
  const third = slice[3] === undefined ? undefined : slice[3].slice(1);
  if (slice[2] === undefined) {
    // `[n]`: one element (end derived as n + 1).
    return { steps: [{ type: 'slice', start: first, end: (first ?? 0) + 1, endDerived: true, step: null }], end };
  }
  return { steps: [{ type: 'slice', start: first, end: number(second), endDerived: false, step: number(third) }], end };
}

function parseQuote(text: string, start: number, quote: string): { value: string; end: number } {
  let pos = start + 1;
  for (;;) {
    const c = text[pos];
    if (c === undefined || c === '\n') throw new JsonPathError('unterminated quoted string');
    if (c === quote && text[pos - 1] !== '\\') break;
    pos++;
  }
  const body = text.slice(start + 1, pos);
  return { value: unquote(body), end: pos + 1 };
}

/** Go's escapes inside a quoted string (`\n`, `\t`, `\"`, `\\`, `\u00e9` …). */
function unquote(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    switch (e[0]) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'a': return '\x07';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'v': return '\v';
      case 'u': case 'x': return String.fromCodePoint(parseInt(e.slice(1), 16));
      default: return e;
    }
  });
}

function parseFilter(text: string, start: number): { step: Step; end: number } {
  let pos = start;
  let begin = false;
  let ended = false;
  let pair = '';
  for (;;) {
    const c = text[pos];
    if (c === undefined || c === '\n') throw new JsonPathError('unterminated filter');
    pos++;
    if (c === '"' || c === "'") {
      if (!begin) {
        begin = true;
        pair = c;
      } else if (text[pos - 2] !== '\\' && c === pair) {
        ended = true;
      }
    } else if (c === ')' && begin === ended) {
      break;
    }
  }
  if (text[pos] !== ']') throw new JsonPathError('unclosed array expect ]');
  const inner = text.slice(start, pos - 1);
  const end = pos + 1;
  const comparison = /^([^!<>=]+)([!<>=~]+)(.+?)$/.exec(inner);
  if (!comparison) return { step: { type: 'filter', left: parseAction(`${inner}}`, 0).steps, op: 'exists', right: [] }, end };
  return {
    step: { type: 'filter', left: parseAction(`${comparison[1]}}`, 0).steps, op: comparison[2]!, right: parseAction(`${comparison[3]}}`, 0).steps },
    end,
  };
}

// Evaluation

function render(parts: readonly Part[], data: JsonValue): string {
  let out = '';
  for (const part of parts) {
    if (part.type === 'text') out += part.text;
    else if (part.type === 'action') out += printResults(evaluate([data], part.steps));
    else if (part.type === 'stray-end') throw new JsonPathError('not in range, nothing to end');
    else for (const value of evaluate([data], part.steps)) out += render(part.body, value);
  }
  return out;
}

function evaluate(input: readonly JsonValue[], steps: readonly Step[]): JsonValue[] {
  let current = [...input];
  for (const step of steps) current = evalStep(current, step);
  return current;
}

const isObject = (v: JsonValue): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

function children(value: JsonValue): JsonValue[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return Object.keys(value).sort().map((k) => value[k]!);
  if (typeof value === 'string') return [...value];
  return [];
}

function evalStep(input: readonly JsonValue[], step: Step): JsonValue[] {
  switch (step.type) {
    case 'literal': return input.map(() => step.value);
    case 'field': {
      const out: JsonValue[] = [];
      for (const v of input) if (isObject(v) && Object.hasOwn(v, step.name)) out.push(v[step.name]!);
      return out;
    }
    case 'wildcard': return input.flatMap(children);
    case 'recursive': {
      const out: JsonValue[] = [];
      const visit = (values: readonly JsonValue[]) => {
        for (const v of values) {
          const kids = children(v);
          if (kids.length === 0) continue;
          out.push(v);
          visit(kids);
        }
      };
      visit(input);
      return out;
    }
    case 'union': return step.branches.flatMap((branch) => evaluate(input, branch));
    case 'slice': return input.flatMap((v) => sliceOf(v, step));
    case 'filter': return input.flatMap((v) => filterOf(v, step));
  }
}

function sliceOf(value: JsonValue, step: Extract<Step, { type: 'slice' }>): JsonValue[] {
  if (value === null) return [];
  if (!Array.isArray(value)) throw new JsonPathError(`${goTypeName(value)} is not array or slice`);
  const length = value.length;
  let start = step.start ?? 0;
  if (start < 0) start += length;
  let end = step.end ?? length;
  if (end < 0 || (end === 0 && step.endDerived)) end += length;
  if (end === start) return [];
  if (start >= length || start < 0) throw new JsonPathError(`array index out of bounds: index ${start}, length ${length}`);
  if (end > length || end < 0) throw new JsonPathError(`array index out of bounds: index ${end - 1}, length ${length}`);
  if (start > end) throw new JsonPathError(`starting index ${start} is greater than ending index ${end}`);
  const stride = step.step ?? 1;
  if (step.step !== null && stride <= 0) throw new JsonPathError('step must be > 0');
  const out: JsonValue[] = [];
  for (let i = start; i < end; i += stride) out.push(value[i]!);
  return out;
}

function filterOf(value: JsonValue, step: Extract<Step, { type: 'filter' }>): JsonValue[] {
  if (!Array.isArray(value)) throw new JsonPathError(`${goText(value)} is not array or slice and cannot be filtered`);
  const out: JsonValue[] = [];
  for (const element of value) {
    const lefts = evaluate([element], step.left);
    if (step.op === 'exists') {
      if (lefts.length > 0) out.push(element);
      continue;
    }
    if (lefts.length === 0) continue;
    if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
    const rights = evaluate([element], step.right);
    if (rights.length === 0) continue;
    if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
    if (compare(lefts[0]!, step.op, rights[0]!)) out.push(element);
  }
  return out;
}

function compare(left: JsonValue, op: string, right: JsonValue): boolean {
  switch (op) {
    case '==': return equal(left, right);
    case '!=': return !equal(left, right);
    case '=~': {
      if (typeof left !== 'string' || typeof right !== 'string') {
        throw new JsonPathError('regexp search only support string now');
      }
      return new RegExp(right).test(left);
    }
    case '<': case '>': case '<=': case '>=': {
      if (typeof left !== typeof right || (typeof left !== 'number' && typeof left !== 'string')) {
        throw new JsonPathError('incompatible types for comparison');
      }
      const l = left as number | string;
      const r = right as number | string;
      return op === '<' ? l < r : op === '>' ? l > r : op === '<=' ? l <= r : l >= r;
    }
    default: throw new JsonPathError(`unrecognized filter operator ${op}`);
  }
}

function equal(left: JsonValue, right: JsonValue): boolean {
  if (typeof left !== typeof right) {
    throw new JsonPathError('incompatible types for comparison');
  }
  return left === right;
}

/** One action's results: each as kubectl prints it, separated by spaces. */
function printResults(results: readonly JsonValue[]): string {
  return results.map((r) => (Array.isArray(r) || isObject(r) ? goJson(r) : goText(r))).join(' ');
}

/** fmt.Fprint of a scalar from an unstructured object. */
function goText(value: JsonValue): string {
  if (value === null) return '<nil>';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : goFloat(value);
  if (typeof value === 'object') return goJson(value);
  return String(value);
}

/** Go's %v of a float64: the shortest representation, exponent from 1e21 (and below 1e-4) as Go writes it. */
function goFloat(value: number): string {
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) {
    const [mantissa, exponent] = value.toExponential().split('e');
    const exp = Number(exponent);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(value);
}

function goTypeName(value: JsonValue): string {
  if (isObject(value)) return 'map[string]interface {}';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return 'bool';
}

/** encoding/json's Marshal of an unstructured value: compact, map keys sorted, <, > and & escaped. */
export function goJson(value: JsonValue): string {
  const sorted = (v: JsonValue): JsonValue => {
    if (Array.isArray(v)) return v.map(sorted);
    if (isObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k]!)]));
    return v;
  };
  return JSON.stringify(sorted(value))
    .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
