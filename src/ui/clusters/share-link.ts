// Share links: `#cluster=…` in the page URL imports the cluster it encodes once, then the fragment is
// removed so a reload does not import it again.

import { shareFragmentKey } from '../../protocol/index.ts';

/** The share fragment in `hash`, or null when it holds none. */
export function sharedClusterFragment(hash: string): string | null {
  return hash.startsWith(`#${shareFragmentKey}=`) ? hash : null;
}

/** The full share URL for a fragment, on the page at `location`. */
export function shareUrl(location: { origin: string; pathname: string }, fragment: string): string {
  return `${location.origin}${location.pathname}${fragment}`;
}
