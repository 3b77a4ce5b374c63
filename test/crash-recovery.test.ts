import { describe, expect, it } from 'vitest';
import { MINUTE } from '../core/clock.ts';
import { jobSchema } from '../core/contract/job.ts';
import { submissionEnvelopeSchema } from '../core/contract/submission.ts';
import { bearer, errorOf, getJob, openJob, uploadPng } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { servicePerTest } from './helpers/service.ts';
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
