import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { submissionEnvelopeSchema } from '../../core/contract/submission.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { freePort, startChildService, stopChildService, type ChildService } from '../helpers/child-service.ts';
import { bearer, braceletBody, jsonInit, roomyRateLimits } from '../helpers/flows.ts';
import { removeDir } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { laceJobBody, openJob, seconds, upload as uploadTo, type Opened } from './jobs.ts';

/**
 * `server.ts` in a process of its own (`test/helpers/child-service.ts`) on an embedded database
 * file, killed with SIGKILL (no handler runs, nothing is flushed) and started again on the same
 * file and port. SIGTERM mid-upload (a graceful stop) is `test/shutdown.test.ts`.
 */
describe('a service process killed with SIGKILL', () => {
  let dir: string | undefined;
  let child: ChildService | undefined;
  let db: Client | undefined;
  afterEach(async () => {
    await stopChildService(child);
    db?.close();
    if (dir) removeDir(dir);
    child = db = dir = undefined;
  });

  it('mid-upload: reads the upload as interrupted as soon as the service is back, and the same bytes then go through uncounted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-crash-'));
    const databaseUrl = `file:${join(dir, 'service.db')}`;
    const port = await freePort();
    child = await startChildService({ databaseUrl, port });
    db = createClient({ url: databaseUrl });

    const bytes = new Uint8Array(await designFixture('lace').png());
    const job = await openJob(child, laceJobBody());
    const auth = bearer(job.secret);
    const upload = () => uploadTo(child!, job, bytes);

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

  it('during a burst of POST /jobs: loses no job whose creation was answered 201', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-burst-'));
    const databaseUrl = `file:${join(dir, 'service.db')}`;
    // One address opens every job: only the rate limits are raised.
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify({ limits: roomyRateLimits }));
    const env = { CONFIG_FILE: configFile };
    const port = await freePort();
    child = await startChildService({ databaseUrl, port, env });

    // 40 clients each open a job after another; the kill comes once the first wave is answered and
    // the clients have sent again, so that requests are in flight at every stage (read, written,
    // committed, answered). Group commit answers a whole wave at once: killed at the 10th answer of
    // a single wave of 40, the process had often sent all 40.
    const CLIENTS = 40;
    const KILL_AFTER = 50;
    const acknowledged: Opened[] = [];
    const other: string[] = [];
    let sent = 0;
    let lost = 0;
    let killedAt: number | undefined;
    const started = performance.now();
    const running = child;
    const client = async () => {
      while (killedAt === undefined) {
        sent++;
        try {
          const response = await running.api('/jobs', jsonInit(braceletBody));
          const body: any = await response.json();
          if (response.status !== 201) {
            other.push(`${response.status} ${body.error?.code}`);
            continue;
          }
          // A 201 the client holds is an acknowledged write, whether it came before the kill or after.
          acknowledged.push({ id: body.job.id, secret: body.credentials.jobSecret });
          if (acknowledged.length === KILL_AFTER) {
            running.process.kill('SIGKILL');
            killedAt = performance.now();
          }
        } catch {
          lost++;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(await running.exited).toBe('SIGKILL');
    console.info(
      `${CLIENTS} clients opening jobs, SIGKILL at the ${KILL_AFTER}th 201 (${seconds(killedAt! - started)} in): ` +
        `${sent} sent, ${acknowledged.length} answered 201, ${lost} cut off, other answers: ${other.length}`,
    );
    expect(other).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(lost, 'the kill came after every answer: nothing was cut off').toBeGreaterThan(0);
    expect(acknowledged.length + lost).toBe(sent);

    // Every job the client was told exists, exists after the restart, and its secret opens it.
    const restartedAt = performance.now();
    child = await startChildService({ databaseUrl, port, env });
    const restartMs = performance.now() - restartedAt;
    const missing: string[] = [];
    for (const job of acknowledged) {
      const response = await child.api(`/jobs/${job.id}`, { headers: bearer(job.secret) });
      const body: any = await response.json();
      if (response.status !== 200 || body.job.id !== job.id) missing.push(`${job.id}: ${response.status}`);
    }
    db = createClient({ url: databaseUrl });
    const stored = Number((await db.execute('SELECT count(*) AS n FROM jobs')).rows[0]!.n);
    console.info(
      `after the restart (${seconds(restartMs)} to listen): ${acknowledged.length - missing.length} of ` +
        `${acknowledged.length} acknowledged jobs read back 200; ${stored} jobs stored in all ` +
        `(${stored - acknowledged.length} committed but never acknowledged)`,
    );
    expect(missing).toEqual([]);
    expect(stored).toBeGreaterThanOrEqual(acknowledged.length);
  }, 120_000);
});
