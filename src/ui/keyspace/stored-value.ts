// How a stored value reads: this model stores JSON (real clusters store protobuf), shown pretty-printed;
// the change from the previous version as a line diff.

import { diffLines } from 'diff';

/** The value pretty-printed when it is JSON, else as stored. */
export function decodeValue(value: string): { readonly text: string; readonly json: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(value), null, 2), json: true };
  } catch {
    return { text: value, json: false };
  }
}

export interface DiffLine {
  readonly type: 'added' | 'removed' | 'same';
  readonly text: string;
}

/** Line diff from the previous decoded value to the current one. */
export function valueDiff(previous: string, current: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const part of diffLines(decodeValue(previous).text, decodeValue(current).text)) {
    const type = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ type, text });
  }
  return lines;
}
