import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLogger, type Logger } from '../core/logger.ts';
import type { Randomness } from '../core/randomness.ts';
import { API_BASE_PATH } from '../core/urls.ts';
import { loggablePath, requestLog } from '../http/request-log.ts';
import { bearer, braceletBody, jsonInit, openJob, uploadPng } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, SITE, startService, type TestService, type TestServiceOptions } from './helpers/service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FORM = 'application/x-www-form-urlencoded';
const PASSWORD = 'correct horse battery';
const EMAIL = 'person@example.com';

let service: TestService | undefined;
let lines: string[] = [];
afterEach(async () => {
  if (!service) return;
  await service.close();
  removeDir(service.dir);
  service = undefined;
});

/** The real app, logging through the real JSON logger into `lines`. */
async function start(options: TestServiceOptions = {}): Promise<TestService> {
  lines = [];
  service = await startService({ log: jsonLogger((line) => lines.push(line)), ...options });
  return service;
}

const entries = (): any[] => lines.map((line) => JSON.parse(line));
const accessLines = (): any[] => entries().filter((entry) => entry.msg === 'request');

const postForm = (s: TestService, path: string, fields: Record<string, string>, cookie?: string) =>
  s.fetch(path, {
    method: 'POST',
    headers: { 'content-type': FORM, origin: SITE, ...(cookie ? { cookie: `jds=${cookie}` } : {}) },
    body: new URLSearchParams(fields).toString(),
  });

describe('X-Request-Id', () => {
  it('is on every kind of answer, unique per request, and names that request in the access log', async () => {
    const s = await start();
    const job = await openJob(s);
    const answers: Array<[string, Response]> = [
      ['API 200', await s.api('/capabilities')],
      ['API 201', await s.api('/jobs', jsonInit(braceletBody))],
      ['API 404 envelope', await s.api('/no-such-endpoint')],
      ['API 405', await s.api('/capabilities', { method: 'DELETE' })],
      ['API HEAD', await s.api('/capabilities', { method: 'HEAD' })],
      ['job 404', await s.api(`/jobs/${job.id}`, { headers: bearer('ajs_wrong') })],
      ['page 200', await s.fetch('/')],
      ['site 404 page', await s.fetch('/no-such-page')],
      ['browser redirect 302', await s.fetch('/api/agent/v1/capabilities', { headers: { accept: 'text/html' } })],
      ['form 303', await postForm(s, '/signup', { email: EMAIL, password: PASSWORD })],
      ['MCP 400', await s.fetch('/mcp', { method: 'GET' })],
      ['healthz', await s.fetch('/healthz')],
    ];
    s.db.close();
    answers.push(['500 (database gone)', await s.api(`/jobs/${job.id}`, { headers: bearer(job.secret) })]);
    expect(answers.at(-1)![1].status).toBe(500);

    const ids = answers.map(([kind, response]) => {
      const id = response.headers.get('x-request-id');
      expect(id, kind).toMatch(UUID);
      return id;
    });
    expect(new Set(ids).size).toBe(ids.length);
    const logged = accessLines().map((entry) => entry.requestId);
    for (const id of ids) expect(logged).toContain(id);
  });

  it('a redirect carries one too', async () => {
    const s = await start({ siteUrl: 'https://jewellery.example' });
    const response = await s.app.request('http://jewellery.example/');
    expect(response.status).toBe(308);
    expect(response.headers.get('x-request-id')).toMatch(UUID);
    expect(accessLines().at(-1)).toMatchObject({ status: 308, path: '/' });
  });

  it("without TRUST_PROXY the caller's X-Request-Id is ignored", async () => {
    const s = await start();
    const response = await s.api('/capabilities', { headers: { 'x-request-id': 'caller-chosen-id' } });
    expect(response.headers.get('x-request-id')).toMatch(UUID);
    expect(lines.join('')).not.toContain('caller-chosen-id');
  });

  it("with TRUST_PROXY our proxy's well-formed id is kept; a malformed one is replaced", async () => {
    const s = await start({ trustProxy: true });
    const kept = await s.api('/capabilities', { headers: { 'x-request-id': 'lb-7f3a.2026:01_x' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.2026:01_x');
    expect(accessLines().at(-1).requestId).toBe('lb-7f3a.2026:01_x');
    for (const bad of ['x'.repeat(129), 'has space', 'quote"inside', '<script>', '']) {
      const replaced = await s.api('/capabilities', { headers: { 'x-request-id': bad } });
      expect(replaced.headers.get('x-request-id'), JSON.stringify(bad)).toMatch(UUID);
    }
  });

  it('comes from the injected Randomness', async () => {
    let n = 0;
    const random: Randomness = { uuid: () => `id-${++n}`, bytes: (length) => new Uint8Array(length) };
    const logged: Array<Record<string, unknown>> = [];
    const log: Logger = { info: (fields) => logged.push(fields), warn() {}, error() {} };
    const app = new Hono();
    app.use('*', requestLog({ log, random, trustProxy: false }));
    app.get('/x', (c) => c.text('x'));
    expect((await app.request('/x?secret=1')).headers.get('x-request-id')).toBe('id-1');
    expect((await app.request('/nowhere')).headers.get('x-request-id')).toBe('id-2');
    expect(logged).toEqual([
      { msg: 'request', requestId: 'id-1', method: 'GET', path: '/x', status: 200, durationMs: expect.any(Number) },
      {
        msg: 'request',
        requestId: 'id-2',
        method: 'GET',
        path: '/nowhere',
        status: 404,
        durationMs: expect.any(Number),
      },
    ]);
  });
});

describe('the access log', () => {
  it('writes one JSON line per request: id, method, path without query, status, duration', async () => {
    const s = await start();
    const response = await s.api('/capabilities?utm=1&token=abc', { method: 'HEAD' });
    const access = accessLines();
    expect(access).toHaveLength(1);
    expect(access[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: 'info',
      msg: 'request',
      requestId: response.headers.get('x-request-id'),
      method: 'HEAD',
      path: `${API_BASE_PATH}/capabilities`,
      status: 200,
      durationMs: expect.any(Number),
    });
  });

  it('the onError line carries the request id, and neither it nor the access line holds the approval token', async () => {
    const s = await start();
    const job = await openJob(s);
    const upload = await uploadPng(s, job, makePng({ width: 300, height: 300 }));
    const token = ((await upload.json()) as any).submission.approval.url.split('/a/')[1];
    s.db.close();
    const response = await s.api(`/handoff/${token}/decline`, { method: 'POST' });
    expect(response.status).toBe(500);
    const id = response.headers.get('x-request-id');
    const failure = entries().find((entry) => entry.msg === 'unexpected error');
    expect(failure).toMatchObject({ level: 'error', requestId: id, method: 'POST' });
    expect(failure.path).toBe(`${API_BASE_PATH}/handoff/{token}/decline`);
    expect(lines.join('')).not.toContain(token);
  });

  it('never holds the job secret, the Authorization header, the approval token, the cookie, the email or the image after a whole flow', async () => {
    const s = await start();
    const job = await openJob(s);
    const png = makePng({ width: 300, height: 300 });
    const upload = await uploadPng(s, job, png);
    expect(upload.status).toBe(200);
    const token: string = ((await upload.json()) as any).submission.approval.url.split('/a/')[1];

    expect((await s.fetch(`/a/${token}`)).status).toBe(200);
    const anonymous = await postForm(s, `${API_BASE_PATH}/handoff/${token}/adopt`, { submissionNo: '1' });
    const signInPath = anonymous.headers.get('location')!;
    expect((await s.fetch(signInPath)).status).toBe(200);
    expect((await postForm(s, '/signup', { email: EMAIL, password: PASSWORD, next: `/a/${token}` })).status).toBe(303);
    const signIn = await postForm(s, '/signin', { email: EMAIL, password: PASSWORD, next: `/a/${token}` });
    expect(signIn.status).toBe(303);
    const cookie = /^jds=([^;]+);/.exec(signIn.headers.get('set-cookie') ?? '')![1]!;
    expect((await s.fetch(`/a/${token}`, { headers: { cookie: `jds=${cookie}` } })).status).toBe(200);
    const adopted = await postForm(s, `${API_BASE_PATH}/handoff/${token}/adopt`, { submissionNo: '1' }, cookie);
    expect(adopted.status).toBe(303);
    expect((await s.api(`/jobs/${job.id}`, { headers: bearer(job.secret) })).status).toBe(200);
    // A secret pasted into the path by mistake is still kept out.
    expect((await s.api(`/jobs/${job.secret}`, { headers: bearer(job.secret) })).status).toBe(404);

    const all = lines.join('');
    expect(accessLines().length).toBeGreaterThanOrEqual(10);
    for (const [what, value] of [
      ['job secret', job.secret],
      ['secret body', job.secret.slice(4)],
      ['approval token', token],
      ['session cookie', cookie],
      ['password', PASSWORD],
      ['email', EMAIL],
      ['Authorization', 'Bearer'],
      ['image as base64', png.subarray(0, 24).toString('base64')],
    ]) {
      expect(all.includes(value!), what).toBe(false);
    }
    expect(all).not.toMatch(/authorization|cookie/i);
    expect(accessLines().map((entry) => entry.path)).toContain('/a/{token}');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(2000);
  });
});

describe('loggablePath', () => {
  it('replaces the approval token in page and handoff paths and bounds the length', () => {
    expect(loggablePath('/a/abcDEF234xyz')).toBe('/a/{token}');
    expect(loggablePath(`${API_BASE_PATH}/handoff/abcDEF234xyz/adopt`)).toBe(`${API_BASE_PATH}/handoff/{token}/adopt`);
    expect(loggablePath(`${API_BASE_PATH}/jobs/123`)).toBe(`${API_BASE_PATH}/jobs/123`);
    expect(loggablePath(`/${'x'.repeat(5000)}`)).toHaveLength(515);
  });
});
