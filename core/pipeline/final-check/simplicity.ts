import { cellOf, type RingSet, type SegmentGrid } from './segment-grid.ts';

type SimplicityKind = 'zero-length' | 'back-tracking' | 'self-crossing' | 'rings-touch' | 'outside-strip';

/** Where a ring is not a simple polygon, or two rings meet: a point in file units and the rings involved. */
export interface SimplicityProblem {
  kind: SimplicityKind;
  x: number;
  y: number;
  ring: number;
  other: number;
  /** The two segments that meet (self-crossing, rings-touch), for mending. */
  segments?: [number, number];
}

/** Sign of the turn a → b → c; exact for coordinates in thousandths (products stay below 2^53). */
export const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number =>
  Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));

const within = (a: number, b: number, v: number) => (a <= b ? a <= v && v <= b : b <= v && v <= a);

/** Whether the closed segments pq and rs share a point (crossing, touching or overlapping). */
export function segmentsMeet(
  px: number,
  py: number,
  qx: number,
  qy: number,
  rx: number,
  ry: number,
  sx: number,
  sy: number,
): boolean {
  const d1 = orient(rx, ry, sx, sy, px, py);
  const d2 = orient(rx, ry, sx, sy, qx, qy);
  const d3 = orient(px, py, qx, qy, rx, ry);
  const d4 = orient(px, py, qx, qy, sx, sy);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  const on = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
    within(ax, bx, cx) && within(ay, by, cy);
  return (
    (d1 === 0 && on(rx, ry, sx, sy, px, py)) ||
    (d2 === 0 && on(rx, ry, sx, sy, qx, qy)) ||
    (d3 === 0 && on(px, py, qx, qy, rx, ry)) ||
    (d4 === 0 && on(px, py, qx, qy, sx, sy))
  );
}

/**
 * Every departure from simple, separate rings: a zero-length segment, a segment that turns straight
 * back along the previous one, two segments of one ring that meet other than at their shared end,
 * and two rings that touch or cross. The grid must list each segment in every cell its box overlaps.
 */
export function simplicityProblems(set: RingSet, grid: SegmentGrid): SimplicityProblem[] {
  const { xs, ys, next, prev, ringOf, count } = set;
  const problems: SimplicityProblem[] = [];
  for (let k = 0; k < count; k++) {
    const j = next[k]!;
    const i = prev[k]!;
    const r = ringOf[k]!;
    if (xs[k] === xs[j] && ys[k] === ys[j]) {
      problems.push({ kind: 'zero-length', x: xs[k]!, y: ys[k]!, ring: r, other: r });
      continue;
    }
    const ax = xs[k]! - xs[i]!;
    const ay = ys[k]! - ys[i]!;
    const bx = xs[j]! - xs[k]!;
    const by = ys[j]! - ys[k]!;
    if (ax * by - ay * bx === 0 && ax * bx + ay * by < 0) {
      problems.push({ kind: 'back-tracking', x: xs[k]!, y: ys[k]!, ring: r, other: r });
    }
  }
  const { first, items, cols, rows, x0, y0 } = grid;
  const cell = (v: number, origin: number, n: number) => cellOf(grid, v, origin, n);
  for (let k = 0; k < count; k++) {
    const j = next[k]!;
    const minX = Math.min(xs[k]!, xs[j]!);
    const maxX = Math.max(xs[k]!, xs[j]!);
    const minY = Math.min(ys[k]!, ys[j]!);
    const maxY = Math.max(ys[k]!, ys[j]!);
    const cx0 = cell(minX, x0, cols);
    const cx1 = cell(maxX, x0, cols);
    const cy0 = cell(minY, y0, rows);
    const cy1 = cell(maxY, y0, rows);
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const c = cy * cols + cx;
        for (let e = first[c]!; e < first[c + 1]!; e++) {
          const t = items[e]!;
          if (t <= k || t === j || next[t] === k) continue;
          const u = next[t]!;
          const tMinX = Math.min(xs[t]!, xs[u]!);
          const tMinY = Math.min(ys[t]!, ys[u]!);
          if (tMinX > maxX || Math.max(xs[t]!, xs[u]!) < minX || tMinY > maxY || Math.max(ys[t]!, ys[u]!) < minY)
            continue;
          // The pair is met in every cell both boxes share: answer it in the one holding their overlap's corner.
          if (cell(Math.max(minX, tMinX), x0, cols) !== cx || cell(Math.max(minY, tMinY), y0, rows) !== cy) continue;
          if (!segmentsMeet(xs[k]!, ys[k]!, xs[j]!, ys[j]!, xs[t]!, ys[t]!, xs[u]!, ys[u]!)) continue;
          const r = ringOf[k]!;
          const o = ringOf[t]!;
          const [x, y] = meetingPoint(xs[k]!, ys[k]!, xs[j]!, ys[j]!, xs[t]!, ys[t]!, xs[u]!, ys[u]!);
          problems.push({ kind: r === o ? 'self-crossing' : 'rings-touch', x, y, ring: r, other: o, segments: [k, t] });
        }
      }
    }
  }
  return problems;
}

/** Where two meeting segments meet: their crossing point, or a shared point when they are collinear. */
export function meetingPoint(
  px: number,
  py: number,
  qx: number,
  qy: number,
  rx: number,
  ry: number,
  sx: number,
  sy: number,
): [number, number] {
  const dx = qx - px;
  const dy = qy - py;
  const ex = sx - rx;
  const ey = sy - ry;
  const denom = dx * ey - dy * ex;
  if (denom !== 0) {
    const t = ((rx - px) * ey - (ry - py) * ex) / denom;
    return [px + t * dx, py + t * dy];
  }
  // Collinear overlap: an end of one segment lies on the other.
  if (within(rx, sx, px) && within(ry, sy, py)) return [px, py];
  if (within(rx, sx, qx) && within(ry, sy, qy)) return [qx, qy];
  return [rx, ry];
}
