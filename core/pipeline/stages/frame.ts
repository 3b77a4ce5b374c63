import type { Finding } from '../../contract/finding.ts';
import { finding, placesMeet, type FindingContext, type Location } from '../findings/wording.ts';
import { bridgeIslands } from '../repair/islands.ts';
import { labelComponents, type Labels } from '../raster/components.ts';
import { copyOf } from '../raster/mask-pool.ts';
import { surveyAir, underFloor, type AirSurvey } from '../measure/openings.ts';
import type { StripRaster } from '../raster/raster.ts';
import { MAX_LOCATIONS } from '../findings/locate.ts';
import { surveyAroundWebs } from '../measure/local-survey.ts';
import { shaveSpurs, thinMetal, widenThinMetal, type ThinMetal } from '../repair/reinforce.ts';
import type { ThinPart } from '../measure/thin-metal.ts';
import { hairlineEnds, shaveEnds } from '../measure/points.ts';

export interface FrameOptions {
  minOpeningMm: number;
  minMetalMm: number;
  /** Width of the bars that join islands to the nearest metal. */
  bridgeMm: number;
  /** Islands farther than this from other metal are not bridged. */
  reachMm: number;
  /** Unbridgeable islands up to this area are removed; larger ones stay and are refused. */
  removableIslandMm2: number;
  /** Protrusions at most this wide (a dead end into one air region) are shaved, not thickened. */
  hairlineMm: number;
  /** Necks are widened to this width (above the floor, for the tracer's half-pixel). */
  neckTargetMm: number;
  /** A protrusion reaching at most this far beyond where it is floor-wide is a sharp tip, left as drawn. */
  maxTipMm: number;
  /** Past this many thin places the design is refused, not widened all over. */
  maxWidenedPlaces: number;
}

/**
 * What framing measured on the strip it returns, handed to validation as a value so that it does
 * not measure the same again (see `validateStrip`). It describes `FrameResult.raster` only.
 */
export interface FramingMeasures {
  /** Framing measured the metal under the floor and widened, shaved or refused every place of it. */
  thinMetal: 'settled';
  /**
   * The survey of the returned strip's openings, when framing surveyed the whole strip after its
   * last change. `'unsurveyed'` otherwise: framing changed no opening (they are as filling the
   * uncuttable openings left them, none under the floor), or changed them only beside widened webs
   * and surveyed them there, or refused the thin metal and left it as drawn (islands it bridged
   * may then have narrowed an opening, which the final check of the cutting file measures).
   */
  openings: AirSurvey | 'unsurveyed';
}

export interface FrameResult {
  /** The framed strip: a new raster when framing changed anything, else the input itself. */
  raster: StripRaster;
  warnings: Finding[];
  errors: Finding[];
  /** Where necks were widened (the NECK_THICKENED warning is made once the cutting file is final). */
  thickened: Location[];
  /** The places of thin metal left as drawn and refused (NECK_TOO_THIN's): the final check widens nothing there. */
  refusedMetal: Location[];
  measured: FramingMeasures;
}

/**
 * Decisions §4 step 6: islands bridged or removed, spurs shaved, necks and webs widened. Where
 * widening would leave an opening narrower than its floor, the thin places beside it are left as
 * drawn and refused (NECK_TOO_THIN) with their places; the others stay widened. When that cannot
 * be told apart, nothing is widened and every thin place is refused. The input is left as it was.
 */
export function frameStrip(
  input: StripRaster,
  options: FrameOptions,
  ctx: FindingContext,
  /**
   * The input's air regions, if labelled already (`UncuttableResult.air`, labelled before the fill:
   * framing reads a label only at pixels that are still air).
   */
  air?: Labels,
): FrameResult {
  const parts = labelComponents(input.data, input.w, input.h, 4);
  // One copy for the whole stage, which every step below changes; the input stays as it came, to
  // tell what framing changed.
  const raster: StripRaster = { ...input, data: copyOf(input.data) };
  const warnings = bridgeIslands(raster, parts, options, ctx);
  // Bars across an opening can split it: the air's labels hold only while no island was touched.
  const labelled = warnings.length === 0 ? air : undefined;
  let reach: 'margin' | 'floor' = 'margin';
  let thin = thinMetal(raster, options, labelled);
  if (thin.necks.length + thin.webs.length > options.maxWidenedPlaces) {
    reach = 'floor';
    // With the pixel of margin, metal drawn at the floor counts as thin: a lace of bars at 0.6 mm
    // reads as hundreds of places. Only what is under the floor as drawn decides that the design is
    // too thin all over; metal at the floor is left to the final check, which measures it exactly.
    thin = thinMetal(raster, options, labelled, reach);
  }
  warnings.push(...shaveSpurs(raster, thin.spurs, ctx));
  const unsurveyed = { thinMetal: 'settled', openings: 'unsurveyed' } as const;
  if (warnings.length === 0 && thin.necks.length === 0 && thin.webs.length === 0) {
    return { raster: input, warnings, errors: [], thickened: [], refusedMetal: [], measured: unsurveyed };
  }
  const places = thin.necks.length + thin.webs.length;
  if (places > options.maxWidenedPlaces) {
    // Thin metal all over (a lace too fine for its size): widening would redraw the design.
    const locations = [...thin.necks.map((n) => n.at), ...thin.webs.map((w) => w.at)].slice(0, MAX_LOCATIONS);
    return {
      raster,
      warnings,
      errors: [finding('NECK_TOO_THIN', { count: places, cause: 'pervasive' }, ctx, { locations })],
      thickened: [],
      refusedMetal: locations,
      measured: unsurveyed,
    };
  }
  const beforeWidening = places > 0 ? raster.data.slice() : undefined;
  const thickened = widenNecks(raster, thin, options, reach, []);
  /** Thin metal left as drawn: its refusal, and the places it names. */
  const neckTooThin = (places: readonly Location[]): { errors: Finding[]; refusedMetal: Location[] } => {
    const locations = places.slice(0, MAX_LOCATIONS);
    return {
      errors: [finding('NECK_TOO_THIN', { count: places.length }, ctx, { locations })],
      refusedMetal: locations,
    };
  };
  if (warnings.length === 0 && thin.necks.length === 0) {
    // Only webs were widened: only the openings beside them changed.
    const local = surveyAroundWebs(raster, thin.air, thin.webs, options.minOpeningMm);
    if (!local.spoiled) {
      const residue = new Uint8Array(raster.data.length);
      for (const i of local.fill) residue[i] = 1;
      fillNearChanges(raster, residue, input.data);
      return { raster, warnings, errors: [], thickened, refusedMetal: [], measured: unsurveyed };
    }
  }
  let survey = surveyAir(raster, options.minOpeningMm);
  let refusal = { errors: [] as Finding[], refusedMetal: [] as Location[] };
  let widened = thickened;
  let baseline = beforeWidening;
  if (beforeWidening && spoils(survey)) {
    // A point whose widening closes the opening beside it is trimmed instead (its end beyond the
    // tip allowance, when that is a hairline), and the other places are widened again.
    const { ends } = hairlineEnds(
      raster,
      besideSpoiled(raster, survey, thickened, options),
      thin.points ?? [],
      options,
    );
    if (ends.length > 0) {
      raster.data.set(beforeWidening);
      const shaved = shaveEnds(raster, ends, options.minMetalMm);
      warnings.push(
        finding('SPURS_SHAVED', { count: shaved.length }, ctx, { locations: shaved.slice(0, MAX_LOCATIONS) }),
      );
      baseline = raster.data.slice();
      const trimmed = ends.map((end) => end.at);
      widened = widenNecks(raster, thin, options, reach, trimmed);
      survey = surveyAir(raster, options.minOpeningMm);
    }
  }
  if (baseline && widened.length > 0 && spoils(survey)) {
    const split = undoWhereSpoiled(raster, baseline, survey, widened, options);
    if (!split) {
      // Nothing widened stays widened: the thin metal left as drawn is refused as it is.
      raster.data.set(baseline);
      return { raster, warnings, ...neckTooThin(widened), thickened: [], measured: unsurveyed };
    }
    ({ survey, widened } = split);
    refusal = neckTooThin(split.refused);
  }
  // Bridges and widened necks can leave new tips and slivers of air; the laser cannot cut them.
  // Only those: filling uncuttable openings already filled what the drawing had, and filling the
  // openings' residue again everywhere would take another pixel off the rim of every small round hole.
  fillNearChanges(raster, survey.residue, input.data);
  return { raster, warnings, ...refusal, thickened: widened, measured: { thinMetal: 'settled', openings: survey } };
}

const spoils = (survey: AirSurvey): boolean => survey.verdict.some(underFloor);

/**
 * Widens the necks and webs, in place, and the thin parts again where that fell short (up to
 * MAX_NECK_ROUNDS), leaving the points trimmed at `trimmed` as they are. Returns the places widened.
 */
function widenNecks(
  raster: StripRaster,
  thin: ThinMetal,
  options: FrameOptions,
  reach: 'margin' | 'floor',
  trimmed: readonly Location[],
): Location[] {
  const keep = (part: ThinPart): boolean => !trimmed.some((at) => placesMeet(at, part.at));
  const first = { ...thin, necks: thin.necks.filter(keep) };
  const thickened = widenThinMetal(raster, first, options.neckTargetMm);
  // A web is widened chord by chord to the target; a thin part by an estimate of its width, which
  // for a part that narrows (a waist, a tapering finger) may fall short: those are measured again.
  for (let round = 1, left = first.necks; left.length > 0 && round < MAX_NECK_ROUNDS; round++) {
    const again = thinMetal(raster, options, undefined, reach);
    left = [...again.spurs, ...again.necks].filter(keep);
    widenThinMetal(raster, { necks: left, webs: again.webs, air: again.air }, options.neckTargetMm);
  }
  return thickened;
}

/** The places whose widening reaches an opening it left under the floor. */
function besideSpoiled(
  raster: StripRaster,
  survey: AirSurvey,
  places: readonly Location[],
  options: FrameOptions,
): Location[] {
  const { mmPerPxX: sx, mmPerPxY: sy } = raster;
  const spoiled = survey.boxes.filter((_, k) => underFloor(survey.verdict[k]!));
  return places.filter((at) =>
    spoiled.some((b) => {
      const dx = Math.max(b.x0 * sx - at.x, 0, at.x - (b.x1 + 1) * sx);
      const dy = Math.max(b.y0 * sy - at.y, 0, at.y - (b.y1 + 1) * sy);
      return Math.hypot(dx, dy) <= widenedReach(at, options);
    }),
  );
}

/** A widening reaches at most the target width beyond its place's circle. */
const widenedReach = (at: Location, options: FrameOptions): number => at.r + options.neckTargetMm;

/**
 * Where widening left an opening under the floor, undoes it at the thin places beside that
 * opening only, so the rest stays widened and one unwidenable neck does not refuse every other.
 * Undefined when that does not leave every opening at least the floor wide (or blames every place).
 */
function undoWhereSpoiled(
  raster: StripRaster,
  before: Uint8Array,
  survey: AirSurvey,
  places: readonly Location[],
  options: FrameOptions,
): { refused: Location[]; widened: Location[]; survey: AirSurvey } | undefined {
  const { w, h, mmPerPxX: sx, mmPerPxY: sy } = raster;
  const reach = (at: Location): number => widenedReach(at, options);
  const refused = besideSpoiled(raster, survey, places, options);
  if (refused.length === 0 || refused.length === places.length) return undefined;
  for (const at of refused) {
    const r = reach(at);
    const x0 = Math.max(0, Math.floor((at.x - r) / sx));
    const x1 = Math.min(w - 1, Math.ceil((at.x + r) / sx));
    for (let y = Math.max(0, Math.floor((at.y - r) / sy)); y <= Math.min(h - 1, Math.ceil((at.y + r) / sy)); y++) {
      for (let x = x0; x <= x1; x++) {
        if (Math.hypot((x + 0.5) * sx - at.x, (y + 0.5) * sy - at.y) <= r) raster.data[y * w + x] = before[y * w + x]!;
      }
    }
  }
  const again = surveyAir(raster, options.minOpeningMm);
  if (spoils(again)) return undefined;
  return { refused, widened: places.filter((at) => !refused.includes(at)), survey: again };
}

/**
 * Fills the components of `residue` that touch a pixel framing changed (one that differs from
 * `before`, the raster before framing), in place.
 */
function fillNearChanges(raster: StripRaster, residue: Uint8Array, before: Uint8Array): void {
  const { w, h, data } = raster;
  const parts = labelComponents(residue, w, h, 4);
  const near = new Uint8Array(parts.count + 1);
  const changed = (i: number): boolean => data[i] !== before[i];
  const { start, end, label } = parts.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    if (near[k]) continue;
    const y = Math.floor(start[r]! / w);
    for (let i = start[r]!; i < end[r]! && !near[k]; i++) {
      const x = i - y * w;
      if (
        (x > 0 && changed(i - 1)) ||
        (x < w - 1 && changed(i + 1)) ||
        (y > 0 && changed(i - w)) ||
        (y < h - 1 && changed(i + w))
      ) {
        near[k] = 1;
      }
    }
  }
  for (let r = 0; r < label.length; r++) if (near[label[r]!]) data.fill(1, start[r]!, end[r]!);
}

/** Rounds of widening thin parts before leaving the rest to the final check. */
const MAX_NECK_ROUNDS = 3;
