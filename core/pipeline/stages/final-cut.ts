import type { Finding } from '../../contract/finding.ts';
import type { Margins } from '../../contract/submission.ts';
import {
  finding,
  narrowestDetails,
  placesMeet,
  REPAIR_REACH_MM,
  type FindingContext,
  type Location,
} from '../findings/wording.ts';
import { finalCuts, isClean, type FinalProblems, type FinalRules } from '../final-check/check.ts';
import { marginsOf } from '../final-check/margins.ts';
import { chordPlaces, pointPlace } from '../final-check/places.ts';
import { thousandths, UNITS_PER_MM, type FinalCut } from '../final-check/rings.ts';
import type { NarrowChord } from '../final-check/widths.ts';
import { fillDeadEnds } from '../final-check/dead-ends.ts';
import { surveyAir, underFloor } from '../measure/openings.ts';
import type { StripRaster } from '../raster/raster.ts';
import { cellGrid, type Box } from '../vector/cell-grid.ts';
import { MAX_LOCATIONS } from '../findings/locate.ts';
import { traceCuts, type FaithfulPlace } from './trace.ts';

export interface FinalCutOptions extends FinalRules {
  /** A narrow part of an opening that ends within this of where it is floor-wide is a tip, filled. */
  airTipExtentMm: number;
  /** Largest distance between a traced curve and its polyline. */
  flattenToleranceMm: number;
  /** potrace's corner threshold (see tolerances). */
  alphaMax: number;
  /** Necks the final check finds are widened to this. */
  neckTargetMm: number;
  /**
   * Thin metal refused already (framing could not widen it): narrow chords there are refused again,
   * never widened, which would contradict that refusal.
   */
  refusedMetal?: readonly Location[];
}

export interface FinalCutResult {
  /** The cuts exactly as the file holds them; empty when refused. */
  cuts: FinalCut[];
  /** Where the points of openings beyond a floor-wide chord were filled (for OPENING_REMOVED). */
  filledPoints: Location[];
  /** Where the final check's necks were widened. */
  thickened: Location[];
  errors: Finding[];
  /** How close the geometry checked last (the file, or what was refused) came to the floors. */
  margins: Margins;
}

/**
 * Traces the framed strip and checks the result exactly as the cutting file will hold it (see
 * `checkFinalCuts`). Tracing, smoothing, flattening and rounding move edges by fractions of a
 * pixel, and some narrow metal only shows on the exact geometry (around a corner where an island's
 * bridge meets it); where metal is under the floor, a copy of the raster is widened there and
 * traced again, once (the input is left as it was). Whatever the file still breaks is refused with its places: a file that
 * fails the check is never returned.
 */
export function traceFinalCuts(
  input: StripRaster,
  strip: { lengthMm: number; widthMm: number },
  options: FinalCutOptions,
  ctx: FindingContext,
): FinalCutResult {
  const L = thousandths(strip.lengthMm);
  const W = thousandths(strip.widthMm);
  const traceWith = (strip: StripRaster, faithfulAt: readonly FaithfulPlace[] = []) =>
    finalCuts(
      traceCuts(strip, { toleranceMm: options.flattenToleranceMm, alphaMax: options.alphaMax, faithfulAt }),
      L,
      W,
      options,
    );
  // Where the check finds the traced file narrower than the floor, potrace's curves may have
  // strayed from what was drawn (they fit the working pixels within half a pixel, and the pixels
  // sample the drawing every 0.05 mm): the boundaries there are traced again along the drawn edge.
  const trace = (strip: StripRaster) => {
    const smooth = traceWith(strip);
    const places = strayPlaces(smooth.problems);
    if (places.length === 0) return smooth;
    const asDrawn = traceWith(strip, places);
    return problemCount(asDrawn.problems) <= problemCount(smooth.problems) ? asDrawn : smooth;
  };
  const margins = (problems: FinalProblems) =>
    marginsOf(problems.narrowest, { ...options, marginSearchMm: options.marginSearchMm ?? 0 });
  // The point of an opening that tapers past what filling uncuttable openings could tell on the
  // pixels (or that a widening beside it sharpened): filled beyond its floor-wide chord, when it
  // ends within a tip's reach.
  const traceFillingPoints = (strip: StripRaster) => {
    const traced = trace(strip);
    const unchanged = { strip, traced, filled: [] as Location[] };
    const narrow = traced.problems.narrowOpenings;
    if (narrow.length === 0 || narrow.length > MAX_STRAY_CHORDS) return unchanged;
    const dead = fillDeadEnds(strip, narrow, {
      minOpeningMm: options.minOpeningMm,
      tipExtentMm: options.airTipExtentMm,
    });
    const filled = dead.raster && trace(dead.raster);
    if (!dead.raster || !filled || problemCount(filled.problems) >= problemCount(traced.problems)) return unchanged;
    return { strip: dead.raster, traced: filled, filled: dead.filled };
  };
  const { strip: raster, traced: first, filled: filledPoints } = traceFillingPoints(input);
  if (isClean(first.problems))
    return { cuts: first.cuts, filledPoints, thickened: [], errors: [], margins: margins(first.problems) };
  const refuse = (problems: FinalProblems): FinalCutResult => ({
    cuts: [],
    filledPoints: [],
    thickened: [],
    errors: refusals(problems, options, ctx),
    margins: margins(problems),
  });
  // Thin metal is widened and traced again even when something else is refused too, so that a
  // refusal lists only what the engine cannot fix.
  const atRefused = placeIndex(options.refusedMetal ?? []);
  const repairable = first.problems.thinMetal.filter((c) => !atRefused(c));
  if (repairable.length === 0) return refuse(first.problems);
  const widened: StripRaster = { ...raster, data: raster.data.slice() };
  widenAtChords(widened, repairable, options.neckTargetMm);
  if (surveyAir(widened, options.minOpeningMm).verdict.some(underFloor)) return refuse(first.problems);
  const thickened = chordPlaces(repairable, options.minMetalMm);
  const after = traceFillingPoints(widened);
  const second = after.traced;
  if (isClean(second.problems)) {
    const points = [...filledPoints, ...after.filled];
    return { cuts: second.cuts, filledPoints: points, thickened, errors: [], margins: margins(second.problems) };
  }
  // Anything wrong only after widening is the widening's doing: the thin metal could not be
  // widened, and is what is refused.
  if (newProblems(first.problems, second.problems)) return refuse(first.problems);
  return { ...refuse(second.problems), thickened };
}

/** Where the file is narrower than a floor: both ends of each narrow chord, in millimetres. */
function strayPlaces(problems: FinalProblems): FaithfulPlace[] {
  const places: FaithfulPlace[] = [];
  const chords = [...problems.thinMetal, ...problems.narrowOpenings];
  // A file narrow at this many places is narrow as drawn (a lace too fine for its size): tracing it
  // again would cost more than it could mend.
  if (chords.length > MAX_STRAY_CHORDS) return places;
  for (const c of chords) {
    places.push({ x: c.vx / UNITS_PER_MM, y: c.vy / UNITS_PER_MM, r: STRAY_REACH_MM });
    places.push({ x: c.qx / UNITS_PER_MM, y: c.qy / UNITS_PER_MM, r: STRAY_REACH_MM });
  }
  return places;
}

/** A chord's end lies on its ring up to the file's rounding. */
const STRAY_REACH_MM = 0.005;
/** Chords looked at for stray curves and points of openings: a file with more is narrow all over, as drawn. */
const MAX_STRAY_CHORDS = 400;

const problemCount = (p: FinalProblems): number =>
  p.thinMetal.length +
  p.narrowOpenings.length +
  p.islands.length +
  p.detached.length +
  p.notSimple.length +
  Math.abs(p.pieces - 1);

/**
 * Whether a chord's middle lies at one of the places, within a repair's reach of its circle. The
 * places are bucketed by millimetre: a lace refused at hundreds of places has thousands of chords.
 */
function placeIndex(places: readonly Location[]): (c: NarrowChord) => boolean {
  const grid = cellGrid(places, (at) => around(at.x, at.y, at.r + REPAIR_REACH_MM), 1);
  return (c) => {
    const middle = { x: (c.vx + c.qx) / 2 / UNITS_PER_MM, y: (c.vy + c.qy) / 2 / UNITS_PER_MM, r: 0 };
    return grid.some(around(middle.x, middle.y, 0), (at) => placesMeet(middle, at, REPAIR_REACH_MM));
  };
}

/** The box `reach` round a point. */
const around = (x: number, y: number, reach: number): Box => [x - reach, y - reach, x + reach, y + reach];

/** Whether `after` breaks something more than a millimetre from everything `before` broke. */
function newProblems(before: FinalProblems, after: FinalProblems): boolean {
  const places = (p: FinalProblems) => [
    ...[...p.thinMetal, ...p.narrowOpenings].map((c) => [(c.vx + c.qx) / 2, (c.vy + c.qy) / 2] as const),
    ...[...p.islands, ...p.detached, ...p.notSimple].map((q) => [q.x, q.y] as const),
  ];
  // Compared pair by pair, a lace refused at hundreds of places (18,288 places before a widening,
  // 80,238 after) took 27 s: the places before are bucketed by millimetre instead.
  const mm = UNITS_PER_MM;
  const grid = cellGrid(places(before), ([x, y]) => around(x, y, mm), mm);
  const near = ([x, y]: readonly [number, number]) =>
    grid.some(around(x, y, 0), ([ox, oy]) => Math.hypot(x - ox, y - oy) <= mm);
  return places(after).some((p) => !near(p)) || after.pieces > before.pieces;
}

/**
 * Pushes the air back at both ends of each chord that is too narrow: a disc of half the missing
 * width just beyond each end, or of all of it when the other end lies on the strip edge.
 */
function widenAtChords(raster: StripRaster, chords: readonly NarrowChord[], targetMm: number): void {
  const { w, h, mmPerPxX: sx, mmPerPxY: sy } = raster;
  const px = Math.min(sx, sy);
  const onEdge = (x: number, y: number) => x <= 0 || y <= 0 || x >= w * sx - 1e-9 || y >= h * sy - 1e-9;
  for (const c of chords) {
    const ends = [
      [c.vx / UNITS_PER_MM, c.vy / UNITS_PER_MM, c.qx / UNITS_PER_MM, c.qy / UNITS_PER_MM],
      [c.qx / UNITS_PER_MM, c.qy / UNITS_PER_MM, c.vx / UNITS_PER_MM, c.vy / UNITS_PER_MM],
    ] as const;
    const missing = Math.max(0, targetMm - c.width / UNITS_PER_MM);
    const growable = ends.filter(([x, y]) => !onEdge(x, y));
    for (const [x, y, ox, oy] of growable) {
      const len = Math.hypot(x - ox, y - oy) || 1;
      // Half a pixel beyond the end, away from the other end: the air pixel there.
      const ax = x + ((x - ox) / len) * px * 0.5;
      const ay = y + ((y - oy) / len) * px * 0.5;
      const radius = (growable.length === 2 ? missing / 2 : missing) / px + 1;
      stampMetal(raster, Math.floor(ax / sx), Math.floor(ay / sy), radius);
    }
  }
}

function stampMetal(raster: StripRaster, cx: number, cy: number, radius: number): void {
  const { w, h, data } = raster;
  const r = Math.floor(radius);
  for (let y = Math.max(0, cy - r); y <= Math.min(h - 1, cy + r); y++) {
    for (let x = Math.max(0, cx - r); x <= Math.min(w - 1, cx + r); x++) {
      if ((x - cx) ** 2 + (y - cy) ** 2 <= radius * radius) data[y * w + x] = 1;
    }
  }
}

/** What the final check refuses, as the catalogue's findings with their places. */
export function refusals(problems: FinalProblems, rules: FinalRules, ctx: FindingContext): Finding[] {
  const errors: Finding[] = [];
  if (problems.thinMetal.length > 0) {
    const locations = chordPlaces(problems.thinMetal, rules.minMetalMm);
    errors.push(finding('NECK_TOO_THIN', { count: locations.length }, ctx, { locations }));
  }
  if (problems.narrowOpenings.length > 0) {
    const locations = chordPlaces(problems.narrowOpenings, rules.minOpeningMm);
    const details = narrowestDetails(locations, rules.minOpeningMm);
    errors.push(finding('OPENING_TOO_SMALL', { count: locations.length }, ctx, { locations, details }));
  }
  if (problems.pieces > 1 || problems.detached.length > 0) {
    const locations = problems.detached.slice(0, MAX_LOCATIONS).map((p) => pointPlace(p, rules.minMetalMm));
    errors.push(
      finding('MATERIAL_DISCONNECTED', { pieces: problems.pieces + problems.detached.length }, ctx, { locations }),
    );
  }
  if (problems.islands.length > 0) {
    const locations = problems.islands.slice(0, MAX_LOCATIONS).map((p) => pointPlace(p, rules.minMetalMm));
    errors.push(finding('TRAPPED_ISLAND', { count: problems.islands.length }, ctx, { locations }));
  }
  if (problems.notSimple.length > 0) {
    // Crossings micrometres apart (the three of a bow-tie) are one place.
    const locations: Location[] = [];
    for (const p of problems.notSimple) {
      const at = pointPlace(p, rules.minOpeningMm);
      if (!locations.some((q) => placesMeet(at, q))) locations.push(at);
    }
    const count = locations.length;
    errors.push(
      finding('TRACE_REJECTED', { cause: 'crossing', count }, ctx, { locations: locations.slice(0, MAX_LOCATIONS) }),
    );
  }
  return errors;
}
