import { MAX_BOUNDED_DEPTH, discReachSweeps } from './disc-reach.ts';
import { distanceTransform } from './distance.ts';
import { takeMask } from './mask-pool.ts';
import { onesOf, RunFinder } from './runs.ts';

/**
 * Widths on a pixel grid. A band W pixels wide has its deepest pixel centre floor((W+1)/2)
 * from the nearest outside pixel centre, so a floor of `widthPx` is enforced as "some centre
 * at least ceil(widthPx/2 + 0.5) deep": the raster keeps one pixel of margin over the floor,
 * which absorbs the tracer's half-pixel placement of each edge.
 */
export const depthForWidth = (widthPx: number): number => Math.ceil(widthPx / 2 + 0.5);

/**
 * The depth a band exactly `widthPx` wide reaches: a disc no wider than the floor itself, without
 * the pixel of margin of `depthForWidth` (a band W pixels wide has its deepest centre floor((W+1)/2)
 * from the outside). A width within a quarter pixel over a whole number of pixels counts as that
 * number: resampling puts a drawn 0.2 mm slot on 4 pixels of 0.04999 mm, and the final check
 * measures it exactly anyway.
 */
export const floorDepth = (widthPx: number): number => Math.max(1, Math.floor((Math.ceil(widthPx - 0.25) + 1) / 2));

/**
 * What a disc reaches inside `mask`: the pixels covered by some disc that fits inside the mask
 * with its centre at least `depth` from the outside (erode, then dilate: in the textbooks, the
 * morphological opening; here "opening" means only a cut-out). What it leaves out is everything
 * narrower than the width that depth stands for (see `depthForWidth`).
 */
export function discReach(
  mask: Uint8Array,
  w: number,
  h: number,
  depth: number,
  outsideIsComplement: boolean,
  /** When given (w × h, zeroed), receives the pixels outside the core (the erosion) as 0/1 bytes. */
  beyondCoreOut?: Uint8Array,
): Uint8Array {
  // The pipeline's depths are small integers: thresholds at a few pixels need no full transform.
  if (Number.isInteger(depth) && depth >= 1 && depth <= MAX_BOUNDED_DEPTH) {
    return discReachSweeps(mask, w, h, depth, outsideIsComplement, beyondCoreOut);
  }
  const complement = invert(mask);
  const { d2 } = distanceTransform(complement, w, h, { outsideIsFeature: outsideIsComplement });
  const threshold = depth * depth;
  const eroded = new Uint8Array(mask.length);
  let any = 0;
  for (let i = 0; i < mask.length; i++) {
    if (d2[i]! >= threshold) {
      eroded[i] = 1;
      any = 1;
    }
  }
  if (beyondCoreOut) invertInto(eroded, beyondCoreOut);
  const reached = new Uint8Array(mask.length);
  if (!any) return reached;
  const { d2: toCore } = distanceTransform(eroded, w, h);
  const reach = (depth - 0.5) * (depth - 0.5);
  for (let i = 0; i < mask.length; i++) if (mask[i] && toCore[i]! <= reach) reached[i] = 1;
  return reached;
}

export function invert(mask: Uint8Array): Uint8Array {
  const out = takeMask(mask.length);
  invertInto(mask, out);
  return out;
}

/** out[i] = 1 where src[i] is 0, else 0, for every i of src (out at least as long). */
export function invertInto(src: Uint8Array, out: Uint8Array): void {
  const words = wordsOf(src, out);
  if (words) for (let q = 0; q < words.a.length; q++) words.out[q] = onesOf(words.a[q]!) ^ 0x01010101;
  for (let i = words ? words.a.length * 4 : 0; i < src.length; i++) out[i] = src[i] ? 0 : 1;
}

/** Pixels of `a` not in `b`. */
export function minus(a: Uint8Array, b: Uint8Array): Uint8Array {
  return minusInto(a, b, takeMask(a.length));
}

/**
 * Pixels of `a` not in `b`, written to `out` and returned; `out` may be `a` or `b` itself. A mask
 * needed only for what is made from it is overwritten rather than a new one allocated: on a
 * machine where fresh memory is slow to first touch, each megabyte not allocated saves milliseconds.
 */
export function minusInto(a: Uint8Array, b: Uint8Array, out: Uint8Array): Uint8Array {
  const words = wordsOf(a, out, b);
  if (words) for (let q = 0; q < words.a.length; q++) words.out[q] = onesOf(words.a[q]!) & ~onesOf(words.b![q]!);
  for (let i = words ? words.a.length * 4 : 0; i < a.length; i++) out[i] = a[i] && !b[i] ? 1 : 0;
  return out;
}

/** Pixels of `a` also in `b`, written to `a` and returned. */
export function intersectInto(a: Uint8Array, b: Uint8Array): Uint8Array {
  const words = wordsOf(a, a, b);
  if (words) for (let q = 0; q < words.a.length; q++) words.out[q] = onesOf(words.a[q]!) & onesOf(words.b![q]!);
  for (let i = words ? words.a.length * 4 : 0; i < a.length; i++) a[i] = a[i] && b[i] ? 1 : 0;
  return a;
}

/** Indices of the pixels that are set, in raster order. */
export function onPixels(mask: Uint8Array): Int32Array {
  const finder = new RunFinder(mask);
  const n = mask.length;
  let count = 0;
  for (let i = finder.nextOn(0, n); i < n; i = finder.nextOn(i, n)) {
    const end = finder.nextOff(i, n);
    count += end - i;
    i = end;
  }
  const out = new Int32Array(count);
  let j = 0;
  for (let i = finder.nextOn(0, n); i < n; i = finder.nextOn(i, n)) {
    const end = finder.nextOff(i, n);
    while (i < end) out[j++] = i++;
  }
  return out;
}

/** The arrays as 32-bit words (their whole words; the caller finishes the tail), when all are aligned. */
function wordsOf(
  a: Uint8Array,
  out: Uint8Array,
  b?: Uint8Array,
): { a: Uint32Array; out: Uint32Array; b?: Uint32Array } | undefined {
  if ((a.byteOffset | out.byteOffset | (b?.byteOffset ?? 0)) % 4 !== 0) return undefined;
  const n = a.length >> 2;
  return {
    a: new Uint32Array(a.buffer, a.byteOffset, n),
    out: new Uint32Array(out.buffer, out.byteOffset, n),
    b: b && new Uint32Array(b.buffer, b.byteOffset, n),
  };
}
