import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MINUTE } from '../core/clock.ts';
import { silentLogger } from '../core/logger.ts';
import { cryptoRandomness } from '../core/randomness.ts';
import { buildService, type Service } from '../service.ts';
import { designFixture } from './fixtures/pipeline/designs.ts';
import { freePort, startChildService, stopChildService, type ChildService } from './helpers/child-service.ts';
import { bearer, getJob, openJob, uploadPng } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { ScriptedPipeline } from './helpers/scripted-pipeline.ts';
import { removeDir, SITE, startService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

let dir: string | undefined;
let child: ChildService | undefined;
let db: Client | undefined;
let service: TestService | undefined;
afterEach(async () => {
  await stopChildService(child);
  await service?.close();
  db?.close();
  if (dir) removeDir(dir);
  if (service) removeDir(service.dir);
  child = db = dir = service = undefined;
});

describe('SIGTERM', () => {
  it('lets an upload in flight finish and answer, takes no new connections, and exits 0', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-shutdown-'));
    const databaseUrl = `file:${join(dir, 'service.db')}`;
    child = await startChildService({ databaseUrl, port: await freePort() });
    db = createClient({ url: databaseUrl });

    const lace = designFixture('lace');
    const created = await child.api('/jobs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        productType: 'bracelet',
        size: { lengthMm: lace.job.lengthMm },
        widthMm: lace.job.widthMm,
      }),
    });
    const { job, credentials }: any = await created.json();
    const uploading = child.api(`/jobs/${job.id}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', ...bearer(credentials.jobSecret) },
      body: new Uint8Array(await lace.png()),
    });
    const status = async () =>
      (await db!.execute({ sql: 'SELECT status FROM submissions WHERE job_id = ?', args: [job.id] })).rows[0]?.status;
    await waitFor('the upload to start processing', async () => (await status()) === 'processing', {
      timeoutMs: 20_000,
      everyMs: 5,
    });

    child.process.kill('SIGTERM');
    // The server stops listening right after it logs this: probe only once the signal is handled.
    await waitFor(
      'the service to log that it shuts down',
      () => child!.output.some((line) => line.includes('"msg":"shutting down"')),
      {
        everyMs: 5,
      },
    );
    const refused = await child.api('/capabilities').then(
      (response) => `answered ${response.status}`,
      () => 'refused',
    );
    expect(refused).toBe('refused');

    const answer = await uploading;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as any).submission).toMatchObject({ no: 1, status: 'ready' });
    expect(await child.exited).toBe(0);
    expect(await status()).toBe('ready');
    expect(child.output.some((line) => line.includes('"msg":"shutting down"'))).toBe(true);
  }, 120_000);
});

describe('Service.close()', () => {
  it('waits for an upload in flight before stopping the workers and closing the database', async () => {
    service = await startService();
    const job = await openJob(service);
    const release = service.pipeline.hold();
    const running = uploadPng(service, job, makePng({ width: 300, height: 300, seed: 1 }));
    await waitFor(
      'the upload to start processing',
      async () => (await getJob(service!, job)).latestSubmission?.status === 'processing',
    );

    // The upload is released only once close() has stopped what it stops first and asks core
    // whether uploads have settled. A close that went on without waiting there would close the
    // database before the upload stored its outcome: the upload would fail and its row stay
    // `processing`.
    const core = service.core;
    const uploadsSettled = core.uploadsSettled;
    const draining = new Promise<void>((resolve) => {
      core.uploadsSettled = (timeoutMs) => {
        resolve();
        return uploadsSettled(timeoutMs);
      };
    });
    const closing = service.close();
    await draining;
    release();
    expect((await running).status).toBe(200);
    await closing;

    service = await startService({ dir: service.dir, clock: service.clock });
    const { rows } = await service.db.orm.$client.execute({
      sql: 'SELECT status, counted FROM submissions WHERE job_id = ?',
      args: [job.id],
    });
    expect(rows.map((r) => [r.status, Number(r.counted)])).toEqual([['ready', 1]]);
  });
});

describe('the sweeper schedule', () => {
  const SWEEP_EVERY_MS = 50;
  let scheduled: Service | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await scheduled?.close();
    scheduled = undefined;
  });

  /** A row as a crashed upload leaves it: `processing`, four minutes old. */
  const staleRow = (s: Service, jobId: string, no: number, now: number) =>
    s.db.write((tx) =>
      tx.run(
        sql`INSERT INTO submissions (job_id, no, status, sha256, created_at)
            VALUES (${jobId}, ${no}, 'processing', ${`stale-${no}`}, ${now - 4 * MINUTE})`,
      ),
    );

  it('sweeps at start, then on its timer, and stops with close()', async () => {
    service = await startService();
    const clock = service.clock;
    const job = await openJob(service);
    await staleRow(service, job.id, 1, clock.now());
    await service.close();

    // The schedule's timer is faked, so that each tick is an event the test causes; all else is real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let clockReads = 0;
    const countingClock = {
      now: () => {
        clockReads += 1;
        return clock.now();
      },
    };
    scheduled = await buildService(
      {
        port: 0,
        siteUrl: SITE,
        databaseUrl: `file:${service.dbPath}`,
        databaseAuthToken: undefined,
        configFile: undefined,
        apiEnabled: true,
        trustProxy: false,
      },
      {
        clock: countingClock,
        random: cryptoRandomness,
        log: silentLogger,
        pipeline: new ScriptedPipeline().run,
        sweepEveryMs: SWEEP_EVERY_MS,
      },
    );
    const statusOf = async (no: number) =>
      (
        await scheduled!.db.orm.$client.execute({
          sql: 'SELECT status FROM submissions WHERE job_id = ? AND no = ?',
          args: [job.id, no],
        })
      ).rows[0]?.status;
    expect(await statusOf(1)).toBe('failed_processing');

    await staleRow(scheduled, job.id, 2, clock.now());
    expect(await statusOf(2)).toBe('processing');
    vi.advanceTimersByTime(SWEEP_EVERY_MS);
    await waitFor("the timer's sweep to close the stale row", async () => (await statusOf(2)) === 'failed_processing', {
      timeoutMs: 5_000,
    });

    await scheduled.close();
    scheduled = undefined;
    expect(vi.getTimerCount()).toBe(0);
    const readsAtClose = clockReads;
    vi.advanceTimersByTime(10 * SWEEP_EVERY_MS);
    expect(clockReads).toBe(readsAtClose);
  });
});
