/**
 * The service under load over real loopback HTTP (autocannon), bounded to a few seconds per
 * scenario. Every request of a run comes from 127.0.0.1, so the per-address limits bite: one
 * service keeps the default limits and shows that the only refusals are the designed 429s;
 * the other raises the job limits so the throughput runs create jobs, and keeps the default
 * upload limits, which ten uploads stay inside.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import autocannon from 'autocannon';
import { defaultConfig } from '../../core/config.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { roomyJobLimits } from '../helpers/flows.ts';
import { startLiveServer, type InProcessLiveServer } from '../helpers/live-server.ts';
import { chunk } from '../helpers/png.ts';

/** Seconds per read run: long enough for thousands of requests, short enough for `npm test`. */
const RUN_SEC = 2;
/**
 * Requests per writing run. A count, not a duration: autocannon drops the requests in flight
 * when a duration ends, and the service still answers them, so the database would hold more.
 */
const WRITES = 600;
const CONNECTIONS = 10;
const jobBody = JSON.stringify({ productType: 'bracelet', size: { lengthMm: 155 }, widthMm: 20 });
const json = { 'content-type': 'application/json' };

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** What the request carried, set by `setupRequest`. */
  sent: Record<string, string>;
}

/**
 * One autocannon run that records every answer. Fails the test on a socket error or timeout:
 * under load the service must answer every request it accepted.
 */
async function cannon(
  url: string,
  options: Omit<autocannon.Options, 'url'>,
  setup?: (sent: Record<string, string>) => Partial<autocannon.Request>,
): Promise<{ result: autocannon.Result; answers: Answer[] }> {
  const answers: Answer[] = [];
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    ...options,
    requests: [
      {
        setupRequest: (request, context) => {
          const sent: Record<string, string> = {};
          (context as { sent?: Record<string, string> }).sent = sent;
          return { ...request, ...setup?.(sent) };
        },
        onResponse: (status, body, context, headers) =>
          answers.push({
            status,
            body,
            headers: (headers ?? {}) as Answer['headers'],
            sent: (context as { sent?: Record<string, string> }).sent ?? {},
          }),
      },
    ],
  });
  expect([result.errors, result.timeouts], 'socket errors and timeouts').toEqual([0, 0]);
  expect(answers.length).toBe(result.requests.total);
  return { result, answers };
}

const statuses = (answers: Answer[]) => [...new Set(answers.map((a) => a.status))].sort();

async function scalar(server: InProcessLiveServer, query: string, args: (string | number)[] = []): Promise<number> {
  const { rows } = await server.service.db.orm.$client.execute({ sql: query, args });
  return Number(Object.values(rows[0]!)[0]);
}

describe('under load with the default limits', () => {
  let server: InProcessLiveServer;
  beforeAll(async () => {
    server = await startLiveServer();
  });
  afterAll(() => server?.close());

  it('answers GET /capabilities with 200 and the same capabilities to every request (no rate limit)', async () => {
    const expected = await (await server.api('/capabilities')).text();
    const { result, answers } = await cannon(`${server.url}/api/agent/v1/capabilities`, { duration: RUN_SEC });
    expect(statuses(answers)).toEqual([200]);
    expect(answers.every((a) => a.body === expected)).toBe(true);
    expect(result.requests.total).toBeGreaterThan(100);
  });

  it('creates exactly jobsPerHourPerIp jobs for one address and answers every other POST /jobs with the contract 429', async () => {
    const limit = defaultConfig.limits.jobsPerHourPerIp;
    const { answers } = await cannon(`${server.url}/api/agent/v1/jobs`, {
      amount: 200,
      method: 'POST',
      headers: json,
      body: jobBody,
    });
    expect(statuses(answers)).toEqual([201, 429]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(limit);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.headers['retry-after']).toBe('3600');
      expect(JSON.parse(refused.body)).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: `Rate limit jobsPerHourPerIp reached: at most ${limit} job creations per IP address per hour.`,
          agent_instruction: 'Wait 3600 seconds before the next POST /jobs request; do not retry sooner.',
          retryable: true,
        },
      });
    }
    expect(await scalar(server, 'SELECT count(*) FROM jobs')).toBe(limit);
    // The per-address bucket refused the rest, so the global bucket after it counted only these.
    expect(await scalar(server, "SELECT count(*) FROM rate_hits WHERE bucket LIKE 'jobsPerHourPerIp:%'")).toBe(limit);
    expect(await scalar(server, "SELECT count(*) FROM rate_hits WHERE bucket LIKE 'globalJobsPerDay:%'")).toBe(limit);
  });
});

describe('under load with the job limits raised', () => {
  let server: InProcessLiveServer;
  const created: { id: string; secret: string }[] = [];
  beforeAll(async () => {
    server = await startLiveServer({ config: { limits: roomyJobLimits } });
  });
  afterAll(() => server?.close());

  it('answers every POST /jobs with 201 and a job of its own, and the database holds exactly those jobs', async () => {
    const { answers } = await cannon(`${server.url}/api/agent/v1/jobs`, {
      amount: WRITES,
      method: 'POST',
      headers: json,
      body: jobBody,
    });
    expect(statuses(answers)).toEqual([201]);
    for (const a of answers) {
      const body = JSON.parse(a.body);
      created.push({ id: body.job.id, secret: body.credentials.jobSecret });
    }
    expect(new Set(created.map((j) => j.id)).size).toBe(answers.length);
    expect(await scalar(server, 'SELECT count(*) FROM jobs')).toBe(answers.length);
    expect(await scalar(server, "SELECT count(*) FROM rate_hits WHERE bucket LIKE 'globalJobsPerDay:%'")).toBe(
      answers.length,
    );
  });

  it('creates one job per Idempotency-Key under concurrent repeats and replays it to every other request', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `load-key-${i}-${Date.now()}`);
    const jobsBefore = await scalar(server, 'SELECT count(*) FROM jobs');
    const hitsBefore = await scalar(server, "SELECT count(*) FROM rate_hits WHERE bucket LIKE 'globalJobsPerDay:%'");
    let next = 0;
    const { answers } = await cannon(
      `${server.url}/api/agent/v1/jobs`,
      { amount: WRITES, method: 'POST', body: jobBody },
      (sent) => {
        sent.key = keys[next++ % keys.length]!;
        return { headers: { ...json, 'idempotency-key': sent.key } };
      },
    );
    expect(statuses(answers)).toEqual([200, 201]);
    const jobOfKey = new Map<string, string>();
    for (const a of answers.filter((x) => x.status === 201)) {
      expect(jobOfKey.has(a.sent.key!), `a second job for ${a.sent.key}`).toBe(false);
      jobOfKey.set(a.sent.key!, JSON.parse(a.body).job.id);
    }
    expect(jobOfKey.size).toBe(keys.length);
    for (const a of answers.filter((x) => x.status === 200)) {
      const body = JSON.parse(a.body);
      expect(body.credentials).toBeUndefined();
      expect(body.job.id).toBe(jobOfKey.get(a.sent.key!));
    }
    expect(await scalar(server, 'SELECT count(*) FROM jobs')).toBe(jobsBefore + keys.length);
    // Replays take a slot too: the bucket counts requests, not jobs.
    expect(await scalar(server, "SELECT count(*) FROM rate_hits WHERE bucket LIKE 'globalJobsPerDay:%'")).toBe(
      hitsBefore + answers.length,
    );
  });

  it('answers every GET /jobs/{id} with 200 and the job asked for', async () => {
    expect(created.length).toBeGreaterThan(0);
    let next = 0;
    const { answers } = await cannon(`${server.url}/api/agent/v1/jobs`, { duration: RUN_SEC }, (sent) => {
      const job = created[next++ % created.length]!;
      sent.id = job.id;
      return { path: `/api/agent/v1/jobs/${job.id}`, headers: { authorization: `Bearer ${job.secret}` } };
    });
    expect(statuses(answers)).toEqual([200]);
    for (const a of answers) {
      const { job } = JSON.parse(a.body);
      expect([job.id, job.status, job.limits.submissionsLeft]).toEqual([a.sent.id, 'open', 10]);
    }
  });

  it('processes 10 concurrent uploads of a real PNG through the pipeline, and each job counts exactly its own', async () => {
    const design = designFixture('clean-holes');
    const png = await design.png();
    const jobs = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const response = await server.api('/jobs', {
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            productType: design.job.productType,
            size: { lengthMm: design.job.lengthMm },
            widthMm: design.job.widthMm,
          }),
        });
        const body: any = await response.json();
        return { id: body.job.id as string, secret: body.credentials.jobSecret as string };
      }),
    );
    // Two uploads per job, different bytes (a comment chunk) of the same drawing, all at once.
    const uploads = jobs.flatMap((job) =>
      [0, 1].map((variant) => ({ job, body: withComment(png, `variant ${variant}`) })),
    );
    let next = 0;
    const { answers } = await cannon(
      `${server.url}/api/agent/v1/jobs`,
      { amount: uploads.length, connections: uploads.length, method: 'POST', timeout: 120 },
      (sent) => {
        const upload = uploads[next++]!;
        sent.job = upload.job.id;
        return {
          path: `/api/agent/v1/jobs/${upload.job.id}/submissions`,
          headers: { 'content-type': 'image/png', authorization: `Bearer ${upload.job.secret}` },
          body: upload.body,
        };
      },
    );
    expect(statuses(answers)).toEqual([200]);
    expect(answers.map((a) => JSON.parse(a.body).submission.status)).toEqual(Array(uploads.length).fill('ready'));
    for (const job of jobs) {
      const counted = await scalar(server, 'SELECT count(*) FROM submissions WHERE job_id = ? AND counted = 1', [
        job.id,
      ]);
      const running = await scalar(
        server,
        "SELECT count(*) FROM submissions WHERE job_id = ? AND status = 'processing'",
        [job.id],
      );
      expect([counted, running]).toEqual([answers.filter((a) => a.sent.job === job.id).length, 0]);
      const read: any = await (
        await server.api(`/jobs/${job.id}`, { headers: { authorization: `Bearer ${job.secret}` } })
      ).json();
      expect(read.job.limits.submissionsLeft).toBe(defaultConfig.limits.submissionsPerJob - counted);
    }
  }, 120_000);
});

/** The same PNG with a `tEXt` chunk after IHDR: other bytes, the same image. */
function withComment(png: Buffer, text: string): Buffer {
  const afterHeader = 8 + 25;
  return Buffer.concat([
    png.subarray(0, afterHeader),
    chunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1')),
    png.subarray(afterHeader),
  ]);
}
