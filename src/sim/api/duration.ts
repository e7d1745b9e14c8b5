// Human-readable ages as kubectl and the apiserver's Table printers show them: `5s`, `2m3s`, `5h`,
// `3d`, `<invalid>` for timestamps in the future beyond clock skew.
// Models k8s.io/apimachinery/pkg/util/duration/duration.go and the printers' translateTimestampSince
// (pkg/printers/internalversion/printers.go).

import { parseTimestamp } from './time.ts';

const trunc = Math.trunc;

/** duration.HumanDuration of a span in milliseconds (the AGE column). */
export function humanDuration(ms: number): string {
  const seconds = trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${trunc(hours / 24)}d` : `${trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = trunc(hours / 24) % 365;
    return dy === 0 ? `${trunc(hours / 24 / 365)}y` : `${trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${trunc(hours / 24 / 365)}y`;
}

/** duration.ShortHumanDuration: one unit only (`90s` → `1m`). */
export function shortHumanDuration(ms: number): string {
  const seconds = trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = trunc(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = trunc(ms / 3_600_000);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${trunc(hours / 24)}d`;
  return `${trunc(hours / 24 / 365)}y`;
}

/** translateTimestampSince: the age of a timestamp at `nowMs`, `<unknown>` when unset. */
export function translateTimestampSince(timestamp: string | null | undefined, nowMs: number): string {
  const t = timestamp ? parseTimestamp(timestamp) : undefined;
  return t === undefined ? '<unknown>' : humanDuration(nowMs - t);
}
