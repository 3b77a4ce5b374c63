import type { JobRow } from '../../db/schema.ts';
import type { Submission } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import { noSuchFile, noSuchSubmission } from '../errors.ts';
import { findJob, findSubmission } from '../jobs/job-store.ts';
import { err, ok, type Result } from '../result.ts';
import { submissionView } from './submission-view.ts';

/** `{no}` as the path carries it: 1..9999, digits only; anything else is an unknown submission. */
export function parseSubmissionNo(text: string): number | undefined {
  if (!/^[0-9]{1,4}$/.test(text)) return undefined;
  const no = Number(text);
  return no >= 1 ? no : undefined;
}

/** A submission of a job that is not cancelled (a cancelled job's submissions are gone). */
export async function findVisible(deps: CoreDeps, job: JobRow, noText: string) {
  const no = parseSubmissionNo(noText);
  if (no === undefined || job.status === 'cancelled') return undefined;
  return findSubmission(deps.db.orm, job.id, no);
}

/** The stored outcome, in any status; never recomputed. */
export async function readSubmission(deps: CoreDeps, job: JobRow, noText: string): Promise<Result<Submission>> {
  const row = await findVisible(deps, job, noText);
  if (!row) return err(noSuchSubmission());
  const current = (await findJob(deps.db.orm, job.id)) ?? job;
  return ok(submissionView(row, current, { config: deps.config, urls: deps.urls, now: deps.clock.now() }));
}

export type SubmissionFile = 'cutouts' | 'preview';

/** A ready submission's SVG; every other case is the contract's file 404. */
export async function readSubmissionFile(
  deps: CoreDeps,
  job: JobRow,
  noText: string,
  file: SubmissionFile,
): Promise<Result<string>> {
  const row = await findVisible(deps, job, noText);
  if (!row) return err(noSuchSubmission());
  const svg = row.status === 'ready' ? (file === 'cutouts' ? row.cutoutsSvg : row.previewSvg) : null;
  return svg ? ok(svg) : err(noSuchFile());
}
