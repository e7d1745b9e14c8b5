// A container's log as the runtime keeps it: one file per container instance (the current one and the
// one before, for `--previous`), each line with the instant it was written and its stream. The kubelet
// reads it for `pods/log`: `tailLines`, `sinceSeconds`, `limitBytes`, `timestamps` (RFC 3339 with
// nanoseconds, trailing zeros trimmed, as Go's time.RFC3339Nano prints).
// Models pkg/kubelet/kuberuntime/logs/logs.go (ReadLogs, LogOptions: tail, since, bytes, timestamp).

import { formatTimestamp } from '../api/time.ts';

export interface LogLine {
  /** Wall-clock ms (epoch + virtual time) the line was written. */
  readonly at: number;
  readonly stream: 'stdout' | 'stderr';
  /** The line with its newline. */
  readonly text: string;
}

export interface LogOptions {
  readonly tailLines?: number;
  readonly sinceSeconds?: number;
  readonly limitBytes?: number;
  readonly timestamps?: boolean;
}

/** time.RFC3339Nano in UTC: `2026-11-25T02:30:00.123456789Z`, trailing fractional zeros trimmed. */
export function rfc3339Nano(epochMs: number): string {
  const whole = Math.floor(epochMs / 1000) * 1000;
  const nanos = Math.round((epochMs - whole) * 1_000_000);
  const base = formatTimestamp(whole).slice(0, -1);
  const fraction = String(Math.min(nanos, 999_999_999)).padStart(9, '0').replace(/0+$/, '');
  return `${base}${fraction ? `.${fraction}` : ''}Z`;
}

/** Splits printed text into lines (a last line without newline is kept as a partial line). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n') {
      lines.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * Lines a container's log keeps before the oldest are dropped: the kubelet rotates logs at
 * containerLogMaxSize (10 MiB); Podflow keeps a line count instead (probes' access-log lines add up).
 */
export const maxLogLines = 5_000;

export class ContainerLog {
  readonly lines: LogLine[] = [];
  /** Made at the first `follow` (most logs are never followed). */
  private listeners: Set<(line: LogLine) => void> | undefined;

  write(at: number, stream: 'stdout' | 'stderr', text: string): void {
    for (const line of splitLines(text)) {
      const entry = { at, stream, text: line };
      this.lines.push(entry);
      if (this.lines.length > maxLogLines) this.lines.splice(0, this.lines.length - maxLogLines);
      if (this.listeners) for (const l of this.listeners) l(entry);
    }
  }

  /** Calls `listener` for every line written from now on; returns the unsubscribe. */
  follow(listener: (line: LogLine) => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** The log as `kubectl logs` prints it, at wall-clock instant `now`. */
  read(options: LogOptions, now: number): string {
    let lines = this.lines;
    if (options.sinceSeconds !== undefined) lines = lines.filter((l) => l.at >= now - options.sinceSeconds! * 1000);
    if (options.tailLines !== undefined) lines = options.tailLines <= 0 ? [] : lines.slice(-options.tailLines);
    let text = lines.map((l) => formatLine(l, options.timestamps ?? false)).join('');
    if (options.limitBytes !== undefined) text = text.slice(0, options.limitBytes);
    return text;
  }
}

export function formatLine(line: LogLine, timestamps: boolean): string {
  return timestamps ? `${rfc3339Nano(line.at)} ${line.text}` : line.text;
}
