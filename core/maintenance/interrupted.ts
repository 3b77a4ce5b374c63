import { and, eq, lt } from 'drizzle-orm';
import { jobs, submissions } from '../../db/schema.ts';
import { SECOND } from '../clock.ts';
import type { Finding } from '../contract/finding.ts';
import type { Validation } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';

/** The single stored finding of an upload whose processing never finished (crash, kill, hang). */
export function interruptedFinding(afterSec: number): Finding {
  return {
    code: 'PROCESSING_INTERRUPTED',
    severity: 'error',
    message: `Processing was interrupted: it was still running after ${duration(afterSec)}. It was not counted against the job.`,
    agent_instruction:
      'Resend the same PNG bytes to this job; the new attempt is processed normally and this one stays uncounted.',
    retryable: true,
  };
}

const duration = (sec: number): string => (sec % 60 === 0 ? `${sec / 60} minutes` : `${sec} seconds`);

/**
 * Settles every `processing` row older than the contract's limit (its upload crashed, was
 * killed, or hangs): on a job that still exists and is not cancelled it is closed as
 * `failed_processing` with `PROCESSING_INTERRUPTED`, uncounted and without a duration; on a
 * cancelled job it is deleted, as the cancel promised. One transaction that re-reads the rows,
 * so several instances may run it at once. An upload that is really still running keeps its
 * outcome out of the settled row: submit.ts only finishes rows that are still `processing`.
 */
export async function settleStaleUploads(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'config'>,
): Promise<{ interrupted: number; deleted: number }> {
  const now = deps.clock.now();
  const afterSec = deps.config.limits.processingInterruptedAfterSec;
  const validation: Validation = { valid: false, errors: [interruptedFinding(afterSec)], warnings: [] };
  return deps.db.write(async (tx) => {
    const stale = await tx
      .select({ jobId: submissions.jobId, no: submissions.no, jobStatus: jobs.status })
      .from(submissions)
      .leftJoin(jobs, eq(jobs.id, submissions.jobId))
      .where(and(eq(submissions.status, 'processing'), lt(submissions.createdAt, now - afterSec * SECOND)));
    let deleted = 0;
    for (const { jobId, no, jobStatus } of stale) {
      const row = and(eq(submissions.jobId, jobId), eq(submissions.no, no));
      if (jobStatus === null || jobStatus === 'cancelled') {
        await tx.delete(submissions).where(row);
        deleted += 1;
      } else {
        await tx
          .update(submissions)
          .set({ status: 'failed_processing', counted: false, validation, finishedAt: now, durationMs: null })
          .where(row);
      }
    }
    return { interrupted: stale.length - deleted, deleted };
  });
}
