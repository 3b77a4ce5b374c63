import { expect } from 'vitest';
import { openJob, roomyRateLimits, uploadPng, type OpenedJob } from './flows.ts';
import {
  expectConsistentDatabase as expectConsistent,
  expectQuotaMatchesRows as expectQuota,
  rows as dbRows,
  scalar as dbScalar,
} from './invariants.ts';
import { makePng } from './png.ts';
import { servicePerTest } from './service.ts';

/*
 * Properties over everything the API reads from a caller: JSON bodies, Idempotency-Key,
 * Authorization, upload bodies and the handoff bodies. Any input gets a 2xx or an answer from the
 * contract's catalogue (never a 5xx), and the database keeps its invariants afterwards.
 * Runs are random; a failure prints its seed and path. FC_SEED (and FC_PATH) replay one;
 * FC_RUNS multiplies the number of runs for a deeper local search.
 */
export const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
export const SCALE = Number(process.env.FC_RUNS ?? 1);
export const TIMEOUT = 30_000 * Math.max(1, SCALE);
export const runs = (numRuns: number) => ({
  numRuns: Math.round(numRuns * SCALE),
  ...(SEED === undefined ? {} : { seed: SEED }),
  ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
});

/**
 * A fresh service per property test (rate limits out of the way) and what the properties read of
 * it: its rows, its invariants, and jobs made ready through the API.
 */
export function propertyService() {
  const service = servicePerTest({ config: { limits: roomyRateLimits } });
  const quota = () => service.core.config.limits.submissionsPerJob;
  const rows = (sql: string, args: string[] = []) => dbRows(service, sql, args);
  const scalar = (sql: string, args: string[] = []) => dbScalar(service, sql, args);
  const expectConsistentDatabase = () => expectConsistent(service, quota());
  const expectQuotaMatchesRows = (job: OpenedJob) => expectQuota(service, job, quota());

  let pngSeed = 1;
  const freshPng = () => makePng({ width: 300, height: 300, seed: pngSeed++ });

  async function readyJob(): Promise<OpenedJob & { token: string }> {
    const job = await openJob(service);
    const response = await uploadPng(service, job, freshPng());
    expect(response.status).toBe(200);
    return { ...job, token: ((await response.json()) as any).submission.approval.url.split('/a/')[1] };
  }

  const snapshot = async (jobId: string) => ({
    job: await rows('SELECT * FROM jobs WHERE id = ?', [jobId]),
    submissions: await rows(
      'SELECT job_id, no, status, sha256, counted FROM submissions WHERE job_id = ? ORDER BY no',
      [jobId],
    ),
  });

  return { service, rows, scalar, expectConsistentDatabase, expectQuotaMatchesRows, freshPng, readyJob, snapshot };
}
