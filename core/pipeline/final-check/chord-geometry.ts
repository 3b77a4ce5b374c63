import { cellOf, type RingSet, type SegmentGrid } from './segment-grid.ts';

/*
 * The geometry of one chord between two places of a ring set (see widths.ts): which side of the
 * boundary it leaves into, whether it is square to the walls, whether another segment crosses it.
 */

/**
 * Segments k and s running opposite ways side by side (within a few degrees of parallel, their
 * projections overlapping): the chord from the middle of the overlap on k straight across to s, as
 * (u on k, t on s). Two such walls are equally near all along the overlap, and their nearest
 * vertices may be joined by one of the loop's own edges (the flat end of a slot): only a chord
 * from inside the overlap crosses what lies between them.
 */
export function facingChord(set: RingSet, k: number, s: number): [number, number] | undefined {
  const { xs, ys, next } = set;
  const k1 = next[k]!;
  const s1 = next[s]!;
  const kx = xs[k1]! - xs[k]!;
  const ky = ys[k1]! - ys[k]!;
  const sx = xs[s1]! - xs[s]!;
  const sy = ys[s1]! - ys[s]!;
  const dot = kx * sx + ky * sy;
  if (dot >= 0) return undefined;
  const cross = kx * sy - ky * sx;
  const k2 = kx * kx + ky * ky;
  const s2 = sx * sx + sy * sy;
  if (k2 === 0 || s2 === 0 || cross * cross > PARALLEL_SIN2 * k2 * s2) return undefined;
  const u0 = ((xs[s]! - xs[k]!) * kx + (ys[s]! - ys[k]!) * ky) / k2;
  const u1 = ((xs[s1]! - xs[k]!) * kx + (ys[s1]! - ys[k]!) * ky) / k2;
  const lo = Math.max(0, Math.min(u0, u1));
  const hi = Math.min(1, Math.max(u0, u1));
  if (hi - lo <= 1e-9) return undefined;
  const u = (lo + hi) / 2;
  const mx = xs[k]! + u * kx;
  const my = ys[k]! + u * ky;
  const t = Math.min(1, Math.max(0, ((mx - xs[s]!) * sx + (my - ys[s]!) * sy) / s2));
  return u > 0 && u < 1 && t > 0 && t < 1 ? [u, t] : undefined;
}

/** Walls within about 5° of parallel count as side by side (sin² 5°). */
const PARALLEL_SIN2 = Math.sin((5 * Math.PI) / 180) ** 2;

/**
 * Whether the chord u from vertex k to the point at t on segment s is square to the walls at both
 * ends (within SQUARE_SLACK): at a vertex, square to one of the directions the wall turns through
 * there; inside a segment it is square by construction (the nearest point).
 */
export function squareEnds(set: RingSet, k: number, s: number, t: number, ux: number, uy: number): boolean {
  if (!squareAt(set, k, ux, uy)) return false;
  return t > 0 && t < 1 ? true : squareAt(set, t === 0 ? s : set.next[s]!, -ux, -uy);
}

function squareAt(set: RingSet, k: number, ux: number, uy: number): boolean {
  const { xs, ys, prev, next } = set;
  const ax = xs[k]! - xs[prev[k]!]!;
  const ay = ys[k]! - ys[prev[k]!]!;
  const bx = xs[next[k]!]! - xs[k]!;
  const by = ys[next[k]!]! - ys[k]!;
  const ua = ux * ax + uy * ay;
  const ub = ux * bx + uy * by;
  // Square to some direction between a and b when u meets them from opposite sides, else nearly square to either.
  if (ua * ub <= 0) return true;
  const u2 = ux * ux + uy * uy;
  return ua * ua <= SQUARE_SLACK2 * u2 * (ax * ax + ay * ay) || ub * ub <= SQUARE_SLACK2 * u2 * (bx * bx + by * by);
}

/**
 * How far from square a chord may leave a vertex (5°). The nearest points of two walls are square
 * to both exactly (a vertex and the foot on a segment), but across a hole the narrowest chord may
 * end just beside a vertex of a traced, slightly wavy wall. The slack lets the chord from that vertex
 * count, and costs at most 1 - cos 5° (0.4 %) of a width where a chord leans that much (15° found
 * the same places on the design fixtures and benchmark designs, but up to 3.4 % narrower across holes).
 */
export const SQUARE_SLACK = (5 * Math.PI) / 180;
const SQUARE_SLACK2 = Math.sin(SQUARE_SLACK) ** 2;

/**
 * Which side of the boundary direction u leaves a vertex into: +1 metal, -1 air, 0 along an edge.
 * The metal lies left of the incoming edge a and the outgoing edge b: at a convex corner (left
 * turn) left of both, at a reflex corner left of either.
 */
export function side(ax: number, ay: number, bx: number, by: number, ux: number, uy: number): number {
  const leftA = leftOf(ax, ay, ux, uy);
  const leftB = leftOf(bx, by, ux, uy);
  const turn = leftOf(ax, ay, bx, by);
  // A spike has no inside.
  if (turn === 0 && ax * bx + ay * by <= 0) return 0;
  const convex = turn >= 0;
  if (convex ? leftA > 0 && leftB > 0 : leftA > 0 || leftB > 0) return 1;
  if (convex ? leftA < 0 || leftB < 0 : leftA < 0 && leftB < 0) return -1;
  return 0;
}

/**
 * Sign of the cross product a × u: +1 when u points left of a, 0 when along it. Points added along
 * straight edges are not exactly on them in floating point, so a relative sliver counts as along.
 */
export function leftOf(ax: number, ay: number, ux: number, uy: number): number {
  const cross = ax * uy - ay * ux;
  return cross * cross <= COLLINEAR2 * (ax * ax + ay * ay) * (ux * ux + uy * uy) ? 0 : cross > 0 ? 1 : -1;
}

/** Relative cross product (squared) under which two directions count as one line: far below any drawn angle. */
const COLLINEAR2 = 1e-18;

export const endSide = (set: RingSet, k: number, ux: number, uy: number): number => {
  const p = set.prev[k]!;
  const n = set.next[k]!;
  const { xs, ys } = set;
  return side(xs[k]! - xs[p]!, ys[k]! - ys[p]!, xs[n]! - xs[k]!, ys[n]! - ys[k]!, ux, uy);
};

/**
 * Whether a chord from segment k (at u) to segment s properly crosses a segment other than the two it
 * joins: then some other boundary lies between its ends, nearer to each, and is measured on its own.
 */
export function crossesOther(
  set: RingSet,
  grid: SegmentGrid,
  k: number,
  u: number,
  s: number,
  chord: { vx: number; vy: number; qx: number; qy: number },
): boolean {
  const { xs, ys, next, prev } = set;
  const { vx, vy, qx, qy } = chord;
  // A segment crossing the chord is listed in the cell where it crosses, inside the chord's box.
  const cx0 = cellOf(grid, Math.min(vx, qx), grid.x0, grid.cols);
  const cx1 = cellOf(grid, Math.max(vx, qx), grid.x0, grid.cols);
  const cy0 = cellOf(grid, Math.min(vy, qy), grid.y0, grid.rows);
  const cy1 = cellOf(grid, Math.max(vy, qy), grid.y0, grid.rows);
  for (let cy = cy0; cy <= cy1; cy++) {
    for (let cx = cx0; cx <= cx1; cx++) {
      const c = cy * grid.cols + cx;
      for (let e = grid.first[c]!; e < grid.first[c + 1]!; e++) {
        const t = grid.items[e]!;
        if (t === s || t === k || (u === 0 && t === prev[k])) continue;
        const w = next[t]!;
        const d1 = Math.sign((xs[t]! - vx) * (qy - vy) - (ys[t]! - vy) * (qx - vx));
        const d2 = Math.sign((xs[w]! - vx) * (qy - vy) - (ys[w]! - vy) * (qx - vx));
        if (d1 * d2 >= 0) continue;
        const d3 = Math.sign((xs[w]! - xs[t]!) * (vy - ys[t]!) - (ys[w]! - ys[t]!) * (vx - xs[t]!));
        const d4 = Math.sign((xs[w]! - xs[t]!) * (qy - ys[t]!) - (ys[w]! - ys[t]!) * (qx - xs[t]!));
        if (d3 * d4 < 0) return true;
      }
    }
  }
  return false;
}
