import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../../core/urls.ts';
import { bearer } from '../helpers/flows.ts';
import { spawnLiveServer, type SpawnedLiveServer } from '../helpers/live-server.ts';
import { removeDir } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  bigLace,
  expectResponsive,
  laceJobBody,
  openJob,
  PROCESSED,
  readJob,
  seconds,
  upload,
  type Opened,
} from './jobs.ts';

/**
 * A client that hangs up after sending its whole drawing, while the service is processing it:
 * `server.ts` in a process of its own (embedded database, worker-pool pipeline), the rows read
 * straight from its database file.
 */
let dir: string;
let server: SpawnedLiveServer;
let db: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faults-hangup-'));
  const databaseUrl = `file:${join(dir, 'service.db')}`;
  server = await spawnLiveServer({ databaseUrl });
  db = createClient({ url: databaseUrl });
}, 60_000);
afterAll(async () => {
  db?.close();
  await server?.close();
  removeDir(dir);
});

const rows = async (job: Opened) =>
  (
    await db.execute({
      sql: 'SELECT no, status, finished_at FROM submissions WHERE job_id = ? ORDER BY no',
      args: [job.id],
    })
  ).rows;

/** Sends the upload over a raw socket and resolves once the service is processing it, with a hang-up. */
async function rawUpload(job: Opened, bytes: Uint8Array): Promise<{ answered: () => boolean; hangUp(): void }> {
  const socket = connect(server.port, server.host);
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    [
      `POST ${API_BASE_PATH}/jobs/${job.id}/submissions HTTP/1.1`,
      `Host: ${server.host}:${server.port}`,
      `Authorization: ${bearer(job.secret).authorization}`,
      'Content-Type: image/png',
      `Content-Length: ${bytes.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(bytes);
  return { answered: () => received > 0, hangUp: () => socket.destroy() };
}

/** How the client goes: its fetch aborted (undici closes the connection), or its socket destroyed. */
const hangUps = {
  'aborts its fetch': async (job: Opened, bytes: Uint8Array) => {
    const controller = new AbortController();
    let answered = false;
    upload(server, job, bytes, { signal: controller.signal }).then(
      () => (answered = true),
      () => undefined,
    );
    return { answered: () => answered, hangUp: () => controller.abort() };
  },
  'destroys its socket': rawUpload,
};

describe('a client that hangs up while its upload is processing', () => {
  // The 14 MP lace: 0.5-0.9 s of processing warm, several seconds cold, time to hang up in the middle.
  it.each(['aborts its fetch', 'destroys its socket'] as const)(
    'that %s: the service finishes the upload, and the same bytes resent answer its stored outcome',
    async (how) => {
      const bytes = await bigLace();
      const job = await openJob(server, laceJobBody());
      const client = await hangUps[how](job, bytes);
      // The row is reserved only once the whole body was read: the client has sent all of it.
      await waitFor('the upload to start processing', async () => (await rows(job))[0]?.status === 'processing', {
        timeoutMs: 20_000,
        everyMs: 5,
        child: server.process,
      });
      expect(client.answered(), 'the answer came before the hang-up: nothing was cut off').toBe(false);
      client.hangUp();
      const hungUpAt = performance.now();
      const hungUpClock = Date.now();

      await waitFor('the upload to leave processing', async () => (await rows(job))[0]?.status !== 'processing', {
        timeoutMs: 60_000,
        everyMs: 20,
        child: server.process,
      });
      const finishedMs = performance.now() - hungUpAt;
      const [stored] = await rows(job);
      expect(['ready', 'failed_validation']).toContain(stored!.status);
      // The service and the test read the same clock: the upload ended after the client had gone.
      expect(Number(stored!.finished_at)).toBeGreaterThanOrEqual(hungUpClock);

      const resent = await upload(server, job, bytes, { signal: AbortSignal.timeout(30_000) });
      const body: any = await resent.json();
      console.info(
        `14 MP lace, client ${how}: stored ${stored!.status} ${seconds(finishedMs)} after the hang-up; ` +
          `the resend answered ${resent.status} ${body.submission?.status}`,
      );
      expect(PROCESSED, JSON.stringify(body)).toContain(resent.status);
      expect(body.submission).toMatchObject({ no: 1, status: stored!.status });
      expect((await rows(job)).length).toBe(1);
      expect((await readJob(server, job)).limits.submissionsLeft).toBe(9);
      expect(server.process.exitCode).toBeNull();
      await expectResponsive(server);
      // The hang-up is the client's doing: nothing is logged as a fault of the service.
      expect(server.output.filter((line) => /"level":"(warn|error)"/.test(line))).toEqual([]);
    },
    90_000,
  );
});
