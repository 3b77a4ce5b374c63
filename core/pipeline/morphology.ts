import { MAX_BOUNDED_DEPTH, openByDisc } from './disc-open.ts';
import { distanceTransform } from './distance.ts';

/**
 * Widths on a pixel grid. A band W pixels wide has its deepest pixel centre floor((W+1)/2)
 * from the nearest outside pixel centre, so a floor of `widthPx` is enforced as "some centre
 * at least ceil(widthPx/2 + 0.5) deep": the raster keeps one pixel of margin over the floor,
 * which absorbs the tracer's half-pixel placement of each edge.
 */
export const depthForWidth = (widthPx: number): number => Math.ceil(widthPx / 2 + 0.5);

/**
 * Morphological opening of `mask` by a disc: the pixels covered by some disc that fits inside
 * the mask with its centre at least `depth` from the outside. What it removes is everything
 * narrower than the width that depth stands for (see `depthForWidth`).
 */
export function openMask(
  mask: Uint8Array,
  w: number,
  h: number,
  depth: number,
  outsideIsComplement: boolean,
): Uint8Array {
  // The pipeline's depths are small integers: thresholds at a few pixels need no full transform.
  if (Number.isInteger(depth) && depth >= 1 && depth <= MAX_BOUNDED_DEPTH) {
    return openByDisc(mask, w, h, depth, outsideIsComplement);
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
  const opened = new Uint8Array(mask.length);
  if (!any) return opened;
  const { d2: toCore } = distanceTransform(eroded, w, h);
  const reach = (depth - 0.5) * (depth - 0.5);
  for (let i = 0; i < mask.length; i++) if (mask[i] && toCore[i]! <= reach) opened[i] = 1;
  return opened;
}

export function invert(mask: Uint8Array): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) out[i] = mask[i] ? 0 : 1;
  return out;
}

/** Pixels of `a` not in `b`. */
export function minus(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] && !b[i] ? 1 : 0;
  return out;
}

/** Indices of the pixels that are set, in raster order. */
export function onPixels(mask: Uint8Array): Int32Array {
  let count = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]) count++;
  const out = new Int32Array(count);
  for (let i = 0, j = 0; j < count; i++) if (mask[i]) out[j++] = i;
  return out;
}
