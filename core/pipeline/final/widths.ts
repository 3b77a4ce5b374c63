import { cellOf, ringSet, segmentGrid, type RingSet, type SegmentGrid } from './segment-grid.ts';
import type { Ring } from './rings.ts';

/** The floors and tip allowances in file units (thousandths of a millimetre). */
export interface WidthRules {
  minMetal: number;
  minOpening: number;
  /** A part of metal narrower than the floor is a tip when it reaches at most this beyond its chord. */
  maxMetalTip: number;
  /** Likewise for a corner of an opening. */
  maxOpeningTip: number;
}

/** A chord shorter than its floor: from a vertex (vx, vy) to the nearest point (qx, qy) of a segment. */
export interface NarrowChord {
  kind: 'metal' | 'opening';
  vx: number;
  vy: number;
  qx: number;
  qy: number;
  width: number;
}

/**
 * Every place where the loops' metal or an opening is narrower than its floor. Loops have the metal
 * on their left. A chord through metal joining two different loops is always too narrow when short
 * (two openings, or an opening and the outline, too close); a short chord joining a loop to itself
 * is allowed only when it cuts off a tip: on one side of it the loop stays within the tip
 * allowance of the chord, and on the other it does not (so a corner, a pointed end or a star tip
 * is fine, while a neck, a thin bar or a small piece narrower than the floor everywhere is not).
 * The same for chords through air with the opening floor, on one loop only. Chords are taken from
 * every vertex to every segment within reach, which finds every local minimum of the width.
 */
export function narrowChords(loops: readonly Ring[], rules: WidthRules): NarrowChord[] {
  const reach = Math.max(rules.minMetal, rules.minOpening);
  const reach2 = reach * reach;
  const minOpening2 = rules.minOpening * rules.minOpening;
  const set = ringSet(loops);
  const grid = segmentGrid(set, reach / CELLS_PER_REACH);
  const loopData = loops.map((_, r) => loopFacts(set, r, rules));
  const { xs, ys, next, prev, ringOf, count } = set;
  const { first: cellFirst, items, cols, rows } = grid;
  // Per vertex: its place along its loop and how far along it chords need no measuring (see skipArc).
  const along = new Float64Array(count);
  const skip = new Float64Array(count);
  const total = new Float64Array(count);
  for (const loop of loopData) {
    for (let m = 0; m < loop.n; m++) {
      along[loop.first + m] = loop.length[m]!;
      skip[loop.first + m] = loop.skipArc;
      total[loop.first + m] = loop.length[loop.n]!;
    }
  }
  // A segment listed in several cells of one neighbourhood is measured once per vertex.
  const seenBy = new Int32Array(count).fill(-1);
  const found: NarrowChord[] = [];
  for (let k = 0; k < count; k++) {
    const vx = xs[k]!;
    const vy = ys[k]!;
    const p = prev[k]!;
    const rv = ringOf[k]!;
    const at = along[k]!;
    const skipArc = skip[k]!;
    const perimeter = total[k]!;
    const ax = vx - xs[p]!;
    const ay = vy - ys[p]!;
    const bx = xs[next[k]!]! - vx;
    const by = ys[next[k]!]! - vy;
    const gx = cellOf(grid, vx, grid.x0, cols);
    const gy = cellOf(grid, vy, grid.y0, rows);
    for (let cy = Math.max(0, gy - CELLS_PER_REACH); cy <= Math.min(rows - 1, gy + CELLS_PER_REACH); cy++) {
      for (let cx = Math.max(0, gx - CELLS_PER_REACH); cx <= Math.min(cols - 1, gx + CELLS_PER_REACH); cx++) {
        const c = cy * cols + cx;
        for (let e = cellFirst[c]!; e < cellFirst[c + 1]!; e++) {
          const s = items[e]!;
          if (s === k || s === p || seenBy[s] === k) continue;
          seenBy[s] = k;
          const s1 = next[s]!;
          if (ringOf[s] === rv) {
            if (skipArc > 0) {
              const from = along[s]!;
              const to = s1 > s ? along[s1]! : perimeter;
              const forward = from >= at ? from - at : from - at + perimeter;
              const backward = at >= to ? at - to : at - to + perimeter;
              if ((forward < backward ? forward : backward) + (to - from) <= skipArc) continue;
            }
          } else if (outOfReach(loopData[ringOf[s]!]!, vx, vy, reach)) continue;
          const sx = xs[s]!;
          const sy = ys[s]!;
          const dx = xs[s1]! - sx;
          const dy = ys[s1]! - sy;
          const len2 = dx * dx + dy * dy;
          if (len2 === 0) continue;
          let t = ((vx - sx) * dx + (vy - sy) * dy) / len2;
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const ux = sx + t * dx - vx;
          const uy = sy + t * dy - vy;
          const d2 = ux * ux + uy * uy;
          if (d2 >= reach2) continue;
          // Into the air at v: only an opening narrower than its floor matters there.
          const atV = side(ax, ay, bx, by, ux, uy);
          if (atV === 0 || (atV < 0 && d2 >= minOpening2)) continue;
          const chord = measureChord(set, loopData, grid, rules, k, s, t);
          if (chord) found.push(chord);
        }
      }
    }
  }
  return found;
}

/** Grid cells per reach: a vertex looks this many cells each way (finer cells, fewer far segments). */
const CELLS_PER_REACH = 2;

/**
 * The chord from vertex k to the point at t on segment s, when it crosses metal or air narrower
 * than that material's floor and is not a tip: else undefined.
 */
function measureChord(
  set: RingSet,
  loopData: LoopFacts[],
  grid: SegmentGrid,
  rules: WidthRules,
  k: number,
  s: number,
  t: number,
): NarrowChord | undefined {
  const { xs, ys, next, prev, ringOf } = set;
  const vx = xs[k]!;
  const vy = ys[k]!;
  const s1 = next[s]!;
  const dx = xs[s1]! - xs[s]!;
  const dy = ys[s1]! - ys[s]!;
  const qx = xs[s]! + t * dx;
  const qy = ys[s]! + t * dy;
  const ux = qx - vx;
  const uy = qy - vy;
  const width = Math.hypot(ux, uy);
  if (width === 0) return { kind: 'metal', vx, vy, qx, qy, width };
  const p = prev[k]!;
  const n = next[k]!;
  const atV = side(vx - xs[p]!, vy - ys[p]!, xs[n]! - vx, ys[n]! - vy, ux, uy);
  const atQ = t > 0 && t < 1 ? Math.sign(dx * -uy - dy * -ux) : endSide(set, t === 0 ? s : s1, -ux, -uy);
  const kind = atV > 0 && atQ > 0 ? 'metal' : atV < 0 && atQ < 0 ? 'opening' : undefined;
  if (!kind) return undefined;
  if (width >= (kind === 'metal' ? rules.minMetal : rules.minOpening)) return undefined;
  const same = ringOf[s] === ringOf[k];
  if (!same && kind === 'opening') return undefined;
  if (same) {
    const limit = kind === 'metal' ? rules.maxMetalTip : rules.maxOpeningTip;
    if (cutsOffTip(set, loopData[ringOf[k]!]!, k, s, qx, qy, kind === 'metal' ? 1 : -1, limit)) return undefined;
  }
  if (crossesOther(set, grid, k, s, qx, qy)) return undefined;
  return { kind, vx, vy, qx, qy, width };
}

/**
 * Which side of the boundary direction u leaves a vertex into: +1 metal, -1 air, 0 along an edge.
 * The metal lies left of the incoming edge a and the outgoing edge b: at a convex corner (left
 * turn) left of both, at a reflex corner left of either.
 */
function side(ax: number, ay: number, bx: number, by: number, ux: number, uy: number): number {
  const leftA = ax * uy - ay * ux;
  const leftB = bx * uy - by * ux;
  const turn = ax * by - ay * bx;
  // A spike has no inside.
  if (turn === 0 && ax * bx + ay * by <= 0) return 0;
  const convex = turn >= 0;
  if (convex ? leftA > 0 && leftB > 0 : leftA > 0 || leftB > 0) return 1;
  if (convex ? leftA < 0 || leftB < 0 : leftA < 0 && leftB < 0) return -1;
  return 0;
}

const endSide = (set: RingSet, k: number, ux: number, uy: number): number => {
  const p = set.prev[k]!;
  const n = set.next[k]!;
  const { xs, ys } = set;
  return side(xs[k]! - xs[p]!, ys[k]! - ys[p]!, xs[n]! - xs[k]!, ys[n]! - ys[k]!, ux, uy);
};

interface LoopFacts {
  first: number;
  n: number;
  /** cross[m] = sum of cross(P_l, P_l+1) for l < m; length[m] likewise of segment lengths. */
  cross: Float64Array;
  length: Float64Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /**
   * Same-loop chords whose shorter way round is at most this long need no measuring: that side
   * stays within every tip allowance of the chord and the loop is too large for the other side to
   * as well, so such a chord only ever cuts off a tip (0 when the loop is small: measure them all).
   */
  skipArc: number;
}

function loopFacts(set: RingSet, r: number, rules: WidthRules): LoopFacts {
  const { xs, ys } = set;
  const first = set.start[r]!;
  const n = set.start[r + 1]! - first;
  const cross = new Float64Array(n + 1);
  const length = new Float64Array(n + 1);
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let m = 0; m < n; m++) {
    const a = first + m;
    const b = first + ((m + 1) % n);
    cross[m + 1] = cross[m]! + (xs[a]! * ys[b]! - xs[b]! * ys[a]!);
    length[m + 1] = length[m]! + Math.hypot(xs[b]! - xs[a]!, ys[b]! - ys[a]!);
    minX = Math.min(minX, xs[a]!);
    maxX = Math.max(maxX, xs[a]!);
    minY = Math.min(minY, ys[a]!);
    maxY = Math.max(maxY, ys[a]!);
  }
  // Of the two sides of a chord, an opening's loop has one with metal (a metal chord's pocket) or
  // two with air (an air chord splits it); an outline's has two with metal or one with air. Within
  // a short arc of the vertex the near side is a tip; the far side is not when the loop is larger
  // than a tip on either side of a chord could make it.
  const extent = Math.max(maxX - minX, maxY - minY);
  const opening = cross[n]! < 0;
  const large = opening
    ? extent > rules.minOpening + 2 * rules.maxOpeningTip
    : extent > Math.max(rules.minMetal + 2 * rules.maxMetalTip, rules.minOpening + 2 * rules.maxOpeningTip);
  const skipArc = large ? 2 * Math.min(rules.maxMetalTip, rules.maxOpeningTip) : 0;
  return { first, n, cross, length, minX, minY, maxX, maxY, skipArc };
}

/** Whether a loop's box is at least `reach` from a point. */
function outOfReach(loop: LoopFacts, x: number, y: number, reach: number): boolean {
  const dx = Math.max(0, loop.minX - x, x - loop.maxX);
  const dy = Math.max(0, loop.minY - y, y - loop.maxY);
  return dx * dx + dy * dy >= reach * reach;
}

/** Sum of a prefix array over loop steps i..j-1 (cyclic). */
const between = (sums: Float64Array, n: number, i: number, j: number) =>
  i <= j ? sums[j]! - sums[i]! : sums[n]! - sums[i]! + sums[j]!;

/**
 * Whether the chord from vertex k to (qx, qy) on segment s (same loop) cuts off a tip: of the two
 * loops the chord closes, count those enclosing the chord's material (`sign` +1 metal: positive
 * area, -1 air: negative) that stay within `limit` of the chord. Exactly one: a tip off something
 * wider. Two: the whole piece or opening is that narrow. None: a neck.
 */
function cutsOffTip(
  set: RingSet,
  sums: LoopFacts,
  k: number,
  s: number,
  qx: number,
  qy: number,
  sign: number,
  limit: number,
): boolean {
  const { xs, ys } = set;
  const { first, n } = sums;
  const i = k - first;
  const j = s - first;
  const vx = xs[k]!;
  const vy = ys[k]!;
  const sx = xs[s]!;
  const sy = ys[s]!;
  const forwardArea = between(sums.cross, n, i, j) + (sx * qy - qx * sy) + (qx * vy - vx * qy);
  const total = sums.cross[n]!;
  const forwardLength = between(sums.length, n, i, j) + Math.hypot(qx - sx, qy - sy);
  const chord = Math.hypot(qx - vx, qy - vy);
  const sides = [
    // Vertices i+1..j on the way forward from v to q; j+1..i-1 the other way round.
    { area: forwardArea, length: forwardLength, from: i + 1, count: (j - i + n) % n },
    { area: total - forwardArea, length: sums.length[n]! - forwardLength, from: j + 1, count: (i - j - 1 + n) % n },
  ];
  let tips = 0;
  for (const sideOf of sides) {
    if (Math.sign(sideOf.area) !== sign) continue;
    // Every point of an arc of length A between the chord's ends lies within the ellipse with
    // those foci and major axis A, so within its semi-minor axis of the chord.
    const bound = Math.sqrt(Math.max(0, (sideOf.length / 2) ** 2 - (chord / 2) ** 2));
    if (bound <= limit || arcWithin(set, first, n, sideOf.from, sideOf.count, vx, vy, qx, qy, limit)) tips++;
  }
  return tips === 1;
}

/** Whether `count` loop vertices from local index `from` on (cyclic) all lie within `limit` of segment v-q. */
function arcWithin(
  set: RingSet,
  first: number,
  n: number,
  from: number,
  count: number,
  vx: number,
  vy: number,
  qx: number,
  qy: number,
  limit: number,
): boolean {
  const dx = qx - vx;
  const dy = qy - vy;
  const len2 = dx * dx + dy * dy;
  const limit2 = limit * limit;
  for (let m = from; m < from + count; m++) {
    const k = first + (m % n);
    const px = set.xs[k]! - vx;
    const py = set.ys[k]! - vy;
    let t = len2 === 0 ? 0 : (px * dx + py * dy) / len2;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const ex = px - t * dx;
    const ey = py - t * dy;
    if (ex * ex + ey * ey > limit2) return false;
  }
  return true;
}

/**
 * Whether the chord from vertex k to (qx, qy) properly crosses a segment other than the two it
 * joins: then some other boundary lies between its ends, nearer to each, and is measured on its own.
 */
function crossesOther(set: RingSet, grid: SegmentGrid, k: number, s: number, qx: number, qy: number): boolean {
  const { xs, ys, next, prev } = set;
  const vx = xs[k]!;
  const vy = ys[k]!;
  const gx = cellOf(grid, vx, grid.x0, grid.cols);
  const gy = cellOf(grid, vy, grid.y0, grid.rows);
  for (let cy = Math.max(0, gy - CELLS_PER_REACH); cy <= Math.min(grid.rows - 1, gy + CELLS_PER_REACH); cy++) {
    for (let cx = Math.max(0, gx - CELLS_PER_REACH); cx <= Math.min(grid.cols - 1, gx + CELLS_PER_REACH); cx++) {
      const c = cy * grid.cols + cx;
      for (let e = grid.first[c]!; e < grid.first[c + 1]!; e++) {
        const t = grid.items[e]!;
        if (t === s || t === k || t === prev[k]) continue;
        const u = next[t]!;
        const d1 = Math.sign((xs[t]! - vx) * (qy - vy) - (ys[t]! - vy) * (qx - vx));
        const d2 = Math.sign((xs[u]! - vx) * (qy - vy) - (ys[u]! - vy) * (qx - vx));
        if (d1 * d2 >= 0) continue;
        const d3 = Math.sign((xs[u]! - xs[t]!) * (vy - ys[t]!) - (ys[u]! - ys[t]!) * (vx - xs[t]!));
        const d4 = Math.sign((xs[u]! - xs[t]!) * (qy - ys[t]!) - (ys[u]! - ys[t]!) * (qx - xs[t]!));
        if (d3 * d4 < 0) return true;
      }
    }
  }
  return false;
}
