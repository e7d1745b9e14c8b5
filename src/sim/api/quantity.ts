// resource.Quantity: `500m`, `0.5`, `128Mi`, `1e3`. Parsed exactly (BigInt), rounded up to nano
// units, printed in Kubernetes' canonical form (`0.5` → `500m`, `1024Mi` → `1Gi`, `1000` → `1k`),
// keeping the input text where upstream keeps it. Requests and limits, node capacity and the
// scheduler's arithmetic all go through here.
// Models k8s.io/apimachinery/pkg/api/resource/quantity.go, amount.go and suffix.go.

import { fail, ok, type Result } from './result.ts';

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** The value is `unscaled × 10^scale`, exactly. */
export interface Quantity {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
  /** The text to print when upstream keeps the input verbatim (already canonical). */
  readonly text?: string;
}

export const quantityRegexp = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const errFormatWrong = `quantities must match the regular expression '${quantityRegexp}'`;
const errNumeric = 'unable to parse numeric part of quantity';
const errSuffix = "unable to parse quantity's suffix";

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const maxInt64 = 2n ** 63n - 1n;

interface Split {
  readonly positive: boolean;
  readonly num: string;
  readonly denom: string;
  readonly suffix: string;
}

/** parseQuantityString: sign, integer digits (leading zeros dropped), fraction, suffix. */
function splitQuantity(str: string): Split | undefined {
  let pos = 0;
  let positive = true;
  if (str[0] === '-' || str[0] === '+') {
    positive = str[0] === '+';
    pos++;
  }
  while (pos < str.length && str[pos] === '0') pos++;
  if (pos >= str.length) return { positive, num: '0', denom: '', suffix: '' };
  const numStart = pos;
  while (pos < str.length && /[0-9]/.test(str[pos]!)) pos++;
  const num = str.slice(numStart, pos) || '0';
  let denom = '';
  if (str[pos] === '.') {
    const denomStart = ++pos;
    while (pos < str.length && /[0-9]/.test(str[pos]!)) pos++;
    denom = str.slice(denomStart, pos);
  }
  const suffixStart = pos;
  while (pos < str.length && 'eEinumkKMGTP'.includes(str[pos]!)) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < str.length && /[0-9]/.test(str[pos]!)) pos++;
  if (pos < str.length) return undefined;
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  const dec = decimalSuffixes[suffix];
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = binarySuffixes[suffix];
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    return { base: 10, exponent: Number(suffix.slice(1)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** Rounds `unscaled × 10^scale` away from zero to at most `minScale` (e.g. −9 for nano). */
function roundUpToScale(unscaled: bigint, scale: number, minScale: number): [bigint, number] {
  if (scale >= minScale) return [unscaled, scale];
  const divisor = 10n ** BigInt(minScale - scale);
  const q = unscaled / divisor;
  const rounded = unscaled % divisor === 0n ? q : q + (unscaled < 0n ? -1n : 1n);
  return [rounded, minScale];
}

/** resource.ParseQuantity; the error texts are upstream's. */
export function parseQuantity(str: string): Result<Quantity> {
  if (str.length === 0) return fail(errFormatWrong);
  if (str === '0') return ok({ unscaled: 0n, scale: 0, format: 'DecimalSI', text: '0' });
  const split = splitQuantity(str);
  if (split === undefined) return fail(errFormatWrong);
  const interpreted = interpretSuffix(split.suffix);
  if (interpreted === undefined) return fail(errSuffix);
  const { base, exponent } = interpreted;
  let format = interpreted.format;
  if (!/^\d*$/.test(split.num + split.denom)) return fail(errNumeric);
  const digits = BigInt(split.num + split.denom);
  const sign = split.positive ? 1n : -1n;

  let unscaled: bigint;
  let scale: number;
  if (base === 10) {
    unscaled = sign * digits;
    scale = exponent - split.denom.length;
  } else {
    unscaled = sign * digits * 2n ** BigInt(exponent);
    scale = -split.denom.length;
  }
  [unscaled, scale] = roundUpToScale(unscaled, scale, -9);
  const abs = unscaled < 0n ? -unscaled : unscaled;
  if (format === 'BinarySI') {
    const capped = scale >= 0 ? abs * 10n ** BigInt(scale) : abs;
    if (scale >= 0 && capped > maxInt64) [unscaled, scale] = [sign * maxInt64, 0];
    if (compareToInt(unscaled, scale, 1n) < 0 && unscaled !== 0n && unscaled > 0n) format = 'DecimalSI';
  }
  const q: Quantity = { unscaled, scale, format };
  return ok(keepsText(str, split, interpreted) ? { ...q, text: str } : q);
}

/** Whether upstream's int64 fast path keeps the input string as the quantity's text. */
function keepsText(str: string, s: Split, i: { base: 2 | 10; exponent: number; format: QuantityFormat }): boolean {
  const shifted = s.num + s.denom;
  if (i.format === 'BinarySI') {
    if (i.exponent < 0 || s.denom.length > 0) return false;
    const precision = 15 - s.num.length - Math.trunc((i.exponent * 3) / 10) - 1;
    const value = BigInt(s.num);
    if (precision < 0 || value > maxInt64 || value << BigInt(i.exponent) > maxInt64) return false;
    return i.exponent % 10 === 0 && (value & 7n) !== 0n;
  }
  const precision = 18 - (s.num.length + s.denom.length);
  const scale = i.exponent - s.denom.length;
  if (precision < 0 || scale < -9 || BigInt(shifted) > maxInt64) return false;
  return scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0' && str !== '';
}

/** Compares `unscaled × 10^scale` with an integer. */
function compareToInt(unscaled: bigint, scale: number, n: bigint): number {
  const [a, b] = scale >= 0 ? [unscaled * 10n ** BigInt(scale), n] : [unscaled, n * 10n ** BigInt(-scale)];
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `q1 − q2` sign: −1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const scale = Math.min(a.scale, b.scale);
  const x = a.unscaled * 10n ** BigInt(a.scale - scale);
  const y = b.unscaled * 10n ** BigInt(b.scale - scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

function removeFactors(value: bigint, factor: bigint): [bigint, number] {
  let times = 0;
  while (value !== 0n && value % factor === 0n) {
    value /= factor;
    times++;
  }
  return [value, times];
}

const decimalSuffixFor: ReadonlyMap<number, string> = new Map(Object.entries(decimalSuffixes).map(([k, v]) => [v, k]));
const binarySuffixFor: ReadonlyMap<number, string> = new Map(Object.entries(binarySuffixes).map(([k, v]) => [v / 10, k]));

/** The canonical text (Quantity.String / MarshalJSON). */
export function quantityString(q: Quantity): string {
  if (q.text !== undefined) return q.text;
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const small = compareToInt(q.unscaled, q.scale, -1024n) > 0 && compareToInt(q.unscaled, q.scale, 1024n) < 0;
    const integral = q.scale >= 0 || q.unscaled % 10n ** BigInt(-q.scale) === 0n;
    if (small || !integral) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    const integer = q.scale >= 0 ? q.unscaled * 10n ** BigInt(q.scale) : q.unscaled / 10n ** BigInt(-q.scale);
    const [amount, exponent] = removeFactors(integer, 1024n);
    return `${amount}${binarySuffixFor.get(exponent) ?? ''}`;
  }
  const [withoutTens, times] = removeFactors(q.unscaled, 10n);
  let amount = withoutTens;
  let exponent = q.scale + times;
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  return `${amount}${decimalSuffixFor.get(exponent) ?? ''}`;
}

/** Canonicalizes quantity text; `undefined` when it does not parse. */
export function canonicalQuantity(text: string): string | undefined {
  const q = parseQuantity(text);
  return q.ok ? quantityString(q.value) : undefined;
}

/** Quantity.RoundUp(scale): rounds away from zero to 10^scale, dropping kept text when it changes precision. */
export function roundUpQuantity(q: Quantity, scale: number): Quantity {
  if (q.scale >= scale && q.text !== undefined) return q;
  const [unscaled, s] = roundUpToScale(q.unscaled, q.scale, scale);
  return { unscaled, scale: s, format: q.format };
}

/** Value rounded up to an integer (Quantity.Value). */
export function quantityValue(q: Quantity): bigint {
  return roundUpToScale(q.unscaled, q.scale, 0)[0] * 10n ** BigInt(Math.max(q.scale, 0));
}

/** Value in thousandths, rounded up (Quantity.MilliValue): `500m` → 500, `1` → 1000. */
export function quantityMilliValue(q: Quantity): bigint {
  const [unscaled, scale] = roundUpToScale(q.unscaled, q.scale, -3);
  return unscaled * 10n ** BigInt(scale + 3);
}
