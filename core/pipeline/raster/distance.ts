/**
 * Exact Euclidean distance transform (Felzenszwalb & Huttenlocher, separable lower envelope of
 * parabolas) between pixel centres, with the feature transform: for every pixel, the squared
 * distance to the nearest feature pixel and that pixel's index.
 */
export interface DistanceField {
  /** Squared distance in pixels to the nearest feature; Infinity when there is none. */
  d2: Float32Array;
  /** Index of the nearest feature pixel, or -1. */
  nearest: Int32Array;
}

interface DistanceOptions {
  /** Treat everything outside the raster as feature pixels (one pixel beyond the edge). */
  outsideIsFeature?: boolean;
  /** Skip the feature transform when only distances are needed (faster, less memory). */
  withNearest?: boolean;
}

/** Column distance of a column with no feature: far beyond any raster, and still an Int32. */
const NONE = 0x3fffffff;

export function distanceTransform(
  feature: Uint8Array,
  w: number,
  h: number,
  options: DistanceOptions = {},
): DistanceField {
  const { outsideIsFeature = false, withNearest = false } = options;
  const n = w * h;
  // The outputs double as the column pass's scratch: each row's column distances (and nearest
  // rows) are copied out before the row pass overwrites them, which saves two full-size arrays.
  const d2 = new Float32Array(n);
  const nearest = new Int32Array(withNearest ? n : 0);
  columnPass(feature, w, h, outsideIsFeature, d2, withNearest ? nearest : undefined);
  rowPass(w, h, outsideIsFeature, d2, withNearest ? nearest : undefined);
  return { d2, nearest };
}

/**
 * Pass 1, columns: 1D distance (in y) to the nearest feature in the same column, scanned row by
 * row so memory is read in order. Where the feature above and the one below are equally near,
 * the one above is kept. NONE marks a column without feature (never with the outside counted);
 * `colNear` gets the feature's row, or -1 for none or the outside.
 */
function columnPass(
  feature: Uint8Array,
  w: number,
  h: number,
  outside: boolean,
  colD: Float32Array,
  colNear: Int32Array | undefined,
): void {
  const last = new Int32Array(w).fill(outside ? -1 : -NONE);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (feature[row + x]) last[x] = y;
      const d = y - last[x]!;
      colD[row + x] = d > NONE ? NONE : d;
    }
    if (colNear) for (let x = 0; x < w; x++) colNear[row + x] = last[x]! >= 0 ? last[x]! : -1;
  }
  last.fill(outside ? h : h + NONE);
  for (let y = h - 1; y >= 0; y--) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      if (feature[i]) last[x] = y;
      const dn = last[x]! - y;
      if (dn < colD[i]!) {
        colD[i] = dn;
        if (colNear) colNear[i] = last[x]! < h ? last[x]! : -1;
      }
    }
  }
}

/**
 * Pass 2, rows: lower envelope of parabolas f(q) = colD(q)^2 + (x - q)^2 over the columns that
 * have a feature (a column without one is never nearest, so it is left out rather than given an
 * infinite parabola). The outside, when it counts, is a feature column at -1 and at w on every
 * row: a clamp, not extra parabolas. The envelope's breakpoints are computed in doubles from
 * exact integers, so ties between equally near features always resolve the same way.
 */
function rowPass(w: number, h: number, outside: boolean, d2: Float32Array, nearest: Int32Array | undefined): void {
  const f = new Float64Array(w);
  const g = new Float64Array(w);
  const near = nearest ? new Int32Array(w) : undefined;
  const v = new Int32Array(w);
  const z = new Float64Array(w + 1);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let k = -1;
    for (let q = 0; q < w; q++) {
      const c = d2[row + q]!;
      if (near) near[q] = nearest![row + q]!;
      if (c >= NONE) continue;
      const fq = c * c;
      const gq = fq + q * q;
      f[q] = fq;
      g[q] = gq;
      if (k < 0) {
        k = 0;
        v[0] = q;
        z[0] = -Infinity;
        z[1] = Infinity;
        continue;
      }
      let p = v[k]!;
      let s = (gq - g[p]!) / (2 * (q - p));
      while (s <= z[k]!) {
        k--;
        p = v[k]!;
        s = (gq - g[p]!) / (2 * (q - p));
      }
      k++;
      v[k] = q;
      z[k] = s;
      z[k + 1] = Infinity;
    }
    if (k < 0) {
      // No feature on this row's columns: only the outside (if it counts) is near.
      for (let x = 0; x < w; x++) {
        const edge = Math.min(x + 1, w - x);
        d2[row + x] = outside ? edge * edge : Infinity;
        if (nearest) nearest[row + x] = -1;
      }
      continue;
    }
    k = 0;
    for (let x = 0; x < w; x++) {
      while (z[k + 1]! < x) k++;
      const p = v[k]!;
      const dx = x - p;
      let value = f[p]! + dx * dx;
      if (outside) {
        const edge = Math.min(x + 1, w - x);
        if (edge * edge < value) value = edge * edge;
      }
      d2[row + x] = value;
      if (nearest) {
        const r = near![p]!;
        nearest[row + x] = r < 0 ? -1 : r * w + p;
      }
    }
  }
}
