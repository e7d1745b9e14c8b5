// Applies a Fossil delta (the format fossil-delta's createDelta writes; fossil-scm.org's delta_format.wiki)
// straight into an array of the target's size. fossil-delta's own applyDelta appends its output one byte at a
// time to a JavaScript array and copies that into a Uint8Array, which made it the largest allocator of a
// rollout (a superseded value is rebuilt each time its key is written again). The delta is read as the byte
// string the backend keeps it as, so it is not converted first. The checksum is not verified: the backend
// made every delta it applies.
//
// A delta is `<target size>\n` then commands, each led by a base-64 integer `n`:
//   n@offset,  copy n bytes of the source from offset
//   n:bytes    insert the n bytes that follow
//   n;         the end (n is the target's checksum)

const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~';
const digitValue = new Int8Array(128).fill(-1);
for (let i = 0; i < digits.length; i++) digitValue[digits.charCodeAt(i)] = i;

class DeltaReader {
  pos = 0;
  constructor(readonly delta: string) {}

  /** A base-64 integer (no digits: 0). */
  int(): number {
    const { delta } = this;
    let value = 0;
    for (; this.pos < delta.length; this.pos++) {
      const code = delta.charCodeAt(this.pos);
      const digit = code < 128 ? digitValue[code]! : -1;
      if (digit < 0) break;
      value = value * 64 + digit;
    }
    return value;
  }

  /** The next byte as a one-character string ('' at the end). */
  char(): string {
    return this.pos < this.delta.length ? this.delta[this.pos++]! : '';
  }
}

/** Reads a delta's header: the target's size. */
function targetSizeOf(reader: DeltaReader): number {
  const size = reader.int();
  if (reader.char() !== '\n') throw new Error("size integer not terminated by '\\n'");
  return size;
}

/** The size of the target `delta` makes, read from its header alone (no bytes converted, nothing applied). */
export function fossilTargetSize(delta: string): number {
  return targetSizeOf(new DeltaReader(delta));
}

/** The target `delta` makes of `source` (bytes, or a byte string); throws on a malformed delta as fossil-delta does. */
export function applyFossilDelta(source: Uint8Array | string, delta: string): Uint8Array {
  const reader = new DeltaReader(delta);
  const size = targetSizeOf(reader);
  const out = new Uint8Array(size);
  let total = 0;
  while (reader.pos < delta.length) {
    const count = reader.int();
    switch (reader.char()) {
      case '@': {
        const offset = reader.int();
        if (reader.pos < delta.length && reader.char() !== ',') throw new Error("copy command not terminated by ','");
        if (total + count > size) throw new Error('copy exceeds output file size');
        if (offset + count > source.length) throw new Error('copy extends past end of input');
        if (typeof source === 'string') for (let i = 0; i < count; i++) out[total + i] = source.charCodeAt(offset + i);
        else out.set(source.subarray(offset, offset + count), total);
        total += count;
        break;
      }
      case ':': {
        if (total + count > size) throw new Error('insert command gives an output larger than predicted');
        if (reader.pos + count > delta.length) throw new Error('insert count exceeds size of delta');
        for (let i = 0; i < count; i++) out[total + i] = delta.charCodeAt(reader.pos + i);
        reader.pos += count;
        total += count;
        break;
      }
      case ';':
        if (total !== size) throw new Error('generated size does not match predicted size');
        return out;
      default:
        throw new Error('unknown delta operator');
    }
  }
  throw new Error('unterminated delta');
}
