import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../core/clock.ts';
import { silentLogger } from '../core/logger.ts';
import { cryptoRandomness } from '../core/randomness.ts';
import { buildService, type Service } from '../http/service.ts';
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

    let closed = false;
    const closing = service.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed).toBe(false);
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
  let scheduled: Service | undefined;
  afterEach(async () => {
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
        sweepEveryMs: 50,
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
    await waitFor("the timer's sweep to close the stale row", async () => (await statusOf(2)) === 'failed_processing', {
      timeoutMs: 5_000,
    });

    await scheduled.close();
    scheduled = undefined;
    const readsAtClose = clockReads;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(clockReads).toBe(readsAtClose);
  });
});
