// Server page addresses as a person types them (the connect form, the side-by-side page).

/** A page URL as typed: a server's address alone means its page at /podflow/. */
export function pageUrlOf(input: string): string | null {
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(input.trim()) ? input.trim() : `http://${input.trim()}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/podflow/';
  return url.href;
}
