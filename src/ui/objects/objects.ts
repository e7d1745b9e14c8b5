// Pure helpers for the objects panel: which table and row hold a key, and how a row's conditions read.

import type { ObjectCondition, ObjectRow, ObjectsView, ObjectTable } from '../../protocol/index.ts';

/** The table and row of the object stored at `key`, if the view has it. */
export function findObject(view: ObjectsView | null | undefined, key: string | null): { readonly table: ObjectTable; readonly row: ObjectRow } | undefined {
  if (!view || key === null) return undefined;
  for (const table of view.tables) {
    const row = table.rows.find((r) => r.key === key);
    if (row) return { table, row };
  }
  return undefined;
}

/** `Ready=True, PodScheduled=True`: the conditions in one line, as a summary cell. */
export function conditionSummary(conditions: readonly ObjectCondition[]): string {
  return conditions.map((c) => `${c.type}=${c.status}`).join(', ');
}

/** How far the controller has caught up: `2/2`, or `—` when the kind has no generation. */
export function generationText(row: Pick<ObjectRow, 'generation' | 'observedGeneration'>): string {
  if (row.generation === null) return '—';
  return row.observedGeneration === null ? String(row.generation) : `${row.generation} (observed ${row.observedGeneration})`;
}
