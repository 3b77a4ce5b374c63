import { afterAll, describe, expect, it } from 'vitest';
import { SWEEP_EVERY_MS } from '../../core/maintenance/sweeper.ts';
import { roomyRateLimits } from '../helpers/flows.ts';
import { BACKENDS, startCluster, type Backend, type Cluster } from './cluster.ts';
import { freshAddress, openJob, png, postJob, upload } from './flows.ts';

/**
 * What the database costs a request: POST /jobs and an upload (scripted pipeline, no delay) timed
 * one at a time on one instance, then 20 uploads at once over both. Figures are printed for
 * docs/scale-out.md; the bounds only catch a pathology (a lock waited out, a round trip per row),
 * not a slow machine.
 */
const ROUNDS = 20;

const figures: Record<string, Record<string, number>> = {};
afterAll(() => {
  console.log(`request times in ms (median / p90), ${ROUNDS} each:\n${JSON.stringify(figures, null, 1)}`);
});

const percentile = (values: number[], p: number) =>
  Math.round([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!);

async function timed(work: () => Promise<Response>, status: number): Promise<number> {
  const start = performance.now();
  const response = await work();
  await response.arrayBuffer();
  expect(response.status).toBe(status);
  return performance.now() - start;
}

describe.each(BACKENDS)('request times on one %s database', (backend: Backend) => {
  let cluster: Cluster | undefined;
  afterAll(() => cluster?.stop());

  it('POST /jobs and an upload stay well under a second each, alone and 20 at once', async () => {
    cluster = await startCluster(backend, { config: { limits: roomyRateLimits }, sweepEveryMs: SWEEP_EVERY_MS });
    const [a, b] = cluster.instances;
    // Warm both instances' connections first.
    for (const instance of [a, b]) await upload(instance, await openJob(instance), png(1));

    const jobTimes: number[] = [];
    const uploadTimes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      jobTimes.push(await timed(() => postJob(a, freshAddress()), 201));
      const job = await openJob(a);
      uploadTimes.push(await timed(() => upload(a, job, png(2)), 200));
    }
    const jobs = await Promise.all(Array.from({ length: 10 }, (_, i) => openJob(i % 2 ? a : b)));
    const start = performance.now();
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upload(i % 2 ? a : b, jobs[i % 10]!, png(10 + i))),
    );
    const together = performance.now() - start;
    expect(racing.map((r) => r.status)).toEqual(Array(20).fill(200));

    figures[backend] = {
      postJobMedian: percentile(jobTimes, 0.5),
      postJobP90: percentile(jobTimes, 0.9),
      uploadMedian: percentile(uploadTimes, 0.5),
      uploadP90: percentile(uploadTimes, 0.9),
      twentyUploadsAtOnceTotal: Math.round(together),
    };
    expect(percentile(jobTimes, 0.5)).toBeLessThan(1000);
    expect(percentile(uploadTimes, 0.5)).toBeLessThan(1000);
    expect(together).toBeLessThan(10_000);
    for (const instance of cluster.instances) expect(instance.errors()).toEqual([]);
  });
});
