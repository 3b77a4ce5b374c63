import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../core/clock.ts';
import { jobSchema } from '../core/contract/job.ts';
import { submissionEnvelopeSchema } from '../core/contract/submission.ts';
import { designFixture } from './fixtures/pipeline/designs.ts';
import { freePort, startChildService, stopChildService, type ChildService } from './helpers/child-service.ts';
import { bearer, errorOf, getJob, openJob, uploadPng } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, servicePerTest } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

const INTERRUPTED_AFTER = 3 * MINUTE;

describe('an upload still processing after 3 minutes (in process, moved clock)', () => {
  const service = servicePerTest();

  it('is closed by the sweep as failed_processing with PROCESSING_INTERRUPTED, uncounted, as the contract shapes it', async () => {
    const job = await openJob(service);
    const bytes = makePng({ width: 300, height: 300, seed: 1 });
    const release = service.pipeline.hold();
    const hung = uploadPng(service, job, bytes);
    await waitFor(
      'the upload to start processing',
      async () => (await getJob(service, job)).latestSubmission?.status === 'processing',
    );

    service.clock.advance(INTERRUPTED_AFTER);
    expect((await service.core.sweep()).interrupted).toBe(0);
    service.clock.advance(1);
    expect((await service.core.sweep()).interrupted).toBe(1);

    const read = await service.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) });
    expect(read.status).toBe(200);
    const { submission } = submissionEnvelopeSchema.parse(await read.json());
    expect(submission).toMatchObject({
      no: 1,
      status: 'failed_processing',
      geometry: null,
      files: null,
      approval: null,
      durationMs: null,
    });
    expect(submission.validation.valid).toBe(false);
    expect(submission.validation.warnings).toEqual([]);
    expect(submission.validation.errors).toHaveLength(1);
    expect(submission.validation.errors[0]).toMatchObject({
      code: 'PROCESSING_INTERRUPTED',
      severity: 'error',
      retryable: true,
    });
    expect(submission.validation.errors[0]!.agent_instruction).toMatch(/same PNG bytes/);

    const readJob = jobSchema.parse(await getJob(service, job));
    expect(readJob.latestSubmission).toMatchObject({
      no: 1,
      status: 'failed_processing',
      errorCodes: ['PROCESSING_INTERRUPTED'],
    });
    expect(readJob.limits.submissionsLeft).toBe(10);

    // The hung run ends late: its answer says so, and the stored outcome stands.
    release();
    const late = await errorOf(await hung);
    expect([late.status, late.code, late.body.error.retryable]).toEqual([502, 'PROCESSING_FAILED', true]);
    const again: any = await (
      await service.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) })
    ).json();
    expect(again.submission).toEqual(submission);
  });

  it('takes the same bytes again as a new submission that alone is counted', async () => {
    const job = await openJob(service);
    const bytes = makePng({ width: 300, height: 300, seed: 2 });
    const release = service.pipeline.hold();
    const hung = uploadPng(service, job, bytes);
    await waitFor(
      'the upload to start processing',
      async () => (await getJob(service, job)).latestSubmission?.status === 'processing',
    );
    // Before the 3 minutes, the same bytes are still in progress.
    expect((await errorOf(await uploadPng(service, job, bytes))).code).toBe('SUBMISSION_IN_PROGRESS');

    service.clock.advance(INTERRUPTED_AFTER + 1);
    await service.core.sweep();
    release();
    await hung;
    const resent = await uploadPng(service, job, bytes);
    expect(resent.status).toBe(200);
    expect(((await resent.json()) as any).submission).toMatchObject({ no: 2, status: 'ready' });
    const after = await getJob(service, job);
    expect(after.limits.submissionsLeft).toBe(9);
    expect(after.latestSubmission).toMatchObject({ no: 2, status: 'ready', errorCodes: [] });
  });

  it('leaves a finished submission and a younger processing row alone', async () => {
    const job = await openJob(service);
    expect((await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 3 }))).status).toBe(200);
    const release = service.pipeline.hold();
    service.clock.advance(10 * MINUTE);
    const running = uploadPng(service, job, makePng({ width: 300, height: 300, seed: 4 }));
    await waitFor(
      'the upload to start processing',
      async () => (await getJob(service, job)).latestSubmission?.status === 'processing',
    );
    service.clock.advance(INTERRUPTED_AFTER - 1);
    expect(await service.core.sweep()).toMatchObject({ interrupted: 0, cancelledSubmissions: 0 });
    release();
    expect((await running).status).toBe(200);
    expect((await getJob(service, job)).limits.submissionsLeft).toBe(8);
  });
});

describe('a service process killed mid-upload', () => {
  let dir: string | undefined;
  let child: ChildService | undefined;
  let db: Client | undefined;
  afterEach(async () => {
    await stopChildService(child);
    db?.close();
    if (dir) removeDir(dir);
    child = db = dir = undefined;
  });

  it('reads the upload as interrupted as soon as the service is back, and the same bytes then go through uncounted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-crash-'));
    const databaseUrl = `file:${join(dir, 'service.db')}`;
    const port = await freePort();
    child = await startChildService({ databaseUrl, port });
    db = createClient({ url: databaseUrl });

    const lace = designFixture('lace');
    const bytes = new Uint8Array(await lace.png());
    const created = await child.api('/jobs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        productType: 'bracelet',
        size: { lengthMm: lace.job.lengthMm },
        widthMm: lace.job.widthMm,
      }),
    });
    expect(created.status).toBe(201);
    const { job, credentials }: any = await created.json();
    const auth = bearer(credentials.jobSecret);
    const upload = () =>
      child!.api(`/jobs/${job.id}/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'image/png', ...auth },
        body: new Uint8Array(bytes),
      });

    const cut = upload().then(
      (response) => `answered ${response.status}`,
      () => 'connection lost',
    );
    const status = async () =>
      (await db!.execute({ sql: 'SELECT status FROM submissions WHERE job_id = ?', args: [job.id] })).rows[0]?.status;
    await waitFor('the upload to start processing', async () => (await status()) === 'processing', {
      timeoutMs: 20_000,
      everyMs: 5,
    });
    child.process.kill('SIGKILL');
    expect(await child.exited).toBe('SIGKILL');
    expect(await cut).toBe('connection lost');
    expect(await status()).toBe('processing');

    // The restarted process (same host, the killed pid gone) closes the row at start, not after 3 minutes.
    child = await startChildService({ databaseUrl, port });

    const read = await child.api(`/jobs/${job.id}/submissions/1`, { headers: auth });
    expect(read.status).toBe(200);
    const { submission } = submissionEnvelopeSchema.parse(await read.json());
    expect(submission).toMatchObject({ status: 'failed_processing', durationMs: null, geometry: null, files: null });
    expect(submission.validation.errors.map((f) => [f.code, f.retryable])).toEqual([['PROCESSING_INTERRUPTED', true]]);
    expect(submission.validation.errors[0]!.message).toMatch(/process running it stopped/);
    const before: any = await (await child.api(`/jobs/${job.id}`, { headers: auth })).json();
    expect(before.job.latestSubmission.errorCodes).toEqual(['PROCESSING_INTERRUPTED']);
    expect(before.job.limits.submissionsLeft).toBe(10);

    const resent = await upload();
    expect(resent.status).toBe(200);
    expect(((await resent.json()) as any).submission).toMatchObject({ no: 2, status: 'ready' });
    const after: any = await (await child.api(`/jobs/${job.id}`, { headers: auth })).json();
    expect(after.job).toMatchObject({ status: 'ready', limits: { submissionsLeft: 9 } });
  }, 120_000);
});
