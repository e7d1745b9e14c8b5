// The times programs print, in UTC, computed from the epoch instant (no Date in the model): `date`'s
// default text, nginx's error- and access-log times, the HTTP Date header.

import { civilFromDays } from '../../engine/time.ts';

export const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
export const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The UTC calendar fields of an epoch instant (no Date in the model). */
export interface Civil { year: number; month: number; day: number; weekday: number; hour: number; minute: number; second: number; ms: number }

export function civil(epochMs: number): Civil {
  const whole = Math.floor(epochMs);
  const days = Math.floor(whole / 86_400_000);
  const rest = whole - days * 86_400_000;
  const [year, month, day] = civilFromDays(days);
  return {
    year, month, day, weekday: (((days + 4) % 7) + 7) % 7,
    hour: Math.floor(rest / 3_600_000), minute: Math.floor(rest / 60_000) % 60, second: Math.floor(rest / 1000) % 60, ms: rest % 1000,
  };
}

/** `date`'s default output in UTC: `Wed Nov 25 02:30:00 UTC 2026`. */
export function dateText(ms: number): string {
  const d = civil(ms);
  return `${weekdays[d.weekday]!} ${months[d.month - 1]!} ${pad(d.day)} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)} UTC ${d.year}`;
}

/** nginx's error-log time: `2026/11/25 02:30:00`. */
export function nginxTime(ms: number): string {
  const d = civil(ms);
  return `${d.year}/${pad(d.month)}/${pad(d.day)} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}`;
}

/** nginx's access-log time: `25/Nov/2026:02:30:00 +0000`. */
export function nginxAccessTime(ms: number): string {
  const d = civil(ms);
  return `${pad(d.day)}/${months[d.month - 1]!}/${d.year}:${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)} +0000`;
}

/** `Sat, 28 Nov 2026 08:11:11 GMT`: the Date header. */
export function httpDate(ms: number): string {
  const d = civil(ms);
  return `${weekdays[d.weekday]!}, ${pad(d.day)} ${months[d.month - 1]!} ${d.year} ${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)} GMT`;
}
