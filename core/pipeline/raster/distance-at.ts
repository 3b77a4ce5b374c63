import { distanceTransform } from './distance.ts';

/**
 * Exact squared distances to the nearest feature at a few pixels only: what `distanceTransform`
 * would give there (same Float32 values), without transforming the whole raster. Each pixel
 * searches outwards column by column and stops as soon as no nearer feature can exist, which
 * costs about the squared distance found. The pipeline asks this for the thin parts of the
 * metal, a few pixels from what they are measured against; if the searches together would cost
 * more than a few passes over the raster, the full transform answers instead.
 */
export function distancesAt(
  feature: Uint8Array,
  /** Whether the features are the pixels where `feature` is 0 rather than nonzero. */
  featureIsZero: boolean,
  w: number,
  h: number,
  pixels: ArrayLike<number>,
  outsideIsFeature: boolean,
): Float64Array {
  const out = new Float64Array(pixels.length);
  let budget = 4 * w * h + 64 * pixels.length;
  const isFeature = featureIsZero ? (i: number) => feature[i] === 0 : (i: number) => feature[i] !== 0;
  // The nearest feature in column q, if nearer than `best`, at dx columns from (x, y).
  const column = (q: number, y: number, dx: number, best: number): number => {
    if (q < 0 || q >= w) return best;
    for (let dy = 0; dx * dx + dy * dy < best; dy++) {
      budget--;
      const up = y - dy;
      const down = y + dy;
      if ((up >= 0 && isFeature(up * w + q)) || (down < h && isFeature(down * w + q))) return dx * dx + dy * dy;
      if (up < 0 && down >= h) break;
    }
    return best;
  };
  for (let p = 0; p < pixels.length; p++) {
    const i = pixels[p]!;
    const x = i % w;
    const y = (i - x) / w;
    let best = Infinity;
    if (outsideIsFeature) {
      const edge = Math.min(x + 1, w - x, y + 1, h - y);
      best = edge * edge;
    }
    for (let dx = 0; dx * dx < best && (x - dx >= 0 || x + dx < w); dx++) {
      best = column(x - dx, y, dx, best);
      if (dx > 0) best = column(x + dx, y, dx, best);
      if (budget < 0) return fromTransform(feature, featureIsZero, w, h, pixels, outsideIsFeature);
    }
    out[p] = Math.fround(best);
  }
  return out;
}

function fromTransform(
  feature: Uint8Array,
  featureIsZero: boolean,
  w: number,
  h: number,
  pixels: ArrayLike<number>,
  outsideIsFeature: boolean,
): Float64Array {
  const source = featureIsZero ? feature.map((v) => (v ? 0 : 1)) : feature;
  const { d2 } = distanceTransform(source, w, h, { outsideIsFeature });
  return Float64Array.from(pixels, (i) => d2[i]!);
}
