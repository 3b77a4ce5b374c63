import type { Finding } from '../contract/finding.ts';
import type { Geometry } from '../contract/submission.ts';
import { despeckleAreaMm2 } from '../config.ts';
import { classify, classifyDefaults } from './stages/classify.ts';
import { decodeLuminance } from './stages/decode.ts';
import { factsFor, finding, type FindingContext, type Location } from './findings/wording.ts';
import type { StripRaster } from './raster/raster.ts';
import { blameRepairs } from './findings/blame-repairs.ts';
import { frameStrip } from './stages/frame.ts';
import { addAgentPixels, type StripInImage } from './findings/agent-pixels.ts';
import { drainMasks } from './raster/mask-pool.ts';
import { mergeAlike } from './findings/merge-alike.ts';
import { withMargins } from './final-check/margins.ts';
import { fillUncuttableOpenings } from './stages/uncuttable-openings.ts';
import { findRegions } from './stages/regions.ts';
import { countCutPaths, cutAreaMm2, cuttingSvg, metalAreaMm2, previewSvg } from './stages/cutting-svg.ts';
import { resampleToStrip } from './stages/resample.ts';
import { scaleToJob } from './stages/scale.ts';
import { stageOptions } from './stage-options.ts';
import { joinDiagonalMetal, keepSeparations } from './stages/separations.ts';
import { traceFinalCuts } from './stages/final-cut.ts';
import { MAX_LOCATIONS } from './findings/locate.ts';
import type { PipelineInput, PipelineOutcome } from './types.ts';
import { validateStrip } from './stages/validate.ts';
import { pipelineTolerances } from './tolerances.ts';

/**
 * The whole pipeline in the contract's order: decode, regions, scale, filling the openings too
 * small or narrow to cut, framing, validation, tracing at millimetre scale and the final check of
 * the cutting file as it will be written, outputs. Only a drawing that cannot be read ends the analysis early: every
 * other stage runs on what the earlier ones left, with what they refused set aside or repaired as
 * it would be, so one answer lists every error and warning the drawing produces.
 */
export async function analyseDesign(input: PipelineInput): Promise<PipelineOutcome> {
  try {
    return await analyseStages(input);
  } finally {
    // The masks the stages gave back go with the rest of the analysis: an idle worker holds none.
    drainMasks();
  }
}

async function analyseStages(input: PipelineInput): Promise<PipelineOutcome> {
  const t = pipelineTolerances;
  const { manufacturing, image } = input.config;
  // Until the piece is found, the words state the floors in millimetres only.
  const floors: FindingContext = { minOpeningMm: manufacturing.minOpeningMm, minMetalMm: manufacturing.minMetalMm };
  const warnings: Finding[] = [];
  const errors: Finding[] = [];

  const piece = await readPiece(input, floors);
  warnings.push(...piece.warnings);
  if ('refusal' in piece) return refused(warnings, [piece.refusal], floors);
  const { regions } = piece;
  const boxW = regions.box.x1 - regions.box.x0 + 1;
  const boxH = regions.box.y1 - regions.box.y0 + 1;
  // From here on, in the agent's own pixels too: the piece's box is the strip's length.
  const ctx: FindingContext = { ...floors, pxPerMm: boxW / input.lengthMm };
  if (regions.droppedShare >= t.droppedRegionsShare) {
    warnings.push(finding('DISCONNECTED_REGIONS', { count: regions.droppedRegions, share: regions.droppedShare }, ctx));
  }

  const scaled = scaleToJob(boxW, boxH, input, { ...image.proportion, cropAspect: image.cropAspect }, ctx);
  warnings.push(...scaled.warnings);
  // A refused proportion still has its shapes checked, at the job's own length and width.
  if (scaled.error) errors.push(scaled.error);

  const strip = { lengthMm: scaled.lengthMm, widthMm: scaled.widthMm };
  const placing = { box: regions.box, ...strip };
  const options = stageOptions({ minOpeningMm: manufacturing.minOpeningMm, minMetalMm: manufacturing.minMetalMm });
  // Each stage returns a raster of its own and leaves its input as it was. Only the newest is held
  // (`raster`): a stage's input (up to 12 MB) is garbage once the next stage has its output.
  let raster = resampleToStrip(regions.keep, regions.box, strip, {
    mmPerPx: t.workMmPerPx,
    maxPixels: t.maxWorkPixels,
  });
  /** Adds a stage's findings to the answer's, moves `raster` on to its output, and returns the rest. */
  const step = <T extends { raster: StripRaster; warnings: Finding[]; errors: Finding[] }>(
    stage: T,
  ): Omit<T, 'raster'> => {
    warnings.push(...stage.warnings);
    errors.push(...stage.errors);
    const { raster: output, ...rest } = stage;
    raster = output;
    return rest;
  };
  raster = keepSeparations(raster, regions.keep, boxW, boxH).raster;
  raster = joinDiagonalMetal(raster).raster;

  const { air } = step(
    fillUncuttableOpenings(raster, options.fill(despeckleAreaMm2(manufacturing, input.lengthMm, input.widthMm)), ctx),
  );

  const framed = step(frameStrip(raster, options.frame, ctx, air));

  const checked = step(validateStrip(raster, options.validate, ctx, framed.measured));
  if (checked.nothingToTrace) return refused(warnings, errors, ctx, placing);

  const final = traceFinalCuts(
    raster,
    strip,
    {
      ...options.finalCut,
      refusedMetal: framed.refusedMetal,
    },
    ctx,
  );
  if (final.filledPoints.length > 0) withFilledPoints(warnings, final.filledPoints, ctx);
  const thickened = [...framed.thickened, ...final.thickened];
  if (thickened.length > 0) {
    const locations = thickened.slice(0, MAX_LOCATIONS);
    warnings.push(finding('NECK_THICKENED', { count: thickened.length }, ctx, { locations }));
  }
  errors.push(...final.errors);
  if (errors.length > 0) return withMargins(refused(warnings, errors, ctx, placing), final.margins, placing);
  const cuts = final.cuts;
  const cutting = cuttingSvg(strip.lengthMm, strip.widthMm, cuts);
  const metalArea = metalAreaMm2(strip.lengthMm, strip.widthMm, cuts);
  if (!(metalArea > 0)) return refused(warnings, [finding('TRACE_REJECTED', {}, ctx)], ctx, placing);
  const geometry: Geometry = {
    lengthMm: round(strip.lengthMm, 2),
    widthMm: round(strip.widthMm, 2),
    drawnRatio: round(scaled.drawnRatio, 4),
    stretch: round(scaled.stretch, 4),
    cuts: countCutPaths(cutting),
    openAreaPct: round((cutAreaMm2(cuts) / (strip.lengthMm * strip.widthMm)) * 100, 2),
    estWeightGrams: round((metalArea * manufacturing.thicknessMm * manufacturing.densityGramsPerCm3) / 1000, 2),
  };
  const title = `${input.productType === 'ring' ? 'Ring' : 'Bracelet'} ${geometry.lengthMm} x ${geometry.widthMm} mm`;
  addAgentPixels(warnings, placing);
  const product = { geometry, cutoutsSvg: cutting, previewSvg: previewSvg(strip.lengthMm, strip.widthMm, cuts, title) };
  return withMargins({ kind: 'analysed', errors: [], warnings, product, placement: placing }, final.margins, placing);
}

/**
 * A refusal: repairs blamed for the errors at their places become the errors of what was drawn,
 * a defect two stages found is named once, and every place gets its pixels in the agent's image.
 */
function refused(
  warnings: readonly Finding[],
  errors: readonly Finding[],
  ctx: FindingContext,
  placing?: StripInImage,
): PipelineOutcome {
  const blamed = blameRepairs(warnings, errors, pipelineTolerances.bridgeMm, ctx);
  const outcome = { errors: mergeAlike(blamed.errors, ctx), warnings: mergeAlike(blamed.warnings, ctx) };
  if (!placing) return { kind: 'analysed', ...outcome };
  addAgentPixels([...outcome.errors, ...outcome.warnings], placing);
  return { kind: 'analysed', ...outcome, placement: placing };
}

/**
 * Decode, classify and find the piece. A 24 MP image makes several 24-96 MB arrays here; they
 * live only inside this function (but for the piece's kept box), so they are garbage before the
 * working raster is built.
 */
async function readPiece(
  input: PipelineInput,
  ctx: FindingContext,
): Promise<
  { regions: ReturnType<typeof findRegions>; warnings: Finding[] } | { refusal: Finding; warnings: Finding[] }
> {
  let decoded: Awaited<ReturnType<typeof decodeLuminance>>;
  try {
    decoded = await decodeLuminance(input.png, input.config.image.maxPixels);
  } catch {
    return { refusal: finding('INVALID_FILE', {}, ctx), warnings: [] };
  }
  const { w, h } = decoded;
  const classified = classify(decoded, classifyDefaults, ctx);
  if (classified.fatal) return { refusal: classified.fatal, warnings: classified.warnings };
  // The luminance goes on to the regions, which keep its shades in the piece's box: the grey of the
  // anti-aliased edges is where they lie between pixels.
  return { regions: findRegions(classified.metal, w, h, decoded.lum), warnings: classified.warnings };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/**
 * Adds the points of openings the final check filled (`FinalCutResult.filledPoints`) to the
 * OPENING_REMOVED warning, in place: one warning names every opening and point filled.
 */
function withFilledPoints(warnings: Finding[], points: readonly Location[], ctx: FindingContext): void {
  const at = warnings.findIndex((w) => w.code === 'OPENING_REMOVED');
  const before = factsFor(warnings[at], 'OPENING_REMOVED') ?? {
    count: 0,
    specks: 0,
    narrow: 0,
    points: 0,
    minAreaMm2: 0,
  };
  const facts = { ...before, points: before.points + points.length };
  const locations = [...(at >= 0 ? (warnings[at]!.locations ?? []) : []), ...points].slice(0, MAX_LOCATIONS);
  const merged = finding('OPENING_REMOVED', facts, ctx, { locations });
  if (at >= 0) warnings[at] = merged;
  else warnings.push(merged);
}
