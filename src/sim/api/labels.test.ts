import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldPath } from './field.ts';
import {
  formatLabels, formatLabelSelector, labelSelectorAsSelector, labelSelectorString, matchesLabels, parseLabelSelector,
  requiresExactMatch, selectorFromSet, type Selector,
} from './labels.ts';
import { validateLabelSelector } from './validation/meta-v1.ts';

function parse(s: string): Selector {
  const r = parseLabelSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

function parseError(s: string): string {
  const r = parseLabelSelector(s);
  if (r.ok) throw new Error(`${s} parsed`);
  return r.error;
}

const labelValueMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector', () => {
  // Good strings from apimachinery labels/selector_test.go TestSelectorParse: they re-print without spaces.
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])('parses %j', (s) => {
    expect(labelSelectorString(parse(s))).toBe(s.replace(/ /g, ''));
  });

  it('sorts requirements by key and values within sets', () => {
    expect(labelSelectorString(parse('x=a,a=x'))).toBe('a=x,x=a');
    expect(labelSelectorString(parse('env in (prod, dev,dev), tier notin (db),!legacy,app'))).toBe('app,env in (dev,prod),!legacy,tier notin (db)');
    expect(parse('x in (a)').requirements).toEqual([{ key: 'x', operator: 'in', values: ['a'] }]);
    expect(parse('x in (,a)').requirements[0]!.values).toEqual(['', 'a']);
    expect(parse('x in ()').requirements[0]!.values).toEqual(['']);
    expect(parse('x==a').requirements[0]!.operator).toBe('==');
  });

  it.each([
    // selector_test.go TestParseOperator-style texts.
    ['x ! a', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['x (', "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"],
    ['x=a||y=b', "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": " + labelValueMsg],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x<a', "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (=', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x in (,=', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['x,', "found '', expected: identifier after ','"],
    [',x', "found ',', expected: !, identifier, or 'end of string'"],
    ['a!', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b!', "found '!', expected: ',' or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['App Name=x', "unable to parse requirement: found 'Name', expected: in, notin, =, ==, !=, gt, lt"],
    ['-x=a', "unable to parse requirement: <nil>: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"],
  ])('rejects %j', (s, message) => {
    expect(parseError(s)).toBe(message);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'ab =!(),<>1in -/.'.split('')), maxLength: 30 }), (s) => {
      const r = parseLabelSelector(s);
      if (r.ok) {
        // What parses re-parses to the same selector.
        expect(parseLabelSelector(labelSelectorString(r.value))).toEqual(r);
      }
    }));
  });
});

describe('matchesLabels', () => {
  // Cases from selector_test.go TestSelectorMatches.
  it.each([
    ['', { x: 'y' }, true], ['x=y', { x: 'y' }, true], ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true], ['notin=in', { notin: 'in' }, true], ['x', { x: 'z' }, true],
    ['!x', { y: 'z' }, true], ['x>1', { x: '2' }, true], ['x<1', { x: '0' }, true],
    ['x=z', {}, false], ['x=y', { x: 'z' }, false], ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false], ['x', { y: 'z' }, false], ['!x', { x: 'z' }, false],
    ['x>1', { x: '0' }, false], ['x<1', { x: '2' }, false], ['x in (a,b)', { x: 'b' }, true],
    ['x notin (a,b)', {}, true], ['x notin (a,b)', { x: 'a' }, false], ['x>1', { x: 'abc' }, false],
  ])('%j on %j → %s', (s, labels, expected) => {
    expect(matchesLabels(parse(s), labels)).toBe(expected);
  });
});

describe('LabelSelector conversion', () => {
  it('maps nil to nothing and {} to everything', () => {
    const nil = labelSelectorAsSelector(null);
    const empty = labelSelectorAsSelector({});
    expect(nil.ok && matchesLabels(nil.value, { a: 'b' })).toBe(false);
    expect(empty.ok && matchesLabels(empty.value, { a: 'b' })).toBe(true);
  });

  it('converts matchLabels and matchExpressions', () => {
    const r = labelSelectorAsSelector({ matchLabels: { app: 'nginx' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }, { key: 'canary', operator: 'DoesNotExist' }] });
    expect(r.ok && labelSelectorString(r.value)).toBe('app=nginx,!canary,tier in (api,web)');
    expect(r.ok && matchesLabels(r.value, { app: 'nginx', tier: 'web' })).toBe(true);
    expect(r.ok && matchesLabels(r.value, { app: 'nginx', tier: 'web', canary: '' })).toBe(false);
  });

  it('reports conversion errors as upstream words them', () => {
    expect(labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Equals' as 'In' }] }))
      .toEqual({ ok: false, error: '"Equals" is not a valid label selector operator' });
    expect(labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In' }] }))
      .toEqual({ ok: false, error: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty" });
    expect(labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }))
      .toEqual({ ok: false, error: 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist' });
  });

  it('formats selectors and label sets for printers', () => {
    expect(formatLabelSelector({ matchLabels: { app: 'nginx', 'pod-template-hash': '7c5ddbdf54' } })).toBe('app=nginx,pod-template-hash=7c5ddbdf54');
    expect(formatLabelSelector({})).toBe('<none>');
    expect(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Bad' as 'In' }] })).toBe('<error>');
    expect(formatLabels({ b: '2', a: '1' })).toBe('a=1,b=2');
    expect(formatLabels(undefined)).toBe('<none>');
  });

  it('finds exact-match requirements and builds selectors from sets', () => {
    expect(requiresExactMatch(parse('app=nginx,tier!=db'), 'app')).toBe('nginx');
    expect(requiresExactMatch(parse('tier!=db'), 'tier')).toBeUndefined();
    expect(labelSelectorString(selectorFromSet({ b: '2', a: '1' }))).toBe('a=1,b=2');
  });

  it('validates LabelSelectors field by field', () => {
    const errs = validateLabelSelector({
      matchLabels: { 'bad key!': 'v' },
      matchExpressions: [{ key: 'k', operator: 'In' }, { key: 'k', operator: 'Exists', values: ['a'] }, { key: 'k', operator: 'Gt' as 'In', values: ['1'] }],
    }, FieldPath.of('spec', 'selector'));
    expect(errs.map((e) => `${e.field}: ${e.type}: ${e.detail}`)).toEqual([
      "spec.selector.matchLabels: FieldValueInvalid: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.selector.matchExpressions[0].values: FieldValueRequired: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: FieldValueForbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].operator: FieldValueInvalid: not a valid selector operator',
    ]);
  });
});
