import type { Finding } from '../contract/finding.ts';
import { finding, type FindingContext, type Location } from './findings.ts';
import { componentBoxes, firstInRow, forRunsOf, labelAt, labelComponents } from './labels.ts';
import { surveyAir, underFloor, type AirSurvey } from './openings.ts';
import type { StripRaster } from './raster.ts';
import { locate, MAX_LOCATIONS } from './spots.ts';
import { thinMetal, type ReinforceOptions } from './reinforce.ts';

export interface ValidateOptions extends ReinforceOptions {
  /** Past this many working pixels the neck check is skipped (and says so). */
  neckCheckMaxPixels: number;
}

/**
 * Decisions §4 step 7 on the framed strip: one connected piece of metal (4-connected: a
 * diagonal touch is no joint), no island inside an opening, no metal under the floor, and no
 * opening under the floor. Loose pieces and islands are refused and then erased, in place.
 */
export function validateStrip(
  raster: StripRaster,
  options: ValidateOptions,
  ctx: FindingContext,
  /**
   * What framing found, when it ran: it measured the thin metal (and widened it or refused), and
   * surveyed the openings if it changed them (the fill of uncuttable openings' survey holds otherwise).
   */
  framed?: { air?: AirSurvey },
): { warnings: Finding[]; errors: Finding[] } {
  const { w, h, data } = raster;
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const metal = labelComponents(data, w, h, 4);
  if (metal.count === 0) return { warnings, errors: [finding('TRACE_REJECTED', {}, ctx)] };
  if (metal.count > 1) {
    let main = 1;
    for (let k = 2; k <= metal.count; k++) if (metal.size[k]! > metal.size[main]!) main = k;
    const notMain = new Uint8Array(w * h).fill(1);
    forRunsOf(metal, main, (from, to) => notMain.fill(0, from, to));
    const around = labelComponents(notMain, w, h, 4);
    const boxes = componentBoxes(metal, w);
    const trapped: Location[] = [];
    const loose: Location[] = [];
    for (let k = 1; k <= metal.count; k++) {
      if (k === main) continue;
      const b = boxes[k]!;
      const x = firstInRow(metal, k, b.y0);
      const inside = !around.touchesBorder[labelAt(around, b.y0 * w + (x < 0 ? b.x0 : x))]!;
      (inside ? trapped : loose).push(locate(b, raster, options.minMetalMm));
    }
    if (loose.length > 0) {
      const facts = { pieces: loose.length + 1 };
      errors.push(finding('MATERIAL_DISCONNECTED', facts, ctx, { locations: loose.slice(0, MAX_LOCATIONS) }));
    }
    if (trapped.length > 0) {
      const facts = { count: trapped.length };
      errors.push(finding('TRAPPED_ISLAND', facts, ctx, { locations: trapped.slice(0, MAX_LOCATIONS) }));
    }
    // Set aside: the final check measures the piece that stays, and finds no piece twice.
    for (let k = 1; k <= metal.count; k++) if (k !== main) forRunsOf(metal, k, (from, to) => data.fill(0, from, to));
  }
  if (w * h > options.neckCheckMaxPixels) {
    warnings.push(finding('NECK_CHECK_SKIPPED', { pixels: w * h, bound: options.neckCheckMaxPixels }, ctx));
  } else if (!framed) {
    const { necks, webs } = thinMetal(raster, options);
    const places = [...necks.map((t) => t.at), ...webs.map((web) => web.at)];
    if (places.length > 0) {
      const locations = places.slice(0, MAX_LOCATIONS);
      errors.push(finding('NECK_TOO_THIN', { count: places.length }, ctx, { locations }));
    }
  }
  // Filling uncuttable openings left only openings at least the floor wide; only framing can have changed that.
  if (framed && !framed.air) return { warnings, errors };
  const air = framed?.air ?? surveyAir(raster, options.minOpeningMm);
  const pinched = air.verdict.filter(underFloor).length;
  if (pinched > 0) {
    const locations = air.pinches.slice(0, MAX_LOCATIONS).map((b) => locate(b, raster, options.minOpeningMm));
    errors.push(finding('OPENING_TOO_SMALL', { count: pinched }, ctx, { locations }));
  }
  return { warnings, errors };
}

/** The first x in row y0 of a component's box that belongs to it. */
