/**
 * What a disc reaches, for small integer depths, without a full distance transform. It only
 * asks "is the nearest feature closer than a few pixels?", so column distances capped at the
 * depth (bytes) and, per row, the union of the short intervals each near column rules in or
 * out answer it exactly: same integers, same comparisons as thresholding the exact transform.
 * Each stage reads the raster three times (down the columns, then per row from the bottom: up
 * the columns fused with a right-to-left sweep, then a left-to-right sweep).
 */
import { MAX_BITS_DEPTH, discReachBits } from './disc-reach-bits.ts';

/** The largest depth handled here: capped column distances are bytes. */
export const MAX_BOUNDED_DEPTH = 254;

/**
 * `discReach` for an integer depth in 1..MAX_BOUNDED_DEPTH: the pixels of `mask` within
 * (depth - 0.5) of a core pixel, the core being the pixels at least `depth` from every pixel
 * outside the mask (and from the outside of the raster when `outsideIsComplement`).
 */
export function discReachSweeps(
  mask: Uint8Array,
  w: number,
  h: number,
  depth: number,
  outsideIsComplement: boolean,
  /** When given (w × h, zeroed), receives the pixels outside the core as 0/1 bytes. */
  beyondCoreOut?: Uint8Array,
): Uint8Array {
  // The pipeline's depths: 32 pixels per step, dense or sparse (measured faster on both).
  if (depth <= MAX_BITS_DEPTH) return discReachBits(mask, w, h, depth, outsideIsComplement, beyondCoreOut);
  const n = w * h;
  const col = new Uint8Array(n);
  // Erosion: x is in the core when every feature (pixel off the mask) is at least `depth`
  // away: colD^2 + dx^2 >= depth^2 for every column. A column whose nearest feature is c < depth
  // rows away rules out the pixels within |dx| <= (largest dx with c^2 + dx^2 < depth^2).
  const beyond = outsideIsComplement ? 0 : depth;
  columnsDown(mask, true, w, h, depth, beyond, col);
  const core = new Uint8Array(n);
  const outOfCore = reachTable(depth, (c, dx) => c * c + dx * dx < depth * depth);
  // Beyond the left and right ends, the outside counts like a feature column.
  const first = outsideIsComplement ? depth - 1 : 0;
  const last = outsideIsComplement ? w - depth : w - 1;
  let any = 0;
  for (let y = h - 1; y >= 0; y--) {
    const row = y * w;
    columnsUpSweepLeft(col, row, w, y < h - 1 ? -1 : beyond, outOfCore, core);
    let to = -1;
    for (let x = 0; x < w; x++) {
      const r = outOfCore[col[row + x]!]!;
      if (x + r > to) to = x + r;
      const inCore = to >= x || core[row + x] || x < first || x > last ? 0 : 1;
      core[row + x] = inCore;
      any |= inCore;
    }
  }
  if (beyondCoreOut) for (let i = 0; i < n; i++) beyondCoreOut[i] = core[i]! ^ 1;
  const reached = new Uint8Array(n);
  if (!any) return reached;
  // Dilation: a mask pixel stays when some core pixel lies within depth - 0.5, i.e. at a squared
  // distance of at most depth^2 - depth (integers): within depth - 1 rows and columns.
  columnsDown(core, false, w, h, depth, depth, col);
  const covered = reachTable(depth, (c, dx) => c * c + dx * dx <= depth * depth - depth);
  for (let y = h - 1; y >= 0; y--) {
    const row = y * w;
    columnsUpSweepLeft(col, row, w, y < h - 1 ? -1 : depth, covered, reached);
    let to = -1;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      const r = covered[col[i]!]!;
      if (x + r > to) to = x + r;
      reached[i] = (to >= x || reached[i]) && mask[i] ? 1 : 0;
    }
  }
  return reached;
}

/**
 * Indexed by a capped column distance c: the largest |dx| with `reaches(c, dx)`, or -depth (so
 * that x + r and x - r reach nothing) when none does; the cap itself never reaches.
 */
function reachTable(depth: number, reaches: (c: number, dx: number) => boolean): Int32Array {
  const table = new Int32Array(256).fill(-depth - 1);
  for (let c = 0; c < depth; c++) for (let dx = 0; dx < depth && reaches(c, dx); dx++) table[c] = dx;
  return table;
}

/**
 * First half of the capped column distances: distance to the nearest feature above in the
 * same column (or the row above the raster, at distance `beyond` + 1 counted from row 0),
 * capped at `cap`. Features are the pixels where `src` is 0 (`featureIsZero`) or nonzero.
 */
function columnsDown(
  src: Uint8Array,
  featureIsZero: boolean,
  w: number,
  h: number,
  cap: number,
  beyond: number,
  col: Uint8Array,
): void {
  const n = w * h;
  const next = new Uint8Array(256);
  for (let c = 0; c < 256; c++) next[c] = c < cap ? c + 1 : cap;
  const top = next[beyond]!;
  // Two copies of the loop rather than a test per pixel on which value is a feature.
  if (featureIsZero) {
    for (let i = 0; i < w && i < n; i++) col[i] = src[i] === 0 ? 0 : top;
    for (let i = w; i < n; i++) col[i] = src[i] === 0 ? 0 : next[col[i - w]!]!;
  } else {
    for (let i = 0; i < w && i < n; i++) col[i] = src[i] !== 0 ? 0 : top;
    for (let i = w; i < n; i++) col[i] = src[i] !== 0 ? 0 : next[col[i - w]!]!;
  }
}

/**
 * Second half of the column distances for one row (the row below is final, or `beyond` is the
 * distance of the row past the bottom edge when >= 0), fused with the right-to-left half of
 * the row's interval union: out[row + x] = 1 where a column q >= x reaches back to x.
 */
function columnsUpSweepLeft(
  col: Uint8Array,
  row: number,
  w: number,
  beyond: number,
  table: Int32Array,
  out: Uint8Array,
): void {
  let from = w;
  for (let x = w - 1; x >= 0; x--) {
    const i = row + x;
    const below = (beyond >= 0 ? beyond : col[i + w]!) + 1;
    let c = col[i]!;
    if (below < c) col[i] = c = below;
    const r = table[c]!;
    if (x - r < from) from = x - r;
    out[i] = from <= x ? 1 : 0;
  }
}
