// The graph is never zoomed out so far that its text gets unreadable: the smallest text drawn inside the
// component boxes must stay at least 11 CSS px on screen (font size × zoom). Fitting the view clamps the
// zoom there and leaves the rest to panning.

/** The smallest on-screen text size the graph allows (CSS px). */
export const minReadableTextPx = 11;

/** The lowest zoom at which text of `smallestTextPx` is still `minReadableTextPx` on screen. */
export function readableMinZoom(smallestTextPx: number | null): number {
  if (smallestTextPx === null || !(smallestTextPx > 0)) return 1;
  return minReadableTextPx / smallestTextPx;
}

/** The smallest computed font size of the text rendered under `root` (CSS px, before zoom), or null if none is. */
export function smallestTextPx(root: Element): number | null {
  let smallest = Infinity;
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const seen = new Set<Element>();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || seen.has(element) || !node.textContent?.trim()) continue;
    seen.add(element);
    if (element.getClientRects().length === 0) continue;
    const size = Number.parseFloat(getComputedStyle(element).fontSize);
    if (size > 0) smallest = Math.min(smallest, size);
  }
  return smallest === Infinity ? null : smallest;
}
