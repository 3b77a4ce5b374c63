import type { Finding } from '../../contract/finding.ts';
import { finding, type FindingContext, type Location } from '../findings/wording.ts';
import { componentBoxes, firstInRow, forRunsOf, labelAt, labelComponents } from '../raster/components.ts';
import type { FramingMeasures } from './frame.ts';
import { surveyAir, underFloor } from '../measure/openings.ts';
import type { StripRaster } from '../raster/raster.ts';
import { locate, MAX_LOCATIONS } from '../findings/locate.ts';
import { thinMetal, type ReinforceOptions } from '../repair/reinforce.ts';

export interface ValidateOptions extends ReinforceOptions {
  /** Past this many working pixels the neck check is skipped (and says so). */
  neckCheckMaxPixels: number;
}

interface ValidateResult {
  /** The strip with loose pieces and trapped islands erased: a new raster, or the input itself when there are none. */
  raster: StripRaster;
  warnings: Finding[];
  errors: Finding[];
  /** No metal is left to trace (refused TRACE_REJECTED): the analysis ends here. */
  nothingToTrace: boolean;
}

/**
 * Decisions §4 step 7 on the framed strip: one connected piece of metal (4-connected: a
 * diagonal touch is no joint), no island inside an opening, no metal under the floor, and no
 * opening under the floor. Loose pieces and islands are refused and then erased from the strip
 * it returns (the input is left as it was).
 *
 * Given what framing measured on this same strip (`FrameResult.measured`), it measures only what
 * framing did not: the pieces always, the thin metal never (framing settled it), the openings from
 * framing's survey when it made one, and not at all when framing left them unsurveyed. Without it
 * (a strip that was not framed) it measures all three.
 */
export function validateStrip(
  raster: StripRaster,
  options: ValidateOptions,
  ctx: FindingContext,
  measured?: FramingMeasures,
): ValidateResult {
  const { w, h } = raster;
  let data = raster.data;
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const metal = labelComponents(data, w, h, 4);
  if (metal.count === 0)
    return { raster, warnings, errors: [finding('TRACE_REJECTED', {}, ctx)], nothingToTrace: true };
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
    data = data.slice();
    for (let k = 1; k <= metal.count; k++) if (k !== main) forRunsOf(metal, k, (from, to) => data.fill(0, from, to));
  }
  const out = data === raster.data ? raster : { ...raster, data };
  if (w * h > options.neckCheckMaxPixels) {
    warnings.push(finding('NECK_CHECK_SKIPPED', { pixels: w * h, bound: options.neckCheckMaxPixels }, ctx));
  } else if (!measured) {
    const { necks, webs } = thinMetal(out, options);
    const places = [...necks.map((t) => t.at), ...webs.map((web) => web.at)];
    if (places.length > 0) {
      const locations = places.slice(0, MAX_LOCATIONS);
      errors.push(finding('NECK_TOO_THIN', { count: places.length }, ctx, { locations }));
    }
  }
  if (measured?.openings === 'unsurveyed') return { raster: out, warnings, errors, nothingToTrace: false };
  const air = measured?.openings ?? surveyAir(out, options.minOpeningMm);
  const pinched = air.verdict.filter(underFloor).length;
  if (pinched > 0) {
    const locations = air.pinches.slice(0, MAX_LOCATIONS).map((b) => locate(b, out, options.minOpeningMm));
    errors.push(finding('OPENING_TOO_SMALL', { count: pinched }, ctx, { locations }));
  }
  return { raster: out, warnings, errors, nothingToTrace: false };
}
