/**
 * The faithful reference trace of a drawing, for tests: the agent's PNG cut exactly as drawn, with
 * no repair, written in the service's cutting-file format so the independent checker
 * (`test/helpers/cut-check/`) can measure it. It shares no code with `core/` (it imports nothing
 * from it) and no method with the pipeline: where the pipeline resamples to a working raster and
 * traces with potrace, this runs marching squares on the drawing's own luminance at the 128 level.
 *
 * - `piece.ts`: decode, the piece (largest 8-connected dark region), dark regions outside its
 *   outline turned white, islands kept, the box padded with a pixel of black;
 * - `marching-squares.ts`: contours at 127.5, linear interpolation, saddles join the metal;
 * - `cut-file.ts`: one cut per loop of air with its islands as further rings, in mm, rounded to
 *   thousandths, written as the cutting SVG.
 *
 *   const report = await referenceReport(png, { lengthMm: 155, widthMm: 20 }, RULES);
 *   report.ok // the drawing is cuttable exactly as drawn
 */
import { checkCutSvg, type CutCheckOptions } from '../cut-check/index.ts';
import type { CutReport, CutRules } from '../cut-check/types.ts';
import { cutsOf, writeCutSvg, type ReferenceCut } from './cut-file.ts';
import { traceContours } from './marching-squares.ts';
import { readPiece } from './piece.ts';

export type { ReferenceCut } from './cut-file.ts';

/** The job's strip: the piece's box is framed onto L × W mm. */
export interface Strip {
  lengthMm: number;
  widthMm: number;
}

export interface ReferenceOptions {
  /**
   * Openings (air not reaching the strip's edge) smaller than this, mm², are left out of the file,
   * as the service fills specks. Default 0: every opening is cut.
   */
  omitOpeningsBelowMm2?: number;
}

export interface ReferenceTrace {
  svg: string;
  /** Every cut traced, those left out by `omitOpeningsBelowMm2` included (`omitted`). */
  cuts: (ReferenceCut & { omitted: boolean })[];
  /** The piece's bounding box in the PNG, pixels. */
  box: { left: number; top: number; width: number; height: number };
  /** Millimetres per drawing pixel along the length and across the width. */
  pixelMm: { x: number; y: number };
  /** Dark regions outside the piece's outline, dropped. */
  droppedRegions: number;
}

/**
 * How far every crossing is kept from the pixel centres on either side of it, mm: two contours
 * then stay more than twice the rounding error (0.7 µm) apart, so the rounded rings stay simple.
 */
const CLEARANCE_MM = 0.003;

/** The drawing traced exactly as drawn onto the strip, with its cuts and the file that holds them. */
export async function referenceTrace(
  png: Buffer,
  strip: Strip,
  options: ReferenceOptions = {},
): Promise<ReferenceTrace> {
  const piece = await readPiece(png);
  const pixelMm = { x: strip.lengthMm / piece.box.width, y: strip.widthMm / piece.box.height };
  const minOffset = { x: Math.min(0.25, CLEARANCE_MM / pixelMm.x), y: Math.min(0.25, CLEARANCE_MM / pixelMm.y) };
  const contours = traceContours(piece.luminance, piece.nx, piece.ny, minOffset);
  const { cuts, lengthU, widthU } = cutsOf(piece, contours, strip);
  const below = options.omitOpeningsBelowMm2 ?? 0;
  const marked = cuts.map((cut) => ({ ...cut, omitted: !cut.atEdge && cut.areaMm2 < below }));
  return {
    svg: writeCutSvg(
      lengthU,
      widthU,
      marked.filter((cut) => !cut.omitted),
    ),
    cuts: marked,
    box: piece.box,
    pixelMm,
    droppedRegions: piece.droppedRegions,
  };
}

/** The cutting SVG of the drawing exactly as drawn (see the module comment). */
export async function referenceCutSvg(png: Buffer, strip: Strip, options: ReferenceOptions = {}): Promise<string> {
  return (await referenceTrace(png, strip, options)).svg;
}

/** The independent checker's report on the reference file: `ok` when a laser can cut the drawing as drawn. */
export async function referenceReport(
  png: Buffer,
  strip: Strip,
  rules: CutRules,
  options: ReferenceOptions & CutCheckOptions = {},
): Promise<CutReport> {
  return checkCutSvg(await referenceCutSvg(png, strip, options), rules, options);
}
