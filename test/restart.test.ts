import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOUR, ManualClock, MINUTE } from '../core/clock.ts';
import { jobs } from '../db/schema.ts';
import {
  bearer,
  braceletBody,
  errorOf,
  getJob,
  jsonInit,
  openJob,
  uploadPng,
  type OpenedJob,
} from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';

const IDEMPOTENCY_KEY = 'restart-test-key-0001';
const CANCELLED_KEY = 'restart-test-key-0002';
const ringBody = { productType: 'ring', size: { usRingSize: 7 }, widthMm: 6 };

let dir: string;
let clock: ManualClock;
const running: TestService[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobs-restart-'));
  clock = new ManualClock();
});
afterEach(async () => {
  for (const service of running.splice(0)) await service.close();
  removeDir(dir);
});

async function start(): Promise<TestService> {
  const service = await startService({ dir, clock });
  running.push(service);
  return service;
}

async function stop(service: TestService): Promise<void> {
  await service.close();
  running.splice(running.indexOf(service), 1);
}

interface World {
  /** Submission 1 ready, submission 2 failed_validation. */
  designed: OpenedJob;
  /** Opened with an Idempotency-Key, never uploaded to. */
  keyed: OpenedJob;
  /** Had a ready submission, then was cancelled. */
  cancelled: OpenedJob;
  readyPng: Uint8Array;
  invalidPng: Uint8Array;
}

/** Builds jobs in every shape the restart must keep, on the first service. */
async function buildWorld(service: TestService): Promise<World> {
  const designed = await openJob(service);
  const readyPng = makePng({ width: 300, height: 300, seed: 1 });
  const invalidPng = makePng({ width: 300, height: 300, seed: 2 });
  service.pipeline.script(invalidPng, 'invalid');
  expect((await uploadPng(service, designed, readyPng)).status).toBe(200);
  clock.advance(5 * MINUTE);
  expect((await uploadPng(service, designed, invalidPng)).status).toBe(422);

  const keyedResponse = await service.api('/jobs', jsonInit(ringBody, { 'idempotency-key': IDEMPOTENCY_KEY }));
  expect(keyedResponse.status).toBe(201);
  const keyedBody: any = await keyedResponse.json();
  const keyed = { id: keyedBody.job.id, secret: keyedBody.credentials.jobSecret, body: keyedBody };

  const cancelledResponse = await service.api('/jobs', jsonInit(braceletBody, { 'idempotency-key': CANCELLED_KEY }));
  expect(cancelledResponse.status).toBe(201);
  const cancelledBody: any = await cancelledResponse.json();
  const cancelled = { id: cancelledBody.job.id, secret: cancelledBody.credentials.jobSecret, body: cancelledBody };
  expect((await uploadPng(service, cancelled, makePng({ width: 300, height: 300, seed: 3 }))).status).toBe(200);
  const cancel = await service.api(`/jobs/${cancelled.id}`, { method: 'DELETE', headers: bearer(cancelled.secret) });
  expect(cancel.status).toBe(200);

  clock.advance(HOUR);
  return { designed, keyed, cancelled, readyPng, invalidPng };
}

async function read(
  service: TestService,
  job: OpenedJob,
  path: string,
): Promise<{ status: number; type: string | null; text: string }> {
  const response = await service.api(`/jobs/${job.id}${path}`, { headers: bearer(job.secret) });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** Everything an agent can read about a job with its secret. */
async function snapshot(service: TestService, world: World) {
  const { designed, keyed, cancelled } = world;
  return {
    designed: await read(service, designed, ''),
    submission1: await read(service, designed, '/submissions/1'),
    submission2: await read(service, designed, '/submissions/2'),
    cutouts1: await read(service, designed, '/submissions/1/cutouts.svg'),
    preview1: await read(service, designed, '/submissions/1/preview.svg'),
    cutouts2: await read(service, designed, '/submissions/2/cutouts.svg'),
    keyed: await read(service, keyed, ''),
    cancelled: await read(service, cancelled, ''),
    cancelledSubmission: await read(service, cancelled, '/submissions/1'),
  };
}

describe('restart on the same database', () => {
  it('keeps every job, status, latest submission, submission and SVG file byte for byte', async () => {
    const first = await start();
    const world = await buildWorld(first);
    const before = await snapshot(first, world);
    await stop(first);

    const second = await start();
    const after = await snapshot(second, world);
    expect(after).toEqual(before);

    // And what was kept is what was written, not an empty answer twice.
    const designed = JSON.parse(after.designed.text).job;
    expect(designed.id).toBe(world.designed.id);
    expect(designed.status).toBe('ready');
    expect(designed.latestSubmission).toMatchObject({
      no: 2,
      status: 'failed_validation',
      errorCodes: ['FEATURES_TOO_FINE'],
      warningCodes: ['SPURS_SHAVED'],
    });
    expect(designed.limits).toEqual({ submissionsLeft: 8 });
    expect(designed.approval).toMatchObject({ status: 'pending' });
    const one = JSON.parse(after.submission1.text).submission;
    expect([after.submission1.status, one.no, one.status, one.validation.valid]).toEqual([200, 1, 'ready', true]);
    expect(one.approval).toMatchObject({ url: designed.approval.url, status: 'pending' });
    const two = JSON.parse(after.submission2.text).submission;
    expect([after.submission2.status, two.no, two.status, two.validation.valid]).toEqual([
      200,
      2,
      'failed_validation',
      false,
    ]);
    expect(two.validation.errors.map((f: any) => f.code)).toEqual(['FEATURES_TOO_FINE']);
    expect(after.cutouts1.status).toBe(200);
    expect(after.cutouts1.type!.split(';')[0]).toBe('image/svg+xml');
    expect(after.cutouts1.text).toContain('id="cutouts"');
    expect(after.preview1.status).toBe(200);
    expect(after.preview1.text).toContain('role="img"');
    expect([after.cutouts2.status, JSON.parse(after.cutouts2.text).error.message]).toEqual([
      404,
      'No such file for this submission.',
    ]);
    expect(JSON.parse(after.keyed.text).job).toMatchObject({ status: 'open', latestSubmission: null });
  });

  it('keeps the cancelled job cancelled, without its submissions', async () => {
    const first = await start();
    const world = await buildWorld(first);
    await stop(first);

    const second = await start();
    const job = await getJob(second, world.cancelled);
    expect(job.status).toBe('cancelled');
    expect(job.approval).toBeNull();
    expect(job.latestSubmission).toBeNull();
    expect(job.limits).toEqual({ submissionsLeft: 0 });
    const submission = await errorOf(
      await second.api(`/jobs/${world.cancelled.id}/submissions/1`, { headers: bearer(world.cancelled.secret) }),
    );
    expect([submission.status, submission.message]).toEqual([404, 'No such submission.']);
    const upload = await errorOf(
      await uploadPng(second, world.cancelled, makePng({ width: 300, height: 300, seed: 4 })),
    );
    expect([upload.status, upload.code]).toEqual([409, 'JOB_CANCELLED']);
    const again = await second.api(`/jobs/${world.cancelled.id}`, {
      method: 'DELETE',
      headers: bearer(world.cancelled.secret),
    });
    expect([again.status, await again.json()]).toEqual([200, { ok: true }]);
    // Its Idempotency-Key still names it: a cancelled job cannot be replayed.
    const replay = await errorOf(
      await second.api('/jobs', jsonInit(braceletBody, { 'idempotency-key': CANCELLED_KEY })),
    );
    expect([replay.status, replay.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
  });

  it('keeps the secrets: each job opens with its own secret only', async () => {
    const first = await start();
    const world = await buildWorld(first);
    await stop(first);

    const second = await start();
    for (const job of [world.designed, world.keyed, world.cancelled]) {
      expect((await getJob(second, job)).id).toBe(job.id);
    }
    for (const [job, secret] of [
      [world.designed, world.keyed.secret],
      [world.keyed, world.designed.secret],
      [world.designed, undefined],
    ] as [OpenedJob, string | undefined][]) {
      const response = await second.api(`/jobs/${job.id}`, { headers: secret ? bearer(secret) : {} });
      expect([response.status, await response.text()]).toEqual([
        404,
        '{"error":{"code":"NOT_FOUND","message":"No such job."}}',
      ]);
    }
  });

  it('replays an Idempotency-Key from the same address after the restart', async () => {
    const first = await start();
    const world = await buildWorld(first);
    await stop(first);

    const second = await start();
    const replay = await second.api('/jobs', jsonInit(ringBody, { 'idempotency-key': IDEMPOTENCY_KEY }));
    expect(replay.status).toBe(200);
    const body: any = await replay.json();
    expect(body.credentials).toBeUndefined();
    expect(body.job.id).toBe(world.keyed.id);
    expect(body.job.status).toBe('open');
    expect(body.job.createdAt).toBe(world.keyed.body.job.createdAt);
    expect(body.job.expiresAt).toBe(world.keyed.body.job.expiresAt);
    expect(body.job.dims).toEqual(world.keyed.body.job.dims);
    // Same key, different body: still a conflict, so the key's body was kept as well.
    const conflict = await errorOf(
      await second.api('/jobs', jsonInit({ ...ringBody, widthMm: 7 }, { 'idempotency-key': IDEMPOTENCY_KEY })),
    );
    expect([conflict.status, conflict.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(await second.db.orm.select({ n: count() }).from(jobs)).toEqual([{ n: 3 }]);
  });

  it('answers a resent image from its stored outcome after the restart, without running the pipeline', async () => {
    const first = await start();
    const world = await buildWorld(first);
    const before = {
      ready: await read(first, world.designed, '/submissions/1'),
      invalid: await read(first, world.designed, '/submissions/2'),
    };
    await stop(first);

    const second = await start();
    const ready = await uploadPng(second, world.designed, world.readyPng);
    const invalid = await uploadPng(second, world.designed, world.invalidPng);
    expect(ready.status).toBe(200);
    expect(invalid.status).toBe(422);
    expect(((await ready.json()) as any).submission).toEqual(JSON.parse(before.ready.text).submission);
    expect(((await invalid.json()) as any).submission).toEqual(JSON.parse(before.invalid.text).submission);
    expect(second.pipeline.runs).toBe(0);
    expect((await getJob(second, world.designed)).limits).toEqual({ submissionsLeft: 8 });
  });
});
