// Syntax checks for names, labels and other identifiers, returning Kubernetes' exact messages
// (including the regex text it prints). Each returns the list of problems, empty when valid.
// Lengths are counted in UTF-8 bytes, as Go's len() does.
// Models k8s.io/apimachinery/pkg/util/validation/validation.go, pkg/api/validation/generic.go and
// pkg/api/validation/path/name.go.

import { utf8Length } from '../../go/strconv.ts';
import { fieldError, type FieldError, type FieldPath } from '../field.ts';

/** `must be no more than N characters`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/**
 * `<msg> (e.g. 'my-name',  or '123-abc', regex used for validation is '<fmt>')`; the double space
 * before `or` is upstream's.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

/** `must be between lo and hi, inclusive`. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const qualifiedNameMaxLength = 63;
const qualifiedNameRegexp = new RegExp(`^${qualifiedNameFmt}$`);

/** A label key or annotation key: `[prefix/]name` with a DNS-1123 subdomain prefix. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part ' + emptyError());
    else for (const msg of isDNS1123Subdomain(prefix)) errs.push('prefix part ' + msg);
  } else {
    return ['a qualified name ' + regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')
      + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push('name part ' + emptyError());
  else if (utf8Length(name) > qualifiedNameMaxLength) errs.push('name part ' + maxLenError(qualifiedNameMaxLength));
  if (!qualifiedNameRegexp.test(name)) {
    errs.push('name part ' + regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc'));
  }
  return errs;
}

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const labelValueMaxLength = 63;
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRegexp.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const dns1123LabelMaxLength = 63;
const dns1123LabelRegexp = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrorMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const dns1123SubdomainMaxLength = 253;
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);

/** RFC 1123 label: namespace names, container names, port names' cousins. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1123LabelRegexp.test(value)) {
    // A valid subdomain that is not a valid label (length already checked) must contain dots.
    if (dns1123SubdomainRegexp.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

/** RFC 1123 subdomain: most object names (pods, deployments, configmaps…). */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexp.test(value)) errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
export const dns1035LabelMaxLength = 63;
const dns1035LabelRegexp = new RegExp(`^${dns1035LabelFmt}$`);

/** RFC 1035 label: service names. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > dns1035LabelMaxLength) errs.push(maxLenError(dns1035LabelMaxLength));
  if (!dns1035LabelRegexp.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/** A non-zero TCP/UDP port. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** An IANA_SVC_NAME: ≤ 15 chars of `[-a-z0-9]`, at least one letter, no `--`, no leading/trailing `-`. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (utf8Length(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

const percentFmt = '[0-9]+%';
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";

/** `25%`-style strings (intstr percentages). */
export function isValidPercent(percent: string): string[] {
  return new RegExp(`^${percentFmt}$`).test(percent) ? [] : [regexError(percentErrMsg, percentFmt, '1%', '93%')];
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameFmtErrMsg = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!new RegExp(`^${envVarNameFmt}$`).test(value)) {
    errs.push(regexError(envVarNameFmtErrMsg, envVarNameFmt, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  }
  return [...errs, ...hasChDirPrefix(value)];
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

/** A ConfigMap (or Secret) data key. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!new RegExp(`^${configMapKeyFmt}$`).test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  return [...errs, ...hasChDirPrefix(value)];
}

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** IPv4 dotted quads (leading zeros accepted, as ParseIPSloppy does) and IPv6 addresses. */
export function isValidIP(value: string): string[] {
  const sloppyV4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(value) && value.split('.').every((o) => Number(o) <= 255);
  return sloppyV4 || ipv4.test(value) || isIPv6(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

function isIPv6(value: string): boolean {
  if (!value.includes(':')) return false;
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const all = halves.flatMap(groups);
  let count = all.length;
  const last = all[all.length - 1];
  if (last !== undefined && last.includes('.')) {
    if (!ipv4.test(last)) return false;
    count += 1;
    all.pop();
  }
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? count < 8 : count === 8;
}

/**
 * How a resource's names are checked (`ValidateNameFunc`). With `prefix` the value is a generateName
 * base, so a trailing `-` is allowed.
 */
export type NameValidator = (name: string, prefix: boolean) => string[];

/**
 * Replaces a trailing `-` so a generateName base validates. Upstream drops the last two characters
 * before appending `a`; that quirk is kept because it decides which bases are accepted.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, name.length - 2) + 'a' : name;
}

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** Names usable as a URL path segment (RBAC objects, and the check every name also passes). */
export const validatePathSegmentName: NameValidator = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
};

export const validateNamespaceName = nameIsDNSLabel;

/** `must be greater than or equal to 0`. */
export const isNegativeErrorMsg = 'must be greater than or equal to 0';
/** `field is immutable`. */
export const fieldImmutableErrorMsg = 'field is immutable';

/** ValidateDNS1123Label: a field holding a DNS-1123 label. */
export function validateDNS1123Label(value: string, path: FieldPath): FieldError[] {
  return isDNS1123Label(value).map((msg) => fieldError.invalid(path, value, msg));
}

/** ValidateNonnegativeField: unset counts as zero. */
export function validateNonnegativeField(value: number | undefined, path: FieldPath): FieldError[] {
  return (value ?? 0) < 0 ? [fieldError.invalid(path, value ?? 0, isNegativeErrorMsg)] : [];
}
