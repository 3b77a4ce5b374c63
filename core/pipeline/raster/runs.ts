/**
 * Finds where runs of nonzero bytes start and end, four bytes at a time where the mask's memory
 * allows. The pipeline's masks are mostly long stretches of one value, so most of a row is
 * crossed a word per step instead of a byte per step.
 */
export class RunFinder {
  private readonly bytes: Uint8Array;
  /** The mask as 32-bit words, when it starts on a word boundary; otherwise bytes only. */
  private readonly words: Uint32Array | undefined;

  constructor(mask: Uint8Array) {
    this.bytes = mask;
    this.words =
      mask.byteOffset % 4 === 0 ? new Uint32Array(mask.buffer, mask.byteOffset, mask.length >> 2) : undefined;
  }

  /** The first index in [i, end) whose byte is nonzero, or `end`. */
  nextOn(i: number, end: number): number {
    const bytes = this.bytes;
    const words = this.words;
    if (words) {
      while (i < end && i & 3) {
        if (bytes[i]) return i;
        i++;
      }
      while (i + 4 <= end && words[i >> 2] === 0) i += 4;
    }
    while (i < end && !bytes[i]) i++;
    return i;
  }

  /** The first index in [i, end) whose byte is zero, or `end`. */
  nextOff(i: number, end: number): number {
    const bytes = this.bytes;
    const words = this.words;
    if (words) {
      while (i < end && i & 3) {
        if (!bytes[i]) return i;
        i++;
      }
      while (i + 4 <= end && !hasZeroByte(words[i >> 2]!)) i += 4;
    }
    while (i < end && bytes[i]) i++;
    return i;
  }
}

/** Whether any of the word's four bytes is zero (the classic bit trick, exact for every word). */
const hasZeroByte = (v: number): boolean => ((v - 0x01010101) & ~v & 0x80808080) !== 0;

/** Per byte of a word: 1 where the byte is nonzero, 0 where it is zero (exact for any bytes). */
export const onesOf = (v: number): number => ((((v & 0x7f7f7f7f) + 0x7f7f7f7f) | v) >>> 7) & 0x01010101;
