import { describe, expect, it } from 'vitest';
import { ContainerLog, maxLogLines, rfc3339Nano, splitLines } from './container-log.ts';

describe('container log', () => {
  it('prints RFC 3339 with nanoseconds, trailing zeros trimmed, as Go\'s RFC3339Nano', () => {
    const at = 1_795_573_800_000; // 2026-11-25T02:30:00Z
    expect(rfc3339Nano(at)).toBe('2026-11-25T02:30:00Z');
    expect(rfc3339Nano(at + 12.5)).toBe('2026-11-25T02:30:00.0125Z');
  });

  it('splits printed text into lines, keeps the partial last one, and reads with tail, since and limit', () => {
    expect(splitLines('a\nb\nc')).toEqual(['a\n', 'b\n', 'c']);
    const log = new ContainerLog();
    log.write(1_000, 'stdout', 'one\ntwo\n');
    log.write(5_000, 'stderr', 'three\n');
    expect(log.read({}, 6_000)).toBe('one\ntwo\nthree\n');
    expect(log.read({ tailLines: 2 }, 6_000)).toBe('two\nthree\n');
    expect(log.read({ tailLines: 0 }, 6_000)).toBe('');
    expect(log.read({ sinceSeconds: 2 }, 6_000)).toBe('three\n');
    expect(log.read({ limitBytes: 5 }, 6_000)).toBe('one\nt');
    expect(log.read({ tailLines: 1, timestamps: true }, 6_000)).toBe('1970-01-01T00:00:05Z three\n');
  });

  it('keeps at most maxLogLines lines, dropping the oldest (the kubelet rotates logs)', () => {
    const log = new ContainerLog();
    for (let i = 0; i < maxLogLines + 10; i++) log.write(i, 'stdout', `${i}\n`);
    expect(log.lines).toHaveLength(maxLogLines);
    expect(log.lines[0]!.text).toBe('10\n');
  });
});
