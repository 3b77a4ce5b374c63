import type { StripRaster } from './raster.ts';

export interface ResampleOptions {
  /** Target working resolution in millimetres per pixel. */
  mmPerPx: number;
  /** Above this many working pixels the resolution is coarsened to stay within it. */
  maxPixels: number;
}

/**
 * The kept drawing (`crop`: the piece's box row by row, as `Regions.keep` holds it: 255 less the
 * luminance, so at least 128 is metal) resampled onto the strip at millimetre scale (stretching it
 * if the scale says so) and thresholded at 128: metal wherever the drawing, read between its pixel
 * centres, is darker than the contract's 128. The resampled shades are kept with it (`shade`):
 * the final tracing reads the drawn edge from them where potrace's curves stray from it.
 *
 * The shades are interpolated, not the thresholded pixels: an edge then lands where the drawing's
 * grey crosses 128, a fraction of a drawing pixel, as a faithful trace of the drawing puts it.
 * Thresholding first moved every edge to a drawing pixel's boundary, up to half a drawing pixel
 * (0.06 mm on the recommended canvas) off: a slit drawn 0.24 mm wide came out 0.2 mm and was refused.
 * A linear (tent) filter per axis, centred on pixel centres: between two pixels' centres when
 * enlarging, widened to the pixel ratio when reducing, so that a 24 MP drawing's hairlines average
 * out rather than fall on working pixels at random.
 */
export function resampleToStrip(
  crop: Uint8Array,
  box: { x0: number; y0: number; x1: number; y1: number },
  strip: { lengthMm: number; widthMm: number },
  options: ResampleOptions,
): StripRaster {
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const area = strip.lengthMm * strip.widthMm;
  const mmPerPx = Math.max(options.mmPerPx, Math.sqrt(area / options.maxPixels));
  const w = Math.max(1, Math.round(strip.lengthMm / mmPerPx));
  const h = Math.max(1, Math.round(strip.widthMm / mmPerPx));
  const across = tentWeights(bw, w);
  const down = tentWeights(bh, h);
  // Along the rows first: the intermediate is bh x w.
  const rows = new Uint8ClampedArray(bh * w);
  for (let y = 0; y < bh; y++) filterRow(crop, y * bw, rows, y * w, across);
  // Then down the columns, a whole output row at a time (the rows are read in order).
  const data = new Uint8Array(w * h);
  const shade = new Uint8Array(w * h);
  const sum = new Float32Array(w);
  for (let y = 0; y < h; y++) {
    sum.fill(0);
    for (let t = 0; t < down.count[y]!; t++) {
      const weight = down.weights[y * down.stride + t]!;
      const row = (down.first[y]! + t) * w;
      for (let x = 0; x < w; x++) sum[x] = sum[x]! + weight * rows[row + x]!;
    }
    // Rounded as a byte would be, then its top bit: at least 128 is metal.
    for (let x = 0; x < w; x++) {
      const v = Math.min(255, Math.round(sum[x]!));
      shade[y * w + x] = v;
      data[y * w + x] = v >>> 7;
    }
  }
  return { w, h, data, shade, mmPerPxX: strip.lengthMm / w, mmPerPxY: strip.widthMm / h };
}

/** Per output pixel of one axis: the first input pixel it reads, how many, and their weights (summing to 1). */
interface Taps {
  first: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  /** Largest count: the stride of `weights`. */
  stride: number;
}

/**
 * A tent filter from `n` input pixels onto `m` output pixels: output j's centre lies at input
 * coordinate (j + 0.5) n / m - 0.5 (pixel centres at whole numbers), and the tent is one input pixel
 * wide each side, or one output pixel's worth of input when reducing. Beyond the ends the edge
 * pixels repeat: the piece's box is metal at its border.
 */
function tentWeights(n: number, m: number): Taps {
  const radius = Math.max(1, n / m);
  const stride = Math.ceil(2 * radius) + 1;
  const first = new Int32Array(m);
  const count = new Int32Array(m);
  const weights = new Float32Array(m * stride);
  for (let j = 0; j < m; j++) {
    const centre = ((j + 0.5) * n) / m - 0.5;
    const from = Math.ceil(centre - radius);
    const to = Math.floor(centre + radius);
    let sum = 0;
    let k = 0;
    // Taps beyond an end fold onto the edge pixel: the weights stay per input pixel.
    const lo = Math.max(0, Math.min(n - 1, from));
    for (let i = from; i <= to; i++) {
      const weight = Math.max(0, 1 - Math.abs(i - centre) / radius);
      const at = Math.max(0, Math.min(n - 1, i)) - lo;
      weights[j * stride + at] = weights[j * stride + at]! + weight;
      k = Math.max(k, at + 1);
      sum += weight;
    }
    for (let t = 0; t < k; t++) weights[j * stride + t] = weights[j * stride + t]! / sum;
    first[j] = lo;
    count[j] = k;
  }
  return { first, count, weights, stride };
}

/** One row of `to` (from `at`) filtered from one row of `from` (from `start`). */
function filterRow(from: Uint8Array, start: number, to: Uint8ClampedArray, at: number, taps: Taps): void {
  const { first, count, weights, stride } = taps;
  for (let j = 0; j < first.length; j++) {
    let sum = 0;
    const base = start + first[j]!;
    for (let t = 0; t < count[j]!; t++) sum += weights[j * stride + t]! * from[base + t]!;
    to[at + j] = sum;
  }
}
