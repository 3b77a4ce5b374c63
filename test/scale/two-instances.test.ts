import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { roomyRateLimits } from '../helpers/flows.ts';
import { BACKENDS, startCluster, type Cluster } from './cluster.ts';
import {
  adopt,
  decline,
  freshAddress,
  openJob,
  outcomes,
  png,
  postJob,
  readJob,
  signUp,
  tally,
  upload,
  type Job,
} from './flows.ts';

/**
 * The service keeps no state of its own: two instances on one database keep every guarantee one
 * instance keeps. Each test splits its requests over both instances and fires them at once.
 */
// The per-address limits the tests reach; the global buckets stay out of the way, as the tests
// share one database per backend.
const LIMITS = { ...roomyRateLimits, jobsPerHourPerIp: 6, submissionsPerHourPerIp: 4 };
const migrationCount = (
  JSON.parse(readFileSync(new URL('../../db/migrations/meta/_journal.json', import.meta.url), 'utf8')) as {
    entries: unknown[];
  }
).entries.length;

describe.each(BACKENDS)('two instances on one %s database', (backend) => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(backend, { config: { limits: LIMITS }, pipelineDelayMs: 200 });
  });
  afterAll(() => cluster?.stop());
  afterEach(() => {
    // A 500, a failed sweep or a busy database would have logged an error.
    for (const instance of cluster.instances) expect(instance.errors(), instance.name).toEqual([]);
  });
  const either = (i: number) => cluster.instances[i % 2]!;
  const counted = async (job: Job) =>
    Number(
      (await cluster.query('SELECT count(*) AS n FROM submissions WHERE job_id = ? AND counted = 1', [job.id]))[0]!.n,
    );

  it('start together on a fresh database, and each migration is applied once', async () => {
    const applied = await cluster.query('SELECT hash FROM __drizzle_migrations');
    expect(applied).toHaveLength(migrationCount);
    for (const instance of cluster.instances) {
      expect((await instance.request('/healthz', {}, freshAddress())).status).toBe(200);
    }
  });

  it('count exactly 10 submissions when 15 uploads to one job race across both', async () => {
    const job = await openJob(either(0));
    const answers = await outcomes(
      await Promise.all(Array.from({ length: 15 }, (_, i) => upload(either(i), job, png(i + 1)))),
    );
    expect(tally(answers)).toEqual({ '200': 10, '409 TOO_MANY_SUBMISSIONS': 5 });
    const numbers = answers.filter((a) => a.status === 200).map((a) => a.body.submission.no);
    expect(new Set(numbers).size).toBe(10);
    expect(await counted(job)).toBe(10);
    for (const instance of cluster.instances) expect((await readJob(instance, job)).limits.submissionsLeft).toBe(0);
  });

  it("hold one address's job bucket across both: 12 POST /jobs at once, 6 created", async () => {
    const address = freshAddress();
    const answers = await outcomes(
      await Promise.all(Array.from({ length: 12 }, (_, i) => postJob(either(i), address))),
    );
    expect(tally(answers)).toEqual({ '201': 6, '429 RATE_LIMITED': 6 });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body.error.message).toContain('jobsPerHourPerIp');
    }
  });

  it("hold one address's upload bucket across both: 10 uploads at once, 4 taken", async () => {
    const job = await openJob(either(1));
    const address = freshAddress();
    const answers = await outcomes(
      await Promise.all(Array.from({ length: 10 }, (_, i) => upload(either(i), job, png(i + 1), address))),
    );
    expect(tally(answers)).toEqual({ '200': 4, '429 RATE_LIMITED': 6 });
    expect(await counted(job)).toBe(4);
  });

  it('create one job for one Idempotency-Key sent to both at once', async () => {
    const address = freshAddress();
    const key = `scale-${backend}-${address}`;
    const answers = await outcomes(
      await Promise.all(Array.from({ length: 4 }, (_, i) => postJob(either(i), address, { 'idempotency-key': key }))),
    );
    expect(tally(answers)).toEqual({ '201': 1, '200': 3 });
    const ids = new Set(answers.map((a) => a.body.job.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(await cluster.query('SELECT id FROM jobs WHERE id = ?', [id!])).toHaveLength(1);
  });

  it('process and count identical bytes once when both receive them at once', async () => {
    const job = await openJob(either(0));
    const bytes = png(42);
    const racing = await outcomes(
      await Promise.all(Array.from({ length: 6 }, (_, i) => upload(either(i), job, bytes))),
    );
    // One upload runs; the others either find it running or, once it is done, replay its outcome.
    for (const answer of racing) {
      expect([answer.status, answer.code ?? 'ok']).toSatisfy(
        ([status, code]: [number, string]) =>
          (status === 200 && code === 'ok') || (status === 409 && code === 'SUBMISSION_IN_PROGRESS'),
      );
      if (answer.status === 200) expect(answer.body.submission.no).toBe(1);
    }
    expect(racing.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    const replays = await outcomes(
      await Promise.all(cluster.instances.map((instance) => upload(instance, job, bytes))),
    );
    expect(replays.map((r) => [r.status, r.body.submission.no])).toEqual([
      [200, 1],
      [200, 1],
    ]);
    expect(await cluster.query('SELECT no FROM submissions WHERE job_id = ?', [job.id])).toHaveLength(1);
    expect((await readJob(either(1), job)).limits.submissionsLeft).toBe(9);
  });

  describe('the approval compare-and-set', () => {
    let seed = 1;
    /** A job with a ready submission on the approval page, and the page's token. */
    async function readyJob(): Promise<Job & { token: string }> {
      const job = await openJob(either(seed));
      const answer = await outcomes([await upload(either(seed + 1), job, png(seed++))]);
      expect(answer[0]!.status).toBe(200);
      return { ...job, token: String(answer[0]!.body.submission.approval.url).split('/a/')[1]! };
    }
    const designs = async (job: Job) => cluster.query('SELECT id FROM designs WHERE job_id = ?', [job.id]);

    it('lets exactly one of adopt and decline win when they race on the two instances', async () => {
      const cookie = await signUp(either(0), `racer-${backend}@example.com`);
      for (let round = 0; round < 6; round++) {
        const job = await readyJob();
        const [adopted, declined] = await outcomes(
          await Promise.all([
            adopt(either(round), job.token, cookie),
            // An adopt does more before its compare-and-set than a decline: later declines let it get there.
            sleep(round * 25).then(() => decline(either(round + 1), job.token)),
          ]),
        );
        const read = await readJob(either(round), job);
        if (adopted!.status === 201) {
          expect([declined!.status, declined!.code]).toEqual([409, 'JOB_LOCKED']);
          expect([read.status, (await designs(job)).length]).toEqual(['approved', 1]);
        } else {
          expect([declined!.status, declined!.body]).toEqual([200, { ok: true, status: 'declined' }]);
          expect([adopted!.status, adopted!.code]).toEqual([404, 'NOT_FOUND']);
          expect([read.status, (await designs(job)).length]).toEqual(['declined', 0]);
        }
      }
    });

    it('lets exactly one of two people adopting on the two instances win', async () => {
      const people = [
        await signUp(either(0), `first-${backend}@example.com`),
        await signUp(either(1), `second-${backend}@example.com`),
      ];
      for (let round = 0; round < 4; round++) {
        const job = await readyJob();
        const answers = await outcomes(
          await Promise.all(people.map((cookie, i) => adopt(either(round + i), job.token, cookie))),
        );
        expect(tally(answers)).toEqual({ '201': 1, '409 ALREADY_APPROVED': 1 });
        expect(await designs(job)).toHaveLength(1);
      }
    });
  });
});
