import type { CutPolygon, Point } from '../vector/cuts.ts';

/**
 * A closed ring of the cutting file exactly as written: points in thousandths of a millimetre,
 * interleaved x, y, the last point not repeated. What the final check measures is what the SVG
 * holds, so the file is written from these and nothing else.
 */
export type Ring = Int32Array;

/** One cut of the file: the outline of a region of air and the rings of metal left inside it. */
export interface FinalCut {
  outer: Ring;
  holes: Ring[];
}

export const UNITS_PER_MM = 1000;

/**
 * Exactly the thousandths `v.toFixed(3)` writes, but 0 for values that round to zero (toFixed keeps
 * the sign: "-0.000"). Found by arithmetic, which agrees with toFixed wherever `v` is not within
 * rounding error of a half thousandth; there toFixed decides. Files hold tens of thousands of
 * numbers, and toFixed is most of their cost.
 */
export function thousandths(v: number): number {
  const t = v * 1000;
  const frac = t - Math.floor(t);
  const n = Math.abs(frac - 0.5) < 1e-6 ? Math.round(Number(v.toFixed(3)) * 1000) : Math.round(t);
  return n === 0 ? 0 : n;
}

/**
 * Points closer than this to the previous kept point are dropped: at a sharp corner the flattened
 * curve can double back by a few micrometres. Dropping them moves the cut by at most this, within
 * the 0.02 mm flattening budget; what is left is still checked for crossings and mended.
 */
const MIN_SPACING_MM = 0.01;

/** The strip's rectangle in file units, when known: points on its edge are where a cut meets the outline. */
export interface Strip {
  L: number;
  W: number;
}

/**
 * A ring rounded to thousandths, with points that repeat the previous one (after rounding, or
 * within `minSpacingMm` of the last kept point) dropped; undefined when fewer than three distinct
 * points or no area remain (such a ring would cut a line, or nothing). A point on the strip's edge
 * is always kept: it is where the cut meets the edge, and dropping it would leave a sliver of metal
 * along the edge.
 */
function roundRing(ring: readonly Point[], strip?: Strip, minSpacingMm = MIN_SPACING_MM): Ring | undefined {
  const xs: number[] = [];
  const ys: number[] = [];
  const onEdge = (x: number, y: number) => !!strip && (x === 0 || y === 0 || x === strip.L || y === strip.W);
  let kept: Point | undefined;
  for (const point of ring) {
    const rx = thousandths(point[0]);
    const ry = thousandths(point[1]);
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === rx && ys[last] === ry) continue;
    if (kept && !onEdge(rx, ry) && Math.hypot(point[0] - kept[0], point[1] - kept[1]) < minSpacingMm) continue;
    kept = point;
    xs.push(rx);
    ys.push(ry);
  }
  const spacing = minSpacingMm * UNITS_PER_MM;
  const nearFirst = (i: number) => !onEdge(xs[i]!, ys[i]!) && Math.hypot(xs[i]! - xs[0]!, ys[i]! - ys[0]!) < spacing;
  while (xs.length > 1 && ((xs[0] === xs.at(-1) && ys[0] === ys.at(-1)) || nearFirst(xs.length - 1))) {
    xs.pop();
    ys.pop();
  }
  unfold(xs, ys, onEdge);
  const out = new Int32Array(xs.length * 2);
  for (let i = 0; i < xs.length; i++) {
    out[2 * i] = xs[i]!;
    out[2 * i + 1] = ys[i]!;
  }
  return hasArea(out) ? out : undefined;
}

/** Steps shorter than this (0.05 mm) that fold the contour back are merged (see `unfold`). */
const FOLD_MAX_MM = 0.05;

/**
 * Merges the two ends of every fold into their middle, in place: a step shorter than
 * `FOLD_MAX_MM` that runs back against both its neighbours and turns one way onto it and the
 * other way off it is a Z in the contour. No drawn edge has one; potrace's corners and the
 * flattening beside them leave a few micrometres of it now and then (a lace's pointed openings),
 * and cutting software may flag it. Merging moves the contour by half the step at most; a point on
 * the strip's edge stays where it is.
 */
function unfold(xs: number[], ys: number[], onEdge: (x: number, y: number) => boolean): void {
  const limit = FOLD_MAX_MM * UNITS_PER_MM;
  for (let v = 0; xs.length >= 4 && v < xs.length; v++) {
    const n = xs.length;
    const [p, a, b, c] = [(v + n - 1) % n, v, (v + 1) % n, (v + 2) % n];
    const mx = xs[b]! - xs[a]!;
    const my = ys[b]! - ys[a]!;
    if (mx * mx + my * my >= limit * limit) continue;
    const ux = xs[a]! - xs[p]!;
    const uy = ys[a]! - ys[p]!;
    const wx = xs[c]! - xs[b]!;
    const wy = ys[c]! - ys[b]!;
    const folded = ux * mx + uy * my < 0 && mx * wx + my * wy < 0 && (ux * my - uy * mx) * (mx * wy - my * wx) < 0;
    if (!folded || onEdge(xs[a]!, ys[a]!) || onEdge(xs[b]!, ys[b]!)) continue;
    xs[a] = Math.round((xs[a]! + xs[b]!) / 2);
    ys[a] = Math.round((ys[a]! + ys[b]!) / 2);
    xs.splice(b, 1);
    ys.splice(b, 1);
    v = Math.max(-1, v - 3);
  }
}

/** Whether a ring has three distinct points and a nonzero area. */
export function hasArea(ring: Ring): boolean {
  return ring.length >= 6 && twiceArea(ring) !== 0;
}

/** Twice the shoelace area, in square thousandths: positive when x turns towards y. Exact. */
export function twiceArea(ring: Ring): number {
  const n = ring.length >> 1;
  let twice = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    twice += ring[2 * j]! * ring[2 * i + 1]! - ring[2 * i]! * ring[2 * j + 1]!;
  }
  return twice;
}

/** Every cut rounded as the file writes it; cuts whose outline rounds away are left out, and so are such holes. */
export function roundCuts(cuts: readonly CutPolygon[], strip?: Strip): FinalCut[] {
  const out: FinalCut[] = [];
  for (const cut of cuts) {
    const outer = roundRing(cut.outer, strip);
    if (!outer) continue;
    const holes: Ring[] = [];
    for (const hole of cut.holes) {
      const ring = roundRing(hole, strip);
      if (ring) holes.push(ring);
    }
    out.push({ outer, holes });
  }
  return out;
}

/** Area of the cuts in mm²: each outline less the metal left inside it. */
export function cutAreaMm2(cuts: readonly FinalCut[]): number {
  let twice = 0;
  for (const cut of cuts) {
    twice += Math.abs(twiceArea(cut.outer));
    for (const hole of cut.holes) twice -= Math.abs(twiceArea(hole));
  }
  return twice / 2 / UNITS_PER_MM ** 2;
}

/** A ring's points back in millimetres (for the preview). */
export function ringPoints(ring: Ring): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < ring.length; i += 2) out.push([ring[i]! / UNITS_PER_MM, ring[i + 1]! / UNITS_PER_MM]);
  return out;
}
