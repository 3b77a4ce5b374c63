/**
 * Full-size byte masks handed back by the stage that made them once nothing reads them any more,
 * for the next stage that needs one of the same size.
 *
 * Why: `npm start` has glibc map every buffer of a megabyte or more afresh and unmap it when freed
 * (`MALLOC_MMAP_THRESHOLD_`, which keeps the process small), so every new mask is memory touched for
 * the first time. On the virtual machines we run on that costs about 4 ms a megabyte, more than the
 * arithmetic on it: a lace cuff's working raster is 2.3 MB, and its analysis made some ten such masks.
 *
 * Only what is certainly dead is given back (a stage's scratch masks at its end, never a raster or
 * anything returned); a mask taken is the taker's alone, zeroed like a new one. The pool lives for
 * one analysis (`analyseDesign` drains it), so an idle worker holds none of it, and it holds at
 * most a few masks. Analyses interleaved on one thread are safe: a mask is in the pool or owned by
 * one stage, never both.
 */

/** Masks kept at most: more than a stage gives back at once. */
const MAX_POOLED = 4;

const pooled: Uint8Array[] = [];

/** A zeroed mask of `length` bytes: one given back, or a new one. */
export function takeMask(length: number): Uint8Array {
  return pooledOf(length)?.fill(0) ?? new Uint8Array(length);
}

/** A copy of `source` in a mask given back, or a new one. */
export function copyOf(source: Uint8Array): Uint8Array {
  const mask = pooledOf(source.length);
  if (!mask) return source.slice();
  mask.set(source);
  return mask;
}

function pooledOf(length: number): Uint8Array | undefined {
  const at = pooled.findIndex((mask) => mask.length === length);
  return at < 0 ? undefined : pooled.splice(at, 1)[0];
}

/** Gives back masks nothing reads any more (their own memory whole; a view, or one already given, is ignored). */
export function giveMasks(...masks: Uint8Array[]): void {
  for (const mask of masks) {
    if (pooled.length >= MAX_POOLED || pooled.includes(mask)) continue;
    if (mask.byteOffset !== 0 || mask.byteLength !== mask.buffer.byteLength) continue;
    pooled.push(mask);
  }
}

/** Empties the pool: at the end of an analysis, so that the masks are freed with the rest. */
export function drainMasks(): void {
  pooled.length = 0;
}

/** How many masks the pool holds (for tests). */
export const pooledMasks = (): number => pooled.length;
