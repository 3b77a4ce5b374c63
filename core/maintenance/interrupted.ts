import { and, eq } from 'drizzle-orm';
import type { WriteTx } from '../../db/database.ts';
import { jobs, submissions } from '../../db/schema.ts';
import { SECOND } from '../clock.ts';
import type { Finding } from '../contract/finding.ts';
import type { Validation } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import type { RowKey, UploadLeases } from './upload-leases.ts';

/**
 * Why an upload never finished: still running past the contract's limit (`timeout`), its process
 * gone (`stopped`: killed, crashed, or restarted), or its outcome refused by the database (`unstored`).
 */
export type Interruption = 'timeout' | 'stopped' | 'unstored';

/** The single stored finding of an upload whose processing never finished. */
function interruptedFinding(why: Interruption, afterSec: number): Finding {
  return {
    code: 'PROCESSING_INTERRUPTED',
    severity: 'error',
    message: `Processing was interrupted: ${CAUSES[why](afterSec)}. It was not counted against the job.`,
    agent_instruction:
      'Resend the same PNG bytes to this job; the new attempt is processed normally and this one stays uncounted.',
    retryable: true,
  };
}

const CAUSES: Record<Interruption, (afterSec: number) => string> = {
  timeout: (afterSec) => `it was still running after ${duration(afterSec)}`,
  stopped: () => 'the service process running it stopped before it finished',
  unstored: () => 'its outcome could not be stored',
};

const duration = (sec: number): string => (sec % 60 === 0 ? `${sec / 60} minutes` : `${sec} seconds`);

/**
 * Closes one `processing` row that will never finish: on a job that still exists and is not
 * cancelled, as `failed_processing` with `PROCESSING_INTERRUPTED`, uncounted and without a
 * duration; on a cancelled job it is deleted, as the cancel promised. A row that already left
 * `processing` is left alone. True when the row was deleted.
 */
export async function closeInterrupted(
  tx: WriteTx,
  row: RowKey,
  why: Interruption,
  deps: Pick<CoreDeps, 'clock' | 'config'>,
): Promise<boolean> {
  const [job] = await tx.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, row.jobId));
  const processing = and(
    eq(submissions.jobId, row.jobId),
    eq(submissions.no, row.no),
    eq(submissions.status, 'processing'),
  );
  if (!job || job.status === 'cancelled') {
    await tx.delete(submissions).where(processing);
    return true;
  }
  const finding = interruptedFinding(why, deps.config.limits.processingInterruptedAfterSec);
  const validation: Validation = { valid: false, errors: [finding], warnings: [] };
  await tx
    .update(submissions)
    .set({ status: 'failed_processing', counted: false, validation, finishedAt: deps.clock.now(), durationMs: null })
    .where(processing);
  return false;
}

/**
 * Settles every `processing` row that will not finish: older than the contract's limit (its
 * upload hangs, or ran in a process that left no lease), or abandoned by the process that
 * reserved it (`UploadLeases.isAbandoned`: the process is gone or its lease lapsed). One
 * transaction that re-reads the rows, so several instances may run it at once. An upload that is
 * really still running keeps its outcome out of the settled row: submit.ts only finishes rows
 * that are still `processing`.
 */
export async function settleStaleUploads(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'config'>,
  leases: Pick<UploadLeases, 'isAbandoned'>,
): Promise<{ interrupted: number; deleted: number }> {
  const now = deps.clock.now();
  const oldest = now - deps.config.limits.processingInterruptedAfterSec * SECOND;
  return deps.db.write(async (tx) => {
    const running = await tx
      .select({
        jobId: submissions.jobId,
        no: submissions.no,
        createdAt: submissions.createdAt,
        ownerId: submissions.ownerId,
        ownerHost: submissions.ownerHost,
        ownerPid: submissions.ownerPid,
        leaseUntil: submissions.leaseUntil,
      })
      .from(submissions)
      .where(eq(submissions.status, 'processing'));
    let interrupted = 0;
    let deleted = 0;
    for (const row of running) {
      const why: Interruption | undefined = leases.isAbandoned(row, now)
        ? 'stopped'
        : row.createdAt < oldest
          ? 'timeout'
          : undefined;
      if (!why) continue;
      if (await closeInterrupted(tx, row, why, deps)) deleted += 1;
      else interrupted += 1;
    }
    return { interrupted, deleted };
  });
}
