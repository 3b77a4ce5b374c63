import type { JobRow, SubmissionRow } from '../../db/schema.ts';
import { isoTime } from '../clock.ts';
import type { Price } from '../contract/job.ts';
import type { Geometry, Submission, Validation } from '../contract/submission.ts';
import { approvalView, type ViewContext } from '../jobs/job-view.ts';
import { submissionFileUrl } from '../urls.ts';
import { engineView } from './engine.ts';

const EMPTY_VALIDATION: Validation = { valid: false, errors: [], warnings: [] };

/**
 * The stored outcome of a submission, never recomputed. `approval` is the job's as it is now,
 * and only on the submission the job currently points at.
 */
export function submissionView(row: SubmissionRow, job: JobRow, ctx: ViewContext): Submission {
  const ready = row.status === 'ready';
  return {
    no: row.no,
    status: row.status,
    validation: (row.validation as Validation | null) ?? EMPTY_VALIDATION,
    geometry: ready ? (row.geometry as Geometry) : null,
    files: ready
      ? {
          cutoutsSvg: submissionFileUrl(ctx.urls, job.id, row.no, 'cutouts'),
          previewSvg: submissionFileUrl(ctx.urls, job.id, row.no, 'preview'),
        }
      : null,
    approval: ready && job.currentSubmissionNo === row.no ? approvalView(job, ctx) : null,
    price: job.price as Price,
    createdAt: isoTime(row.createdAt),
    durationMs: row.status === 'processing' ? null : row.durationMs,
    engine: engineView(row),
  };
}
