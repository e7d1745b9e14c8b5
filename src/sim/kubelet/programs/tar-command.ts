// `tar`, as `kubectl cp` runs it in a container: the archive of a path on stdout, or one from stdin
// unpacked into the container's files (the format is ../tar.ts).

import { readTar, writeTar, type TarEntry } from '../tar.ts';
import { addEntry, isDirectory, resolvePath } from './files.ts';
import { busyboxLike, notModelled, stderr, stdout, type ContainerContext, type Program } from './program.ts';

/** The entries under `p` (itself first), as `tar c` walks them; names lose their leading '/'. */
function tarEntries(ctx: ContainerContext, p: string, mtime: number): TarEntry[] {
  const name = p.replace(/^\/+/, '');
  if (!isDirectory(ctx.files, p)) return [{ name, type: 'file', mode: 0o644, mtime, content: ctx.files.get(p) ?? '' }];
  const children = new Set((ctx.files.get(p) ?? '').split('\n').filter((e) => e !== ''));
  const prefix = p === '/' ? '/' : `${p}/`;
  for (const k of ctx.files.keys()) if (k.startsWith(prefix) && k !== p) children.add(k.slice(prefix.length).split('/')[0]!);
  const known = [...children].sort().map((c) => `${prefix}${c}`).filter((c) => ctx.files.has(c) || isDirectory(ctx.files, c));
  return [{ name: name === '' ? './' : `${name}/`, type: 'dir', mode: 0o755, mtime, content: '' }, ...known.flatMap((c) => tarEntries(ctx, c, mtime))];
}

/**
 * `tar cf - PATH…` (the archive on stdout) and `tar xf - [-C DIR]` (the archive from stdin), as kubectl cp
 * runs them; GNU tar's messages (busybox's in busybox images). Other modes are not modelled.
 */
export function* tar(args: readonly string[], ctx: ContainerContext): Program {
  const gnu = !busyboxLike(ctx);
  let mode = '';
  let file: string | undefined;
  let dir = '';
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C') dir = args[++i] ?? '';
    else if (i === 0 || (a.startsWith('-') && a.length > 1)) {
      for (const f of a.replace(/^-/, '')) {
        if (f === 'c' || f === 'x') mode = f;
        else if (f === 'f') file = args[++i];
      }
    } else paths.push(a);
  }
  if (file !== '-' || mode === '') {
    yield stderr(notModelled(['tar', ...args]));
    return 126;
  }
  if (mode === 'c') {
    const entries: TarEntry[] = [];
    let failed = false;
    const mtime = Math.floor(ctx.now() / 1000);
    if (paths.some((p) => p.startsWith('/'))) yield stderr(gnu ? "tar: Removing leading `/' from member names\n" : "tar: removing leading '/' from member names\n");
    for (const t of paths) {
      const p = resolvePath(t);
      if (!ctx.files.has(p) && !isDirectory(ctx.files, p)) {
        yield stderr(gnu ? `tar: ${t}: Cannot stat: No such file or directory\n` : `tar: can't stat '${t}': No such file or directory\n`);
        failed = true;
        continue;
      }
      entries.push(...tarEntries(ctx, p, mtime));
    }
    yield stdout(writeTar(entries));
    if (failed && gnu) yield stderr('tar: Exiting with failure status due to previous errors\n');
    return failed ? (gnu ? 2 : 1) : 0;
  }
  const target = resolvePath(dir === '' ? '/' : dir);
  if (!isDirectory(ctx.files, target) && !ctx.files.has(target)) {
    yield stderr(gnu ? `tar: ${dir}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n` : `tar: can't change directory to '${dir}': No such file or directory\n`);
    return gnu ? 2 : 1;
  }
  const archive = readTar(ctx.stdin ?? '');
  if ('error' in archive) {
    yield stderr(gnu ? `tar: ${archive.error}\ntar: Exiting with failure status due to previous errors\n` : 'tar: invalid tar magic\n');
    return gnu ? 2 : 1;
  }
  for (const e of archive) {
    const p = resolvePath(`${target === '/' ? '' : target}/${e.name.replace(/^\/+/, '')}`);
    if (p === target) continue;
    if (!ctx.files.has(p)) ctx.files.set(p, '');
    if (e.type === 'file') ctx.files.set(p, e.content);
    addEntry(ctx.files, p);
  }
  return 0;
}
