import { describe, expect, it } from 'vitest';
import { bearer, braceletBody, errorOf, getJob, openJob, uploadPng } from './helpers/flows.ts';
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
  ROOMY_JOBS,
  cleanUpServicesAfterEach,
  expectRateLimited,
  expectStatus,
  png,
  restart,
  start,
} from './helpers/rate-limit-harness.ts';

cleanUpServicesAfterEach();

/** Rate-limit accounting of uploads, after the identical-bytes check (submission steps 4-5). */
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
