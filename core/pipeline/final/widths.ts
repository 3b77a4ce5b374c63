import { cellOf, ringSet, segmentGrid, type RingSet, type SegmentGrid } from './segment-grid.ts';
import type { Ring } from './rings.ts';
import { cutsOffTip, loopFacts, outOfReach, type LoopFacts } from './tips.ts';

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
