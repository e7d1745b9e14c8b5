// A column of numbers, one per step, for runs of tens of millions of steps: typed arrays in chunks of a
// fixed size, so a step costs its element's bytes (8 for a Float64, 4 for a Uint32, 1 for a Uint8) instead
// of a JS array's element plus its spare capacity, and growing never copies what is already recorded
// (a JS array of 40 million doubles doubles into a new backing store of 480 MB while the old one is live).

type TypedArray = Float64Array | Uint32Array | Uint8Array;

/** Elements per chunk: 64 Ki (512 KiB of Float64). */
const chunkBits = 16;
const chunkSize = 1 << chunkBits;
const chunkMask = chunkSize - 1;

export class StepColumn<A extends TypedArray> {
  private readonly chunks: A[] = [];
  private count = 0;

  constructor(private readonly make: (size: number) => A) {}

  get length(): number {
    return this.count;
  }

  push(value: number): void {
    const index = this.count;
    if ((index & chunkMask) === 0 && index >> chunkBits === this.chunks.length) this.chunks.push(this.make(chunkSize));
    this.chunks[index >> chunkBits]![index & chunkMask] = value;
    this.count = index + 1;
  }

  /** The value at `index` (undefined past the end). */
  at(index: number): number | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    return this.chunks[index >> chunkBits]![index & chunkMask];
  }

  set(index: number, value: number): void {
    if (!(index >= 0 && index < this.count)) throw new RangeError(`index ${index} out of 0..${this.count - 1}`);
    this.chunks[index >> chunkBits]![index & chunkMask] = value;
  }

  /** Keeps the first `length` values; the chunks past them are let go. */
  truncate(length: number): void {
    if (length >= this.count) return;
    this.count = Math.max(0, length);
    this.chunks.length = Math.ceil(this.count / chunkSize);
    // What was written past the new end in the last chunk is overwritten by the next pushes.
  }

  /** The bytes held (whole chunks). */
  get bytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  }
}

export const float64Column = (): StepColumn<Float64Array> => new StepColumn((size) => new Float64Array(size));
export const uint32Column = (): StepColumn<Uint32Array> => new StepColumn((size) => new Uint32Array(size));
export const uint8Column = (): StepColumn<Uint8Array> => new StepColumn((size) => new Uint8Array(size));
