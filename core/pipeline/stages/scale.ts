import type { Finding } from '../../contract/finding.ts';
import { finding, type FindingContext } from '../findings/wording.ts';

interface ScaleOptions {
  /** Within this relative difference the drawing keeps its own proportions. */
  keepWithin: number;
  /** Stretch factors at or beyond this (or its inverse) are refused. */
  maxStretch: number;
  cropAspect: { min: number; max: number };
}

interface Scaled {
  lengthMm: number;
  /** The framed strip's width: the job's, or the drawing's own within `keepWithin`. */
  widthMm: number;
  drawnRatio: number;
  /** Applied along the length (1 when the drawing's proportions are kept). */
  stretch: number;
  warnings: Finding[];
  error?: Finding;
}

/**
 * Decisions §4 step 3: the strip is the piece's bounding box scaled to the job's length;
 * within 5 % the drawing keeps its proportions (the width moves), up to x1.5 it is stretched
 * along the length with a warning, beyond that (or outside the crop aspect range) it is refused.
 */
export function scaleToJob(
  boxWidthPx: number,
  boxHeightPx: number,
  job: { lengthMm: number; widthMm: number },
  options: ScaleOptions,
  ctx: FindingContext,
): Scaled {
  const drawnRatio = boxWidthPx / boxHeightPx;
  const jobRatio = job.lengthMm / job.widthMm;
  const stretch = jobRatio / drawnRatio;
  // With the limits it was held to, which the wording states as configured.
  const facts = { drawnRatio, jobRatio, stretch, ...options };
  const base = { lengthMm: job.lengthMm, widthMm: job.widthMm, drawnRatio, stretch, warnings: [] as Finding[] };
  if (drawnRatio < options.cropAspect.min || drawnRatio > options.cropAspect.max) {
    return {
      ...base,
      error: finding('PROPORTION_MISMATCH', { ...facts, cause: 'aspect' }, ctx, { severity: 'error' }),
    };
  }
  if (stretch >= options.maxStretch || stretch <= 1 / options.maxStretch) {
    return {
      ...base,
      error: finding('PROPORTION_MISMATCH', { ...facts, cause: 'stretch' }, ctx, { severity: 'error' }),
    };
  }
  if (Math.abs(stretch - 1) <= options.keepWithin) {
    return { ...base, widthMm: job.lengthMm / drawnRatio, stretch: 1 };
  }
  return { ...base, warnings: [finding('PROPORTION_MISMATCH', facts, ctx, { severity: 'warning' })] };
}
