import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isConfigMapKey, isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isEnvVarName, isQualifiedName, isValidIP,
  isValidLabelValue, isValidPercent, isValidPortName, isValidPortNum, nameIsDNSSubdomain, validatePathSegmentName,
} from './names.ts';

// Texts as upstream prints them, e.g. pkg/apis/core/validation/validation_test.go (line ~20138):
// "name part must consist of … (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '…')".
const qualifiedNamePart = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const labelValue = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('DNS names', () => {
  it.each(['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '0-a', 'a.b', '1.2.3.4', 'a'.repeat(253)])('%s is a subdomain', (v) => {
    expect(isDNS1123Subdomain(v)).toEqual([]);
  });
  it.each(['', 'A', 'ABC', 'aBc', 'A1', 'a_b', '-1', 'a-', 'a..b', '.a', 'a.', '_a'])('%j is not a subdomain', (v) => {
    expect(isDNS1123Subdomain(v)).toEqual([subdomain]);
  });
  it('limits subdomains to 253 characters', () => {
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });

  it('says labels must not contain dots when the value is a subdomain', () => {
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('Nginx')).toEqual([label]);
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isDNS1123Label('default')).toEqual([]);
  });

  it('requires DNS-1035 labels to start with a letter', () => {
    expect(isDNS1035Label('my-svc')).toEqual([]);
    expect(isDNS1035Label('1svc')).toEqual(["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]);
  });

  it('masks a trailing dash of generateName bases as upstream does (drops two characters)', () => {
    expect(nameIsDNSSubdomain('nginx-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('nginx-', false)).toEqual([subdomain]);
    // "a-" masks to "a": fine. "-" alone is not masked.
    expect(nameIsDNSSubdomain('-', true)).toEqual([subdomain]);
  });

  it('rejects path-unsafe names', () => {
    expect(validatePathSegmentName('..', false)).toEqual(["may not be '..'"]);
    expect(validatePathSegmentName('a/b%c', false)).toEqual(["may not contain '/'", "may not contain '%'"]);
    expect(validatePathSegmentName('..', true)).toEqual([]);
  });
});

describe('qualified names and label values', () => {
  it.each(['simple', 'now-with-dashes', '1-starts-with-num', '1234', 'simple/simple', 'now-with-dashes/simple',
    'now-with-dashes/now-with-dashes', 'now.with.dots/simple', 'now-with.dashes-and.dots/simple', '1-num.2-num/3-num',
    '1234/5678', '1.2.3.4/5678', 'Uppercase_Is_OK_123', 'example.com/Uppercase_Is_OK_123', 'requests.storage-foo',
    'a'.repeat(63), 'a'.repeat(253) + '/' + 'b'.repeat(63)])('%s is a qualified name', (v) => {
    // Valid values from apimachinery util/validation/validation_test.go TestIsQualifiedName.
    expect(isQualifiedName(v)).toEqual([]);
  });

  it.each([
    ['nospecialchars%^=@', [qualifiedNamePart]],
    ['cantendwithadash-', [qualifiedNamePart]],
    ['-cantstartwithadash-', [qualifiedNamePart]],
    ['/simple', ['prefix part must be non-empty']],
    ['example.com/', ['name part must be non-empty', qualifiedNamePart]],
    ['Example.com/abc', ['prefix part ' + subdomain]],
    ['a/b/c', ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
  ])('%s is not a qualified name', (v, errs) => {
    expect(isQualifiedName(v)).toEqual(errs);
  });

  it('accepts empty and well-formed label values only', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('nginx')).toEqual([]);
    expect(isValidLabelValue('1.2.3')).toEqual([]);
    expect(isValidLabelValue('-x')).toEqual([labelValue]);
    expect(isValidLabelValue('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isValidLabelValue('é')).toEqual([labelValue]);
  });

  it('agrees with the upstream regexes on random strings', () => {
    const re = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'ab0-._A'.split('')), maxLength: 20 }), (s) => {
      expect(isDNS1123Subdomain(s).length === 0).toBe(re.test(s));
    }));
  });
});

describe('other identifiers', () => {
  it('checks port numbers and names', () => {
    expect(isValidPortNum(80)).toEqual([]);
    expect(isValidPortNum(0)).toEqual(['must be between 1 and 65535, inclusive']);
    expect(isValidPortNum(65536)).toEqual(['must be between 1 and 65535, inclusive']);
    expect(isValidPortName('http')).toEqual([]);
    expect(isValidPortName('a-b-c-d-e-f-g-h-i')).toEqual(['must be no more than 15 characters']);
    expect(isValidPortName('Http')).toEqual(['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']);
    expect(isValidPortName('123')).toEqual(['must contain at least one letter (a-z)']);
    expect(isValidPortName('a--b')).toEqual(['must not contain consecutive hyphens']);
    expect(isValidPortName('-ab')).toEqual(['must not begin or end with a hyphen']);
  });

  it('checks percent strings, env var names and config keys', () => {
    expect(isValidPercent('25%')).toEqual([]);
    expect(isValidPercent('25')).toEqual(["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]);
    expect(isEnvVarName('MY_VAR')).toEqual([]);
    expect(isEnvVarName('..x')).toEqual(["must not start with '..'"]);
    expect(isEnvVarName('1x')).toHaveLength(1);
    expect(isConfigMapKey('key.name')).toEqual([]);
    expect(isConfigMapKey('a b')).toEqual(["a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]);
  });

  it('checks IP addresses', () => {
    expect(isValidIP('10.244.0.5')).toEqual([]);
    expect(isValidIP('2001:db8::ffff')).toEqual([]);
    expect(isValidIP('::1')).toEqual([]);
    expect(isValidIP('::ffff:1.2.3.4')).toEqual([]);
    expect(isValidIP('1.2.3.256')).toEqual(['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
    expect(isValidIP('node-1')).toHaveLength(1);
    expect(isValidIP('1:2:3')).toHaveLength(1);
  });
});
