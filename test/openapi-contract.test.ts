import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkAnswer,
  contractProblems,
  ContractViolation,
  takeViolations,
  type Exchange,
} from './helpers/openapi-contract.ts';
import { bearer, jsonInit, openJob } from './helpers/flows.ts';
import { servicePerTest, SITE } from './helpers/service.ts';

/*
 * The contract hook in test/helpers/service.ts holds every REST suite's answers to the OpenAPI
 * document. These tests feed it answers that break the document on purpose, to show it catches
 * each kind of break and that a caught break still fails the test.
 */

const service = servicePerTest();
const API = `${SITE}/api/agent/v1`;

const exchange = (method: string, path: string, headers: Record<string, string> = {}): Exchange => ({
  method,
  url: `${API}${path}`,
  requestHeaders: new Headers(headers),
});

const COMMON = {
  'x-request-id': randomUUID(),
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "frame-ancestors 'none'",
};

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...COMMON, ...headers },
  });

const envelope = (code: string, message = 'm') => ({ error: { code, message } });

async function realJob(): Promise<any> {
  const job = await openJob(service);
  const response = await service.api(`/jobs/${job.id}`, { headers: bearer(job.secret) });
  return ((await response.json()) as any).job;
}

describe('the contract check', () => {
  it('passes real answers and a well-formed envelope', async () => {
    const job = await realJob();
    expect(await contractProblems(SITE, exchange('GET', `/jobs/${job.id}`), answer(200, { job }))).toEqual([]);
    expect(
      await contractProblems(SITE, exchange('GET', `/jobs/${job.id}`), answer(404, envelope('NOT_FOUND'))),
    ).toEqual([]);
  });

  it('reports a body that lacks a required field', async () => {
    const { latestSubmission: _gone, ...job } = await realJob();
    const problems = await contractProblems(SITE, exchange('GET', `/jobs/${job.id}`), answer(200, { job }));
    expect(problems.join()).toMatch(/latestSubmission/);
  });

  it('reports a field the document does not describe', async () => {
    const job = await realJob();
    const problems = await contractProblems(
      SITE,
      exchange('GET', `/jobs/${job.id}`),
      answer(200, { job: { ...job, secretNote: 'x' } }),
    );
    expect(problems.join()).toMatch(/additional properties/);
  });

  it('reports a status the operation does not declare', async () => {
    const problems = await contractProblems(
      SITE,
      exchange('GET', `/jobs/${randomUUID()}`),
      answer(409, envelope('JOB_LOCKED')),
    );
    expect(problems).toEqual(['status 409 is not declared for getJob']);
  });

  it('reports an error code the status does not carry there', async () => {
    const problems = await contractProblems(SITE, exchange('POST', '/jobs'), answer(400, envelope('JOB_LOCKED')));
    expect(problems.join()).toMatch(/body \/error\/code must be equal to one of the allowed values/);
  });

  it('reports an undeclared content type', async () => {
    const problems = await contractProblems(
      SITE,
      exchange('GET', '/capabilities'),
      answer(200, 'hello', { 'content-type': 'text/plain' }),
    );
    expect(problems).toEqual(['content type text/plain is not declared (application/json)']);
  });

  it('reports a missing required header: Retry-After on a 429, X-Request-Id, nosniff and the CSP anywhere', async () => {
    const limited = await contractProblems(SITE, exchange('POST', '/jobs'), answer(429, envelope('RATE_LIMITED')));
    expect(limited).toEqual(['missing required header Retry-After']);
    const bare = new Response(JSON.stringify(envelope('NOT_FOUND')), {
      status: 404,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
    expect(await contractProblems(SITE, exchange('GET', `/jobs/${randomUUID()}`), bare)).toEqual([
      'missing required header X-Request-Id',
      'missing required header X-Content-Type-Options',
      'missing required header Content-Security-Policy',
    ]);
  });

  it('reports a 405 whose Allow header differs from the methods the document lists', async () => {
    const problems = await contractProblems(
      SITE,
      exchange('PUT', '/jobs'),
      answer(405, envelope('METHOD_NOT_ALLOWED'), { allow: 'GET, POST' }),
    );
    expect(problems).toEqual(['Allow is "GET, POST", the document\'s methods are POST']);
  });

  it('reports an answer other than 404 on a path that is not an endpoint', async () => {
    const problems = await contractProblems(SITE, exchange('GET', '/nope'), answer(200, {}));
    expect(problems).toEqual(['200 for a path that is not an endpoint (expected 404)']);
  });

  it('rejects the call and records the violation, so catching the rejection does not hide it', async () => {
    const wrong = answer(200, { job: {} });
    await expect(checkAnswer(SITE, `${API}/jobs/${randomUUID()}`, {}, wrong)).rejects.toBeInstanceOf(ContractViolation);
    // The afterEach of openapi-contract.ts fails any test that ends with a recorded violation;
    // this one takes it back to show it was there.
    const recorded = takeViolations();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatch(
      /^GET \/api\/agent\/v1\/jobs\/[0-9a-f-]+ answered 200: body \/job must have required property 'id'/,
    );
  });

  it('is wired into service.api: an app answer that breaks the document rejects the call', async () => {
    const app = service.app;
    const original = app.request;
    app.request = () => answer(200, { job: { id: 'not a job' } });
    try {
      await expect(service.api(`/jobs/${randomUUID()}`)).rejects.toBeInstanceOf(ContractViolation);
    } finally {
      app.request = original;
    }
    expect(takeViolations()).toHaveLength(1);
    const response = await service.api('/jobs', jsonInit({ productType: 'bracelet' }));
    expect(response.status).toBe(400);
    expect(takeViolations()).toEqual([]);
  });
});
