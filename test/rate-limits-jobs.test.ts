import { describe, expect, it } from 'vitest';
import { braceletBody, errorOf, openJob } from './helpers/flows.ts';
import {
  A,
  B,
  C,
  D,
  E,
  HOUR_MS,
  LATE_EVENING,
  MINUTE_MS,
  NEXT_MIDNIGHT,
  cleanUpServicesAfterEach,
  expectRateLimited,
  postJob,
  restart,
  start,
} from './helpers/rate-limit-harness.ts';

cleanUpServicesAfterEach();

/** Rate-limit accounting of POST /jobs (contract: Limits, Retry-After under Errors). */
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
