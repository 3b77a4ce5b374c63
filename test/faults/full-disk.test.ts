import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_FREE_DISK_BYTES } from '../../db/readiness.ts';
import { jsonInit } from '../helpers/flows.ts';
import { spawnLiveServer, type SpawnedLiveServer } from '../helpers/live-server.ts';
import {
  bigLace,
  expectInterrupted,
  JSON_TYPE,
  laceJobBody,
  openJob,
  PROCESSED,
  readJob,
  readSubmission,
  seconds,
  upload,
  type Opened,
} from './jobs.ts';

/**
 * The embedded database's file system runs full under a real `server.ts` process: a tmpfs of
 * 64 MiB of its own, filled by the test. Mounting needs root (CI runs as root on Debian); where it
 * cannot mount, the file is skipped and says why.
 */
const TMPFS_BYTES = 64 * 1024 * 1024;
/**
 * What the filler leaves free, and the answer the upload gets then. 100 KiB is room for small
 * writes (the rate limiter's hit, the reservation, the health probe) but far under an upload's
 * outcome (drawing copy and SVGs): the outcome is refused, 500. With nothing left, the rate
 * limiter's write, the first of an upload, is refused, and it fails closed: 429.
 */
const CASES = [
  { leftFree: 100 * 1024, status: 500, code: 'PROCESSING_FAILED', opening: 201 },
  { leftFree: 0, status: 429, code: 'RATE_LIMITED', opening: 429 },
];

/** A fresh tmpfs mount point, or why there is none. */
function mountTmpfs(): { dir: string } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'not running as root, so no tmpfs can be mounted' };
  const dir = mkdtempSync(join(tmpdir(), 'faults-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_BYTES}`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    rmdirSync(dir);
    return { skip: `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}` };
  }
}

/** Why this machine cannot run the file (a trial mount, undone at once), or undefined. */
function cannotMount(): string | undefined {
  const trial = mountTmpfs();
  if ('skip' in trial) return trial.skip;
  unmount(trial.dir);
  return undefined;
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // Something still holds a file open there: detach it now, it goes when the holder does.
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
  rmdirSync(dir);
}

const freeBytes = (dir: string): number => {
  const space = statfsSync(dir);
  return space.bavail * space.bsize;
};

/** Writes a file that leaves `leave` bytes free on `dir`'s file system. */
function fill(file: string, dir: string, leave: number): number {
  const piece = Buffer.alloc(1024 * 1024, 0x5a);
  const fd = openSync(file, 'w');
  let written = 0;
  try {
    for (let left = freeBytes(dir) - leave; left > 0; left = freeBytes(dir) - leave) {
      written += writeSync(fd, piece, 0, Math.min(piece.length, left));
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

const skip = cannotMount();
if (skip) console.info(`full-disk faults skipped: ${skip}`);

describe.skipIf(skip !== undefined)('the embedded database runs out of disk', () => {
  let dir = '';
  let filler: string;
  let databaseUrl: string;
  let server: SpawnedLiveServer;
  beforeAll(async () => {
    const mount = mountTmpfs();
    if ('skip' in mount) throw new Error(mount.skip);
    dir = mount.dir;
    filler = join(dir, 'filler');
    databaseUrl = `file:${join(dir, 'db.sqlite')}`;
    server = await spawnLiveServer({ databaseUrl });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (!dir) return;
    rmSync(filler, { force: true });
    unmount(dir);
  });

  const health = async (): Promise<{ status: number; body: any }> => {
    const response = await server.fetch('/healthz', { signal: AbortSignal.timeout(10_000) });
    return { status: response.status, body: await response.json() };
  };

  it.each(CASES)(
    'with $leftFree bytes left: answers an upload $status $code in its envelope, stays up, reads not ready but live, and takes the same bytes once there is room',
    async ({ leftFree, status, code, opening }) => {
      const bytes = await bigLace();
      const logFrom = server.output.length;
      const job: Opened = await openJob(server, laceJobBody());
      expect((await health()).status).toBe(200);

      const filled = fill(filler, dir, leftFree);
      console.info(
        `full disk (${leftFree} B left): ${Math.round(filled / 1024)} KiB of filler, ${Math.round(freeBytes(dir) / 1024)} KiB free`,
      );

      const started = performance.now();
      const refused = await upload(server, job, bytes, { signal: AbortSignal.timeout(60_000) });
      const ms = performance.now() - started;
      const answer: any = await refused.json();
      console.info(
        `full disk (${leftFree} B left): the upload answered ${refused.status} ${answer.error?.code} in ${seconds(ms)}`,
      );
      expect(refused.headers.get('content-type')).toMatch(JSON_TYPE);
      expect(refused.status, JSON.stringify(answer)).toBe(status);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(answer.error).toMatchObject({ code, retryable: true });
      expect(JSON.stringify(answer)).not.toMatch(/SQLITE|disk|full/i);
      // Opening a job takes a few hundred bytes: it fits in 100 KiB, and meets the same limiter.
      const opened = await server.api('/jobs', jsonInit(laceJobBody()));
      console.info(`full disk (${leftFree} B left): POST /jobs answered ${opened.status}`);
      expect(opened.headers.get('content-type')).toMatch(JSON_TYPE);
      expect(opened.status, JSON.stringify(await opened.json())).toBe(opening);

      const full = await health();
      console.info(`full disk (${leftFree} B left): /healthz ${full.status} ${JSON.stringify(full.body)}`);
      expect(full.status).toBe(503);
      expect(full.body).toMatchObject({ status: 'unavailable', checks: { database: 'ok', disk: 'full' } });
      const live = await server.fetch('/livez');
      expect(live.status).toBe(200);
      await live.arrayBuffer();
      expect(server.process.exitCode).toBeNull();
      expect(await (await server.api('/capabilities')).arrayBuffer()).toBeTruthy();

      rmSync(filler);
      expect(freeBytes(dir)).toBeGreaterThan(MIN_FREE_DISK_BYTES);
      expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });

      const resentAt = performance.now();
      const resent = await upload(server, job, bytes, { signal: AbortSignal.timeout(60_000) });
      const again: any = await resent.json();
      console.info(
        `full disk (${leftFree} B left): room again, the same bytes answered ${resent.status} in ${seconds(performance.now() - resentAt)}`,
      );
      expect(PROCESSED, JSON.stringify(again)).toContain(resent.status);

      // The refused upload's row, if its reservation was stored, was closed as interrupted, uncounted.
      const db = createClient({ url: databaseUrl });
      try {
        const rows = (await db.execute({ sql: 'SELECT no FROM submissions WHERE job_id = ?', args: [job.id] })).rows;
        console.info(
          `full disk (${leftFree} B left): ${rows.length} submission rows (${again.submission.no} is the resend)`,
        );
        expect(rows.length).toBe(again.submission.no);
      } finally {
        db.close();
      }
      const logged = server.output
        .slice(logFrom)
        .filter((line) => /"level":"(warn|error)"/.test(line))
        .map((line) => JSON.parse(line).msg);
      console.info(`full disk (${leftFree} B left): the service logged ${JSON.stringify(logged)}`);
      if (again.submission.no === 2) expectInterrupted(await readSubmission(server, job, 1));
      expect((await readJob(server, job)).limits.submissionsLeft).toBe(9);
    },
    120_000,
  );
});
