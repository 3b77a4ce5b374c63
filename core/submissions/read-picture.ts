import type { JobRow, SubmissionRow } from '../../db/schema.ts';
import type { Config } from '../config.ts';
import type { Finding } from '../contract/finding.ts';
import type { Geometry, Validation } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import type { StripInImage } from '../pipeline/types.ts';
import { noSuchFile, noSuchSubmission } from '../errors.ts';
import { err, ok, type Result } from '../result.ts';
import { isRepair, markedPlaces, numberedFindings, pictureHelps } from './findings-picture/numbering.ts';
import { renderFindingsPicture, type PictureInput } from './findings-picture/findings-picture.ts';
import { findVisible } from './read-submission.ts';

/**
 * What the findings picture is drawn from: the kept drawing copy and the stored outcome. Only a
 * `ready` or `failed_validation` submission has findings to draw, and only one stored with its copy
 * (submissions made before the copy was kept have none).
 */
export function pictureInput(row: SubmissionRow, config: Config): PictureInput | undefined {
  if (row.status !== 'ready' && row.status !== 'failed_validation') return undefined;
  const source = row.drawingSourcePx as { width: number; height: number } | null;
  if (!row.drawingPng || !source) return undefined;
  const validation = row.validation as Validation;
  const ready = row.status === 'ready' && row.cutoutsSvg && row.geometry;
  return {
    drawing: { png: row.drawingPng, source },
    validation,
    cut: ready ? { svg: row.cutoutsSvg!, geometry: row.geometry as Geometry } : undefined,
    placement: (row.stripPlacement as StripInImage | null) ?? undefined,
    minMetalMm: config.manufacturing.minMetalMm,
    maxWidthPx: config.image.recommendedPixels.width,
  };
}

/**
 * `GET .../submissions/{no}/findings.png`: the picture, drawn on request from the kept copy and
 * the stored findings (never stored itself). The SVG routes' answers otherwise: an unknown
 * submission, then "No such file" for any other status or a submission without a kept copy.
 */
export async function readFindingsPicture(deps: CoreDeps, job: JobRow, noText: string): Promise<Result<Buffer>> {
  const row = await findVisible(deps, job, noText);
  if (!row) return err(noSuchSubmission());
  const input = pictureInput(row, deps.config);
  if (!input) return err(noSuchFile());
  return ok(await renderFindingsPicture(input));
}

/** A ready submission's warning as the approval page lists it. */
export interface EngineNote {
  /** The number the findings picture gives it. */
  no: number;
  code: Finding['code'];
  /** How many places the picture circles for it (0: it concerns the whole drawing). */
  places: number;
  /** One of the engine's repairs (shown before and after), not a note about the drawing. */
  repair: boolean;
}

/**
 * What the approval page says about the engine's changes: every warning with its picture number,
 * and whether the changes picture has repaired places to show.
 */
export function engineChanges(row: SubmissionRow, config: Config): { notes: EngineNote[]; changesPicture: boolean } {
  const validation = (row.validation as Validation | null) ?? { valid: false, errors: [], warnings: [] };
  const notes = numberedFindings(validation)
    .filter(({ finding }) => finding.severity === 'warning')
    .map(({ no, finding }) => ({
      no,
      code: finding.code,
      places: markedPlaces(finding).length,
      repair: isRepair(finding),
    }));
  const changesPicture = pictureInput(row, config) !== undefined && pictureHelps(validation, 'repairs');
  return { notes, changesPicture };
}
