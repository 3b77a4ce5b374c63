/**
 * Exact Euclidean distance transform of a raster (Felzenszwalb & Huttenlocher, "Distance
 * Transforms of Sampled Functions", 2012), separable, with pixels dx × dy mm.
 *
 * Pass 1 finds, for every pixel, the nearest feature in its own column; it is done as two row
 * sweeps (down, then up) so memory is read in order. Pass 2 takes, along each row, the lower
 * envelope of the parabolas dx²·(i − p)² + g(p) where g is pass 1's squared column distance: the
 * minimum over p is the exact squared distance to the nearest feature, and the p reached, with the
 * row pass 1 found for it, is that feature (the feature transform).
 */

/** What `distanceTransform` answers. */
export interface DistanceField {
  /** Squared distance, mm², from each pixel centre to the nearest feature pixel centre (Infinity if none). */
  sq: Float32Array;
  /** Index of that nearest feature pixel (-1 if there is none); null unless asked for. */
  nearest: Int32Array | null;
}

/**
 * The exact squared Euclidean distance from every pixel centre to the nearest pixel whose value is
 * `featureValue` (0 on features), and optionally the index of that pixel; ties go to either. The
 * indices are worked out in `scratch` when given (nx × ny, overwritten; it is the answer's `nearest`).
 */
export function distanceTransform(
  values: Uint8Array,
  featureValue: number,
  nx: number,
  ny: number,
  dx: number,
  dy: number,
  options: { nearest?: boolean; scratch?: Int32Array } = {},
): DistanceField {
  const count = nx * ny;
  if (values.length !== count) throw new Error(`raster holds ${values.length} values, not ${nx} × ${ny}`);
  // Pass 1 writes the nearest feature row of each pixel's column here; pass 2 overwrites each row
  // with the feature index once that row has been read.
  const nearest = options.scratch ?? new Int32Array(count);
  nearestRowInColumn(values, featureValue, nx, ny, nearest);
  const sq = new Float32Array(count);
  nearestAlongRows(nearest, nx, ny, dx, dy, sq);
  return { sq, nearest: options.nearest ? nearest : null };
}

/** Pass 1: `rowOf[k]` = the row of the nearest feature in pixel k's column, or -1. */
function nearestRowInColumn(values: Uint8Array, featureValue: number, nx: number, ny: number, rowOf: Int32Array): void {
  const last = new Int32Array(nx).fill(-1);
  for (let j = 0; j < ny; j++) {
    const base = j * nx;
    for (let i = 0; i < nx; i++) {
      if (values[base + i] === featureValue) last[i] = j;
      rowOf[base + i] = last[i]!;
    }
  }
  const next = last.fill(-1);
  for (let j = ny - 1; j >= 0; j--) {
    const base = j * nx;
    for (let i = 0; i < nx; i++) {
      if (values[base + i] === featureValue) next[i] = j;
      const below = next[i]!;
      const above = rowOf[base + i]!;
      if (below >= 0 && (above < 0 || below - j < j - above)) rowOf[base + i] = below;
    }
  }
}

/** Pass 2: lower envelope of parabolas along every row; turns `rowOf` into feature indices. */
function nearestAlongRows(rowOf: Int32Array, nx: number, ny: number, dx: number, dy: number, sq: Float32Array): void {
  const dx2 = dx * dx;
  const dy2 = dy * dy;
  const columnSq = new Float64Array(nx); // dx²·q²
  for (let q = 0; q < nx; q++) columnSq[q] = dx2 * q * q;
  const rows = new Int32Array(nx); // pass 1's feature row for each pixel of the row
  const apex = new Int32Array(nx); // v: columns of the parabolas in the envelope
  const lift = new Float64Array(nx); // g(v) + dx²·v² of each parabola in the envelope
  const depth = new Float64Array(nx); // g(v)
  const from = new Float64Array(nx + 1); // z: where each parabola of the envelope starts
  for (let j = 0; j < ny; j++) {
    const base = j * nx;
    let k = -1;
    for (let q = 0; q < nx; q++) {
      const row = rowOf[base + q]!;
      rows[q] = row;
      if (row < 0) continue; // no feature in this column: no parabola
      // Inside a run of features on this row a parabola is never lowest beyond the run, where the
      // run's ends are nearer: only the ends enter the envelope.
      if (row === j && q > 0 && q < nx - 1 && rowOf[base + q - 1] === j && rowOf[base + q + 1] === j) continue;
      const gq = (j - row) * (j - row) * dy2;
      const liftQ = gq + columnSq[q]!;
      if (k < 0) {
        k = 0;
        apex[0] = q;
        lift[0] = liftQ;
        depth[0] = gq;
        from[0] = -Infinity;
        from[1] = Infinity;
        continue;
      }
      let s = (liftQ - lift[k]!) / (2 * dx2 * (q - apex[k]!));
      while (s <= from[k]!) {
        k--; // from[0] is -Infinity, so k never drops below 0
        s = (liftQ - lift[k]!) / (2 * dx2 * (q - apex[k]!));
      }
      k++;
      apex[k] = q;
      lift[k] = liftQ;
      depth[k] = gq;
      from[k] = s;
      from[k + 1] = Infinity;
    }
    if (k < 0) {
      sq.fill(Infinity, base, base + nx);
      rowOf.fill(-1, base, base + nx);
      continue;
    }
    k = 0;
    for (let q = 0; q < nx; q++) {
      if (rows[q] === j) {
        sq[base + q] = 0; // a feature itself
        rowOf[base + q] = base + q;
        continue;
      }
      while (from[k + 1]! < q) k++;
      const p = apex[k]!;
      sq[base + q] = dx2 * (q - p) * (q - p) + depth[k]!;
      rowOf[base + q] = rows[p]! * nx + p;
    }
  }
}
