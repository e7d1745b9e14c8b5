// The change between two versions of a stored object, as a line diff of their decoded JSON (the worker
// decodes protobuf and JSON values alike: `valueDescription`).

import { diffLines } from 'diff';

export interface DiffLine {
  readonly type: 'added' | 'removed' | 'same';
  readonly text: string;
}

/** Line diff from the previous object's pretty JSON to the current one's. */
export function jsonDiff(previous: string, current: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const part of diffLines(previous, current)) {
    const type = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ type, text });
  }
  return lines;
}
