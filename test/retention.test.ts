import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../core/clock.ts';
import {
  bearer,
  errorOf,
  getJob,
  jsonInit,
  braceletBody,
  openJob,
  uploadPng,
  type OpenedJob,
} from './helpers/flows.ts';
import { setJobState } from './helpers/fixtures.ts';
import { makePng } from './helpers/png.ts';
import { servicePerTest, type TestService } from './helpers/service.ts';
import { signedUpAccount } from './helpers/site.ts';
import { waitFor } from './helpers/wait.ts';

const service = servicePerTest();

const png = (seed: number) => makePng({ width: 300, height: 300, seed });
const at = (iso: string) => Date.parse(iso);

async function rows(table: string, where = '1 = 1', args: (string | number)[] = []): Promise<number> {
  const { rows } = await service.db.orm.$client.execute({
    sql: `SELECT count(*) AS n FROM ${table} WHERE ${where}`,
    args,
  });
  return Number(rows[0]!.n);
}

/** Everything stored under the job: its row, submissions and MCP handles. */
const stored = async (job: OpenedJob) => ({
  jobs: await rows('jobs', 'id = ?', [job.id]),
  submissions: await rows('submissions', 'job_id = ?', [job.id]),
  handles: await rows('mcp_job_handles', 'job_id = ?', [job.id]),
});

const read = (s: TestService, job: OpenedJob, path = '') =>
  s.api(`/jobs/${job.id}${path}`, { headers: bearer(job.secret) });

/** A job with a ready and a failed submission, and an MCP session's handle on it. */
async function designedJob(seed: number): Promise<OpenedJob> {
  const job = await openJob(service);
  expect((await uploadPng(service, job, png(seed))).status).toBe(200);
  const invalid = png(seed + 1);
  service.pipeline.script(invalid, 'invalid');
  expect((await uploadPng(service, job, invalid)).status).toBe(422);
  await service.core.rememberAgentJob('http:retention-test', job.id, job.secret);
  return job;
}

async function expectGone(job: OpenedJob): Promise<void> {
  expect(await stored(job)).toEqual({ jobs: 0, submissions: 0, handles: 0 });
  const e = await errorOf(await read(service, job));
  expect([e.status, e.message]).toEqual([404, 'No such job.']);
}

describe('expired jobs', () => {
  it('read expired 7 days after creation, stay readable with their files, and are deleted 180 days after expiry', async () => {
    const job = await designedJob(1);
    const created = at(job.body.job.createdAt);
    service.clock.set(created + 7 * DAY - 1);
    expect((await getJob(service, job)).status).toBe('ready');

    service.clock.set(created + 7 * DAY);
    const expired = await getJob(service, job);
    expect(expired.status).toBe('expired');
    const deletion = created + 7 * DAY + 180 * DAY;
    expect(at(expired.expiresAt)).toBe(deletion);
    expect((await errorOf(await uploadPng(service, job, png(9)))).code).toBe('JOB_EXPIRED');

    service.clock.set(deletion - 1);
    expect((await service.core.sweep()).jobs).toBe(0);
    expect((await read(service, job, '/submissions/2')).status).toBe(200);
    expect((await read(service, job, '/submissions/1/cutouts.svg')).status).toBe(200);
    expect(await stored(job)).toEqual({ jobs: 1, submissions: 2, handles: 1 });

    service.clock.set(deletion);
    expect((await service.core.sweep()).jobs).toBe(1);
    await expectGone(job);
  });

  it('expire 24 hours after a decline on the approval route, and are deleted 180 days after that', async () => {
    const job = await designedJob(3);
    const token = (await getJob(service, job)).approval.url.split('/').pop();
    service.clock.advance(2 * DAY);
    const declinedAt = service.clock.now();
    const decline = await service.api(`/handoff/${token}/decline`, { method: 'POST' });
    expect([decline.status, await decline.json()]).toEqual([200, { ok: true, status: 'declined' }]);
    expect(at((await getJob(service, job)).expiresAt)).toBe(declinedAt + 24 * HOUR);

    service.clock.set(declinedAt + 24 * HOUR - 1);
    expect((await getJob(service, job)).status).toBe('declined');
    service.clock.set(declinedAt + 24 * HOUR);
    const expired = await getJob(service, job);
    expect(expired.status).toBe('expired');
    const deletion = declinedAt + 24 * HOUR + 180 * DAY;
    expect(at(expired.expiresAt)).toBe(deletion);

    service.clock.set(deletion - 1);
    expect((await service.core.sweep()).jobs).toBe(0);
    service.clock.set(deletion);
    expect((await service.core.sweep()).jobs).toBe(1);
    await expectGone(job);
  });

  it('expire at creation + 7 days when declined less than 24 hours before that', async () => {
    const job = await designedJob(5);
    const created = at(job.body.job.createdAt);
    service.clock.set(created + 6.5 * DAY);
    await setJobState(service, job.id, 'declined');
    service.clock.set(created + 7 * DAY);
    const expired = await getJob(service, job);
    expect(expired.status).toBe('expired');
    expect(at(expired.expiresAt)).toBe(created + 187 * DAY);
  });
});

describe('cancelled jobs', () => {
  it('lose submissions and files at once, stay readable as cancelled for 30 days, then are deleted', async () => {
    const key = 'retention-cancel-key-01';
    const opened = await service.api('/jobs', jsonInit(braceletBody, { 'idempotency-key': key }));
    const body: any = await opened.json();
    const job: OpenedJob = { id: body.job.id, secret: body.credentials.jobSecret, body };
    expect((await uploadPng(service, job, png(11))).status).toBe(200);
    await service.core.rememberAgentJob('http:retention-test', job.id, job.secret);
    service.clock.advance(HOUR);
    const cancelledAt = service.clock.now();
    expect((await service.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) })).status).toBe(200);

    const cancelled = await getJob(service, job);
    expect(cancelled).toMatchObject({ status: 'cancelled', latestSubmission: null, approval: null });
    expect(at(cancelled.expiresAt)).toBe(cancelledAt + 30 * DAY);
    expect(await stored(job)).toEqual({ jobs: 1, submissions: 0, handles: 1 });
    expect((await errorOf(await read(service, job, '/submissions/1'))).message).toBe('No such submission.');

    service.clock.set(cancelledAt + 30 * DAY - 1);
    expect((await service.core.sweep()).jobs).toBe(0);
    expect((await getJob(service, job)).status).toBe('cancelled');

    service.clock.set(cancelledAt + 30 * DAY);
    expect((await service.core.sweep()).jobs).toBe(1);
    await expectGone(job);
    // The Idempotency-Key lived as long as its job: it now opens a new one.
    const reopened = await service.api('/jobs', jsonInit(braceletBody, { 'idempotency-key': key }));
    expect(reopened.status).toBe(201);
    expect(((await reopened.json()) as any).job.id).not.toBe(job.id);
  });

  it('delete an upload that was still processing at the cancel once it is stale; its late outcome keeps nothing', async () => {
    const job = await openJob(service);
    const release = service.pipeline.hold();
    const running = uploadPng(service, job, png(13));
    await waitFor(
      'the upload to start processing',
      async () => (await rows('submissions', "status = 'processing'")) === 1,
    );
    expect((await service.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) })).status).toBe(200);
    expect((await getJob(service, job)).latestSubmission).toBeNull();

    service.clock.advance(3 * MINUTE);
    expect((await service.core.sweep()).cancelledSubmissions).toBe(0);
    service.clock.advance(1);
    expect((await service.core.sweep()).cancelledSubmissions).toBe(1);
    expect(await rows('submissions', 'job_id = ?', [job.id])).toBe(0);

    release();
    const answer: any = await (await running).json();
    expect(answer.submission).toMatchObject({ status: 'ready', files: null, approval: null });
    expect(await rows('submissions', 'job_id = ?', [job.id])).toBe(0);
    expect(await getJob(service, job)).toMatchObject({ status: 'cancelled', latestSubmission: null });
  });
});

describe('what the sweep keeps', () => {
  it('never deletes an approved job, however old', async () => {
    const job = await designedJob(15);
    await setJobState(service, job.id, 'approved');
    service.clock.advance(5 * 365 * DAY);
    expect((await service.core.sweep()).jobs).toBe(0);
    expect((await getJob(service, job)).status).toBe('approved');
    expect((await read(service, job, '/submissions/1/cutouts.svg')).status).toBe(200);
  });

  it('prunes rate-limit hits older than a UTC day and keeps the ones a bucket may still count', async () => {
    // Nothing else deletes old hits: buckets only count their window, the sweeper prunes the rest.
    await openJob(service, braceletBody, '192.0.2.1');
    await openJob(service, braceletBody, '192.0.2.2');
    const early = await rows('rate_hits');
    service.clock.advance(30 * MINUTE);
    await openJob(service, braceletBody, '192.0.2.3');
    const all = await rows('rate_hits');
    expect(all).toBeGreaterThan(early);

    service.clock.advance(DAY - 30 * MINUTE - 1);
    expect((await service.core.sweep()).rateHits).toBe(0);
    service.clock.advance(1);
    expect((await service.core.sweep()).rateHits).toBe(early);
    expect(await rows('rate_hits')).toBe(all - early);
  });

  it('deletes expired site sessions and keeps live ones', async () => {
    await signedUpAccount(service);
    const ttl = service.core.config.site.sessionTtlDays * DAY;
    service.clock.advance(ttl - 1);
    expect((await service.core.sweep()).sessions).toBe(0);
    expect(await rows('sessions')).toBe(1);
    service.clock.advance(1);
    expect((await service.core.sweep()).sessions).toBe(1);
    expect(await rows('sessions')).toBe(0);
  });

  it('changes nothing when swept twice at once in one process', async () => {
    const job = await designedJob(17);
    service.clock.advance(187 * DAY);
    const [a, b] = await Promise.all([service.core.sweep(), service.core.sweep()]);
    expect(a.jobs + b.jobs).toBe(1);
    await expectGone(job);
  });
});
