import type { RingSet } from './segment-grid.ts';
import type { NarrowChord, WidthRules } from './widths.ts';

/*
 * Which short chords of one loop cut off a tip (a corner, a pointed end) rather than cross a neck:
 * the loop facts and arc tests the width search (widths.ts) asks for each same-loop chord.
 */

/**
 * How far beyond a floor-wide chord a point may reach, for a point allowed `allowance` beyond where
 * the floor's disc reaches into it (as the disc's reach measures points: the morphological opening
 * of the independent check, and the working raster's `isTip`). The disc, radius r, that fits a
 * straight point of half-angle θ stops r / sin θ - r short of its end, so points narrower than
 * θ* = asin(r / (allowance + r)) are too long. The chords this check measures run square to one side
 * of a point; the floor-wide one lies floor / tan 2θ from the end. At θ* that is the allowance from
 * the chord: 1.19 mm for metal, where 1 mm refused a sliver between two strokes of a script letter
 * that the disc's reach passes. (The corners of openings keep their 0.3 mm from the chord: a
 * sharper corner is filled, which is the repair the engine makes there.) Measured on straight
 * points of metal: the independent checker refuses those narrower than 13.1-13.3° by their
 * direction, this check (measuring from the exact floor, the checker a tolerance under it) those
 * narrower than 13.3-13.9°, so a file it passes passes the checker.
 */
export function tipAllowanceFromChord(allowance: number, floor: number): number {
  const r = floor / 2;
  const widest = Math.asin(r / (allowance + r));
  return floor / Math.tan(2 * widest);
}

export interface LoopFacts {
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

export function loopFacts(set: RingSet, r: number, rules: WidthRules): LoopFacts {
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
export function outOfReach(loop: LoopFacts, x: number, y: number, reach: number): boolean {
  const dx = Math.max(0, loop.minX - x, x - loop.maxX);
  const dy = Math.max(0, loop.minY - y, y - loop.maxY);
  return dx * dx + dy * dy >= reach * reach;
}

/** Sum of a prefix array over loop steps i..j-1 (cyclic). */
const between = (sums: Float64Array, n: number, i: number, j: number) =>
  i <= j ? sums[j]! - sums[i]! : sums[n]! - sums[i]! + sums[j]!;

/**
 * Whether a chord from segment k (at u) to segment s of the same loop cuts off a tip: of the two
 * loops the chord closes, count those enclosing the chord's material (`sign` +1 metal: positive
 * area, -1 air: negative) that stay within `limit` of the chord. Exactly one: a tip off something
 * wider. Two: the whole piece or opening is that narrow. None: a neck.
 */
export function cutsOffTip(
  set: RingSet,
  sums: LoopFacts,
  k: number,
  u: number,
  s: number,
  chord: NarrowChord,
  sign: number,
  limit: number,
  floor: number,
): boolean {
  const { xs, ys, next } = set;
  const { first, n } = sums;
  const i = k - first;
  const j = s - first;
  const { vx, vy, qx, qy } = chord;
  const k1 = next[k]!;
  const sx = xs[s]!;
  const sy = ys[s]!;
  // From the chord's start (on segment k, at its vertex when u = 0) forward to q on segment s.
  const startCross = vx * ys[k1]! - xs[k1]! * vy - (xs[k]! * ys[k1]! - xs[k1]! * ys[k]!);
  const forwardArea = between(sums.cross, n, i, j) + startCross + (sx * qy - qx * sy) + (qx * vy - vx * qy);
  const startLength = Math.hypot(xs[k1]! - vx, ys[k1]! - vy) - Math.hypot(xs[k1]! - xs[k]!, ys[k1]! - ys[k]!);
  const forwardLength = between(sums.length, n, i, j) + startLength + Math.hypot(qx - sx, qy - sy);
  const total = sums.cross[n]!;
  const width = Math.hypot(qx - vx, qy - vy);
  const sides = [
    // Vertices i+1..j on the way forward to q; j+1..i the other way round (i itself only when
    // the chord starts past it).
    { area: forwardArea, length: forwardLength, from: i + 1, count: (j - i + n) % n, ends: [vx, vy, qx, qy] },
    {
      area: total - forwardArea,
      length: sums.length[n]! - forwardLength,
      from: j + 1,
      count: (i - j - (u > 0 ? 0 : 1) + n) % n,
      ends: [qx, qy, vx, vy],
    },
  ];
  let tips = 0;
  for (const sideOf of sides) {
    if (Math.sign(sideOf.area) !== sign) continue;
    // Every point of an arc of length A between the chord's ends lies within the ellipse with
    // those foci and major axis A, so within its semi-minor axis of the chord.
    const bound = Math.sqrt(Math.max(0, (sideOf.length / 2) ** 2 - (width / 2) ** 2));
    const short = bound <= limit || arcWithin(set, first, n, sideOf.from, sideOf.count, chord, limit);
    if (short && !widensBeyond(set, sums, sideOf, width, floor)) tips++;
  }
  return tips === 1;
}

/**
 * Whether the part a chord cuts off gets wider than the chord beyond it: a knob on a neck (the
 * counter of a stencil letter held by its bridge, a small opening on a narrow channel), not a tip
 * that narrows to its point. The part's arc is split at its point farthest from the chord (the
 * point of a tip, the far end of a knob); the width at a point of one half is its distance to the
 * other half, and the part widens when that exceeds the chord (by the slack in the body).
 */
function widensBeyond(
  set: RingSet,
  sums: LoopFacts,
  arc: { from: number; count: number; length: number; ends: number[] },
  width: number,
  floor: number,
): boolean {
  // 5 % for the polyline's facets; and up to 0.1 mm for a traced staircase's wobble (two working
  // pixels: the notched sides of a wedge drawn in coarse pixels), but never past the floor: a part
  // that gets as wide as the floor beyond the chord is a knob however little it widens.
  const limit = Math.max(1.05 * width + 10, Math.min(1.05 * width + WOBBLE, floor));
  // A point is no farther from the other half than along the arc: a part this short cannot widen
  // (most short chords, between neighbouring vertices, end here).
  if (arc.count < 1 || arc.length <= limit) return false;
  const { xs, ys } = set;
  const { first, n } = sums;
  const [ax, ay, bx, by] = arc.ends as [number, number, number, number];
  // The arc as a polyline from one end of the chord round to the other.
  const points = [ax, ay];
  for (let m = 0; m < arc.count; m++) {
    const k = first + ((arc.from + m) % n);
    points.push(xs[k]!, ys[k]!);
  }
  points.push(bx, by);
  const last = points.length / 2 - 1;
  const mx = (ax + bx) / 2;
  const my = (ay + by) / 2;
  let apex = 1;
  let farthest = -1;
  for (let m = 1; m < last; m++) {
    const d = (points[2 * m]! - mx) ** 2 + (points[2 * m + 1]! - my) ** 2;
    if (d > farthest) [apex, farthest] = [m, d];
  }
  const limit2 = limit * limit;
  // Each half's vertices against the other half's polyline (the apex belongs to both).
  const across = (fromM: number, toM: number, otherFrom: number, otherTo: number): boolean => {
    for (let m = fromM; m <= toM; m++) {
      const px = points[2 * m]!;
      const py = points[2 * m + 1]!;
      let nearest = Infinity;
      for (let o = otherFrom; o < otherTo && nearest > limit2; o++) {
        const d = segmentDistance2(px, py, points[2 * o]!, points[2 * o + 1]!, points[2 * o + 2]!, points[2 * o + 3]!);
        if (d < nearest) nearest = d;
      }
      if (nearest > limit2) return true;
    }
    return false;
  };
  return across(1, apex - 1, apex, last) || across(apex + 1, last - 1, 0, apex);
}

/** How much a traced part may widen beyond a chord and still be a tip, in file units (see `widensBeyond`). */
const WOBBLE = 100;

const segmentDistance2 = (px: number, py: number, ax: number, ay: number, bx: number, by: number): number => {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return (px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2;
};

/** Whether `count` loop vertices from local index `from` on (cyclic) all lie within `limit` of segment v-q. */
function arcWithin(
  set: RingSet,
  first: number,
  n: number,
  from: number,
  count: number,
  { vx, vy, qx, qy }: NarrowChord,
  limit: number,
): boolean {
  const limit2 = limit * limit;
  for (let m = from; m < from + count; m++) {
    const k = first + (m % n);
    if (segmentDistance2(set.xs[k]!, set.ys[k]!, vx, vy, qx, qy) > limit2) return false;
  }
  return true;
}
