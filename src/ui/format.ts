// How numbers read in the UI.

/** Virtual time: ms below a second, seconds below a minute, then minutes and seconds. */
export function formatVirtualTime(ms: number): string {
  if (ms < 1000) return `${ms.toFixed(3)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(3)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${((ms - minutes * 60_000) / 1000).toFixed(3)} s`;
}

export function formatSpeed(speed: number): string {
  return `${speed}×`;
}

/** A payload as indented JSON; `undefined` (no payload) as an em dash. */
export function formatPayload(payload: unknown): string {
  return payload === undefined ? '—' : JSON.stringify(payload, null, 2);
}
