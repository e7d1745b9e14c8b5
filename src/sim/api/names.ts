// Name generation for objects created with `metadata.generateName`.
// Models k8s.io/apiserver/pkg/storage/names/generate.go (SimpleNameGenerator).

import type { Rng } from '../engine/rng.ts';

/** Longest name a generator may produce (a DNS-1123 label). */
export const maxNameLength = 63;
/** Length of the random suffix. */
export const randomLength = 5;
/** Longest base kept before the suffix; longer bases are cut (`58`). */
export const maxGeneratedNameLength = maxNameLength - randomLength;

/**
 * `<base><5 chars>`: the base cut to 58 characters, then five characters of Kubernetes' suffix
 * alphabet drawn from the engine's seeded RNG (`nginx-7c5ddbdf54-` → `nginx-7c5ddbdf54-x8f9k`).
 */
export function generateName(base: string, rng: Pick<Rng, 'nameSuffix'>): string {
  const kept = base.length > maxGeneratedNameLength ? base.slice(0, maxGeneratedNameLength) : base;
  return kept + rng.nameSuffix(randomLength);
}
