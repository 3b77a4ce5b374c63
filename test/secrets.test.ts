import { randomUUID } from 'node:crypto';
import * as nodeCrypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex, secretMatches } from '../core/jobs/secrets.ts';
import { jsonLogger } from '../core/logger.ts';
import { API_BASE_PATH } from '../core/urls.ts';
import { bearer, braceletBody, jsonInit, openJob, roomyRateLimits, uploadPng } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { answerOf, probes } from './helpers/security-probes.ts';
import { servicePerTest, SITE } from './helpers/service.ts';
import { PASSWORD } from './helpers/site.ts';

// The real timingSafeEqual, watched: the secret check must go through it.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

// Every line the test's service logs, from its start (this hook runs before the service's).
let lines: string[] = [];
beforeEach(() => {
  lines = [];
});
const service = servicePerTest({ config: { limits: roomyRateLimits }, log: jsonLogger((line) => lines.push(line)) });
const { readyJob, signUp, send, postForm, postJson, dbRows } = probes(service);

describe('secret comparison', () => {
  it('secretMatches compares two SHA-256 digests with timingSafeEqual, whatever was presented', () => {
    const compare = vi.mocked(nodeCrypto.timingSafeEqual);
    const secret = `ajs_${'A'.repeat(43)}`;
    const stored = sha256Hex(secret);
    const cases: [string | undefined, string | undefined, boolean][] = [
      [secret, stored, true],
      [`ajs_${'A'.repeat(42)}B`, stored, false],
      [secret.slice(0, -1), stored, false],
      [`${secret}A`, stored, false],
      ['x'.repeat(10_000), stored, false],
      ['', stored, false],
      [undefined, stored, false],
      [secret, undefined, false],
      [undefined, undefined, false],
    ];
    for (const [presented, hash, expected] of cases) {
      compare.mockClear();
      expect(secretMatches(presented, hash), `${presented?.length} chars vs ${hash ? 'a job' : 'no job'}`).toBe(
        expected,
      );
      // One comparison of two 32-byte digests, also for an unknown job and a missing secret.
      expect(compare).toHaveBeenCalledTimes(1);
      const [a, b] = compare.mock.calls[0]! as unknown as [Buffer, Buffer];
      expect([a.length, b.length]).toEqual([32, 32]);
    }
  });

  it('the job routes check the secret through it, for unknown jobs too', async () => {
    const job = await openJob(service);
    const compare = vi.mocked(nodeCrypto.timingSafeEqual);
    for (const [id, headers] of [
      [job.id, bearer(job.secret)],
      [job.id, bearer('ajs_wrong')],
      [randomUUID(), bearer(job.secret)],
    ] as const) {
      compare.mockClear();
      await service.api(`/jobs/${id}`, { headers });
      expect(compare).toHaveBeenCalledTimes(1);
    }
  });
});

describe('job routes say nothing about which jobs exist', () => {
  it("another job's secret, an unknown id and a malformed id get identical answers, headers included, on every job route", async () => {
    const job = await readyJob();
    const other = await openJob(service);
    const routes: [string, string][] = [
      ['GET', ''],
      ['HEAD', ''],
      ['DELETE', ''],
      ['POST', '/submissions'],
      ['GET', '/submissions'],
      ['GET', '/submissions/1'],
      ['HEAD', '/submissions/1'],
      ['GET', '/submissions/1/cutouts.svg'],
      ['GET', '/submissions/1/preview.svg'],
      ['HEAD', '/submissions/1/preview.svg'],
    ];
    for (const [method, path] of routes) {
      const answers = [];
      for (const [id, secret] of [
        [job.id, other.secret],
        [randomUUID(), job.secret],
        ['not-a-job', job.secret],
        [job.id.replaceAll('-', ''), job.secret],
      ] as const) {
        const init: RequestInit = { method, headers: { ...bearer(secret), 'content-type': 'image/png' } };
        if (method === 'POST') init.body = makePng({ width: 300, height: 300, seed: 99 }) as BodyInit;
        answers.push(await answerOf(await service.api(`/jobs/${id}${path}`, init)));
      }
      const where = `${method} /jobs/{jobId}${path}`;
      expect(answers[0]!.status, where).toBe(path === '/submissions' && method === 'GET' ? 405 : 404);
      for (const answer of answers.slice(1)) expect(answer, where).toEqual(answers[0]);
    }
    expect(service.pipeline.runs).toBe(1);
    const [row] = await dbRows('SELECT status FROM jobs WHERE id = ?', [job.id]);
    expect(row!.status).toBe('ready');
  });
});

describe('logs and answers hold no secrets', () => {
  it('neither the log nor any answer holds the job secret, cookie, password, token or key, also while the database fails', async () => {
    const email = 'dana@example.com';
    const key = `idem-${randomUUID()}`;
    const opened = await service.api('/jobs', jsonInit(braceletBody, { 'idempotency-key': key }));
    const created: any = await opened.json();
    const job = { id: created.job.id, secret: created.credentials.jobSecret as string, body: created };
    const upload = await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 41 }));
    const token: string = ((await upload.json()) as any).submission.approval.url.split('/a/')[1];
    const session = await signUp(email);

    const attempts = async () => {
      const answers: Response[] = [];
      const auth = bearer(job.secret);
      answers.push(await service.api('/jobs', jsonInit(braceletBody, { 'idempotency-key': key })));
      answers.push(await service.api('/jobs', jsonInit({ ...braceletBody, widthMm: 1 }, { 'idempotency-key': key })));
      answers.push(await service.api(`/jobs/${job.id}`, { headers: auth }));
      answers.push(await service.api(`/jobs/${job.id}`, { headers: bearer(`${job.secret}x`) }));
      answers.push(await service.api(`/jobs/${job.secret}`, { headers: auth }));
      answers.push(await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 42 })));
      answers.push(await service.api(`/jobs/${job.id}/submissions/1`, { headers: auth }));
      answers.push(await postJson(`${API_BASE_PATH}/handoff/${token}/adopt`, { submissionNo: 1 }, session));
      answers.push(await postJson(`${API_BASE_PATH}/handoff/${token}/adopt`, { submissionNo: 1 }, `${session}x`));
      answers.push(await postForm(`${API_BASE_PATH}/handoff/${token}/decline`, {}, session, { origin: SITE }));
      answers.push(await send(`/a/${token}`, {}, session));
      answers.push(await postForm('/signin', { email, password: PASSWORD }, undefined, { origin: SITE }));
      answers.push(await postForm('/signin', { email, password: `${PASSWORD}!` }, undefined, { origin: SITE }));
      answers.push(await postForm('/signout', {}, session, { origin: SITE }));
      answers.push(await send('/designs/x', {}, session));
      return answers;
    };
    const healthy = await attempts();
    service.db.close();
    const failing = await attempts();
    expect(failing.some((r) => r.status === 500)).toBe(true);
    expect(lines.some((line) => line.includes('"unexpected error"'))).toBe(true);

    const log = lines.join('\n');
    const answers: string[] = [];
    for (const response of [...healthy, ...failing]) {
      // A new session's own Set-Cookie is the one place a cookie value belongs.
      answers.push(
        JSON.stringify([...response.headers].filter(([name]) => name !== 'set-cookie')),
        await response.text(),
      );
    }
    const secrets = [
      ['job secret', job.secret.slice(4)],
      ['session cookie', session],
      ['password', PASSWORD],
      ['Idempotency-Key', key],
    ];
    for (const [what, value] of secrets)
      expect(answers.join('\n').includes(value!), `answer holds the ${what}`).toBe(false);
    for (const [what, value] of [...secrets, ['approval token', token], ['email', email]]) {
      expect(log.includes(value!), `log holds the ${what}`).toBe(false);
    }
    expect(log).not.toMatch(/authorization|cookie/i);
  });
});
