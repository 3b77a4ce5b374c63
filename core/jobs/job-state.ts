import type { JobRow } from '../../db/schema.ts';
import { DAY, HOUR } from '../clock.ts';
import type { Config } from '../config.ts';
import type { JobStatus } from '../contract/job.ts';
import { coreError, type CoreError } from '../errors.ts';

/** Statuses a job can leave by time; `expired` is derived, never stored. */
const LIVE: ReadonlySet<string> = new Set(['open', 'ready', 'declined']);

/** Retention after the job ends, as the contract's Limits section states. */
export const EXPIRED_RETENTION_MS = 180 * DAY;
export const CANCELLED_RETENTION_MS = 30 * DAY;

export function effectiveStatus(job: JobRow, now: number): JobStatus {
  return LIVE.has(job.status) && now >= job.expiresAt ? 'expired' : job.status;
}

/** What `expiresAt` shows: the live lifetime, or when the ended job's row will be deleted. */
export function publicExpiresAt(job: JobRow, now: number): number {
  const status = effectiveStatus(job, now);
  if (status === 'expired') return job.expiresAt + EXPIRED_RETENTION_MS;
  if (status === 'cancelled' && job.cancelledAt !== null) return job.cancelledAt + CANCELLED_RETENTION_MS;
  return job.expiresAt;
}

export const jobLifetimeEnd = (createdAt: number, config: Config): number => createdAt + config.limits.jobTtlDays * DAY;

/** A decline shortens the lifetime to 24 hours, never beyond creation + 7 days. */
export const declinedLifetimeEnd = (job: JobRow, declinedAt: number, config: Config): number =>
  Math.min(declinedAt + config.limits.declinedTtlHours * HOUR, jobLifetimeEnd(job.createdAt, config));

/** The 409 a job in this status answers to uploads, or nothing when it takes them. */
export function uploadRefusal(status: JobStatus): CoreError | undefined {
  switch (status) {
    case 'approved':
      return coreError('JOB_LOCKED');
    case 'expired':
      return coreError('JOB_EXPIRED');
    case 'cancelled':
      return coreError('JOB_CANCELLED');
    default:
      return undefined;
  }
}
