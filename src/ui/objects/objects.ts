// Pure helpers for the objects panel: how a row's conditions and generation read.

import type { ObjectCondition, ObjectRow } from '../../protocol/index.ts';

/** `Ready=True, PodScheduled=True`: the conditions in one line, as a summary cell. */
export function conditionSummary(conditions: readonly ObjectCondition[]): string {
  return conditions.map((c) => `${c.type}=${c.status}`).join(', ');
}

/** How far the controller has caught up: `2/2`, or `—` when the kind has no generation. */
export function generationText(row: Pick<ObjectRow, 'generation' | 'observedGeneration'>): string {
  if (row.generation === null) return '—';
  return row.observedGeneration === null ? String(row.generation) : `${row.generation} (observed ${row.observedGeneration})`;
}
