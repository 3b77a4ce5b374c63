/**
 * Marching squares on a luminance grid at the level 127.5, with linear interpolation along each
 * cell side. The samples are pixel centres; a sample of 0..127 is metal, 128..255 air.
 *
 * Every contour is walked with the metal on the same side (positive cross product), so a loop
 * round metal has a positive signed area and a loop round air a negative one. The saddle rule is
 * fixed: in a cell whose metal corners face each other diagonally, the two metal corners are
 * joined and each air corner is cut off on its own. That makes the metal 8-connected and the air
 * 4-connected, exactly how decisions §4 reads a drawing (the piece is the largest 8-connected dark
 * region; the air outside it is what reaches the border 4-connected).
 *
 * The grid is the piece's box with a pixel of black all round. Air on the box's border is closed
 * along the strip's edge: a crossing between a padding sample and the box lies midway between
 * them, on the edge, and a contour through a corner cell passes through the strip's corner.
 *
 * A crossing is kept at least `minOffset` (in sample units, per axis) from both samples of its
 * side: two contours then never come closer than about that, so rounding the points to
 * thousandths of a millimetre cannot make them touch or cross. The caller chooses it a few
 * micrometres wide; a contour moves by no more than that.
 */
import { LEVEL } from './piece.ts';

export interface Contours {
  /** x0, y0, x1, y1, … of all loops one after another, in sample units (sample (i, j) at (i, j)). */
  points: Float64Array;
  /** Loop n holds the points starts[n] … starts[n + 1] - 1 (point indices, not coordinates). */
  starts: Int32Array;
  count: number;
  /** Twice each loop's signed area, sample units²: positive round metal, negative round air. */
  area2: Float64Array;
  /** One air sample beside each loop (its grid index). */
  airSample: Int32Array;
}

/** Every closed contour at 127.5 of a grid whose outermost samples are all metal. */
export function traceContours(
  luminance: Uint8Array,
  nx: number,
  ny: number,
  minOffset: { x: number; y: number },
): Contours {
  const metal = (s: number): boolean => luminance[s]! < LEVEL;
  const horizontal = (nx - 1) * ny;
  const visited = new Uint8Array(horizontal + nx * (ny - 1));
  // Side k of cell (i, j) runs from corner k to corner k + 1, clockwise on screen:
  // corners (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1); sides top, right, bottom, left.
  const cornerOf = (i: number, j: number, k: number): number =>
    k === 0 ? j * nx + i : k === 1 ? j * nx + i + 1 : k === 2 ? (j + 1) * nx + i + 1 : (j + 1) * nx + i;
  const edgeOf = (i: number, j: number, k: number): number =>
    k === 0
      ? j * (nx - 1) + i
      : k === 1
        ? horizontal + j * nx + i + 1
        : k === 2
          ? (j + 1) * (nx - 1) + i
          : horizontal + j * nx + i;

  let points = new Float64Array(1 << 16);
  let used = 0;
  const starts: number[] = [0];
  const area2: number[] = [];
  const airSample: number[] = [];
  const push = (x: number, y: number): void => {
    if (used + 2 > points.length) {
      const grown = new Float64Array(points.length * 2);
      grown.set(points);
      points = grown;
    }
    points[used++] = x;
    points[used++] = y;
  };
  /** The crossing on edge e, kept `minOffset` clear of both its samples. */
  const crossing = (e: number): void => {
    const isHorizontal = e < horizontal;
    const a = isHorizontal ? Math.floor(e / (nx - 1)) * nx + (e % (nx - 1)) : e - horizontal;
    const b = isHorizontal ? a + 1 : a + nx;
    const va = luminance[a]!;
    const margin = isHorizontal ? minOffset.x : minOffset.y;
    const i = a % nx;
    const j = (a - i) / nx;
    // Beside the padding the air is closed along the strip's edge, midway between the samples,
    // whatever its grey: a pale pixel there is background, not a sliver of metal along the edge.
    const padding = isHorizontal ? i === 0 || i === nx - 2 : j === 0 || j === ny - 2;
    const t = padding ? 0.5 : Math.min(1 - margin, Math.max(margin, (LEVEL - va) / (luminance[b]! - va)));
    if (isHorizontal) push(i + t, j);
    else push(i, j + t);
  };

  const walk = (ci: number, cj: number, k: number, start: number): void => {
    const first = used;
    for (;;) {
      const e = edgeOf(ci, cj, k);
      if (visited[e]) break;
      visited[e] = 1;
      crossing(e);
      // In a corner cell the only sample of the box is its corner pixel: air there is cut off
      // through the strip's corner, not along a diagonal that would leave a speck of metal.
      if ((ci === 0 || ci === nx - 2) && (cj === 0 || cj === ny - 2)) {
        push(ci === 0 ? 0.5 : nx - 1.5, cj === 0 ? 0.5 : ny - 1.5);
      }
      // Leave by the next side clockwise where air turns to metal: each air corner is cut off on
      // its own, so the metal corners of a saddle stay joined.
      let m = (k + 1) % 4;
      while (metal(cornerOf(ci, cj, m)) || !metal(cornerOf(ci, cj, (m + 1) % 4))) m = (m + 1) % 4;
      if (m === 0) cj--;
      else if (m === 1) ci++;
      else if (m === 2) cj++;
      else ci--;
      k = (m + 2) % 4;
    }
    let twice = 0;
    for (let p = first; p < used; p += 2) {
      const q = p + 2 < used ? p + 2 : first;
      twice += points[p]! * points[q + 1]! - points[q]! * points[p + 1]!;
    }
    area2.push(twice);
    airSample.push(start);
    starts.push(used / 2);
  };

  for (let e = 0; e < visited.length; e++) {
    if (visited[e]) continue;
    const isHorizontal = e < horizontal;
    const a = isHorizontal ? Math.floor(e / (nx - 1)) * nx + (e % (nx - 1)) : e - horizontal;
    const b = isHorizontal ? a + 1 : a + nx;
    if (metal(a) === metal(b)) continue;
    const i = a % nx;
    const j = (a - i) / nx;
    const air = metal(a) ? b : a;
    // The cell in which this side runs from metal to air: there the walk enters it.
    if (isHorizontal) {
      if (metal(a)) walk(i, j, 0, air);
      else walk(i, j - 1, 2, air);
    } else if (metal(a)) walk(i - 1, j, 1, air);
    else walk(i, j, 3, air);
  }
  return {
    points: points.subarray(0, used),
    starts: Int32Array.from(starts),
    count: area2.length,
    area2: Float64Array.from(area2),
    airSample: Int32Array.from(airSample),
  };
}
