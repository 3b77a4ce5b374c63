import type { Finding } from '../../contract/finding.ts';
import { finding, narrowestDetails, type FindingContext } from '../findings/wording.ts';
import { labelAt, type Labels } from '../raster/components.ts';
import { fill, fillRegions, surveyAir } from '../measure/openings.ts';
import type { StripRaster } from '../raster/raster.ts';
import { locate, MAX_LOCATIONS } from '../findings/locate.ts';

export interface UncuttableOptions {
  minOpeningMm: number;
  /** Openings smaller than this are specks, filled before anything else. */
  minOpeningAreaMm2: number;
  /** When filling specks and narrow openings would remove more than this share of the open area, refuse. */
  fineShare: number;
}

export interface UncuttableResult {
  /** The working raster with the uncuttable openings filled (a new array: the input is left as it was). */
  raster: StripRaster;
  warnings: Finding[];
  errors: Finding[];
  /**
   * The air's regions of the input raster, before filling. Framing reuses them: filling only
   * turned air into metal, and an air label is read only at pixels that are still air.
   */
  air: Labels;
}

/**
 * Decisions §4 steps 4-5 on the working raster: specks filled, openings narrower than the floor
 * everywhere filled, pinched openings refused with their places (and filled, so the later stages
 * check the rest), the tips of the rest and the slivers along the strip edge filled, and
 * FEATURES_TOO_FINE when filling would take most of the open area.
 */
export function fillUncuttableOpenings(
  raster: StripRaster,
  options: UncuttableOptions,
  ctx: FindingContext,
): UncuttableResult {
  const pxArea = raster.mmPerPxX * raster.mmPerPxY;
  const survey = surveyAir(raster, options.minOpeningMm);
  const { air, boxes, verdict } = survey;
  const filled = new Uint8Array(air.count + 1);
  const removedAt = [];
  /**
   * All the air inside the strip, the openings and what is cut away along the outline (between the
   * letters on a rail, beside a pointed end): the open area a too-fine design would lose most of.
   */
  let openArea = 0;
  /** Open area that filling would remove: specks and openings narrower than the floor everywhere. */
  let filledArea = 0;
  let specks = 0;
  let narrow = 0;
  for (let k = 1; k <= air.count; k++) {
    const area = air.size[k]! * pxArea;
    openArea += area;
    if (verdict[k] === 'edge') continue;
    if (area < options.minOpeningAreaMm2) specks++;
    else if (verdict[k] === 'narrow') narrow++;
    else continue;
    filledArea += area;
    filled[k] = 1;
    removedAt.push(locate(boxes[k]!, raster, options.minOpeningMm));
  }
  const warnings: Finding[] = [];
  const errors: Finding[] = [];
  // Refusals do not end the stage: what it refuses is repaired as the fill would (too fine) or set
  // aside (a pinched opening filled), so the later stages check the rest of the drawing.
  const tooFine = openArea > 0 && filledArea / openArea > options.fineShare;
  if (tooFine) {
    const facts = {
      share: filledArea / openArea,
      lengthMm: raster.w * raster.mmPerPxX,
      widthMm: raster.h * raster.mmPerPxY,
      minAreaMm2: options.minOpeningAreaMm2,
    };
    const locations = removedAt.slice(0, MAX_LOCATIONS);
    errors.push(finding('FEATURES_TOO_FINE', facts, ctx, { locations }));
  }
  const pinchesInKeptOpenings = survey.pinches.filter((box) => {
    const k = labelAt(air, Math.floor(box.cy) * raster.w + Math.floor(box.cx));
    return !filled[k];
  });
  const pinchedOpenings = verdict.filter((v, k) => v === 'pinched' && !filled[k]).length;
  if (pinchedOpenings > 0 && pinchesInKeptOpenings.length > 0) {
    const locations = pinchesInKeptOpenings.slice(0, MAX_LOCATIONS).map((b) => locate(b, raster, options.minOpeningMm));
    const details = narrowestDetails(locations, options.minOpeningMm);
    errors.push(finding('OPENING_TOO_SMALL', { count: pinchedOpenings }, ctx, { locations, details }));
    // Set aside whole: filling only the pinch would leave a stub of metal across the opening that
    // framing would take for a neck. Metal beside a refused opening is measured once it is fixed.
    verdict.forEach((v, k) => {
      if (v === 'pinched') filled[k] = 1;
    });
  }
  // The residue's own array (this stage's, used nowhere else) becomes the output: the metal and
  // the residue together, then the whole openings filled. No copy of the raster is needed.
  const out: StripRaster = { ...raster, data: survey.residue };
  fill(out, raster.data);
  fillRegions(out, air, filled);
  // The sharp points filled in openings that stay (a star's arms): named too, the drawing changed there.
  const points = survey.sharpPoints
    .filter((point) => !filled[point.region])
    .map((point) => locate(point.box, raster, options.minOpeningMm));
  // FEATURES_TOO_FINE already names the filled openings: the warning keeps only the sharp points.
  const named = tooFine ? [] : removedAt;
  if (named.length + points.length > 0) {
    const facts = {
      count: tooFine ? 0 : specks + narrow,
      specks,
      narrow,
      points: points.length,
      minAreaMm2: options.minOpeningAreaMm2,
    };
    const locations = [...named, ...points].slice(0, MAX_LOCATIONS);
    warnings.push(finding('OPENING_REMOVED', facts, ctx, { locations }));
  }
  return { raster: out, warnings, errors, air };
}
