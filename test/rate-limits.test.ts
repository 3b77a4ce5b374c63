import { afterEach, describe, expect, it } from 'vitest';
import {
  bearer,
  braceletBody,
  errorOf,
  getJob,
  jsonInit,
  openJob,
  uploadPng,
  type OpenedJob,
} from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, startService, type TestService, type TestServiceOptions } from './helpers/service.ts';

/**
 * The contract's rate-limit accounting ("Limits" → "Rate limit accounting", the `Retry-After`
 * paragraph under "Errors", and step 4-5 of a submission's order of processing), observed
 * through HTTP and the stored job state only.
 */

const A = '198.51.100.1';
const B = '198.51.100.2';
const C = '198.51.100.3';
const D = '198.51.100.4';
const E = '198.51.100.5';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** 2026-11-22 23:00:00 UTC: one hour before the next UTC midnight. */
const LATE_EVENING = Date.UTC(2026, 10, 22, 23, 0, 0);
const NEXT_MIDNIGHT = Date.UTC(2026, 10, 23, 0, 0, 0);

const BUCKETS = [
  'jobsPerHourPerIp',
  'globalJobsPerDay',
  'submissionsPerHourPerIp',
  'globalSubmissionsPerMinute',
  'globalSubmissionsPerDay',
] as const;
type Bucket = (typeof BUCKETS)[number];

/** Opening jobs is never what limits the upload tests. */
const ROOMY_JOBS = { jobsPerHourPerIp: 1000, globalJobsPerDay: 1000 };

let running: TestService[] = [];
let dirs: string[] = [];

async function start(limits: Record<string, number>, options: TestServiceOptions = {}): Promise<TestService> {
  const service = await startService({ ...options, config: { limits } });
  running.push(service);
  if (!dirs.includes(service.dir)) dirs.push(service.dir);
  return service;
}

/** Stops the service and starts it again on the same database and clock with new limits. */
async function restart(service: TestService, limits: Record<string, number>): Promise<TestService> {
  service.close();
  running = running.filter((s) => s !== service);
  return start(limits, { dir: service.dir, clock: service.clock });
}

afterEach(() => {
  for (const service of running) service.close();
  for (const dir of dirs) removeDir(dir);
  running = [];
  dirs = [];
});

const postJob = (
  service: TestService,
  address: string,
  body: unknown = braceletBody,
  headers?: Record<string, string>,
) => service.api('/jobs', jsonInit(body, headers), address);

/** A small valid PNG whose bytes differ per seed. */
const png = (seed: number) => makePng({ width: 300, height: 300, seed });

async function expectStatus(response: Response, status: number): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
}

/**
 * A 429 RATE_LIMITED whose message names `bucket` (and no other bucket), with `Retry-After`,
 * `retryable: true` and an agent_instruction quoting the same number of seconds.
 */
async function expectRateLimited(response: Response, bucket: Bucket, retryAfterSec: number): Promise<void> {
  const e = await errorOf(response);
  expect(e.status, JSON.stringify(e.body)).toBe(429);
  expect(e.code).toBe('RATE_LIMITED');
  expect(response.headers.get('retry-after')).toBe(String(retryAfterSec));
  expect(e.body.error.retryable).toBe(true);
  expect(e.message).toContain(bucket);
  for (const other of BUCKETS) if (other !== bucket) expect(e.message).not.toContain(other);
  expect(e.body.error.agent_instruction).toMatch(new RegExp(`(^|\\D)${retryAfterSec}(\\D|$)`));
}

describe('POST /jobs: jobsPerHourPerIp', () => {
  it('allows the configured number of job creations per address, then answers 429 with Retry-After 3600', async () => {
    const service = await start({ jobsPerHourPerIp: 3 });
    for (let i = 0; i < 3; i++) await openJob(service, braceletBody, A);
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
    // Refusals keep coming while the hour lasts.
    service.clock.advance(30 * MINUTE_MS);
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
  });

  it('does not affect a different address when one address is full', async () => {
    const service = await start({ jobsPerHourPerIp: 2 });
    await openJob(service, braceletBody, A);
    await openJob(service, braceletBody, A);
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
    await openJob(service, braceletBody, B);
    await openJob(service, braceletBody, B);
    await expectRateLimited(await postJob(service, B), 'jobsPerHourPerIp', 3600);
  });

  it('counts requests refused with 400 or 409 against the bucket (it counts requests, not jobs)', async () => {
    const service = await start({ jobsPerHourPerIp: 4 });
    const unknownField = await errorOf(await postJob(service, A, { ...braceletBody, colour: 'gold' }));
    expect([unknownField.status, unknownField.code]).toEqual([400, 'INVALID_REQUEST']);
    const malformed = await errorOf(await postJob(service, A, '{"productType": '));
    expect([malformed.status, malformed.code]).toEqual([400, 'INVALID_REQUEST']);
    const badKey = await errorOf(await postJob(service, A, braceletBody, { 'idempotency-key': 'short' }));
    expect([badKey.status, badKey.code]).toEqual([400, 'INVALID_REQUEST']);
    const tooNarrow = await errorOf(await postJob(service, A, { ...braceletBody, widthMm: 2 }));
    expect([tooNarrow.status, tooNarrow.code]).toEqual([400, 'WIDTH_OUT_OF_RANGE']);
    // Four refused requests, no job: the bucket is full all the same.
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);

    const other = await start({ jobsPerHourPerIp: 3 });
    const key = 'rate-limit-key-0001';
    expect((await postJob(other, B, braceletBody, { 'idempotency-key': key })).status).toBe(201);
    const conflict = await errorOf(
      await postJob(other, B, { ...braceletBody, widthMm: 21 }, { 'idempotency-key': key }),
    );
    expect([conflict.status, conflict.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect((await postJob(other, B)).status).toBe(201);
    await expectRateLimited(await postJob(other, B), 'jobsPerHourPerIp', 3600);
  });

  it('counts an idempotent replay (same key, same body) against the bucket', async () => {
    const service = await start({ jobsPerHourPerIp: 3 });
    const headers = { 'idempotency-key': '5d0c3c8e-6f0e-4a57-9d55-1b8a0d6c1e01' };
    const created = await postJob(service, A, braceletBody, headers);
    expect(created.status).toBe(201);
    const { job } = (await created.json()) as any;
    for (let i = 0; i < 2; i++) {
      const replay = await postJob(service, A, braceletBody, headers);
      expect(replay.status).toBe(200);
      expect(((await replay.json()) as any).job.id).toBe(job.id);
    }
    // One job, three requests: a new job is refused, and so is a further replay.
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
    await expectRateLimited(await postJob(service, A, braceletBody, headers), 'jobsPerHourPerIp', 3600);
  });

  it('frees each slot one sliding hour after the request that took it', async () => {
    const service = await start({ jobsPerHourPerIp: 3 });
    const t0 = service.clock.now();
    await openJob(service, braceletBody, A); // t0
    service.clock.set(t0 + 10 * MINUTE_MS);
    await openJob(service, braceletBody, A);
    service.clock.set(t0 + 20 * MINUTE_MS);
    await openJob(service, braceletBody, A);

    service.clock.set(t0 + HOUR_MS - 1);
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
    service.clock.set(t0 + HOUR_MS + 1);
    await openJob(service, braceletBody, A); // the t0 slot left the window
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600); // the others have not
    service.clock.set(t0 + 10 * MINUTE_MS + HOUR_MS + 1);
    await openJob(service, braceletBody, A);
  });

  it('does not count a request it refused itself', async () => {
    const service = await start({ jobsPerHourPerIp: 2 });
    const t0 = service.clock.now();
    await openJob(service, braceletBody, A); // t0
    service.clock.set(t0 + 30 * MINUTE_MS);
    await openJob(service, braceletBody, A); // t0 + 30 min
    service.clock.set(t0 + 40 * MINUTE_MS);
    for (let i = 0; i < 3; i++) await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);

    // The window now holds only the t0 + 30 min request; had the three refusals at t0 + 40 min
    // been counted, it would still be full.
    service.clock.set(t0 + HOUR_MS + 1);
    await openJob(service, braceletBody, A);
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
  });
});

describe('POST /jobs: globalJobsPerDay', () => {
  it('refuses every address once the UTC day is full, with Retry-After = seconds until the next UTC midnight', async () => {
    const service = await start({ jobsPerHourPerIp: 100, globalJobsPerDay: 2 });
    service.clock.set(LATE_EVENING);
    await openJob(service, braceletBody, A);
    await openJob(service, braceletBody, B);
    await expectRateLimited(await postJob(service, C), 'globalJobsPerDay', 3600);
    await expectRateLimited(await postJob(service, A), 'globalJobsPerDay', 3600);

    service.clock.set(Date.UTC(2026, 10, 22, 23, 15, 30));
    await expectRateLimited(await postJob(service, D), 'globalJobsPerDay', 44 * 60 + 30);
    service.clock.set(Date.UTC(2026, 10, 22, 23, 59, 59));
    await expectRateLimited(await postJob(service, D), 'globalJobsPerDay', 1);
  });

  it('counts from the default clock time with the matching Retry-After (12:00 UTC → 43200)', async () => {
    const service = await start({ jobsPerHourPerIp: 100, globalJobsPerDay: 1 });
    expect(service.clock.now()).toBe(Date.UTC(2026, 10, 22, 12, 0, 0));
    await openJob(service, braceletBody, A);
    await expectRateLimited(await postJob(service, B), 'globalJobsPerDay', 43200);
  });

  it('opens again at the next UTC midnight with a fresh day of slots', async () => {
    const service = await start({ jobsPerHourPerIp: 100, globalJobsPerDay: 2 });
    // Early in the day, so the per-IP hour is long gone by midnight either way.
    service.clock.set(Date.UTC(2026, 10, 22, 0, 0, 0));
    await openJob(service, braceletBody, A);
    service.clock.set(LATE_EVENING);
    await openJob(service, braceletBody, B);
    await expectRateLimited(await postJob(service, C), 'globalJobsPerDay', 3600);

    service.clock.set(NEXT_MIDNIGHT - 1);
    expect((await postJob(service, C)).status).toBe(429);
    service.clock.set(NEXT_MIDNIGHT);
    await openJob(service, braceletBody, C);
    await openJob(service, braceletBody, D);
    await expectRateLimited(await postJob(service, E), 'globalJobsPerDay', 86400);
  });
});

describe('POST /jobs: accounting across buckets', () => {
  it('a 429 from globalJobsPerDay still took a slot in the per-IP bucket checked before it', async () => {
    const service = await start({ jobsPerHourPerIp: 3, globalJobsPerDay: 1 });
    await openJob(service, braceletBody, A); // per-IP 1, global 1
    await expectRateLimited(await postJob(service, A), 'globalJobsPerDay', 43200); // per-IP 2
    await expectRateLimited(await postJob(service, A), 'globalJobsPerDay', 43200); // per-IP 3
    // Only one job was created, yet the per-IP bucket is full: the two global refusals counted in it.
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
    // Another address still reaches the global bucket.
    await expectRateLimited(await postJob(service, B), 'globalJobsPerDay', 43200);

    // Once the per-IP hour has passed (same UTC day), A gets through to the global bucket again.
    service.clock.advance(HOUR_MS + 1);
    await expectRateLimited(await postJob(service, A), 'globalJobsPerDay', 43200 - 3600);
  });

  it('a 429 from globalJobsPerDay does not take a global slot (seen by raising the limit on restart)', async () => {
    let service = await start({ jobsPerHourPerIp: 100, globalJobsPerDay: 1 });
    await openJob(service, braceletBody, A);
    for (const address of [A, B, C]) {
      await expectRateLimited(await postJob(service, address), 'globalJobsPerDay', 43200);
    }
    // Same database and day, limit 2: one slot is used (the 201); the three refusals took none.
    service = await restart(service, { jobsPerHourPerIp: 100, globalJobsPerDay: 2 });
    await openJob(service, braceletBody, D);
    await expectRateLimited(await postJob(service, E), 'globalJobsPerDay', 43200);
  });

  it('a request refused by the per-IP bucket never reaches the global bucket', async () => {
    const service = await start({ jobsPerHourPerIp: 1, globalJobsPerDay: 2 });
    await openJob(service, braceletBody, A); // global 1
    for (let i = 0; i < 5; i++) await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
    await openJob(service, braceletBody, B); // global 2: A's refusals took no global slot
    await expectRateLimited(await postJob(service, C), 'globalJobsPerDay', 43200);
  });
});

describe('uploads: submissionsPerHourPerIp', () => {
  it('allows the configured number of uploads per address, then 429 with Retry-After 3600; another address is unaffected', async () => {
    const service = await start({ ...ROOMY_JOBS, submissionsPerHourPerIp: 3 });
    const job = await openJob(service, braceletBody, A);
    for (let seed = 1; seed <= 3; seed++) await expectStatus(await uploadPng(service, job, png(seed), A), 200);
    await expectRateLimited(await uploadPng(service, job, png(4), A), 'submissionsPerHourPerIp', 3600);
    // Another address uploading to the same job has its own bucket.
    await expectStatus(await uploadPng(service, job, png(4), B), 200);
    // The bucket is per address, not per job.
    const second = await openJob(service, braceletBody, A);
    await expectRateLimited(await uploadPng(service, second, png(5), A), 'submissionsPerHourPerIp', 3600);
  });

  it('frees a slot one sliding hour after the upload that took it, and does not count its own refusals', async () => {
    const service = await start({ ...ROOMY_JOBS, submissionsPerHourPerIp: 2 });
    const job = await openJob(service, braceletBody, A);
    const t0 = service.clock.now();
    await expectStatus(await uploadPng(service, job, png(1), A), 200); // t0
    service.clock.set(t0 + 30 * MINUTE_MS);
    await expectStatus(await uploadPng(service, job, png(2), A), 200); // t0 + 30 min
    service.clock.set(t0 + 40 * MINUTE_MS);
    for (let seed = 3; seed <= 5; seed++) {
      await expectRateLimited(await uploadPng(service, job, png(seed), A), 'submissionsPerHourPerIp', 3600);
    }
    service.clock.set(t0 + HOUR_MS - 1);
    await expectRateLimited(await uploadPng(service, job, png(3), A), 'submissionsPerHourPerIp', 3600);
    // Only the t0 + 30 min upload is left in the window: the refusals at t0 + 40 min took no slot.
    service.clock.set(t0 + HOUR_MS + 1);
    await expectStatus(await uploadPng(service, job, png(3), A), 200);
    await expectRateLimited(await uploadPng(service, job, png(4), A), 'submissionsPerHourPerIp', 3600);
  });
});

describe('uploads: globalSubmissionsPerMinute', () => {
  it('refuses every address after 12 uploads in a minute (default limit), with Retry-After 60', async () => {
    const service = await start({ ...ROOMY_JOBS });
    const first = await openJob(service, braceletBody, A);
    const second = await openJob(service, braceletBody, B);
    for (let seed = 1; seed <= 12; seed++) {
      const job = seed <= 6 ? first : second;
      await expectStatus(await uploadPng(service, job, png(seed), [A, B, C][seed % 3]), 200);
    }
    await expectRateLimited(await uploadPng(service, second, png(13), D), 'globalSubmissionsPerMinute', 60);
    const third = await openJob(service, braceletBody, E);
    await expectRateLimited(await uploadPng(service, third, png(14), E), 'globalSubmissionsPerMinute', 60);
  });

  it('frees after 60 seconds and does not count its own refusals', async () => {
    const service = await start({ ...ROOMY_JOBS, globalSubmissionsPerMinute: 2 });
    const job = await openJob(service, braceletBody, A);
    const t0 = service.clock.now();
    await expectStatus(await uploadPng(service, job, png(1), A), 200); // t0
    service.clock.set(t0 + 30_000);
    await expectStatus(await uploadPng(service, job, png(2), B), 200); // t0 + 30 s
    service.clock.set(t0 + 40_000);
    await expectRateLimited(await uploadPng(service, job, png(3), C), 'globalSubmissionsPerMinute', 60);
    await expectRateLimited(await uploadPng(service, job, png(4), D), 'globalSubmissionsPerMinute', 60);
    service.clock.set(t0 + MINUTE_MS - 1);
    await expectRateLimited(await uploadPng(service, job, png(3), C), 'globalSubmissionsPerMinute', 60);
    // Only the t0 + 30 s upload is left in the window: the refusals took no slot.
    service.clock.set(t0 + MINUTE_MS + 1);
    await expectStatus(await uploadPng(service, job, png(3), C), 200);
    await expectRateLimited(await uploadPng(service, job, png(4), D), 'globalSubmissionsPerMinute', 60);
  });

  it('a 429 from globalSubmissionsPerMinute still took a slot in the per-IP bucket checked before it', async () => {
    const service = await start({ ...ROOMY_JOBS, submissionsPerHourPerIp: 3, globalSubmissionsPerMinute: 1 });
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200); // per-IP 1, minute 1
    await expectRateLimited(await uploadPng(service, job, png(2), A), 'globalSubmissionsPerMinute', 60); // per-IP 2
    await expectRateLimited(await uploadPng(service, job, png(3), A), 'globalSubmissionsPerMinute', 60); // per-IP 3
    // The minute bucket is empty again; what refuses now is A's hour, filled by one upload and two refusals.
    service.clock.advance(MINUTE_MS + 1);
    await expectRateLimited(await uploadPng(service, job, png(4), A), 'submissionsPerHourPerIp', 3600);
    await expectStatus(await uploadPng(service, job, png(4), B), 200);
  });
});

describe('uploads: globalSubmissionsPerDay', () => {
  it('refuses every address once the UTC day is full, with Retry-After until midnight, and opens again at midnight', async () => {
    const service = await start({ ...ROOMY_JOBS, globalSubmissionsPerDay: 2 });
    service.clock.set(LATE_EVENING);
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
    await expectStatus(await uploadPng(service, job, png(2), B), 200);
    await expectRateLimited(await uploadPng(service, job, png(3), C), 'globalSubmissionsPerDay', 3600);
    const other = await openJob(service, braceletBody, D);
    service.clock.set(Date.UTC(2026, 10, 22, 23, 30, 0));
    await expectRateLimited(await uploadPng(service, other, png(3), D), 'globalSubmissionsPerDay', 1800);

    service.clock.set(NEXT_MIDNIGHT - 1);
    expect((await uploadPng(service, other, png(3), D)).status).toBe(429);
    service.clock.set(NEXT_MIDNIGHT);
    await expectStatus(await uploadPng(service, other, png(3), D), 200);
    await expectStatus(await uploadPng(service, job, png(4), E), 200);
    await expectRateLimited(await uploadPng(service, job, png(5), C), 'globalSubmissionsPerDay', 86400);
  });

  it('a 429 from globalSubmissionsPerDay still took a slot in the per-minute and per-IP buckets before it', async () => {
    const service = await start({
      ...ROOMY_JOBS,
      submissionsPerHourPerIp: 3,
      globalSubmissionsPerMinute: 2,
      globalSubmissionsPerDay: 1,
    });
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200); // per-IP 1, minute 1, day 1
    await expectRateLimited(await uploadPng(service, job, png(2), A), 'globalSubmissionsPerDay', 43200); // per-IP 2, minute 2
    // The minute bucket is full although only one upload went through: the daily refusal counted in it.
    await expectRateLimited(await uploadPng(service, job, png(3), A), 'globalSubmissionsPerMinute', 60); // per-IP 3
    service.clock.advance(MINUTE_MS + 1);
    // A's hour holds one upload and two refusals.
    await expectRateLimited(await uploadPng(service, job, png(4), A), 'submissionsPerHourPerIp', 3600);
    await expectRateLimited(await uploadPng(service, job, png(4), B), 'globalSubmissionsPerDay', 43200 - 60);
  });

  it('a 429 from globalSubmissionsPerDay does not take a daily slot (seen by raising the limit on restart)', async () => {
    let service = await start({ ...ROOMY_JOBS, globalSubmissionsPerDay: 1 });
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
    for (let seed = 2; seed <= 4; seed++) {
      await expectRateLimited(
        await uploadPng(service, job, png(seed), [B, C, D][seed - 2]),
        'globalSubmissionsPerDay',
        43200,
      );
    }
    service = await restart(service, { ...ROOMY_JOBS, globalSubmissionsPerDay: 2 });
    await expectStatus(await uploadPng(service, job, png(5), E), 200);
    await expectRateLimited(await uploadPng(service, job, png(6), E), 'globalSubmissionsPerDay', 43200);
  });
});

describe('uploads: content idempotency and the job quota', () => {
  it.each([
    ['submissionsPerHourPerIp', { submissionsPerHourPerIp: 2 }, 3600],
    ['globalSubmissionsPerMinute', { globalSubmissionsPerMinute: 2 }, 60],
    ['globalSubmissionsPerDay', { globalSubmissionsPerDay: 2 }, 43200],
  ] as const)(
    'identical bytes return the stored outcome without counting against %s, even when it is full',
    async (bucket, limits, retryAfterSec) => {
      const service = await start({ ...ROOMY_JOBS, ...limits });
      const job = await openJob(service, braceletBody, A);
      service.pipeline.script(png(2), 'invalid');
      const ready = await uploadPng(service, job, png(1), A);
      expect(ready.status).toBe(200);
      const readyBody: any = await ready.json();
      const invalid = await uploadPng(service, job, png(2), A);
      expect(invalid.status).toBe(422);
      const invalidBody: any = await invalid.json();
      expect(service.pipeline.runs).toBe(2);

      // The bucket is full now.
      await expectRateLimited(await uploadPng(service, job, png(3), A), bucket, retryAfterSec);
      for (let i = 0; i < 3; i++) {
        const again = await uploadPng(service, job, png(1), A);
        expect(again.status).toBe(200);
        expect(((await again.json()) as any).submission.no).toBe(readyBody.submission.no);
        const againInvalid = await uploadPng(service, job, png(2), A);
        expect(againInvalid.status).toBe(422);
        expect(((await againInvalid.json()) as any).submission).toEqual(invalidBody.submission);
      }
      expect(service.pipeline.runs).toBe(2);
      expect((await getJob(service, job)).limits.submissionsLeft).toBe(8);
    },
  );

  it('identical bytes do not take a slot: the bucket still has room for exactly the uploads it had room for', async () => {
    const service = await start({
      ...ROOMY_JOBS,
      submissionsPerHourPerIp: 3,
      globalSubmissionsPerMinute: 3,
      globalSubmissionsPerDay: 3,
    });
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
    for (let i = 0; i < 5; i++) await expectStatus(await uploadPng(service, job, png(1), A), 200);
    await expectStatus(await uploadPng(service, job, png(2), A), 200);
    for (let i = 0; i < 5; i++) await expectStatus(await uploadPng(service, job, png(2), A), 200);
    await expectStatus(await uploadPng(service, job, png(3), A), 200);
    expect((await uploadPng(service, job, png(4), A)).status).toBe(429);
  });

  it('identical bytes are answered even when the job has used all 10 submissions and the buckets are full', async () => {
    const service = await start({ ...ROOMY_JOBS, submissionsPerHourPerIp: 10, globalSubmissionsPerMinute: 100 });
    const job = await openJob(service, braceletBody, A);
    for (let seed = 1; seed <= 10; seed++) await expectStatus(await uploadPng(service, job, png(seed), A), 200);
    expect((await getJob(service, job)).limits.submissionsLeft).toBe(0);
    await expectRateLimited(await uploadPng(service, job, png(11), A), 'submissionsPerHourPerIp', 3600);
    const again = await uploadPng(service, job, png(1), A);
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).submission.no).toBe(1);
  });

  it('a 429 never consumes the job submissions', async () => {
    const service = await start({ ...ROOMY_JOBS, submissionsPerHourPerIp: 2 });
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
    await expectStatus(await uploadPng(service, job, png(2), A), 200);
    const before = await getJob(service, job);
    expect(before.limits.submissionsLeft).toBe(8);
    for (let seed = 3; seed <= 7; seed++) {
      await expectRateLimited(await uploadPng(service, job, png(seed), A), 'submissionsPerHourPerIp', 3600);
    }
    const after = await getJob(service, job);
    expect(after.limits.submissionsLeft).toBe(8);
    expect(after.latestSubmission.no).toBe(2);
    const missing = await errorOf(await service.api(`/jobs/${job.id}/submissions/3`, { headers: bearer(job.secret) }));
    expect([missing.status, missing.message]).toEqual([404, 'No such submission.']);
    expect(service.pipeline.runs).toBe(2);

    // The next upload that gets through is simply submission 3.
    service.clock.advance(HOUR_MS + 1);
    const third = await uploadPng(service, job, png(3), A);
    expect(third.status).toBe(200);
    expect(((await third.json()) as any).submission.no).toBe(3);
    expect((await getJob(service, job)).limits.submissionsLeft).toBe(7);
  });
});

describe('fail closed', () => {
  const dropStore = (service: TestService) => service.db.orm.$client.execute('DROP TABLE rate_hits');

  async function expectFailClosed(response: Response): Promise<void> {
    const e = await errorOf(response);
    expect(e.status, JSON.stringify(e.body)).toBe(429);
    expect(e.code).toBe('RATE_LIMITED');
    expect(response.headers.get('retry-after')).toBe('30');
    expect(e.body.error.retryable).toBe(true);
    expect(e.message).toMatch(/fail(s)? closed/i);
    expect(e.body.error.agent_instruction).toMatch(/(^|\D)30(\D|$)/);
  }

  it('POST /jobs answers 429 RATE_LIMITED with Retry-After 30 when the limiter store is unreachable', async () => {
    const service = await start({});
    await dropStore(service);
    await expectFailClosed(await postJob(service, A));
    await expectFailClosed(await postJob(service, B, braceletBody, { 'idempotency-key': 'fail-closed-key-1' }));
    const stored = await service.db.orm.$client.execute('SELECT count(*) AS n FROM jobs');
    expect(Number(stored.rows[0]!.n)).toBe(0);
  });

  it('an upload answers 429 RATE_LIMITED with Retry-After 30 and the job keeps its submissions', async () => {
    const service = await start({});
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
    await dropStore(service);
    await expectFailClosed(await uploadPng(service, job, png(2), A));
    expect(service.pipeline.runs).toBe(1);
    const after = await getJob(service, job);
    expect(after.limits.submissionsLeft).toBe(9);
    expect(after.latestSubmission.no).toBe(1);
    // Identical bytes are answered before the rate limits, so they need no limiter.
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
  });
});

describe('reads are never rate limited', () => {
  const allAtOne = {
    jobsPerHourPerIp: 1,
    globalJobsPerDay: 1,
    submissionsPerHourPerIp: 1,
    globalSubmissionsPerMinute: 1,
    globalSubmissionsPerDay: 1,
    adoptsPerHourPerAccount: 1,
  };

  it('GET /capabilities answers every request with every limit at 1', async () => {
    const service = await start(allAtOne);
    for (let i = 0; i < 40; i++) {
      const response = await service.api('/capabilities', {}, A);
      expect(response.status).toBe(200);
      const body: any = await response.json();
      expect(body.limits.jobsPerHourPerIp).toBe(1);
    }
    // And reading did not use the job bucket.
    await openJob(service, braceletBody, A);
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
    for (let i = 0; i < 10; i++) expect((await service.api('/capabilities', {}, A)).status).toBe(200);
  });

  it('GET /jobs/{id} and the submission reads answer every request with every limit at 1', async () => {
    const service = await start(allAtOne);
    const job: OpenedJob = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
    await expectRateLimited(await postJob(service, A), 'jobsPerHourPerIp', 3600);
    await expectRateLimited(await uploadPng(service, job, png(2), A), 'submissionsPerHourPerIp', 3600);
    const headers = bearer(job.secret);
    for (let i = 0; i < 40; i++) {
      for (const path of [
        `/jobs/${job.id}`,
        `/jobs/${job.id}/submissions/1`,
        `/jobs/${job.id}/submissions/1/cutouts.svg`,
      ]) {
        expect((await service.api(path, { headers }, [A, B][i % 2])).status).toBe(200);
      }
    }
  });
});

describe('client address', () => {
  it('X-Forwarded-For does not move a caller to another per-IP bucket unless the proxy is trusted', async () => {
    const service = await start({ jobsPerHourPerIp: 1 });
    await openJob(service, braceletBody, A);
    await expectRateLimited(
      await postJob(service, A, braceletBody, { 'x-forwarded-for': B }),
      'jobsPerHourPerIp',
      3600,
    );

    const proxied = await start({ jobsPerHourPerIp: 1 }, { trustProxy: true });
    const proxy = '10.0.0.1';
    expect((await postJob(proxied, proxy, braceletBody, { 'x-forwarded-for': A })).status).toBe(201);
    await expectRateLimited(
      await postJob(proxied, proxy, braceletBody, { 'x-forwarded-for': A }),
      'jobsPerHourPerIp',
      3600,
    );
    expect((await postJob(proxied, proxy, braceletBody, { 'x-forwarded-for': B })).status).toBe(201);
  });
});
