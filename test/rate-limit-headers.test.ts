import { describe, expect, it } from 'vitest';
import { bearer, braceletBody, errorOf, openJob, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { signedUpAccount } from './helpers/site.ts';
import {
  A,
  B,
  C,
  D,
  HOUR_MS,
  MINUTE_MS,
  ROOMY_JOBS,
  cleanUpServicesAfterEach,
  expectRateLimited,
  expectStatus,
  png,
  postJob,
  start,
} from './helpers/rate-limit-harness.ts';
import type { TestService } from './helpers/service.ts';

cleanUpServicesAfterEach();

/*
 * RateLimit and RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers, structured-field form),
 * read from the same buckets that decide the 429s. Every test runs on limits other than the
 * defaults, so the numbers can only have come from the live configuration. The default clock
 * starts at 12:00 UTC, 43200 s before the next UTC midnight.
 */

const rateHeaders = (response: Response) => ({
  policy: response.headers.get('ratelimit-policy'),
  limit: response.headers.get('ratelimit'),
});

const JOB_POLICY = (perIp: number, perDay: number) =>
  `"jobsPerHourPerIp";q=${perIp};w=3600, "globalJobsPerDay";q=${perDay};w=86400`;

describe('POST /jobs: RateLimit and RateLimit-Policy', () => {
  it('lists both job buckets from the configuration, and remaining falls by one per counted request down to the 429', async () => {
    const service = await start({ jobsPerHourPerIp: 3, globalJobsPerDay: 17 });
    const policy = JOB_POLICY(3, 17);

    const first = await postJob(service, A);
    expect(first.status).toBe(201);
    expect(rateHeaders(first)).toEqual({ policy, limit: '"jobsPerHourPerIp";r=2;t=3600' });

    // Ten minutes on, a request refused with 400 still takes a slot; the first slot frees 50 minutes from now.
    service.clock.advance(10 * MINUTE_MS);
    const refused = await postJob(service, A, { ...braceletBody, colour: 'gold' });
    expect(refused.status).toBe(400);
    expect(rateHeaders(refused)).toEqual({ policy, limit: '"jobsPerHourPerIp";r=1;t=3000' });

    const last = await postJob(service, A);
    expect(last.status).toBe(201);
    expect(rateHeaders(last)).toEqual({ policy, limit: '"jobsPerHourPerIp";r=0;t=3000' });

    // Remaining 0: the next request is the 429, its Retry-After as before, and t names the same instant.
    const limited = await postJob(service, A);
    expect(rateHeaders(limited)).toEqual({ policy, limit: '"jobsPerHourPerIp";r=0;t=3600' });
    await expectRateLimited(limited, 'jobsPerHourPerIp', 3600);

    // Another address has its own per-IP bucket: it sees its own remaining count.
    const other = await postJob(service, B);
    expect(rateHeaders(other)).toEqual({ policy, limit: '"jobsPerHourPerIp";r=2;t=3600' });
  });

  it('counts an idempotent replay and reports it on the 200', async () => {
    const service = await start({ jobsPerHourPerIp: 4, globalJobsPerDay: 50 });
    const headers = { 'idempotency-key': '0b7f0a1e-5f55-4d4f-9d7e-6a3c54b0c0de' };
    expect(rateHeaders(await postJob(service, A, braceletBody, headers)).limit).toBe('"jobsPerHourPerIp";r=3;t=3600');
    const replay = await postJob(service, A, braceletBody, headers);
    expect(replay.status).toBe(200);
    expect(rateHeaders(replay)).toEqual({ policy: JOB_POLICY(4, 50), limit: '"jobsPerHourPerIp";r=2;t=3600' });
  });

  it('reports the global daily bucket once it has fewer left than the caller’s own, with t until UTC midnight', async () => {
    const service = await start({ jobsPerHourPerIp: 5, globalJobsPerDay: 3 });
    const remaining: (string | null)[] = [];
    for (const address of [A, B, C]) remaining.push(rateHeaders(await postJob(service, address)).limit);
    expect(remaining).toEqual([
      '"globalJobsPerDay";r=2;t=43200',
      '"globalJobsPerDay";r=1;t=43200',
      '"globalJobsPerDay";r=0;t=43200',
    ]);
    const limited = await postJob(service, D);
    expect(rateHeaders(limited)).toEqual({ policy: JOB_POLICY(5, 3), limit: '"globalJobsPerDay";r=0;t=43200' });
    await expectRateLimited(limited, 'globalJobsPerDay', 43200);
  });

  it('lists every bucket that ties for the fewest left, in the order they are checked', async () => {
    const service = await start({ jobsPerHourPerIp: 2, globalJobsPerDay: 2 });
    const first = await postJob(service, A);
    expect(rateHeaders(first).limit).toBe('"jobsPerHourPerIp";r=1;t=3600, "globalJobsPerDay";r=1;t=43200');
  });

  it('frees one slot as the oldest request leaves the sliding hour, as t announced', async () => {
    const service = await start({ jobsPerHourPerIp: 2, globalJobsPerDay: 50 });
    const t0 = service.clock.now();
    await openJob(service, braceletBody, A);
    service.clock.set(t0 + 20 * MINUTE_MS);
    const full = await postJob(service, A);
    expect(rateHeaders(full).limit).toBe('"jobsPerHourPerIp";r=0;t=2400');
    service.clock.set(t0 + 20 * MINUTE_MS + 2400 * 1000 - 1);
    expect((await postJob(service, A)).status).toBe(429);
    service.clock.set(t0 + HOUR_MS);
    const freed = await postJob(service, A);
    expect(freed.status).toBe(201);
    // The t0 + 20 min request is now the oldest: it leaves at t0 + 80 min.
    expect(rateHeaders(freed).limit).toBe('"jobsPerHourPerIp";r=0;t=1200');
  });

  it('leaves RateLimit out while every bucket has at least 1000 left, and still sends the policy', async () => {
    const service = await start({ jobsPerHourPerIp: 5000, globalJobsPerDay: 1_000_000 });
    const far = await postJob(service, A);
    expect(rateHeaders(far)).toEqual({ policy: JOB_POLICY(5000, 1_000_000), limit: null });

    // One bucket under the mark: it is reported, and it provably has the fewest left.
    const mixed = await start({ jobsPerHourPerIp: 5, globalJobsPerDay: 1_000_000 });
    expect(rateHeaders(await postJob(mixed, A)).limit).toBe('"jobsPerHourPerIp";r=4;t=3600');

    // A large limit is reported from the first request that leaves it under 1000.
    const near = await start({ jobsPerHourPerIp: 2000, globalJobsPerDay: 1005 });
    const limits: (string | null)[] = [];
    for (let i = 0; i < 6; i++) limits.push(rateHeaders(await postJob(near, A)).limit);
    expect(limits).toEqual([null, null, null, null, null, '"globalJobsPerDay";r=999;t=43200']);
  });
});

describe('uploads: RateLimit and RateLimit-Policy', () => {
  const UPLOAD_POLICY =
    '"submissionsPerHourPerIp";q=5;w=3600, "globalSubmissionsPerMinute";q=3;w=60, "globalSubmissionsPerDay";q=40;w=86400';
  const uploadLimits = {
    ...ROOMY_JOBS,
    submissionsPerHourPerIp: 5,
    globalSubmissionsPerMinute: 3,
    globalSubmissionsPerDay: 40,
  };

  it('lists the three upload buckets and counts down the one closest to refusing, down to the 429', async () => {
    const service = await start(uploadLimits);
    const job = await openJob(service, braceletBody, A);
    const seen: [number, ReturnType<typeof rateHeaders>][] = [];
    for (let seed = 1; seed <= 3; seed++) {
      const response = await uploadPng(service, job, png(seed), A);
      seen.push([response.status, rateHeaders(response)]);
      service.clock.advance(10_000);
    }
    expect(seen).toEqual([
      [200, { policy: UPLOAD_POLICY, limit: '"globalSubmissionsPerMinute";r=2;t=60' }],
      [200, { policy: UPLOAD_POLICY, limit: '"globalSubmissionsPerMinute";r=1;t=50' }],
      [200, { policy: UPLOAD_POLICY, limit: '"globalSubmissionsPerMinute";r=0;t=40' }],
    ]);
    const limited = await uploadPng(service, job, png(4), B);
    expect(rateHeaders(limited)).toEqual({ policy: UPLOAD_POLICY, limit: '"globalSubmissionsPerMinute";r=0;t=60' });
    await expectRateLimited(limited, 'globalSubmissionsPerMinute', 60);

    // A minute later the minute bucket is empty again, and the caller's own hour (4 of 5 used) is
    // the closest; its first slot frees 3600 s after the first upload, 90 s ago.
    service.clock.advance(MINUTE_MS);
    const next = await uploadPng(service, job, png(4), A);
    expect(next.status).toBe(200);
    expect(rateHeaders(next).limit).toBe('"submissionsPerHourPerIp";r=1;t=3510');
  });

  it('sends neither header on answers decided before the rate limits: stored outcomes and file or secret refusals', async () => {
    const service = await start(uploadLimits);
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
    const refusals: Response[] = [
      await uploadPng(service, job, png(1), A), // identical bytes: the stored outcome, not counted
      await uploadPng(service, job, new Uint8Array([1, 2, 3]), A), // not a PNG
      await uploadPng(service, { ...job, secret: 'ajs_wrong' } as OpenedJob, png(2), A), // 404
    ];
    expect(refusals.map((r) => r.status)).toEqual([200, 400, 404]);
    for (const response of refusals) expect(rateHeaders(response)).toEqual({ policy: null, limit: null });
  });
});

describe('routes without buckets', () => {
  it('GET /capabilities, the job and submission reads and the job cancel carry no rate-limit headers', async () => {
    const service = await start({ jobsPerHourPerIp: 2, globalJobsPerDay: 2, submissionsPerHourPerIp: 2 });
    const job = await openJob(service, braceletBody, A);
    await expectStatus(await uploadPng(service, job, png(1), A), 200);
    const auth = { headers: bearer(job.secret) };
    const answers: [string, Response][] = [
      ['GET /capabilities', await service.api('/capabilities', {}, A)],
      ['HEAD /capabilities', await service.api('/capabilities', { method: 'HEAD' }, A)],
      ['GET /jobs/{id}', await service.api(`/jobs/${job.id}`, auth, A)],
      ['GET submission', await service.api(`/jobs/${job.id}/submissions/1`, auth, A)],
      ['GET cutouts.svg', await service.api(`/jobs/${job.id}/submissions/1/cutouts.svg`, auth, A)],
      ['DELETE /jobs/{id}', await service.api(`/jobs/${job.id}`, { ...auth, method: 'DELETE' }, A)],
    ];
    for (const [what, response] of answers) {
      expect(response.status, what).toBe(200);
      expect(rateHeaders(response), what).toEqual({ policy: null, limit: null });
    }
  });

  it('a refusal by a limiter that cannot reach its store (fail closed) carries neither header: nothing was counted', async () => {
    const service = await start({ jobsPerHourPerIp: 2 });
    await service.db.orm.$client.execute('DROP TABLE rate_hits');
    const response = await postJob(service, A);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(rateHeaders(response)).toEqual({ policy: null, limit: null });
    expect((await errorOf(response)).code).toBe('RATE_LIMITED');
  });
});

describe('POST /handoff/{token}/adopt: RateLimit and RateLimit-Policy', () => {
  async function readyToken(service: TestService): Promise<string> {
    const job = await openJob(service, braceletBody, A);
    const body: any = await (await uploadPng(service, job, png(1), A)).json();
    return body.submission.approval.url.split('/a/')[1];
  }

  it('counts down adoptsPerHourPerAccount on the JSON answers, agrees with the 429, and leaves the form redirect bare', async () => {
    const service = await start({ ...ROOMY_JOBS, adoptsPerHourPerAccount: 3 });
    const token = await readyToken(service);
    const cookie = `jds=${(await signedUpAccount(service, 'dana@example.com', A)).sessionToken}`;
    const adopt = () =>
      service.api(`/handoff/${token}/adopt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ submissionNo: 1 }),
      });
    const policy = '"adoptsPerHourPerAccount";q=3;w=3600';

    const created = await adopt();
    expect([created.status, rateHeaders(created)]).toEqual([
      201,
      { policy, limit: '"adoptsPerHourPerAccount";r=2;t=3600' },
    ]);
    const form = await service.api(`/handoff/${token}/adopt`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:8787', cookie },
      body: 'submissionNo=1',
    });
    expect([form.status, rateHeaders(form)]).toEqual([303, { policy: null, limit: null }]);
    const again = await adopt();
    expect([again.status, rateHeaders(again)]).toEqual([
      200,
      { policy, limit: '"adoptsPerHourPerAccount";r=0;t=3600' },
    ]);
    const limited = await adopt();
    expect(rateHeaders(limited)).toEqual({ policy, limit: '"adoptsPerHourPerAccount";r=0;t=3600' });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '3600']);
  });
});
