import { describe, expect, it } from 'vitest';
import { utf8ToByteString } from '../etcd/bytes.ts';
import { readTar, writeTar, type TarEntry } from './tar.ts';

const entries: TarEntry[] = [
  { name: 'usr/share/nginx/html/', type: 'dir', mode: 0o755, mtime: 1700000000, content: '' },
  { name: 'usr/share/nginx/html/index.html', type: 'file', mode: 0o644, mtime: 1700000000, content: '<h1>Welcome to nginx!</h1>\n' },
  { name: 'tmp/notes.txt', type: 'file', mode: 0o600, mtime: 1, content: 'naïve ✓\n'.repeat(100) },
];

describe('ustar', () => {
  it('writes 512-byte headers with a valid checksum, pads content and the record to 10240 bytes', () => {
    const bytes = utf8ToByteString(writeTar(entries));
    expect(bytes.length % 10240).toBe(0);
    const h = bytes.slice(0, 512);
    expect(h.slice(0, 22)).toBe('usr/share/nginx/html/\0');
    expect(h.slice(156, 157)).toBe('5');
    expect(h.slice(257, 265)).toBe('ustar\x0000');
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h.charCodeAt(i);
    expect(h.slice(148, 156)).toBe(`${sum.toString(8).padStart(6, '0')}\0 `);
    expect(bytes.slice(512 + 124, 512 + 136)).toBe('00000000033\0');
  });

  it('reads back what it writes (UTF-8 content counted in bytes)', () => {
    expect(readTar(utf8ToByteString(writeTar(entries)))).toEqual(entries);
  });

  it('reads GNU long names and PAX paths, skips global headers, refuses a bad checksum', () => {
    const long = `${'d/'.repeat(60)}file`;
    const gnu = utf8ToByteString(writeTar([{ name: '././@LongLink', type: 'file', mode: 0, mtime: 0, content: `${long}\0` }, { name: long.slice(0, 100), type: 'file', mode: 0o644, mtime: 0, content: 'x' }]))
      .replace(/^(.{156})0/s, '$1L');
    expect(readTar(fixChecksum(gnu))).toEqual([{ name: long, type: 'file', mode: 0o644, mtime: 0, content: 'x' }]);
    const record = `34 path=${'p/'.repeat(10)}q.txt\n`;
    const pax = utf8ToByteString(writeTar([{ name: 'PaxHeaders/q', type: 'file', mode: 0, mtime: 0, content: record }, { name: 'q.txt', type: 'file', mode: 0o644, mtime: 0, content: 'y' }]))
      .replace(/^(.{156})0/s, '$1x');
    const fixed = fixChecksum(pax);
    expect(readTar(fixed)).toEqual([{ name: `${'p/'.repeat(10)}q.txt`, type: 'file', mode: 0o644, mtime: 0, content: 'y' }]);
    expect(readTar(`x${fixed.slice(1)}`)).toEqual({ error: 'This does not look like a tar archive' });
  });
});

/** Recomputes the first header's checksum after a test edited its type flag. */
function fixChecksum(bytes: string): string {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : bytes.charCodeAt(i);
  return `${bytes.slice(0, 148)}${sum.toString(8).padStart(6, '0')}\0 ${bytes.slice(156)}`;
}
