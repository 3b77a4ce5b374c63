import { describe, expect, it } from 'vitest';
import { bearer, braceletBody, errorOf, getJob, openJob, uploadPng, type OpenedJob } from './helpers/flows.ts';
import {
  A,
  B,
  cleanUpServicesAfterEach,
  expectRateLimited,
  expectStatus,
  png,
  postJob,
  start,
} from './helpers/rate-limit-harness.ts';
import type { TestService } from './helpers/service.ts';

cleanUpServicesAfterEach();

/** Rate limits failing closed, reads that are never limited, and whose address a bucket counts. */
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
