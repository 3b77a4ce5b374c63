import type { CutPolygon } from '../vector/cuts.ts';
import { mendRing } from './mend.ts';
import { metalLoops } from './metal-loops.ts';
import { roundCuts, UNITS_PER_MM, type FinalCut, type Ring } from './rings.ts';
import { ringSet, segmentGrid } from './segment-grid.ts';
import { simplicityProblems, type SimplicityProblem } from './simplicity.ts';
import { tipAllowanceFromChord } from './tips.ts';
import { measureWidths, type NarrowChord, type Narrowest } from './widths.ts';

export interface FinalRules {
  minOpeningMm: number;
  minMetalMm: number;
  /**
   * Metal narrower than the floor is a tip (allowed) when it reaches at most this beyond where the
   * floor's disc reaches into it (`tipAllowanceFromChord`).
   */
  maxTipMm: number;
  /** Likewise for the corners of openings, from where they are that wide. */
  maxOpeningTipMm: number;
  /**
   * How far above each floor the narrowest metal and opening are looked for (`narrowest`); openings
   * no farther than the larger floor. 0 or absent: only below the floors, where the check looks.
   */
  marginSearchMm?: number;
}

/** What the final geometry breaks, in file units (thousandths of a millimetre). */
export interface FinalProblems {
  thinMetal: NarrowChord[];
  narrowOpenings: NarrowChord[];
  /** Metal pieces (outline loops): 1 for a cuttable strip. */
  pieces: number;
  islands: { x: number; y: number }[];
  detached: { x: number; y: number }[];
  notSimple: SimplicityProblem[];
  /** No problem: the narrowest metal and opening the check measured, below or above their floors. */
  narrowest: Narrowest;
}

/** Cells of the crossing search: a few segments long. */
const SIMPLICITY_CELL = 250;

export const isClean = (p: FinalProblems): boolean =>
  p.thinMetal.length === 0 &&
  p.narrowOpenings.length === 0 &&
  p.pieces === 1 &&
  p.islands.length === 0 &&
  p.detached.length === 0 &&
  p.notSimple.length === 0;

const allRings = (cuts: readonly FinalCut[]): Ring[] => cuts.flatMap((cut) => [cut.outer, ...cut.holes]);

/**
 * The cuts as the file will hold them, checked: rounded to thousandths, every ring that crosses
 * or touches itself (a bow-tie at a cusp, a spike) mended, then the final check on the result.
 * Rings that cannot be mended stay as they are, for the check to refuse.
 */
export function finalCuts(
  cuts: readonly CutPolygon[],
  L: number,
  W: number,
  rules: FinalRules,
): { cuts: FinalCut[]; problems: FinalProblems } {
  const rounded = roundCuts(cuts, { L, W });
  const problems = checkFinalCuts(rounded, L, W, rules);
  const broken = new Set(problems.notSimple.filter((p) => p.kind !== 'rings-touch').map((p) => p.ring));
  if (broken.size === 0) return { cuts: rounded, problems };
  let r = 0;
  const mend = (ring: Ring): Ring => (broken.has(r++) ? (mendRing(ring) ?? ring) : ring);
  const mended = rounded.map((cut) => ({ outer: mend(cut.outer), holes: cut.holes.map(mend) }));
  return { cuts: mended, problems: checkFinalCuts(mended, L, W, rules) };
}

/**
 * The final check, on exactly what the cutting file holds (L × W and the cuts in file units): every
 * ring simple and apart from the others, one piece of metal with nothing left inside a cut, metal
 * at least `minMetalMm` wide (between two openings, between an opening and the outline or strip
 * edge, and across the outline's own necks) and every opening at least `minOpeningMm` wide, sharp
 * tips and corners within their allowances excepted.
 */
export function checkFinalCuts(cuts: readonly FinalCut[], L: number, W: number, rules: FinalRules): FinalProblems {
  const rings = allRings(cuts);
  const set = ringSet(rings);
  const notSimple = simplicityProblems(set, segmentGrid(set, SIMPLICITY_CELL));
  for (let k = 0; k < set.count; k++) {
    const x = set.xs[k]!;
    const y = set.ys[k]!;
    if (x < 0 || y < 0 || x > L || y > W)
      notSimple.push({ kind: 'outside-strip', x, y, ring: set.ringOf[k]!, other: -1 });
  }
  const metal = metalLoops(cuts, L, W);
  const widths = measureWidths(
    metal.loops,
    {
      minMetal: rules.minMetalMm * UNITS_PER_MM,
      minOpening: rules.minOpeningMm * UNITS_PER_MM,
      maxMetalTip: tipAllowanceFromChord(rules.maxTipMm, rules.minMetalMm) * UNITS_PER_MM,
      maxOpeningTip: rules.maxOpeningTipMm * UNITS_PER_MM,
    },
    (rules.marginSearchMm ?? 0) * UNITS_PER_MM,
  );
  const chords = widths.narrow;
  return {
    thinMetal: chords.filter((c) => c.kind === 'metal'),
    narrowOpenings: chords.filter((c) => c.kind === 'opening'),
    pieces: metal.kinds.filter((k) => k === 'outline').length,
    islands: metal.islands,
    detached: metal.detached,
    notSimple,
    narrowest: widths.narrowest,
  };
}
