// Label selectors: the string syntax of `?labelSelector=` and `kubectl -l` (`app=nginx,tier!=db`,
// `env in (a,b)`, `!legacy`), matching against an object's labels, conversion from the LabelSelector
// API type (matchLabels/matchExpressions). Parse errors are Kubernetes'
// texts, e.g. `unable to parse requirement: found '(', expected: identifier`.
// Models k8s.io/apimachinery/pkg/labels/selector.go and labels.go, pkg/apis/meta/v1/helpers.go
// (LabelSelectorAsSelector, FormatLabelSelector); the LabelSelector type's field validation is
// validation/meta-v1.ts.

import { aggregateFieldErrors, FieldPath, fieldError, fieldErrorString, goStringSlice, type FieldError, type GoSyntax } from './field.ts';
import { fail, ok, type Result } from './result.ts';
import { goQuote } from '../go/strconv.ts';
import type { LabelSelector } from './types/meta.ts';
import { isQualifiedName, isValidLabelValue } from './validation/names.ts';

/** selection.Operator values. */
export type SelectorOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  readonly values: readonly string[];
}

/**
 * A parsed selector: all requirements must match (sorted by key). `nothing` is the selector a nil
 * LabelSelector converts to, which matches no object; an empty list matches every object.
 */
export interface Selector {
  readonly requirements: readonly Requirement[];
  readonly nothing?: true;
}

export const everything: Selector = { requirements: [] };
export const nothing: Selector = { requirements: [], nothing: true };

/** The operators a `<key> <op> <value>` term may use, in upstream's order (for the error text). */
const binaryOperators: readonly SelectorOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const validRequirementOperators: readonly SelectorOperator[] = [...binaryOperators, 'exists', '!'];

/** Go's `%#v` of a string slice, distinguishing nil (`[]string(nil)`) from empty. */
function goSlice(values: readonly string[] | undefined): GoSyntax {
  return values === undefined ? { goSyntax: '[]string(nil)' } : goStringSlice(values);
}

function validateLabelKey(key: string, path: FieldPath | undefined): FieldError | undefined {
  const errs = isQualifiedName(key);
  if (errs.length === 0) return undefined;
  // Upstream's parser validates keys against a nil *field.Path, which prints as "<nil>".
  return path === undefined
    ? { type: 'FieldValueInvalid', field: '<nil>', badValue: key, detail: errs.join('; ') }
    : fieldError.invalid(path, key, errs.join('; '));
}

/**
 * labels.NewRequirement: checks the key, the value count for the operator and each value. `values`
 * undefined stands for a nil Go slice (it only changes how an empty list is printed).
 */
export function newRequirement(key: string, operator: SelectorOperator, values: readonly string[] | undefined): Result<Requirement> {
  const errs: FieldError[] = [];
  const keyErr = validateLabelKey(key, FieldPath.of('key'));
  if (keyErr !== undefined) errs.push(keyErr);
  const vals = values ?? [];
  const valuePath = FieldPath.of('values');
  switch (operator) {
    case 'in': case 'notin':
      if (vals.length === 0) errs.push(fieldError.invalid(valuePath, goSlice(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=': case '==': case '!=':
      if (vals.length !== 1) errs.push(fieldError.invalid(valuePath, goSlice(values), 'exact-match compatibility requires one single value'));
      break;
    case 'exists': case '!':
      if (vals.length !== 0) errs.push(fieldError.invalid(valuePath, goSlice(values), 'values set must be empty for exists and does not exist'));
      break;
    case 'gt': case 'lt':
      if (vals.length !== 1) errs.push(fieldError.invalid(valuePath, goSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseGoInt64(v) === undefined) errs.push(fieldError.invalid(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(fieldError.notSupported(FieldPath.of('operator'), operator, validRequirementOperators));
  }
  vals.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(fieldError.invalid(valuePath.index(i).key(key), v, msgs.join('; ')));
  });
  const message = aggregateFieldErrors(errs);
  return message === undefined ? ok({ key, operator, values: [...vals] }) : fail(message);
}

/** strconv.ParseInt(s, 10, 64). */
function parseGoInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

// ---- Lexer and parser -------------------------------------------------------------------------

type Token = 'end' | 'identifier' | ')' | ',' | '!' | '==' | '=' | '>' | 'in' | '<' | '!=' | 'notin' | '(';

const literalTokens: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', ')'], [',', ','], ['!', '!'], ['==', '=='], ['=', '='], ['>', '>'], ['in', 'in'], ['<', '<'],
  ['!=', '!='], ['notin', 'notin'], ['(', '('],
]);

interface Scanned {
  readonly tok: Token;
  readonly lit: string;
}

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch);

/** Splits a selector into tokens; a NUL character ends the input, as in upstream's byte lexer. */
function scan(input: string): Scanned[] {
  const s = input.includes('\0') ? input.slice(0, input.indexOf('\0')) : input;
  const items: Scanned[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos]!)) pos++;
    if (pos >= s.length) {
      items.push({ tok: 'end', lit: '' });
      return items;
    }
    if (isSpecialSymbol(s[pos]!)) {
      // The longest run of special symbols that is still a token: `!=` rather than `!` then `=`.
      let last: Scanned | undefined;
      let buffer = '';
      while (pos < s.length && isSpecialSymbol(s[pos]!)) {
        buffer += s[pos];
        const tok = literalTokens.get(buffer);
        if (tok !== undefined) last = { tok, lit: buffer };
        else if (last !== undefined) break;
        pos++;
      }
      items.push(last!);
    } else {
      let buffer = '';
      while (pos < s.length && !isSpecialSymbol(s[pos]!) && !isWhitespace(s[pos]!)) buffer += s[pos++];
      items.push({ tok: literalTokens.get(buffer) ?? 'identifier', lit: buffer });
    }
  }
}

class ParseError extends Error {}

/** Recursive-descent parser over the scanned tokens; `in`/`notin` read as identifiers where values are expected. */
class Parser {
  private position = 0;
  constructor(private readonly items: readonly Scanned[]) {}

  private lookahead(values: boolean): Scanned {
    return this.asContext(this.items[this.position]!, values);
  }

  private consume(values: boolean): Scanned {
    return this.asContext(this.items[this.position++]!, values);
  }

  private asContext(item: Scanned, values: boolean): Scanned {
    return values && (item.tok === 'in' || item.tok === 'notin') ? { tok: 'identifier', lit: item.lit } : item;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(true);
      if (tok === 'identifier' || tok === '!') {
        let r: Requirement;
        try {
          r = this.parseRequirement();
        } catch (e) {
          throw new ParseError(`unable to parse requirement: ${(e as Error).message}`);
        }
        requirements.push(r);
        const next = this.consume(true);
        if (next.tok === 'end') return requirements;
        if (next.tok === ',') {
          const after = this.lookahead(true);
          if (after.tok !== 'identifier' && after.tok !== '!') throw new ParseError(`found '${after.lit}', expected: identifier after ','`);
        } else {
          throw new ParseError(`found '${next.lit}', expected: ',' or 'end of string'`);
        }
      } else if (tok === 'end') {
        return requirements;
      } else {
        throw new ParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Requirement {
    let operator: SelectorOperator | undefined;
    let { tok, lit: key } = this.consume(true);
    if (tok === '!') {
      operator = '!';
      ({ tok, lit: key } = this.consume(true));
    }
    if (tok !== 'identifier') throw new ParseError(`found '${key}', expected: identifier`);
    const keyErr = validateLabelKey(key, undefined);
    if (keyErr !== undefined) throw new ParseError(fieldErrorString(keyErr));
    const next = this.lookahead(true).tok;
    if (operator === undefined && (next === 'end' || next === ',')) operator = 'exists';
    if (operator === 'exists' || operator === '!') return this.requirement(key, operator, []);

    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return this.requirement(key, op, [...new Set(values)].sort());
  }

  private requirement(key: string, operator: SelectorOperator, values: string[]): Requirement {
    const r = newRequirement(key, operator, values);
    if (!r.ok) throw new ParseError(r.error);
    return r.value;
  }

  private parseOperator(): SelectorOperator {
    const { tok, lit } = this.consume(false);
    const ops: Partial<Record<Token, SelectorOperator>> = { in: 'in', '=': '=', '==': '==', '>': 'gt', '<': 'lt', notin: 'notin', '!=': '!=' };
    const op = ops[tok];
    if (op === undefined) throw new ParseError(`found '${lit}', expected: ${binaryOperators.join(', ')}`);
    return op;
  }

  private parseValues(): string[] {
    const open = this.consume(true);
    if (open.tok !== '(') throw new ParseError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(true);
    if (tok === 'identifier' || tok === ',') {
      const values = this.parseIdentifiersList();
      // Upstream reports the token seen before the list, not the one that failed.
      if (this.consume(true).tok !== ')') throw new ParseError(`found '${lit}', expected: ')'`);
      return values;
    }
    if (tok === ')') {
      this.consume(true);
      return [''];
    }
    throw new ParseError(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): string[] {
    const values: string[] = [];
    for (;;) {
      const { tok, lit } = this.consume(true);
      if (tok === 'identifier') {
        values.push(lit);
        const next = this.lookahead(true);
        if (next.tok === ',') continue;
        if (next.tok === ')') return values;
        throw new ParseError(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        if (values.length === 0) values.push('');
        const next = this.lookahead(true).tok;
        if (next === ')') {
          values.push('');
          return values;
        }
        if (next === ',') {
          this.consume(true);
          values.push('');
        }
      } else {
        throw new ParseError(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const next = this.lookahead(true).tok;
    if (next === 'end' || next === ',') return [''];
    const { tok, lit } = this.consume(true);
    if (tok === 'identifier') return [lit];
    throw new ParseError(`found '${lit}', expected: identifier`);
  }
}

/** labels.Parse: the selector, or the error text the apiserver answers with 400 BadRequest. */
export function parseLabelSelector(selector: string): Result<Selector> {
  try {
    const requirements = new Parser(scan(selector)).parse();
    return ok({ requirements: stableSortByKey(requirements) });
  } catch (e) {
    if (e instanceof ParseError) return fail(e.message);
    throw e;
  }
}

function stableSortByKey(requirements: Requirement[]): Requirement[] {
  return requirements.map((r, i) => [r, i] as const)
    .sort(([a, i], [b, j]) => (a.key < b.key ? -1 : a.key > b.key ? 1 : i - j))
    .map(([r]) => r);
}

function requirementMatches(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key]! : '';
  switch (r.operator) {
    case 'in': case '=': case '==':
      return has && r.values.includes(value);
    case 'notin': case '!=':
      return !has || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt': case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const actual = parseGoInt64(value);
      const bound = parseGoInt64(r.values[0]!);
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

/** Whether an object with these labels is selected. */
export function matchesLabels(selector: Selector, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (selector.nothing) return false;
  // A plain loop: controllers match every pod of a namespace against their selector on every sync.
  const set = labels ?? {};
  for (const r of selector.requirements) if (!requirementMatches(r, set)) return false;
  return true;
}

function requirementString(r: Requirement): string {
  const key = r.operator === '!' ? `!${r.key}` : r.key;
  if (r.operator === 'exists' || r.operator === '!') return key;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  switch (r.operator) {
    case 'in': return `${key} in (${values})`;
    case 'notin': return `${key} notin (${values})`;
    case 'gt': return `${key}>${values}`;
    case 'lt': return `${key}<${values}`;
    default: return `${key}${r.operator}${values}`;
  }
}

/** The selector's canonical string (`app=nginx,tier in (a,b)`); `''` for everything and nothing. */
export function labelSelectorString(selector: Selector): string {
  return selector.requirements.map(requirementString).join(',');
}

/** A selector matching exactly these labels (`labels.SelectorFromSet`), without validation. */
export function selectorFromSet(set: Readonly<Record<string, string>>): Selector {
  const requirements = Object.keys(set).sort().map((key): Requirement => ({ key, operator: '=', values: [set[key]!] }));
  return { requirements };
}

/** The value the selector requires `key` to equal, if it does (`=`, `==` or a one-value `in`). */
export function requiresExactMatch(selector: Selector, key: string): string | undefined {
  for (const r of selector.requirements) {
    if (r.key !== key) continue;
    if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
    return undefined;
  }
  return undefined;
}

const expressionOperators: Readonly<Record<string, SelectorOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector: null/undefined selects nothing, `{}` selects everything, otherwise
 * matchLabels as `=` and matchExpressions with their operators.
 */
export function labelSelectorAsSelector(ls: LabelSelector | null | undefined): Result<Selector> {
  if (ls === null || ls === undefined) return ok(nothing);
  const matchLabels = ls.matchLabels ?? {};
  const expressions = ls.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + expressions.length === 0) return ok(everything);
  const requirements: Requirement[] = [];
  for (const [k, v] of Object.entries(matchLabels)) {
    const r = newRequirement(k, '=', [v]);
    if (!r.ok) return r;
    requirements.push(r.value);
  }
  for (const expr of expressions) {
    const op = expressionOperators[expr.operator];
    if (op === undefined) return fail(`${goQuote(expr.operator)} is not a valid label selector operator`);
    const r = newRequirement(expr.key, op, expr.values);
    if (!r.ok) return r;
    requirements.push(r.value);
  }
  return ok({ requirements: stableSortByKey(requirements) });
}

/** metav1.FormatLabelSelector: the selector string, `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(ls: LabelSelector | null | undefined): string {
  const s = labelSelectorAsSelector(ls);
  if (!s.ok) return '<error>';
  const text = labelSelectorString(s.value);
  return text === '' ? '<none>' : text;
}

/** labels.FormatLabels: `a=b,c=d` sorted, `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const text = Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`).sort().join(',');
  return text === '' ? '<none>' : text;
}
