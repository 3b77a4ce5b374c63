import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.ts';
import { submissionEnvelopeSchema } from '../core/contract/submission.ts';
import { LEASE_MS, type ProcessIdentity } from '../core/maintenance/upload-leases.ts';
import type { Pipeline } from '../core/pipeline/types.ts';
import { bearer, errorOf, getJob, openJob, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { ScriptedPipeline } from './helpers/scripted-pipeline.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

/** Instances started by a test, all on one database folder; closed and removed after it. */
let started: TestService[] = [];
afterEach(async () => {
  for (const service of started.reverse()) await service.close();
  if (started[0]) removeDir(started[0].dir);
  started = [];
});

/** Another instance on the first one's database and clock (one per test's first call: a fresh folder). */
async function instance(options: { identity?: ProcessIdentity; pipelineFn?: Pipeline } = {}): Promise<TestService> {
  const first = started[0];
  const service = await startService({
    ...(first && { dir: first.dir }),
    clock: first?.clock ?? new ManualClock(),
    pipeline: new ScriptedPipeline(),
    ...options,
  });
  started.push(service);
  return service;
}

const host = (name: string, alive: (pid: number) => boolean) => (pid: number) => ({
  host: name,
  pid,
  isRunning: alive,
});

async function submissionRow(service: TestService, job: OpenedJob, no: number) {
  const read = await service.api(`/jobs/${job.id}/submissions/${no}`, { headers: bearer(job.secret) });
  expect(read.status).toBe(200);
  return submissionEnvelopeSchema.parse(await read.json()).submission;
}

/** Starts an upload on `service` whose pipeline is held, and waits until its row is `processing`. */
async function runningUpload(service: TestService, job: OpenedJob, bytes: Uint8Array) {
  const release = service.pipeline.hold();
  const answer = uploadPng(service, job, bytes);
  await waitFor(
    'the upload to start processing',
    async () => (await getJob(service, job)).latestSubmission?.status === 'processing',
  );
  return { release, answer };
}

describe('a running upload belongs to the process that reserved it', () => {
  it('is taken over by another instance once its lease lapses, and counts once', async () => {
    const a = await instance();
    const b = await instance();
    const job = await openJob(a);
    const bytes = makePng({ width: 300, height: 300, seed: 11 });
    const first = await runningUpload(a, job, bytes);

    expect((await errorOf(await uploadPng(b, job, bytes))).code).toBe('SUBMISSION_IN_PROGRESS');
    a.clock.advance(LEASE_MS);
    const resent = await uploadPng(b, job, bytes);
    expect(resent.status).toBe(200);
    expect(((await resent.json()) as any).submission).toMatchObject({ no: 2, status: 'ready' });

    const closed = await submissionRow(b, job, 1);
    expect(closed).toMatchObject({ status: 'failed_processing', durationMs: null });
    expect(closed.validation.errors.map((f) => f.code)).toEqual(['PROCESSING_INTERRUPTED']);
    expect(closed.validation.errors[0]!.message).toMatch(/process running it stopped/);

    // The first run ends late: its answer says so, and nothing it found is stored or counted.
    first.release();
    const late = await errorOf(await first.answer);
    expect([late.status, late.code]).toEqual([502, 'PROCESSING_FAILED']);
    expect(await submissionRow(a, job, 1)).toEqual(closed);
    expect((await getJob(a, job)).limits.submissionsLeft).toBe(9);
  });

  it('keeps a renewed lease: no instance closes the upload while its process renews it', async () => {
    const a = await instance();
    const b = await instance();
    const job = await openJob(a);
    const bytes = makePng({ width: 300, height: 300, seed: 12 });
    const first = await runningUpload(a, job, bytes);

    for (let step = 0; step < 4; step++) {
      a.clock.advance(LEASE_MS / 2);
      await a.core.renewUploadLeases();
    }
    expect((await b.core.sweep()).interrupted).toBe(0);
    expect((await errorOf(await uploadPng(b, job, bytes))).code).toBe('SUBMISSION_IN_PROGRESS');

    a.clock.advance(LEASE_MS);
    expect((await b.core.sweep()).interrupted).toBe(1);
    first.release();
    expect((await first.answer).status).toBe(502);
  });

  it("is closed at a restarted instance's first sweep when its process is gone from the same host", async () => {
    const dead = 4101;
    const a = await instance({ identity: host('jewel-1', () => true)(dead) });
    const job = await openJob(a);
    const first = await runningUpload(a, job, makePng({ width: 300, height: 300, seed: 13 }));

    // Another host cannot tell whether pid 4101 runs there: it waits for the lease.
    const elsewhere = await instance({ identity: host('jewel-2', () => false)(7) });
    expect((await elsewhere.core.sweep()).interrupted).toBe(0);
    const alive = await instance({ identity: host('jewel-1', () => true)(4102) });
    expect((await alive.core.sweep()).interrupted).toBe(0);

    const restarted = await instance({ identity: host('jewel-1', (pid) => pid !== dead)(4103) });
    expect((await restarted.core.sweep()).interrupted).toBe(1);
    expect((await submissionRow(restarted, job, 1)).validation.errors[0]!.code).toBe('PROCESSING_INTERRUPTED');
    first.release();
    await first.answer;
  });

  it('is closed by a later core of the same process once the core that ran it is closed', async () => {
    const a = await instance();
    const job = await openJob(a);
    const bytes = makePng({ width: 300, height: 300, seed: 14 });
    const first = await runningUpload(a, job, bytes);
    const b = await instance();
    expect((await errorOf(await uploadPng(b, job, bytes))).code).toBe('SUBMISSION_IN_PROGRESS');

    a.core.retire();
    const resent = await uploadPng(b, job, bytes);
    expect(resent.status).toBe(200);
    expect(((await resent.json()) as any).submission.no).toBe(2);
    first.release();
    await first.answer;
  });
  it('is never taken as abandoned by another upload of its own process racing it', async () => {
    // Group commit puts racing reservations in one transaction: the row must be held from its insert.
    const a = await instance();
    const job = await openJob(a);
    const bytes = makePng({ width: 300, height: 300, seed: 17 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => uploadPng(a, job, bytes)));
    for (const answer of answers) {
      if (answer.status === 200) expect(((await answer.json()) as any).submission.no).toBe(1);
      else expect([answer.status, (await errorOf(answer)).code]).toEqual([409, 'SUBMISSION_IN_PROGRESS']);
    }
    expect((await submissionRow(a, job, 1)).status).toBe('ready');
    expect((await getJob(a, job)).limits.submissionsLeft).toBe(9);
  });
});

describe('an upload whose outcome the database refuses', () => {
  it('is answered 500 only after its row is closed, and the same bytes resent are processed at once', async () => {
    const scripted = new ScriptedPipeline();
    let refuseNext = true;
    // An outcome the database cannot store (JSON has no BigInt): the write of the outcome throws.
    const pipelineFn: Pipeline = async (input) => {
      const outcome = await scripted.run(input);
      if (!refuseNext || outcome.kind !== 'analysed' || !outcome.product) return outcome;
      refuseNext = false;
      const geometry = { ...outcome.product.geometry, cuts: 1n as unknown as number };
      return { ...outcome, product: { ...outcome.product, geometry } };
    };
    const service = await instance({ pipelineFn });
    const job = await openJob(service);
    const bytes = makePng({ width: 300, height: 300, seed: 15 });

    const failed = await errorOf(await uploadPng(service, job, bytes));
    expect([failed.status, failed.code, failed.body.error.retryable]).toEqual([500, 'PROCESSING_FAILED', true]);
    const closed = await submissionRow(service, job, 1);
    expect(closed).toMatchObject({ status: 'failed_processing', durationMs: null });
    expect(closed.validation.errors[0]!.message).toMatch(/outcome could not be stored/);

    const resent = await uploadPng(service, job, bytes);
    expect(resent.status).toBe(200);
    expect(((await resent.json()) as any).submission).toMatchObject({ no: 2, status: 'ready' });
    expect((await getJob(service, job)).limits.submissionsLeft).toBe(9);
  });

  it('is closed by the next lease renewal when the database refused the close too, once it takes writes again', async () => {
    const scripted = new ScriptedPipeline();
    const started: { service?: TestService } = {};
    // The database turns read-only while the upload runs: neither its outcome nor its close is taken.
    const pipelineFn: Pipeline = async (input) => {
      await started.service!.db.orm.$client.execute('PRAGMA query_only = 1');
      return scripted.run(input);
    };
    const service = (started.service = await instance({ pipelineFn }));
    const job = await openJob(service);
    const bytes = makePng({ width: 300, height: 300, seed: 16 });

    const failed = await errorOf(await uploadPng(service, job, bytes));
    expect([failed.status, failed.code]).toEqual([500, 'PROCESSING_FAILED']);
    await service.db.orm.$client.execute('PRAGMA query_only = 0');
    expect((await submissionRow(service, job, 1)).status).toBe('processing');

    await service.core.renewUploadLeases();
    const closed = await submissionRow(service, job, 1);
    expect(closed.status).toBe('failed_processing');
    expect(closed.validation.errors[0]!.message).toMatch(/outcome could not be stored/);
  });
});
