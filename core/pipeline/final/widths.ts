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
          if (s > k && s !== next[k]) {
            const facing = facingChord(set, k, s);
            if (facing !== undefined) {
              const chord = measureChord(set, loopData, grid, rules, k, facing[0], s, facing[1]);
              if (chord) found.push(chord);
            }
          }
          const d2 = ux * ux + uy * uy;
          if (d2 >= reach2) continue;
          // Into the air at v: only an opening narrower than its floor matters there.
          const atV = d2 === 0 ? 1 : side(ax, ay, bx, by, ux, uy);
          const wideAir = atV < 0 && d2 >= minOpening2;
          if (ringOf[s] === rv && !wideAir) {
            // Long edges at v: measured from points along them too, walking away from v.
            if (bx * bx + by * by > ALONG2) measureAlong(set, loopData, grid, rules, k, false, s, found);
            if (ax * ax + ay * ay > ALONG2) measureAlong(set, loopData, grid, rules, p, true, s, found);
          }
          if (atV === 0 || wideAir) continue;
          const chord = measureChord(set, loopData, grid, rules, k, 0, s, t);
          if (chord) found.push(chord);
        }
      }
    }
  }
  return found;
}

/**
 * Chords start at vertices, so a long edge facing another part of its own loop is also measured
 * from points this far apart along it (file units): a narrow point between two straight sides (a
 * sharp pointed end) has no vertex where it reaches the floor, and how far it reaches beyond that
 * width decides whether it is a tip.
 */
const ALONG_STEP = 100;
const ALONG2 = ALONG_STEP * ALONG_STEP;

/** Grid cells per reach: a vertex looks this many cells each way (finer cells, fewer far segments). */
const CELLS_PER_REACH = 2;

/**
 * Segments k and s running opposite ways side by side (within a few degrees of parallel, their
 * projections overlapping): the chord from the middle of the overlap on k straight across to s, as
 * (u on k, t on s). Two such walls are equally near all along the overlap, and their nearest
 * vertices may be joined by one of the loop's own edges (the flat end of a slot): only a chord
 * from inside the overlap crosses what lies between them.
 */
function facingChord(set: RingSet, k: number, s: number): [number, number] | undefined {
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

/**
 * Chords from points along segment k (ALONG_STEP apart, walking from its start, or from its end
 * when `fromEnd`) to their nearest points on segment s, until one is out of reach: a narrowing
 * between two straight sides is measured all along, not only at their vertices.
 */
function measureAlong(
  set: RingSet,
  loopData: LoopFacts[],
  grid: SegmentGrid,
  rules: WidthRules,
  k: number,
  fromEnd: boolean,
  s: number,
  found: NarrowChord[],
): void {
  const { xs, ys, next } = set;
  if (s === k) return;
  const reach = Math.max(rules.minMetal, rules.minOpening);
  const k1 = next[k]!;
  const s1 = next[s]!;
  const kx = xs[k1]! - xs[k]!;
  const ky = ys[k1]! - ys[k]!;
  const sx = xs[s1]! - xs[s]!;
  const sy = ys[s1]! - ys[s]!;
  const s2 = sx * sx + sy * sy;
  if (s2 === 0) return;
  const pieces = Math.ceil(Math.hypot(kx, ky) / ALONG_STEP);
  for (let p = 1; p < pieces; p++) {
    const u = fromEnd ? 1 - p / pieces : p / pieces;
    const mx = xs[k]! + u * kx;
    const my = ys[k]! + u * ky;
    const t = Math.min(1, Math.max(0, ((mx - xs[s]!) * sx + (my - ys[s]!) * sy) / s2));
    const dx = xs[s]! + t * sx - mx;
    const dy = ys[s]! + t * sy - my;
    const d2 = dx * dx + dy * dy;
    if (d2 >= reach * reach) return;
    // As from a vertex: along the edge, or into air at least the opening floor wide, is no narrowing.
    const atM = leftOf(kx, ky, dx, dy);
    if (atM === 0 || (atM < 0 && d2 >= rules.minOpening * rules.minOpening)) continue;
    const chord = measureChord(set, loopData, grid, rules, k, u, s, t);
    if (chord) found.push(chord);
  }
}

/** Walls within about 5° of parallel count as side by side (sin² 5°). */
const PARALLEL_SIN2 = Math.sin((5 * Math.PI) / 180) ** 2;

/**
 * The chord from the point at u on segment k (u = 0: vertex k) to the point at t on segment s,
 * when it crosses metal or air narrower than that material's floor and is not a tip: else undefined.
 */
function measureChord(
  set: RingSet,
  loopData: LoopFacts[],
  grid: SegmentGrid,
  rules: WidthRules,
  k: number,
  u: number,
  s: number,
  t: number,
): NarrowChord | undefined {
  const { xs, ys, next, prev, ringOf } = set;
  const k1 = next[k]!;
  const vx = xs[k]! + u * (xs[k1]! - xs[k]!);
  const vy = ys[k]! + u * (ys[k1]! - ys[k]!);
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
  const atV =
    u === 0
      ? side(vx - xs[p]!, vy - ys[p]!, xs[k1]! - vx, ys[k1]! - vy, ux, uy)
      : leftOf(xs[k1]! - xs[k]!, ys[k1]! - ys[k]!, ux, uy);
  const atQ = t > 0 && t < 1 ? leftOf(dx, dy, -ux, -uy) : endSide(set, t === 0 ? s : s1, -ux, -uy);
  const kind = atV > 0 && atQ > 0 ? 'metal' : atV < 0 && atQ < 0 ? 'opening' : undefined;
  if (!kind) return undefined;
  if (width >= (kind === 'metal' ? rules.minMetal : rules.minOpening)) return undefined;
  const same = ringOf[s] === ringOf[k];
  if (!same && kind === 'opening') return undefined;
  const chord: NarrowChord = { kind, vx, vy, qx, qy, width };
  if (same) {
    const limit = kind === 'metal' ? rules.maxMetalTip : rules.maxOpeningTip;
    const floor = kind === 'metal' ? rules.minMetal : rules.minOpening;
    if (cutsOffTip(set, loopData[ringOf[k]!]!, k, u, s, chord, kind === 'metal' ? 1 : -1, limit, floor))
      return undefined;
  }
  if (crossesOther(set, grid, k, u, s, chord)) return undefined;
  return chord;
}

/**
 * Which side of the boundary direction u leaves a vertex into: +1 metal, -1 air, 0 along an edge.
 * The metal lies left of the incoming edge a and the outgoing edge b: at a convex corner (left
 * turn) left of both, at a reflex corner left of either.
 */
function side(ax: number, ay: number, bx: number, by: number, ux: number, uy: number): number {
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
function leftOf(ax: number, ay: number, ux: number, uy: number): number {
  const cross = ax * uy - ay * ux;
  return cross * cross <= COLLINEAR2 * (ax * ax + ay * ay) * (ux * ux + uy * uy) ? 0 : cross > 0 ? 1 : -1;
}

/** Relative cross product (squared) under which two directions count as one line: far below any drawn angle. */
const COLLINEAR2 = 1e-18;

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
 * Whether a chord from segment k (at u) to segment s of the same loop cuts off a tip: of the two
 * loops the chord closes, count those enclosing the chord's material (`sign` +1 metal: positive
 * area, -1 air: negative) that stay within `limit` of the chord. Exactly one: a tip off something
 * wider. Two: the whole piece or opening is that narrow. None: a neck.
 */
function cutsOffTip(
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

/**
 * Whether a chord from segment k (at u) to segment s properly crosses a segment other than the two it
 * joins: then some other boundary lies between its ends, nearer to each, and is measured on its own.
 */
function crossesOther(set: RingSet, grid: SegmentGrid, k: number, u: number, s: number, chord: NarrowChord): boolean {
  const { xs, ys, next, prev } = set;
  const { vx, vy, qx, qy } = chord;
  const gx = cellOf(grid, vx, grid.x0, grid.cols);
  const gy = cellOf(grid, vy, grid.y0, grid.rows);
  for (let cy = Math.max(0, gy - CELLS_PER_REACH); cy <= Math.min(grid.rows - 1, gy + CELLS_PER_REACH); cy++) {
    for (let cx = Math.max(0, gx - CELLS_PER_REACH); cx <= Math.min(grid.cols - 1, gx + CELLS_PER_REACH); cx++) {
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
