import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, MINUTE } from '../core/clock.ts';
import type { SweepReport } from '../core/create-core.ts';
import { bearer, openJob, roomyRateLimits, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { setJobState } from './helpers/fixtures.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const roomy = { limits: roomyRateLimits };

/** A sweeping instance in its own process, held at the start line until `go`. */
function sweeper(databaseUrl: string, clockMs: number) {
  const child = spawn(process.execPath, ['test/helpers/sweep-child.ts', databaseUrl, String(clockMs)], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const ready = new Promise<void>((resolve) => child.stdout.on('data', () => out.includes('ready\n') && resolve()));
  const exited = once(child, 'exit').then(([code]) => code as number);
  return {
    ready,
    go: () => child.stdin.write('go\n'),
    report: async (): Promise<SweepReport> => {
      expect(await exited).toBe(0);
      return JSON.parse(out.split('\n').filter(Boolean).pop()!) as SweepReport;
    },
  };
}

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  if (service) removeDir(service.dir);
  service = undefined;
});

describe('several instances on one database', () => {
  it('three processes sweeping at once delete every ended job exactly once and keep the rest', async () => {
    service = await startService({ config: roomy });
    const s = service;
    const withUpload = async (seed: number): Promise<OpenedJob> => {
      const job = await openJob(s);
      expect((await uploadPng(s, job, makePng({ width: 300, height: 300, seed }))).status).toBe(200);
      return job;
    };
    // More ended jobs than one sweep transaction takes, so the instances' batches interleave.
    await Promise.all(Array.from({ length: 150 }, (_, i) => withUpload(i + 1)));
    const cancelling = await Promise.all(Array.from({ length: 40 }, (_, i) => withUpload(1000 + i)));
    for (const job of cancelling) {
      expect((await s.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) })).status).toBe(200);
    }
    const approved = await withUpload(2000);
    await setJobState(s, approved.id, 'approved');
    s.clock.advance(188 * DAY);
    const fresh = await withUpload(3000);
    s.clock.advance(MINUTE);
    const sweepAt = s.clock.now();
    await s.close();

    const instances = [1, 2, 3].map(() => sweeper(`file:${s.dbPath}`, sweepAt));
    await Promise.all(instances.map((i) => i.ready));
    for (const instance of instances) instance.go();
    const reports = await Promise.all(instances.map((i) => i.report()));
    expect(reports.reduce((sum, r) => sum + r.jobs, 0)).toBe(190);

    service = await startService({ dir: s.dir, clock: s.clock });
    const { rows } = await service.db.orm.$client.execute('SELECT id FROM jobs ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual([approved.id, fresh.id].sort());
    const left = await service.db.orm.$client.execute('SELECT DISTINCT job_id FROM submissions ORDER BY job_id');
    expect(left.rows.map((r) => r.job_id)).toEqual([approved.id, fresh.id].sort());
  }, 120_000);
});
