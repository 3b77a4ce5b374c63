/**
 * Closed rings laid end to end: vertex k is (xs[k], ys[k]) of ring `ringOf[k]`, and segment k
 * runs from vertex k to the next vertex of the same ring (`next[k]`, wrapping to the ring's start).
 */
export interface RingSet {
  xs: Float64Array;
  ys: Float64Array;
  ringOf: Int32Array;
  next: Int32Array;
  prev: Int32Array;
  /** First vertex of ring r, and one past its last: `start[r]`..`start[r + 1]`. */
  start: Int32Array;
  count: number;
}

/** Lays rings end to end (see `RingSet`). */
export function ringSet(rings: readonly ArrayLike<number>[]): RingSet {
  let count = 0;
  for (const ring of rings) count += ring.length >> 1;
  const xs = new Float64Array(count);
  const ys = new Float64Array(count);
  const ringOf = new Int32Array(count);
  const next = new Int32Array(count);
  const prev = new Int32Array(count);
  const start = new Int32Array(rings.length + 1);
  let k = 0;
  rings.forEach((ring, r) => {
    const n = ring.length >> 1;
    start[r] = k;
    for (let i = 0; i < n; i++, k++) {
      xs[k] = ring[2 * i]!;
      ys[k] = ring[2 * i + 1]!;
      ringOf[k] = r;
      next[k] = i === n - 1 ? k - n + 1 : k + 1;
      prev[k] = i === 0 ? k + n - 1 : k - 1;
    }
  });
  start[rings.length] = k;
  return { xs, ys, ringOf, next, prev, start, count };
}

/**
 * A uniform grid over the segments of a ring set: each segment is listed in every cell its
 * bounding box overlaps. Two segments that meet share a cell; the segments within one cell size
 * of a point are all in the 3 × 3 cells around it.
 */
export interface SegmentGrid {
  cellSize: number;
  x0: number;
  y0: number;
  cols: number;
  rows: number;
  /** Segments of cell c: `items[first[c]]`..`items[first[c + 1]]`, in increasing order. */
  first: Int32Array;
  items: Int32Array;
}

export function segmentGrid(set: RingSet, cellSize: number): SegmentGrid {
  const { xs, ys, next, count } = set;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < count; k++) {
    if (xs[k]! < minX) minX = xs[k]!;
    if (xs[k]! > maxX) maxX = xs[k]!;
    if (ys[k]! < minY) minY = ys[k]!;
    if (ys[k]! > maxY) maxY = ys[k]!;
  }
  if (count === 0) [minX, minY, maxX, maxY] = [0, 0, 0, 0];
  const cols = Math.max(1, Math.floor((maxX - minX) / cellSize) + 1);
  const rows = Math.max(1, Math.floor((maxY - minY) / cellSize) + 1);
  const cx0 = new Int32Array(count);
  const cx1 = new Int32Array(count);
  const cy0 = new Int32Array(count);
  const cy1 = new Int32Array(count);
  const first = new Int32Array(cols * rows + 1);
  for (let k = 0; k < count; k++) {
    const j = next[k]!;
    cx0[k] = Math.floor((Math.min(xs[k]!, xs[j]!) - minX) / cellSize);
    cx1[k] = Math.floor((Math.max(xs[k]!, xs[j]!) - minX) / cellSize);
    cy0[k] = Math.floor((Math.min(ys[k]!, ys[j]!) - minY) / cellSize);
    cy1[k] = Math.floor((Math.max(ys[k]!, ys[j]!) - minY) / cellSize);
    for (let cy = cy0[k]!; cy <= cy1[k]!; cy++)
      for (let cx = cx0[k]!; cx <= cx1[k]!; cx++) first[cy * cols + cx + 1]!++;
  }
  for (let c = 0; c < cols * rows; c++) first[c + 1]! += first[c]!;
  const fill = first.slice(0, cols * rows);
  const items = new Int32Array(first[cols * rows]!);
  for (let k = 0; k < count; k++) {
    for (let cy = cy0[k]!; cy <= cy1[k]!; cy++)
      for (let cx = cx0[k]!; cx <= cx1[k]!; cx++) items[fill[cy * cols + cx]!++] = k;
  }
  return { cellSize, x0: minX, y0: minY, cols, rows, first, items };
}

/** The column or row of a coordinate, clamped to the grid. */
export const cellOf = (grid: SegmentGrid, v: number, origin: number, n: number): number =>
  Math.min(n - 1, Math.max(0, Math.floor((v - origin) / grid.cellSize)));
