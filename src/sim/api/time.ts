// Timestamps as Kubernetes serializes them, computed from epoch milliseconds without Date.
// metav1.Time is RFC 3339 in UTC with whole seconds (`2023-08-15T00:00:05Z`); metav1.MicroTime has
// exactly six fractional digits (`2023-08-15T00:00:05.123456Z`). Simulation code turns virtual time
// into epoch milliseconds as `epochMs + now` (see src/sim/engine/time.ts).
// Models k8s.io/apimachinery/pkg/apis/meta/v1/time.go and micro_time.go.

import { civilFromDays } from '../engine/time.ts';
import { remembered } from './remembered.ts';

/** [year, month 1–12, day] → days since 1970-01-01 (Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * The date and time parts of a timestamp as one flat string. Every timestamp here is built with `join`,
 * which makes a single string, where `+` and template literals make a rope of every piece that V8 keeps as
 * long as the timestamp lives (about 500 bytes instead of 60, and objects, the audit log and the trace keep many).
 */
const dateTime = remembered(dateTimeUncached);

function dateTimeUncached(wholeSeconds: number): string {
  const days = Math.floor(wholeSeconds / 86_400);
  const secs = wholeSeconds - days * 86_400;
  const [y, mo, d] = civilFromDays(days);
  return [pad(y, 4), '-', pad(mo), '-', pad(d), 'T', pad(Math.floor(secs / 3600)), ':', pad(Math.floor(secs / 60) % 60), ':', pad(secs % 60)].join('');
}

/** metav1.Time: `2023-08-15T00:00:05Z`, sub-second part truncated. */
export function formatTimestamp(epochMs: number): string {
  return [dateTime(Math.floor(epochMs / 1000)), 'Z'].join('');
}

/** metav1.MicroTime: `2023-08-15T00:00:05.123456Z`, truncated to whole microseconds. */
export function formatMicroTimestamp(epochMs: number): string {
  const micros = Math.floor(Math.round(epochMs * 1000 * 1000) / 1000);
  const secs = Math.floor(micros / 1_000_000);
  return [dateTime(secs), '.', pad(micros - secs * 1_000_000, 6), 'Z'].join('');
}

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parses an RFC 3339 timestamp (any fractional precision, `Z` or a `±hh:mm` offset) into epoch
 * milliseconds; `undefined` when it is not one, as Go's time.Parse(time.RFC3339) would reject it.
 */
export const parseTimestamp: (s: string) => number | undefined = remembered(parseTimestampUncached);

function parseTimestampUncached(s: string): number | undefined {
  const parts = timestampParts(s);
  return parts === undefined ? undefined : parts.seconds * 1000 + (parts.fraction === '' ? 0 : Number(`0.${parts.fraction}`) * 1000);
}

/**
 * An RFC 3339 timestamp as whole epoch seconds (exact: no float milliseconds, which near year 9999 are
 * coarser than a microsecond) and its fraction's digits; `undefined` when Go's time.Parse would reject it.
 */
function timestampParts(s: string): { readonly seconds: number; readonly fraction: string } | undefined {
  const m = rfc3339.exec(s);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  const monthDays = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > monthDays[month - 1]! || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMin = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return { seconds: daysFromCivil(year, month, day) * 86_400 + (hour * 60 + minute - offsetMin) * 60 + second, fraction: m[7]?.slice(1) ?? '' };
}

/**
 * Re-serializes an RFC 3339 timestamp as metav1.Time (`micro` false: UTC, whole seconds) or
 * metav1.MicroTime (`micro`: six fractional digits, truncated) stores it; `undefined` when it is not one.
 */
export function canonicalTimeText(s: string, micro: boolean): string | undefined {
  return canonicalTimeOf[micro ? 1 : 0]!(s);
}

// Remembered by text (a cluster's objects share a few timestamps), Times and MicroTimes apart.
const canonicalTimeOf = ([false, true] as const).map((micro) => remembered((s: string) => canonicalTimeTextUncached(s, micro)));

function canonicalTimeTextUncached(s: string, micro: boolean): string | undefined {
  const parts = timestampParts(s);
  if (parts === undefined) return undefined;
  if (!micro) return [dateTime(parts.seconds), 'Z'].join('');
  return [dateTime(parts.seconds), '.', parts.fraction.slice(0, 6).padEnd(6, '0'), 'Z'].join('');
}

/** Re-serializes any RFC 3339 input the way metav1.Time stores it (UTC, whole seconds). */
export function canonicalTimestamp(s: string): string | undefined {
  return canonicalTimeText(s, false);
}
