import { visitBeyond } from './beyond.ts';
import { facingChord, leftOf, side, squareEnds } from './chord-geometry.ts';
import type { Ring } from './rings.ts';
import { cellOf, ringSet, segmentGrid } from './segment-grid.ts';
import { loopFacts, outOfReach } from './tips.ts';
import { keep, measureChord, plainTip, type Search } from './width-search.ts';

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

/** The narrowest chord of each kind: below its floor, or above it up to the search's bound (see `measureWidths`). */
export interface Narrowest {
  metal?: NarrowChord;
  opening?: NarrowChord;
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
 *
 * Those narrow chords, and the narrowest chord of each kind: the narrowest of those when there are any, else the narrowest up to `beyond` above the floor
 * (file units; openings up to the check's reach, the larger floor), undefined when none is that
 * narrow. Above the floor a chord counts where the width has a minimum, square to the walls at
 * both ends (across a bar, a rim, a neck, a slot or a hole, not across a corner or the cap of a
 * curve), and by the check's rules otherwise: through metal between two loops, or on one loop when
 * it cuts off no tip; through an opening on one loop, no corner's tip. Chords are measured only
 * when narrower than the narrowest kept so far, so the search narrows as it goes.
 */
export function measureWidths(
  loops: readonly Ring[],
  rules: WidthRules,
  beyond = 0,
): { narrow: NarrowChord[]; narrowest: Narrowest } {
  const set = ringSet(loops);
  const reach = Math.max(rules.minMetal, rules.minOpening);
  const grid = segmentGrid(set, reach / CELLS_PER_REACH);
  const loopData = loops.map((_, r) => loopFacts(set, r, rules));
  const { count } = set;
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
  const search: Search = {
    set,
    grid,
    loopData,
    rules,
    along,
    skip,
    total,
    seenBy: new Int32Array(count).fill(-1),
    found: [],
    narrowest: {},
    metalLimit: rules.minMetal + beyond,
    // The cells next to a vertex hold every chord within reach: openings are searched that far.
    openingLimit: Math.max(rules.minOpening, Math.min(rules.minOpening + beyond, reach)),
    reach,
    reach2: reach * reach,
    minMetal2: rules.minMetal * rules.minMetal,
    minOpening2: rules.minOpening * rules.minOpening,
  };
  for (let k = 0; k < count; k++) visitVertex(search, k);
  // Unless thinner metal was found, metal above the floor: beyond the check's reach.
  if (search.metalLimit > reach) {
    for (let k = 0; k < count; k++) visitBeyond(search, k, k + count);
  }
  return { narrow: search.found, narrowest: search.narrowest };
}

/** Chords from vertex k to the segments in the cells within reach of it. */
function visitVertex(search: Search, k: number): void {
  const { set, grid, loopData, along, skip, total, seenBy } = search;
  const { xs, ys, next, prev, ringOf } = set;
  const { first: cellFirst, items, cols, rows } = grid;
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
  // A point where the contour turns back by more than a right angle between two long sides (a
  // straight-sided wedge of metal, a narrow V of air) has no vertex along them where it reaches its
  // floor, and its sides are each other's neighbours, which the search below leaves out: each is
  // measured along against the other, or a wedge under the floor for millimetres passed as a tip.
  if (ax * bx + ay * by < 0) {
    if (bx * bx + by * by > ALONG2) measureAlong(search, k, false, p);
    if (ax * ax + ay * ay > ALONG2) measureAlong(search, p, true, k);
  }
  const gx = cellOf(grid, vx, grid.x0, cols);
  const gy = cellOf(grid, vy, grid.y0, rows);
  const reach = search.reach;
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
            const chord = measureChord(search, k, facing[0], s, facing[1]);
            if (chord) keep(search, chord, true);
          }
        }
        const d2 = ux * ux + uy * uy;
        // Metal wider than the check's reach is searched for by `visitBeyond`.
        if (d2 >= search.reach2) continue;
        // Into the air at v: only an opening narrower than its floor matters there, or than the
        // narrowest kept above it.
        const atV = d2 === 0 ? 1 : side(ax, ay, bx, by, ux, uy);
        const wideAir = atV < 0 && d2 >= search.minOpening2;
        if (ringOf[s] === rv && !wideAir) {
          // Long edges at v: measured from points along them too, walking away from v.
          if (bx * bx + by * by > ALONG2) measureAlong(search, k, false, s);
          if (ax * ax + ay * ay > ALONG2) measureAlong(search, p, true, s);
        }
        if (atV === 0) continue;
        if (d2 >= (atV < 0 ? search.minOpening2 : search.minMetal2)) {
          // Above its floor a chord counts only where the width has a minimum (see measureWidths).
          const limit = atV < 0 ? search.openingLimit : search.metalLimit;
          if (d2 >= limit * limit || !squareEnds(set, k, s, t, ux, uy)) continue;
          if (ringOf[s] === rv && plainTip(search, k, s, t, Math.sqrt(d2), atV > 0)) continue;
        }
        const chord = measureChord(search, k, 0, s, t);
        if (chord) keep(search, chord, true);
      }
    }
  }
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
 * Chords from points along segment k (ALONG_STEP apart, walking from its start, or from its end
 * when `fromEnd`) to their nearest points on segment s, until one is out of reach: a narrowing
 * between two straight sides is measured all along, not only at their vertices (below the floors
 * only: above them a chord counts only square to both walls, which a vertex's or a facing chord is).
 */
function measureAlong(search: Search, k: number, fromEnd: boolean, s: number): void {
  const { xs, ys, next } = search.set;
  if (s === k) return;
  const k1 = next[k]!;
  const s1 = next[s]!;
  const kx = xs[k1]! - xs[k]!;
  const ky = ys[k1]! - ys[k]!;
  const sx = xs[s1]! - xs[s]!;
  const sy = ys[s1]! - ys[s]!;
  const s2 = sx * sx + sy * sy;
  if (s2 === 0) return;
  const pieces = Math.ceil(Math.hypot(kx, ky) / ALONG_STEP);
  /** The nearest point of segment s to the point at u on segment k: its t and the squared distance. */
  const across = (u: number): [number, number] => {
    const mx = xs[k]! + u * kx;
    const my = ys[k]! + u * ky;
    const t = Math.min(1, Math.max(0, ((mx - xs[s]!) * sx + (my - ys[s]!) * sy) / s2));
    return [t, (xs[s]! + t * sx - mx) ** 2 + (ys[s]! + t * sy - my) ** 2];
  };
  const measure = (u: number, t: number, d2: number): void => {
    // As from a vertex: along the edge, or into air at least the opening floor wide, is no narrowing.
    const atM = leftOf(kx, ky, xs[s]! + t * sx - xs[k]! - u * kx, ys[s]! + t * sy - ys[k]! - u * ky);
    if (atM === 0 || (atM < 0 && d2 >= search.minOpening2)) return;
    const chord = measureChord(search, k, u, s, t);
    if (chord) keep(search, chord, true);
  };
  // The segment's end at the vertex walked from: the vertex's own chords are measured from it.
  const start = fromEnd ? 1 : 0;
  let inReach = start;
  for (let p = 1; p < pieces; p++) {
    const u = fromEnd ? 1 - p / pieces : p / pieces;
    const [t, d2] = across(u);
    if (d2 < search.reach2) {
      measure(u, t, d2);
      inReach = u;
      continue;
    }
    // The widest chord within reach lies between the last step and this one: how far a point
    // reaches beyond its floor-wide chord is measured from there, not from up to a step short of it.
    let outOfReach = u;
    for (let i = 0; i < EDGE_HALVINGS; i++) {
      const mid = (inReach + outOfReach) / 2;
      if (across(mid)[1] < search.reach2) inReach = mid;
      else outOfReach = mid;
    }
    if (inReach !== start) measure(inReach, ...across(inReach));
    return;
  }
}

/** Halvings that find where a narrowing reaches the check's reach between two steps: to 0.1 / 2^6 mm. */
const EDGE_HALVINGS = 6;
