import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, errorOf, getJob, openJob, roomyRateLimits, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { setJobState } from './helpers/fixtures.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

const DAY = 24 * 3600 * 1000;
/** Submission rate limits raised so these tests reach the per-job quota, not a bucket. */
const roomyLimits = { limits: roomyRateLimits };

let service: TestService;
let job: OpenedJob;
beforeEach(async () => {
  service = await startService({ config: roomyLimits });
  job = await openJob(service);
});
afterEach(async () => {
  await service.close();
  removeDir(service.dir);
});

const png = (seed: number) => makePng({ width: 300, height: 300, seed });
const upload = (bytes: Uint8Array) => uploadPng(service, job, bytes);
const read = (no: number | string) => service.api(`/jobs/${job.id}/submissions/${no}`, { headers: bearer(job.secret) });
const left = async () => (await getJob(service, job)).limits.submissionsLeft;
const countRows = async (where: string) => {
  const { rows } = await service.db.orm.$client.execute({
    sql: `SELECT count(*) AS n FROM submissions WHERE job_id = ? AND ${where}`,
    args: [job.id],
  });
  return Number(rows[0]!.n);
};

describe('outcomes', () => {
  it('answers 422 with the submission (not the envelope) for a failed validation, and counts it', async () => {
    const bytes = png(1);
    service.pipeline.script(bytes, 'invalid');
    const response = await upload(bytes);
    expect(response.status).toBe(422);
    const { submission }: any = await response.json();
    expect(submission).toMatchObject({
      no: 1,
      status: 'failed_validation',
      geometry: null,
      files: null,
      approval: null,
    });
    expect(submission.validation.valid).toBe(false);
    expect(submission.validation.errors.length).toBeGreaterThan(0);
    expect(await left()).toBe(9);
  });

  it.each([
    ['unavailable', 'VECTORIZER_UNAVAILABLE'],
    ['failed', 'PROCESSING_FAILED'],
    ['throws', 'PROCESSING_FAILED'],
  ] as const)('answers 502 %s as %s, stores failed_processing and does not count it', async (script, code) => {
    const bytes = png(2);
    service.pipeline.script(bytes, script);
    const response = await upload(bytes);
    const e = await errorOf(response);
    expect([e.status, e.code, e.body.error.retryable]).toEqual([502, code, true]);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(e.message).not.toContain('scripted');
    expect(await left()).toBe(10);
    const stored: any = await (await read(1)).json();
    expect(stored.submission.status).toBe('failed_processing');
    expect(stored.submission.validation.errors).toEqual([
      expect.objectContaining({ code, retryable: true, severity: 'error' }),
    ]);
    expect((await getJob(service, job)).latestSubmission).toMatchObject({
      status: 'failed_processing',
      errorCodes: [code],
    });
  });

  it('processes the same bytes again after a technical failure, without counting the failure', async () => {
    const bytes = png(3);
    service.pipeline.script(bytes, 'unavailable');
    expect((await upload(bytes)).status).toBe(502);
    service.pipeline.script(bytes, 'ready');
    const again = await upload(bytes);
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).submission.no).toBe(2);
    expect(service.pipeline.runs).toBe(2);
    expect(await left()).toBe(9);
  });
});

describe('content idempotency', () => {
  it('replays identical bytes without consuming a submission or running the pipeline', async () => {
    const first: any = await (await upload(png(4))).json();
    const second = await upload(png(4));
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(first);
    expect(service.pipeline.runs).toBe(1);
    expect(await left()).toBe(9);
  });

  it('replays a failed validation with its 422', async () => {
    const bytes = png(5);
    service.pipeline.script(bytes, 'invalid');
    const first: any = await (await upload(bytes)).json();
    const again = await upload(bytes);
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual(first);
    expect(await left()).toBe(9);
  });

  it('answers 409 SUBMISSION_IN_PROGRESS naming the running submission while identical bytes run', async () => {
    const release = service.pipeline.hold();
    const running = upload(png(6));
    await waitFor('the upload to start processing', async () => (await countRows("status = 'processing'")) === 1);
    const response = await upload(png(6));
    const e = await errorOf(response);
    expect([e.status, e.code, e.body.error.retryable]).toEqual([409, 'SUBMISSION_IN_PROGRESS', true]);
    expect(response.headers.get('retry-after')).toBe('10');
    expect(e.message).toContain('submission 1');
    expect(e.body.error.agent_instruction).toContain('10 seconds');

    const live: any = await (await read(1)).json();
    expect(live.submission).toMatchObject({
      status: 'processing',
      validation: { valid: false, errors: [], warnings: [] },
      geometry: null,
      files: null,
      approval: null,
      durationMs: null,
    });
    expect((await getJob(service, job)).latestSubmission.status).toBe('processing');
    release();
    expect((await running).status).toBe(200);
  });

  it('replays even when all 10 submissions are used', async () => {
    for (let seed = 10; seed < 20; seed++) expect((await upload(png(seed))).status).toBe(200);
    expect((await errorOf(await upload(png(99)))).code).toBe('TOO_MANY_SUBMISSIONS');
    expect((await upload(png(12))).status).toBe(200);
  });
});

describe('quota', () => {
  it('refuses the 11th counted submission with 409 TOO_MANY_SUBMISSIONS', async () => {
    for (let seed = 20; seed < 30; seed++) {
      const bytes = png(seed);
      if (seed % 2) service.pipeline.script(bytes, 'invalid');
      expect([200, 422]).toContain((await upload(bytes)).status);
    }
    expect(await left()).toBe(0);
    const e = await errorOf(await upload(png(30)));
    expect([e.status, e.code]).toEqual([409, 'TOO_MANY_SUBMISSIONS']);
  });

  it('never exceeds 10 counted submissions under 15 concurrent uploads', async () => {
    const release = service.pipeline.hold();
    const uploads = Array.from({ length: 15 }, (_, i) => upload(png(100 + i)));
    await waitFor('ten uploads to be processing', async () => (await countRows("status = 'processing'")) === 10);
    release();
    const statuses = (await Promise.all(uploads)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(await countRows('counted = 1')).toBe(10);
    expect(await left()).toBe(0);
  });

  it('holds a slot for a running submission and frees it when the run fails technically', async () => {
    for (let seed = 40; seed < 49; seed++) await upload(png(seed));
    const bytes = png(49);
    service.pipeline.script(bytes, 'unavailable');
    const release = service.pipeline.hold();
    const running = upload(bytes);
    await waitFor('the upload to start processing', async () => (await countRows("status = 'processing'")) === 1);
    expect(await left()).toBe(0);
    expect((await errorOf(await upload(png(50)))).code).toBe('TOO_MANY_SUBMISSIONS');
    release();
    expect((await running).status).toBe(502);
    expect(await left()).toBe(1);
    expect((await upload(png(50))).status).toBe(200);
  });
});

describe('job state', () => {
  it('answers the state 409 on approved, expired and cancelled jobs, even for identical bytes', async () => {
    const bytes = png(60);
    expect((await upload(bytes)).status).toBe(200);
    await setJobState(service, job.id, 'approved');
    for (const b of [bytes, png(61)]) expect((await errorOf(await upload(b))).code).toBe('JOB_LOCKED');

    const expiring = await openJob(service);
    await uploadPng(service, expiring, bytes);
    service.clock.advance(7 * DAY);
    for (const b of [bytes, png(62)])
      expect((await errorOf(await uploadPng(service, expiring, b))).code).toBe('JOB_EXPIRED');

    const cancelled = await openJob(service);
    await service.api(`/jobs/${cancelled.id}`, { method: 'DELETE', headers: bearer(cancelled.secret) });
    const e = await errorOf(await uploadPng(service, cancelled, bytes));
    expect([e.status, e.code]).toEqual([409, 'JOB_CANCELLED']);
  });

  it('moves an open job to ready and points the link at the newest passing submission', async () => {
    const first: any = await (await upload(png(70))).json();
    const afterFirst = await getJob(service, job);
    expect(afterFirst.status).toBe('ready');
    expect(afterFirst.approval).toEqual(first.submission.approval);

    const second: any = await (await upload(png(71))).json();
    expect(second.submission.approval.url).toBe(first.submission.approval.url);
    expect(((await (await read(1)).json()) as any).submission.approval).toBeNull();
    expect(((await (await read(2)).json()) as any).submission.approval).toEqual(second.submission.approval);
  });

  it('keeps the link on the last passing submission when a later one fails validation', async () => {
    await upload(png(72));
    const bytes = png(73);
    service.pipeline.script(bytes, 'invalid');
    expect((await upload(bytes)).status).toBe(422);
    const read1: any = await (await read(1)).json();
    expect(read1.submission.approval).not.toBeNull();
    expect((await getJob(service, job)).status).toBe('ready');
  });

  it('re-arms the same link after a decline and restores expiry to creation + 7 days', async () => {
    const first: any = await (await upload(png(80))).json();
    service.clock.advance(DAY);
    await setJobState(service, job.id, 'declined');
    const declined = await getJob(service, job);
    expect(Date.parse(declined.expiresAt)).toBe(service.clock.now() + DAY);

    const again: any = await (await upload(png(81))).json();
    expect(again.submission.approval).toMatchObject({ url: first.submission.approval.url, status: 'pending' });
    const rearmed = await getJob(service, job);
    expect(rearmed.status).toBe('ready');
    expect(rearmed.expiresAt).toBe(job.body.job.expiresAt);
  });

  it('finishes an upload whose job is cancelled meanwhile and then keeps nothing of it', async () => {
    const release = service.pipeline.hold();
    const running = upload(png(90));
    await waitFor('the upload to start processing', async () => (await countRows("status = 'processing'")) === 1);
    const cancel = await service.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) });
    expect(cancel.status).toBe(200);
    // While it still runs, the cancelled job already shows no submissions.
    expect((await getJob(service, job)).latestSubmission).toBeNull();
    expect((await errorOf(await read(1))).message).toBe('No such submission.');
    release();
    const answer: any = await (await running).json();
    expect(answer.submission).toMatchObject({ status: 'ready', approval: null, files: null });
    expect(await countRows('1 = 1')).toBe(0);
    expect((await getJob(service, job)).status).toBe('cancelled');
  });
});

describe('GET /jobs/{jobId}/submissions/{no} and files', () => {
  it('returns the stored outcome exactly as the upload answered it', async () => {
    const posted: any = await (await upload(png(110))).json();
    const response = await read(1);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(posted);
  });

  it('answers 404 No such submission for unknown and malformed numbers', async () => {
    await upload(png(111));
    for (const no of ['2', '0', '10000', 'abc', '-1', '1.0']) {
      const e = await errorOf(await read(no));
      expect([no, e.status, e.message]).toEqual([no, 404, 'No such submission.']);
    }
  });

  it('serves the SVGs of a ready submission and 404s for a failed one', async () => {
    await upload(png(112));
    const cut = await service.api(`/jobs/${job.id}/submissions/1/cutouts.svg`, { headers: bearer(job.secret) });
    expect(cut.status).toBe(200);
    expect(cut.headers.get('content-type')).toContain('image/svg+xml');
    expect(cut.headers.get('cache-control')).toBe('no-store');
    expect(await cut.text()).toContain('<g id="cutouts">');
    const preview = await service.api(`/jobs/${job.id}/submissions/1/preview.svg`, { headers: bearer(job.secret) });
    expect([preview.status, (await preview.text()).includes('role="img"')]).toEqual([200, true]);

    const bytes = png(113);
    service.pipeline.script(bytes, 'invalid');
    await upload(bytes);
    for (const file of ['cutouts', 'preview']) {
      const e = await errorOf(
        await service.api(`/jobs/${job.id}/submissions/2/${file}.svg`, { headers: bearer(job.secret) }),
      );
      expect([e.status, e.message]).toEqual([404, 'No such file for this submission.']);
    }
    const none = await errorOf(
      await service.api(`/jobs/${job.id}/submissions/9/cutouts.svg`, { headers: bearer(job.secret) }),
    );
    expect(none.message).toBe('No such submission.');
  });

  it('keeps submissions and files readable after the job expires', async () => {
    await upload(png(114));
    service.clock.advance(8 * DAY);
    expect((await getJob(service, job)).status).toBe('expired');
    expect((await read(1)).status).toBe(200);
    const cut = await service.api(`/jobs/${job.id}/submissions/1/cutouts.svg`, { headers: bearer(job.secret) });
    expect(cut.status).toBe(200);
  });
});
