// A container's files as the programs see them: a map from path to content, where a directory's content
// is the listing of its entries (one name a line, sorted).

export function resolvePath(p: string): string {
  if (p === '' || p === '/') return '/';
  return p.replace(/\/+$/, '');
}

function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/** Adds `name` to the listing of its directory (files are listed in their directory's entry). */
export function addEntry(files: Map<string, string>, p: string): void {
  const parent = parentOf(p);
  const name = p.slice(p.lastIndexOf('/') + 1);
  const entries = (files.get(parent) ?? '').split('\n').filter((e) => e !== '');
  if (!entries.includes(name)) files.set(parent, `${[...entries, name].sort().join('\n')}\n`);
}

export function removeEntry(files: Map<string, string>, p: string): void {
  const parent = parentOf(p);
  const name = p.slice(p.lastIndexOf('/') + 1);
  const entries = (files.get(parent) ?? '').split('\n').filter((e) => e !== '' && e !== name);
  if (files.has(parent)) files.set(parent, entries.length > 0 ? `${entries.join('\n')}\n` : '');
}

/** Whether `p` is a directory the model knows (an entry listing or a parent of a known file). */
export function isDirectory(files: Map<string, string>, p: string): boolean {
  return p === '/' || p === '/tmp' || [...files.keys()].some((k) => k.startsWith(`${p}/`)) || (files.has(p) && ['/', '/usr/share/nginx/html', '/etc/nginx'].includes(p));
}
