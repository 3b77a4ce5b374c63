import type { StripRaster } from '../raster/raster.ts';

interface ResampleOptions {
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
  // Along the rows (each drawing row once, as the output rows first need it), then down the columns.
  // Where every row an output row reads has one shade, the output is that shade, so each output
  // row starts as a copy of its first row and only the columns where its rows differ (the
  // drawing's edges, a few in a hundred) are weighed. Output rows reading the same rows share that
  // list of columns.
  const rows = new FilteredRows(crop, bw, w, across, down.stride);
  const data = new Uint8Array(w * h);
  const shade = new Uint8Array(w * h);
  const columns = new Int32Array(w);
  const offsets = new Int32Array(down.stride);
  let columnCount = 0;
  let listed = -1;
  for (let y = 0; y < h; y++) {
    const first = down.first[y]!;
    const count = down.count[y]!;
    rows.filterTo(first + count - 1);
    for (let t = 0; t < count; t++) offsets[t] = rows.offset(first + t);
    if (listed !== first * down.stride + count) {
      listed = first * down.stride + count;
      columnCount = differingColumns(rows.shades, offsets, count, w, columns);
    }
    shade.set(rows.shades.subarray(offsets[0]!, offsets[0]! + w), y * w);
    data.set(rows.bits.subarray(offsets[0]!, offsets[0]! + w), y * w);
    const taps = { weights: down.weights, at: y * down.stride, count };
    weighColumns(rows.shades, offsets, taps, columns, columnCount, shade, data, y * w);
  }
  return { w, h, data, shade, mmPerPxX: strip.lengthMm / w, mmPerPxY: strip.widthMm / h };
}

/**
 * The drawing's rows filtered along the row onto the strip's width, each once and in order, kept
 * only while an output row still reads them: a ring of as many rows as one output row reads. A
 * whole filtered copy of the drawing (up to 13 MB from a 24 MP drawing) cost more in fresh memory
 * first touched than in arithmetic.
 */
class FilteredRows {
  /** The filtered shades (255 less the luminance) of the rows in the ring, `w` each. */
  readonly shades: Uint8Array;
  /** Their top bits: 1 where the filtered shade is at least 128. */
  readonly bits: Uint8Array;
  private readonly rounded: Uint8ClampedArray;
  private readonly crop: Uint8Array;
  private readonly bw: number;
  private readonly w: number;
  private readonly across: Taps;
  private readonly slots: number;
  private next = 0;

  constructor(crop: Uint8Array, bw: number, w: number, across: Taps, slots: number) {
    this.crop = crop;
    this.bw = bw;
    this.w = w;
    this.across = across;
    this.slots = slots;
    // Filtered sums are stored through the clamped view, which rounds them as a byte would be.
    this.rounded = new Uint8ClampedArray(slots * w);
    this.shades = new Uint8Array(this.rounded.buffer);
    this.bits = new Uint8Array(slots * w);
  }

  /** Filters every row up to `last` not yet filtered. Rows are asked for in order, never again once passed. */
  filterTo(last: number): void {
    for (; this.next <= last; this.next++) {
      const at = this.offset(this.next);
      filterRow(this.crop, this.next * this.bw, this.rounded, at, this.across);
      topBits(this.shades, at, this.w, this.bits);
    }
  }

  /** Where row `row` starts in `shades` and `bits`. */
  offset(row: number): number {
    return (row % this.slots) * this.w;
  }
}

/** 1 in `bits` where `shades` is at least 128, over `w` bytes from `at`. */
function topBits(shades: Uint8Array, at: number, w: number, bits: Uint8Array): void {
  for (let x = at; x < at + w; x++) bits[x] = shades[x]! >>> 7;
}

/** The columns (into `into`, how many returned) where the `count` rows at `offsets` are not all one shade. */
function differingColumns(rows: Uint8Array, offsets: Int32Array, count: number, w: number, into: Int32Array): number {
  let n = 0;
  const first = offsets[0]!;
  for (let x = 0; x < w; x++) {
    const v = rows[first + x]!;
    for (let t = 1; t < count; t++) {
      if (rows[offsets[t]! + x] !== v) {
        into[n++] = x;
        break;
      }
    }
  }
  return n;
}

/**
 * Output row `at` of `shade` and `data` at the listed columns, weighed from the rows at `offsets`.
 * A function of its own, called once per output row, so that V8 compiles it whole: compiled on
 * the stack inside the loop over rows, it left its compiled code at every row and ran interpreted.
 */
function weighColumns(
  rows: Uint8Array,
  offsets: Int32Array,
  taps: { weights: Float32Array; at: number; count: number },
  columns: Int32Array,
  columnCount: number,
  shade: Uint8Array,
  data: Uint8Array,
  at: number,
): void {
  const { weights, count } = taps;
  for (let c = 0; c < columnCount; c++) {
    const x = columns[c]!;
    // Summed in single precision, tap by tap, as the shades have always been.
    let sum = 0;
    for (let t = 0; t < count; t++) sum = Math.fround(sum + weights[taps.at + t]! * rows[offsets[t]! + x]!);
    // Rounded as a byte would be, then its top bit: at least 128 is metal.
    const v = Math.min(255, Math.round(sum));
    shade[at + x] = v;
    data[at + x] = v >>> 7;
  }
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
