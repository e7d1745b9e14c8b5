// Shared by the Score plugins: scaling raw scores to 0..maxNodeScore.
// Models pkg/scheduler/framework/plugins/helper/normalize_score.go (DefaultNormalizeScore).

import { maxNodeScore } from '../types.ts';

/** DefaultNormalizeScore: scale to 0..100 by the maximum (optionally reversed). */
export function normalizeByMax(raw: readonly number[], reverse: boolean): number[] {
  const max = Math.max(0, ...raw);
  if (max === 0) return raw.map(() => (reverse ? maxNodeScore : 0));
  return raw.map((s) => {
    const n = Math.floor((s * maxNodeScore) / max);
    return reverse ? maxNodeScore - n : n;
  });
}
