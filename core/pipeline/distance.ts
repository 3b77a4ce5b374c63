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

export interface DistanceOptions {
  /** Treat everything outside the raster as feature pixels (one pixel beyond the edge). */
  outsideIsFeature?: boolean;
  /** Skip the feature transform when only distances are needed (faster, less memory). */
  withNearest?: boolean;
}

const INF = 1e20;

export function distanceTransform(
  feature: Uint8Array,
  w: number,
  h: number,
  options: DistanceOptions = {},
): DistanceField {
  const { outsideIsFeature = false, withNearest = false } = options;
  const n = w * h;
  // Pass 1, columns: 1D distance (in y) to the nearest feature in the same column, scanned
  // row by row so memory is read in order.
  const colD = new Float64Array(n);
  const colNear = withNearest ? new Int32Array(n) : undefined;
  const last = new Float64Array(w).fill(outsideIsFeature ? -1 : -INF);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (feature[row + x]) last[x] = y;
      colD[row + x] = y - last[x]!;
      if (colNear) colNear[row + x] = last[x]! >= 0 ? last[x]! : -1;
    }
  }
  last.fill(outsideIsFeature ? h : INF);
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
  // Pass 2, rows: lower envelope of parabolas f(q) = colD(q)^2 + (x - q)^2. The outside, when
  // it counts, is a feature column at -1 and at w on every row: a clamp, not extra parabolas.
  const d2 = new Float32Array(n);
  const nearest = new Int32Array(withNearest ? n : 0);
  const f = new Float64Array(w);
  const v = new Int32Array(w);
  const z = new Float64Array(w + 1);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const c = colD[row + x]!;
      f[x] = c >= INF / 2 ? INF : c * c;
    }
    let k = 0;
    v[0] = 0;
    z[0] = -Infinity;
    z[1] = Infinity;
    for (let q = 1; q < w; q++) {
      const fq = f[q]! + q * q;
      let p = v[k]!;
      let s = (fq - (f[p]! + p * p)) / (2 * (q - p));
      while (s <= z[k]!) {
        k--;
        p = v[k]!;
        s = (fq - (f[p]! + p * p)) / (2 * (q - p));
      }
      k++;
      v[k] = q;
      z[k] = s;
      z[k + 1] = Infinity;
    }
    k = 0;
    for (let x = 0; x < w; x++) {
      while (z[k + 1]! < x) k++;
      const p = v[k]!;
      const dx = x - p;
      let value = f[p]! + dx * dx;
      if (outsideIsFeature) {
        const edge = Math.min(x + 1, w - x);
        if (edge * edge < value) value = edge * edge;
      }
      const i = row + x;
      d2[i] = value >= INF / 2 ? Infinity : value;
      if (withNearest) {
        const r = colNear![row + p]!;
        nearest[i] = value >= INF / 2 || r < 0 ? -1 : r * w + p;
      }
    }
  }
  return { d2, nearest };
}
