import { describe, expect, it } from 'vitest';
import { jobSchema } from '../core/contract/job.ts';
import { bearer, errorOf, getJob, openJob, uploadPng } from './helpers/flows.ts';
import { setJobState } from './helpers/fixtures.ts';
import { makePng } from './helpers/png.ts';
import { servicePerTest } from './helpers/service.ts';

const DAY = 24 * 3600 * 1000;
const service = servicePerTest();

const cancel = (job: { id: string; secret: string }) =>
  service.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) });

describe('GET /jobs/{jobId}', () => {
  it('reads the job with its secret, never with credentials', async () => {
    const job = await openJob(service);
    const response = await service.api(`/jobs/${job.id}`, { headers: bearer(job.secret) });
    expect(response.status).toBe(200);
    const body: any = await response.json();
    expect(Object.keys(body)).toEqual(['job']);
    expect(() => jobSchema.parse(body.job)).not.toThrow();
    expect(JSON.stringify(body)).not.toContain(job.secret);
    expect(body.job).toEqual(job.body.job);
  });

  it('accepts the Bearer scheme word in any case', async () => {
    const job = await openJob(service);
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const response = await service.api(`/jobs/${job.id}`, { headers: { authorization: `${scheme} ${job.secret}` } });
      expect(response.status).toBe(200);
    }
  });

  it('answers the same 404 for a missing secret, a wrong secret, an unknown job and a malformed id', async () => {
    const job = await openJob(service);
    const other = await openJob(service);
    const answers = await Promise.all([
      service.api(`/jobs/${job.id}`),
      service.api(`/jobs/${job.id}`, { headers: bearer(other.secret) }),
      service.api(`/jobs/${job.id}`, {
        headers: bearer(job.secret.slice(0, -1) + (job.secret.endsWith('A') ? 'B' : 'A')),
      }),
      service.api(`/jobs/00000000-0000-4000-8000-000000000000`, { headers: bearer(job.secret) }),
      service.api(`/jobs/not-a-uuid`, { headers: bearer(job.secret) }),
      service.api(`/jobs/${job.id}`, { headers: { authorization: `Basic ${job.secret}` } }),
    ]);
    for (const response of answers) {
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('{"error":{"code":"NOT_FOUND","message":"No such job."}}');
    }
  });

  it('reads expired seven days after creation, with no submissions left and the retention time', async () => {
    const job = await openJob(service);
    service.clock.advance(7 * DAY - 1);
    expect((await getJob(service, job)).status).toBe('open');
    service.clock.advance(1);
    const expired = await getJob(service, job);
    expect(expired.status).toBe('expired');
    expect(expired.limits.submissionsLeft).toBe(0);
    expect(Date.parse(expired.expiresAt) - Date.parse(expired.createdAt)).toBe((7 + 180) * DAY);
  });

  it('reads expired 24 hours after a decline, never later than creation + 7 days', async () => {
    const job = await openJob(service);
    await uploadPng(service, job, makePng({ width: 300, height: 300 }));
    service.clock.advance(2 * DAY);
    await setJobState(service, job.id, 'declined');
    const declined = await getJob(service, job);
    expect(declined.status).toBe('declined');
    expect(declined.approval.status).toBe('declined');
    expect(Date.parse(declined.expiresAt)).toBe(service.clock.now() + DAY);
    service.clock.advance(DAY);
    expect((await getJob(service, job)).status).toBe('expired');

    const late = await openJob(service);
    await uploadPng(service, late, makePng({ width: 300, height: 300, seed: 2 }));
    service.clock.advance(6.5 * DAY);
    await setJobState(service, late.id, 'declined');
    const capped = await getJob(service, late);
    expect(Date.parse(capped.expiresAt)).toBe(Date.parse(capped.createdAt) + 7 * DAY);
  });

  it('shows the latest submission with its error and warning codes', async () => {
    const job = await openJob(service);
    const png = makePng({ width: 300, height: 300 });
    service.pipeline.script(png, 'invalid');
    expect((await uploadPng(service, job, png)).status).toBe(422);
    const read = await getJob(service, job);
    expect(read.latestSubmission).toMatchObject({
      no: 1,
      status: 'failed_validation',
      errorCodes: ['FEATURES_TOO_FINE'],
      warningCodes: ['SPURS_SHAVED'],
    });
    expect(read.limits.submissionsLeft).toBe(9);
    expect(read.status).toBe('open');
    expect(read.approval).toBeNull();
  });
});

describe('DELETE /jobs/{jobId}', () => {
  it('cancels an open job, answers { ok: true } and again on repeat', async () => {
    const job = await openJob(service);
    const first = await cancel(job);
    expect([first.status, await first.json()]).toEqual([200, { ok: true }]);
    const again = await cancel(job);
    expect([again.status, await again.json()]).toEqual([200, { ok: true }]);
    const read = await getJob(service, job);
    expect(read).toMatchObject({
      status: 'cancelled',
      approval: null,
      latestSubmission: null,
      limits: { submissionsLeft: 0 },
    });
    expect(Date.parse(read.expiresAt)).toBe(service.clock.now() + 30 * DAY);
  });

  it('deletes the submissions of a cancelled ready job and hides its approval', async () => {
    const job = await openJob(service);
    expect((await uploadPng(service, job, makePng({ width: 300, height: 300 }))).status).toBe(200);
    expect((await getJob(service, job)).approval).not.toBeNull();
    expect((await cancel(job)).status).toBe(200);
    const read = await getJob(service, job);
    expect([read.status, read.approval, read.latestSubmission]).toEqual(['cancelled', null, null]);
    const e = await errorOf(await service.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) }));
    expect([e.status, e.message]).toEqual([404, 'No such submission.']);
    const { rows } = await service.db.orm.$client.execute({
      sql: 'SELECT count(*) AS n FROM submissions WHERE job_id = ?',
      args: [job.id],
    });
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('cancels a declined job', async () => {
    const job = await openJob(service);
    await uploadPng(service, job, makePng({ width: 300, height: 300 }));
    await setJobState(service, job.id, 'declined');
    expect((await cancel(job)).status).toBe(200);
    expect((await getJob(service, job)).status).toBe('cancelled');
  });

  it('answers 409 JOB_LOCKED on an approved job and leaves it approved', async () => {
    const job = await openJob(service);
    await uploadPng(service, job, makePng({ width: 300, height: 300 }));
    await setJobState(service, job.id, 'approved');
    const e = await errorOf(await cancel(job));
    expect([e.status, e.code]).toEqual([409, 'JOB_LOCKED']);
    expect((await getJob(service, job)).status).toBe('approved');
  });

  it('answers 409 JOB_EXPIRED on an expired job', async () => {
    const job = await openJob(service);
    service.clock.advance(7 * DAY);
    const e = await errorOf(await cancel(job));
    expect([e.status, e.code]).toEqual([409, 'JOB_EXPIRED']);
    expect((await getJob(service, job)).status).toBe('expired');
  });

  it('cannot undo an approval that lands between the read and the write (compare-and-set)', async () => {
    const job = await openJob(service);
    await uploadPng(service, job, makePng({ width: 300, height: 300 }));
    const authenticated = await service.core.authenticate(job.id, job.secret);
    if (!authenticated.ok) throw new Error('authentication failed');
    await setJobState(service, job.id, 'approved');
    // The cancel works from the row it read before the approval landed.
    const result = await service.core.cancelJob(authenticated.value);
    expect(result.ok ? 'cancelled' : result.error.code).toBe('JOB_LOCKED');
    expect((await getJob(service, job)).status).toBe('approved');
  });

  it('needs the secret like every job route', async () => {
    const job = await openJob(service);
    const e = await errorOf(await service.api(`/jobs/${job.id}`, { method: 'DELETE' }));
    expect([e.status, e.message]).toEqual([404, 'No such job.']);
    expect((await getJob(service, job)).status).toBe('open');
  });
});
