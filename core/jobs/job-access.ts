import { and, eq, inArray, ne, gt } from 'drizzle-orm';
import { jobs, submissions, type JobRow } from '../../db/schema.ts';
import type { Job } from '../contract/job.ts';
import type { CoreDeps } from '../deps.ts';
import { coreError, noSuchJob } from '../errors.ts';
import { err, ok, type Result } from '../result.ts';
import { findJob, latestSubmission, slotUse } from './job-store.ts';
import { jobView } from './job-view.ts';
import { effectiveStatus } from './job-state.ts';
import { secretMatches } from './secrets.ts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The job, if the presented secret is its own. Unknown id, malformed id, wrong secret and no
 * secret all give the same 404, and the comparison runs in constant time in every case.
 */
export async function authenticateJob(
  deps: CoreDeps,
  jobId: string,
  secret: string | undefined,
): Promise<Result<JobRow>> {
  const job = UUID_PATTERN.test(jobId) ? await findJob(deps.db.orm, jobId.toLowerCase()) : undefined;
  return secretMatches(secret, job?.secretHash) && job ? ok(job) : err(noSuchJob());
}

/** A cancelled job shows no submissions, even one still finishing before it deletes itself. */
export async function readJob(deps: CoreDeps, job: JobRow): Promise<Job> {
  const [latest, slots] = await Promise.all([
    job.status === 'cancelled' ? undefined : latestSubmission(deps.db.orm, job.id),
    slotUse(deps.db.orm, job.id),
  ]);
  return jobView(job, latest, slots, { config: deps.config, urls: deps.urls, now: deps.clock.now() });
}

/**
 * Cancels with a compare-and-set on the status, so it cannot undo an approval or a lapse that
 * landed at the same moment. Finished submissions go at once; a running one finishes first and
 * removes itself.
 */
export async function cancelJob(deps: CoreDeps, job: JobRow): Promise<Result<void>> {
  const now = deps.clock.now();
  const changed = await deps.db.write(async (tx) => {
    const result = await tx
      .update(jobs)
      .set({ status: 'cancelled', cancelledAt: now })
      .where(and(eq(jobs.id, job.id), inArray(jobs.status, ['open', 'ready', 'declined']), gt(jobs.expiresAt, now)));
    if (result.rowsAffected === 0) return false;
    await tx.delete(submissions).where(and(eq(submissions.jobId, job.id), ne(submissions.status, 'processing')));
    return true;
  });
  if (changed) return ok(undefined);
  const current = await findJob(deps.db.orm, job.id);
  if (!current) return err(noSuchJob());
  const status = effectiveStatus(current, now);
  if (status === 'cancelled') return ok(undefined);
  if (status === 'approved') return err(coreError('JOB_LOCKED'));
  return err(coreError('JOB_EXPIRED'));
}
