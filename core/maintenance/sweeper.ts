import { and, eq, inArray, lte, or } from 'drizzle-orm';
import type { WriteTx } from '../../db/database.ts';
import { jobs, mcpJobHandles, rateHits, sessions, submissions } from '../../db/schema.ts';
import { DAY, MINUTE } from '../clock.ts';
import type { CoreDeps } from '../deps.ts';
import { CANCELLED_RETENTION_MS, EXPIRED_RETENTION_MS } from '../jobs/job-state.ts';
import { settleStaleUploads } from './interrupted.ts';
import type { UploadLeases } from './upload-leases.ts';

/** How often the service sweeps: well inside the contract's "about 10 minutes". */
export const SWEEP_EVERY_MS = MINUTE;

/** Rows per transaction, so a sweep never holds the database's write lock for long. */
const JOB_BATCH = 100;
const ROW_BATCH = 2000;
/** Transactions per step per sweep; whatever is left waits for the next sweep. */
const MAX_BATCHES = 20;

/** What one sweep changed, by step. */
export interface SweepReport {
  /**
   * `processing` rows closed as `PROCESSING_INTERRUPTED`: older than 3 minutes, or abandoned by
   * the process that reserved them (gone, or its lease lapsed).
   */
  interrupted: number;
  /**
   * Stale `processing` rows of cancelled jobs deleted. A cancel deletes finished submissions at
   * once and an upload finishing on a cancelled job deletes its own row, so these are the rows
   * of uploads that never finished.
   */
  cancelledSubmissions: number;
  /** Ended jobs deleted with all they held: cancelled 30 days ago, or expired 180 days ago. */
  jobs: number;
  /** Rate-limit hits older than the longest window (a UTC day). */
  rateHits: number;
  /** Expired site sessions. */
  sessions: number;
}

type SweepDeps = Pick<CoreDeps, 'db' | 'clock' | 'config'>;

/**
 * One retention and recovery pass, at the injected clock's "now". Every step is one bounded
 * `db.write` transaction that re-reads what it deletes, so sweeps of several instances on one
 * database queue behind each other and the later one finds nothing left to do.
 */
export async function sweep(deps: SweepDeps, leases: Pick<UploadLeases, 'isAbandoned'>): Promise<SweepReport> {
  const now = deps.clock.now();
  const uploads = await settleStaleUploads(deps, leases);
  return {
    interrupted: uploads.interrupted,
    cancelledSubmissions: uploads.deleted,
    jobs: await inBatches(deps, JOB_BATCH, (tx, limit) => deleteEndedJobs(tx, now, limit)),
    rateHits: await inBatches(deps, ROW_BATCH, (tx, limit) => pruneRateHits(tx, now, limit)),
    sessions: await inBatches(deps, ROW_BATCH, (tx, limit) => deleteExpiredSessions(tx, now, limit)),
  };
}

async function inBatches(
  deps: SweepDeps,
  size: number,
  step: (tx: WriteTx, limit: number) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const deleted = await deps.db.write((tx) => step(tx, size));
    total += deleted;
    if (deleted < size) break;
  }
  return total;
}

/** The job row, its submissions and its MCP handles, at the time `expiresAt` announced. */
async function deleteEndedJobs(tx: WriteTx, now: number, limit: number): Promise<number> {
  const ended = or(
    and(eq(jobs.status, 'cancelled'), lte(jobs.cancelledAt, now - CANCELLED_RETENTION_MS)),
    and(inArray(jobs.status, ['open', 'ready', 'declined']), lte(jobs.expiresAt, now - EXPIRED_RETENTION_MS)),
  );
  const ids = (await tx.select({ id: jobs.id }).from(jobs).where(ended).limit(limit)).map((row) => row.id);
  if (ids.length === 0) return 0;
  await tx.delete(submissions).where(inArray(submissions.jobId, ids));
  await tx.delete(mcpJobHandles).where(inArray(mcpJobHandles.jobId, ids));
  await tx.delete(jobs).where(inArray(jobs.id, ids));
  return ids.length;
}

/** No bucket looks further back than a UTC day, so older hits can never count again. */
async function pruneRateHits(tx: WriteTx, now: number, limit: number): Promise<number> {
  const old = tx
    .select({ id: rateHits.id })
    .from(rateHits)
    .where(lte(rateHits.at, now - DAY))
    .limit(limit);
  return (await tx.delete(rateHits).where(inArray(rateHits.id, old))).rowsAffected;
}

async function deleteExpiredSessions(tx: WriteTx, now: number, limit: number): Promise<number> {
  const old = tx
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(lte(sessions.expiresAt, now))
    .limit(limit);
  return (await tx.delete(sessions).where(inArray(sessions.tokenHash, old))).rowsAffected;
}
