// The page showing two servers on one etcd side by side (side-by-side.html, src/ui/live/side-by-side.tsx),
// served by `npm run apiserver` beside its page (src/server/live.ts). Its fragment names the two pages, `a`
// on the left and `b` on the right, each a server's page URL as the server printed it (with its `#token=`
// fragment); in the fragment, no token reaches a server's request line.

/** Where a server serves the side-by-side page. */
export const sideBySidePath = '/podflow/side-by-side.html';

/** The side-by-side page at the server `origin`, showing the pages `a` and `b`. */
export function sideBySideUrl(origin: string, a: string, b: string): string {
  return `${origin}${sideBySidePath}#${new URLSearchParams({ a, b }).toString()}`;
}

/** The two pages a side-by-side page's fragment names (`b` null when it names none yet). */
export function sideBySidePages(hash: string): { readonly a: string | null; readonly b: string | null } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { a: params.get('a'), b: params.get('b') };
}
