// A minimal tar, what `kubectl cp` needs from a container: `tar cf -` writes POSIX ustar (512-byte headers,
// content padded to 512, two zero blocks, the archive padded to GNU tar's 10240-byte record), and `tar xf -`
// reads ustar, GNU (`ustar  `) and PAX archives (Go's archive/tar, which kubectl writes), skipping PAX
// extended headers and taking GNU long names. File contents are text: a container's files are JS strings,
// so an archive is written as a string whose UTF-8 encoding is the archive (sizes count UTF-8 bytes), and
// read from a byte string (one char per byte) with each file's bytes decoded as UTF-8.
// Models the ustar format of POSIX.1-1988 (pax(1)) as GNU tar and Go's archive/tar (reader.go) use it.

import { byteStringToUtf8, utf8Length } from '../etcd/bytes.ts';

export interface TarEntry {
  /** The member name as stored (`etc/nginx/nginx.conf`, `usr/share/nginx/html/` for a directory); ASCII when written. */
  readonly name: string;
  readonly type: 'file' | 'dir';
  /** Permission bits (0o644, 0o755). */
  readonly mode: number;
  /** Seconds since the epoch. */
  readonly mtime: number;
  /** A file's text; '' for a directory. */
  readonly content: string;
}

const block = 512;
const record = 10240;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function field(text: string, width: number): string {
  return text.slice(0, width).padEnd(width, '\0');
}

function header(e: TarEntry): string {
  const size = e.type === 'dir' ? 0 : utf8Length(e.content);
  const withoutSum = [
    field(e.name, 100), octal(e.mode, 8), octal(0, 8), octal(0, 8), octal(size, 12), octal(e.mtime, 12), '        ',
    e.type === 'dir' ? '5' : '0', field('', 100), 'ustar\0', '00', field('root', 32), field('root', 32), octal(0, 8), octal(0, 8),
    field('', 155), field('', 12),
  ].join('');
  let sum = 0;
  for (let i = 0; i < withoutSum.length; i++) sum += withoutSum.charCodeAt(i);
  return `${withoutSum.slice(0, 148)}${sum.toString(8).padStart(6, '0')}\0 ${withoutSum.slice(156)}`;
}

/** The archive of `entries`, as text whose UTF-8 encoding is the tar stream. */
export function writeTar(entries: readonly TarEntry[]): string {
  let out = '';
  let bytes = 0;
  for (const e of entries) {
    out += header(e);
    bytes += block;
    if (e.type === 'file') {
      const size = utf8Length(e.content);
      const pad = (block - (size % block)) % block;
      out += e.content + '\0'.repeat(pad);
      bytes += size + pad;
    }
  }
  bytes += 2 * block;
  const tail = (record - (bytes % record)) % record;
  return out + '\0'.repeat(2 * block + tail);
}

function parseOctal(s: string): number {
  const digits = s.replace(/[\0 ]+$/g, '').replace(/^[\0 ]+/, '');
  return digits === '' ? 0 : parseInt(digits, 8);
}

function cString(s: string): string {
  const nul = s.indexOf('\0');
  return nul < 0 ? s : s.slice(0, nul);
}

/** The files and directories of a tar stream given as a byte string; an error message for a broken one. */
export function readTar(bytes: string): TarEntry[] | { readonly error: string } {
  if (bytes.length % block !== 0) return { error: 'This does not look like a tar archive' };
  const entries: TarEntry[] = [];
  let at = 0;
  let longName: string | null = null;
  let paxPath: string | null = null;
  while (at + block <= bytes.length) {
    const h = bytes.slice(at, at + block);
    if (/^\0*$/.test(h)) break;
    let sum = 0;
    for (let i = 0; i < block; i++) sum += i >= 148 && i < 156 ? 32 : h.charCodeAt(i);
    if (sum !== parseOctal(h.slice(148, 156))) return { error: 'This does not look like a tar archive' };
    const size = parseOctal(h.slice(124, 136));
    const type = h[156] ?? '0';
    const data = bytes.slice(at + block, at + block + size);
    at += block + Math.ceil(size / block) * block;
    const magic = h.slice(257, 263);
    const prefix = magic.startsWith('ustar') ? cString(h.slice(345, 500)) : '';
    let name = cString(h.slice(0, 100));
    if (prefix !== '') name = `${prefix}/${name}`;
    if (type === 'L') { longName = cString(data); continue; }
    if (type === 'x') {
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data);
      if (path) paxPath = byteStringToUtf8(path[1]!);
      continue;
    }
    if (type === 'g') continue;
    name = paxPath ?? longName ?? byteStringToUtf8(name);
    longName = null;
    paxPath = null;
    const mode = parseOctal(h.slice(100, 108)) & 0o7777;
    const mtime = parseOctal(h.slice(136, 148));
    if (type === '5') entries.push({ name, type: 'dir', mode, mtime, content: '' });
    else if (type === '0' || type === '\0' || type === '7') entries.push({ name, type: 'file', mode, mtime, content: byteStringToUtf8(data) });
  }
  return entries;
}
