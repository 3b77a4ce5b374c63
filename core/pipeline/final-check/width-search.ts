import { crossesOther, endSide, leftOf, side } from './chord-geometry.ts';
import type { RingSet, SegmentGrid } from './segment-grid.ts';
import { cutsOffTip, type LoopFacts } from './tips.ts';
import type { NarrowChord, Narrowest, WidthRules } from './widths.ts';

/*
 * The state of one width search over a set of loops (widths.ts, beyond.ts) and what every pass
 * asks of a chord: measured by the check's rules, refused below its floor, kept when narrowest.
 */

export interface Search {
  set: RingSet;
  grid: SegmentGrid;
  loopData: LoopFacts[];
  rules: WidthRules;
  /** Per vertex: its place along its loop, how far along it chords need no measuring, the loop's length. */
  along: Float64Array;
  skip: Float64Array;
  total: Float64Array;
  /** The vertex that last measured each segment (offset per pass). */
  seenBy: Int32Array;
  found: NarrowChord[];
  narrowest: Narrowest;
  /** Chords of metal narrower than this are measured: the floor, or the narrowest above it kept so far. */
  metalLimit: number;
  /** Likewise for openings. */
  openingLimit: number;
  /** The check's own reach: the larger floor. */
  reach: number;
  /** That reach and the floors, squared. */
  reach2: number;
  minMetal2: number;
  minOpening2: number;
}

/**
 * A chord measured: refused when below its floor, and the narrowest of its kind so far. `checked`:
 * the check itself measures it (within reach of a vertex, in the cells next to it). The search
 * above the floor looks farther; a chord below the floor it found there is not the check's to
 * refuse, and would say that a file the check passed is narrower than its floor, so it is left out.
 */
export function keep(search: Search, chord: NarrowChord, checked: boolean): void {
  const metal = chord.kind === 'metal';
  const floor = metal ? search.rules.minMetal : search.rules.minOpening;
  if (chord.width < floor) {
    if (!checked) return;
    search.found.push(chord);
  }
  const best = metal ? search.narrowest.metal : search.narrowest.opening;
  if (best !== undefined && best.width <= chord.width) return;
  if (metal) {
    search.narrowest.metal = chord;
    search.metalLimit = Math.max(floor, chord.width);
  } else {
    search.narrowest.opening = chord;
    search.openingLimit = Math.max(floor, chord.width);
  }
}

/**
 * The chord from the point at u on segment k (u = 0: vertex k) to the point at t on segment s,
 * when it crosses metal or air narrower than the search's limit for that material (its floor, or
 * the narrowest kept above it) and is not a tip: else undefined.
 */
export function measureChord(search: Search, k: number, u: number, s: number, t: number): NarrowChord | undefined {
  const { set, rules } = search;
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
  if (width >= (kind === 'metal' ? search.metalLimit : search.openingLimit)) return undefined;
  const same = ringOf[s] === ringOf[k];
  if (!same && kind === 'opening') return undefined;
  const chord: NarrowChord = { kind, vx, vy, qx, qy, width };
  if (same) {
    const limit = kind === 'metal' ? rules.maxMetalTip : rules.maxOpeningTip;
    const floor = kind === 'metal' ? rules.minMetal : rules.minOpening;
    if (cutsOffTip(set, search.loopData[ringOf[k]!]!, k, u, s, chord, kind === 'metal' ? 1 : -1, limit, floor))
      return undefined;
  }
  if (crossesOther(set, search.grid, k, u, s, chord)) return undefined;
  return chord;
}

/**
 * Whether the chord from vertex k to the point at t on segment s of the same loop, `width` wide and
 * above its floor, surely cuts off a tip (what `cutsOffTip` would find, at a fraction of its cost):
 * its shorter way round is hardly longer than the chord (so that side stays within 0.16 of the
 * chord's width of it, within any tip allowance, and cannot widen beyond it), and the loop is too
 * large for the other side to stay within the allowance too. Caps of curves are most such chords.
 */
export function plainTip(search: Search, k: number, s: number, t: number, width: number, metal: boolean): boolean {
  const { set, along, total } = search;
  const s1 = set.next[s]!;
  const perimeter = total[k]!;
  const from = along[s]!;
  const to = s1 > s ? along[s1]! : perimeter;
  let forward = from + t * (to - from) - along[k]!;
  if (forward < 0) forward += perimeter;
  if (Math.min(forward, perimeter - forward) > 1.05 * width + 10) return false;
  const allowance = metal ? search.rules.maxMetalTip : search.rules.maxOpeningTip;
  const loop = search.loopData[set.ringOf[k]!]!;
  return Math.max(loop.maxX - loop.minX, loop.maxY - loop.minY) > width + 2 * allowance;
}
