import { afterEach, expect } from 'vitest';
import { braceletBody, errorOf, jsonInit, roomyJobLimits } from './flows.ts';
import { makePng } from './png.ts';
import { removeDir, startService, type TestService, type TestServiceOptions } from './service.ts';
/**
 * The contract's rate-limit accounting ("Limits" → "Rate limit accounting", the `Retry-After`
 * paragraph under "Errors", and step 4-5 of a submission's order of processing), observed
 * through HTTP and the stored job state only.
 */

export const A = '198.51.100.1';
export const B = '198.51.100.2';
export const C = '198.51.100.3';
export const D = '198.51.100.4';
export const E = '198.51.100.5';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** 2026-11-22 23:00:00 UTC: one hour before the next UTC midnight. */
export const LATE_EVENING = Date.UTC(2026, 10, 22, 23, 0, 0);
export const NEXT_MIDNIGHT = Date.UTC(2026, 10, 23, 0, 0, 0);

export const BUCKETS = [
  'jobsPerHourPerIp',
  'globalJobsPerDay',
  'submissionsPerHourPerIp',
  'globalSubmissionsPerMinute',
  'globalSubmissionsPerDay',
] as const;
export type Bucket = (typeof BUCKETS)[number];

/** Opening jobs is never what limits the upload tests. */
export const ROOMY_JOBS = roomyJobLimits;

let running: TestService[] = [];
let dirs: string[] = [];

export async function start(limits: Record<string, number>, options: TestServiceOptions = {}): Promise<TestService> {
  const service = await startService({ ...options, config: { limits } });
  running.push(service);
  if (!dirs.includes(service.dir)) dirs.push(service.dir);
  return service;
}

/** Stops the service and starts it again on the same database and clock with new limits. */
export async function restart(service: TestService, limits: Record<string, number>): Promise<TestService> {
  await service.close();
  running = running.filter((s) => s !== service);
  return start(limits, { dir: service.dir, clock: service.clock });
}

/** Call once per test file: stops and removes every service the file's tests started. */
export function cleanUpServicesAfterEach(): void {
  afterEach(async () => {
    for (const service of running) await service.close();
    for (const dir of dirs) removeDir(dir);
    running = [];
    dirs = [];
  });
}

export const postJob = (
  service: TestService,
  address: string,
  body: unknown = braceletBody,
  headers?: Record<string, string>,
) => service.api('/jobs', jsonInit(body, headers), address);

/** A small valid PNG whose bytes differ per seed. */
export const png = (seed: number) => makePng({ width: 300, height: 300, seed });

export async function expectStatus(response: Response, status: number): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
}

/**
 * A 429 RATE_LIMITED whose message names `bucket` (and no other bucket), with `Retry-After`,
 * `retryable: true` and an agent_instruction quoting the same number of seconds.
 */
export async function expectRateLimited(response: Response, bucket: Bucket, retryAfterSec: number): Promise<void> {
  const e = await errorOf(response);
  expect(e.status, JSON.stringify(e.body)).toBe(429);
  expect(e.code).toBe('RATE_LIMITED');
  expect(response.headers.get('retry-after')).toBe(String(retryAfterSec));
  expect(e.body.error.retryable).toBe(true);
  expect(e.message).toContain(bucket);
  for (const other of BUCKETS) if (other !== bucket) expect(e.message).not.toContain(other);
  expect(e.body.error.agent_instruction).toMatch(new RegExp(`(^|\\D)${retryAfterSec}(\\D|$)`));
}
