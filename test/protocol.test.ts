import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema.ts';
import { bearer, errorOf, getJob, jsonInit, openJob, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const NO_SUCH_JOB_BODY = '{"error":{"code":"NOT_FOUND","message":"No such job."}}';
/** A site path that is certainly not a page. */
const UNKNOWN_SITE_PATH = '/no-such-page-anywhere';

let service: TestService;
beforeEach(async () => {
  service = await startService();
});
afterEach(async () => {
  await service.close();
  removeDir(service.dir);
});

/** A job with a ready submission 1. */
async function jobWithReadySubmission(seed = 1): Promise<OpenedJob> {
  const job = await openJob(service);
  const response = await uploadPng(service, job, makePng({ width: 300, height: 300, seed }));
  expect(response.status, await response.clone().text()).toBe(200);
  return job;
}

/** A job whose submission 1 failed validation. */
async function jobWithFailedSubmission(seed = 2): Promise<OpenedJob> {
  const job = await openJob(service);
  const png = makePng({ width: 300, height: 300, seed });
  service.pipeline.script(png, 'invalid');
  const response = await uploadPng(service, job, png);
  expect(response.status, await response.clone().text()).toBe(422);
  return job;
}

/** Every header but `X-Request-Id`, which is new for each request by design. */
const headerMap = (response: Response): Record<string, string> =>
  Object.fromEntries([...response.headers.entries()].filter(([name]) => name !== 'x-request-id'));

const allowSet = (response: Response): string[] =>
  (response.headers.get('allow') ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '')
    .sort();

describe('HEAD', () => {
  it('answers HEAD wherever GET works with the same status and headers and an empty body', async () => {
    const job = await jobWithReadySubmission();
    const auth = { headers: bearer(job.secret) };
    const reads: [string, RequestInit][] = [
      ['/capabilities', {}],
      [`/jobs/${job.id}`, auth],
      [`/jobs/${job.id}/submissions/1`, auth],
      [`/jobs/${job.id}/submissions/1/cutouts.svg`, auth],
      [`/jobs/${job.id}/submissions/1/preview.svg`, auth],
    ];
    for (const [path, init] of reads) {
      const get = await service.api(path, { ...init, method: 'GET' });
      const head = await service.api(path, { ...init, method: 'HEAD' });
      expect(get.status, path).toBe(200);
      expect((await get.text()).length, path).toBeGreaterThan(0);
      expect(head.status, path).toBe(get.status);
      expect(headerMap(head), path).toEqual(headerMap(get));
      expect(await head.text(), path).toBe('');
    }
  });

  it('answers HEAD on a GET route that refuses with the GET status and headers and no body', async () => {
    const job = await openJob(service);
    for (const [path, init] of [
      [`/jobs/${randomUUID()}`, { headers: bearer(job.secret) }],
      [`/jobs/${job.id}`, {}],
      [`/jobs/${job.id}/submissions/7`, { headers: bearer(job.secret) }],
    ] as [string, RequestInit][]) {
      const get = await service.api(path, { ...init, method: 'GET' });
      const head = await service.api(path, { ...init, method: 'HEAD' });
      expect(get.status, path).toBe(404);
      expect(head.status, path).toBe(404);
      expect(headerMap(head), path).toEqual(headerMap(get));
      expect(await head.text(), path).toBe('');
    }
  });
});

describe('405 METHOD_NOT_ALLOWED', () => {
  it('answers every unsupported method on every route with 405 and the exact Allow header', async () => {
    const job = await jobWithReadySubmission();
    const routes: { path: string; allow: string[]; unsupported: string[] }[] = [
      {
        path: '/capabilities',
        allow: ['GET', 'HEAD'],
        unsupported: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      },
      { path: '/jobs', allow: ['POST'], unsupported: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
      {
        path: `/jobs/${job.id}`,
        allow: ['DELETE', 'GET', 'HEAD'],
        unsupported: ['POST', 'PUT', 'PATCH', 'OPTIONS'],
      },
      {
        path: `/jobs/${job.id}/submissions`,
        allow: ['POST'],
        unsupported: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      },
      ...['', '/cutouts.svg', '/preview.svg'].map((suffix) => ({
        path: `/jobs/${job.id}/submissions/1${suffix}`,
        allow: ['GET', 'HEAD'],
        unsupported: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      })),
    ];
    for (const { path, allow, unsupported } of routes) {
      for (const method of unsupported) {
        const response = await service.api(path, { method, headers: bearer(job.secret) });
        const where = `${method} ${path}`;
        expect(response.status, where).toBe(405);
        expect(allowSet(response), where).toEqual(allow);
        expect(response.headers.get('allow')!.split(',').length, where).toBe(allow.length);
        expect(allowSet(response), where).not.toContain('OPTIONS');
        if (method === 'HEAD') {
          expect(await response.text(), where).toBe('');
          continue;
        }
        expect(response.headers.get('content-type'), where).toBe(JSON_TYPE);
        const e = await errorOf(response);
        expect(e.code, where).toBe('METHOD_NOT_ALLOWED');
        expect(typeof e.message, where).toBe('string');
        expect(e.body.error.retryable, where).toBeUndefined();
      }
    }
    // The job was not touched by any of it.
    expect((await getJob(service, job)).status).toBe('ready');
  });

  it('checks the method before authentication, for unknown and malformed job ids too', async () => {
    const job = await openJob(service);
    for (const id of [job.id, randomUUID(), 'not-a-uuid']) {
      for (const [path, allow] of [
        [`/jobs/${id}`, ['DELETE', 'GET', 'HEAD']],
        [`/jobs/${id}/submissions`, ['POST']],
        [`/jobs/${id}/submissions/1`, ['GET', 'HEAD']],
        [`/jobs/${id}/submissions/1/cutouts.svg`, ['GET', 'HEAD']],
        [`/jobs/${id}/submissions/1/preview.svg`, ['GET', 'HEAD']],
      ] as [string, string[]][]) {
        // No secret at all, and a wrong one: the method decides first.
        for (const headers of [{}, bearer('ajs_wrong')]) {
          const response = await service.api(path, { method: 'PUT', headers });
          const e = await errorOf(response);
          expect([e.status, e.code], path).toEqual([405, 'METHOD_NOT_ALLOWED']);
          expect(allowSet(response), path).toEqual(allow);
        }
      }
    }
    expect((await getJob(service, job)).status).toBe('open');
  });
});

describe('unknown endpoints', () => {
  it('answers an unknown path under the API base with 404 No such endpoint and leaves jobs alone', async () => {
    const job = await openJob(service);
    const before = await getJob(service, job);
    const paths = [
      '/api/agent/v1',
      '/api/agent/v1/',
      '/api/agent/v1/nope',
      '/api/agent/v1/jobs/x/y/z',
      `/api/agent/v1/jobs/${job.id}/nope`,
      `/api/agent/v1/jobs/${job.id}/submissions/1/other.svg`,
      `/api/agent/v1/jobs/${job.id}/submissions/1/cutouts.svg/more`,
      '/api/agent/v1/capabilities/extra',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const response = await service.fetch(path, { method, headers: bearer(job.secret) });
        const where = `${method} ${path}`;
        expect(response.status, where).toBe(404);
        expect(response.headers.get('content-type'), where).toBe(JSON_TYPE);
        expect(response.headers.get('allow'), where).toBeNull();
        const e = await errorOf(response);
        expect([e.code, e.message], where).toEqual(['NOT_FOUND', 'No such endpoint.']);
      }
    }
    expect(await getJob(service, job)).toEqual(before);
  });
});

describe('job authentication', () => {
  it('answers a missing, wrong or foreign secret and an unknown or malformed id with byte-identical 404s', async () => {
    const job = await jobWithReadySubmission(1);
    const other = await openJob(service);
    const png = makePng({ width: 300, height: 300, seed: 9 });
    const cases: [string, string, Record<string, string>][] = [
      ['missing secret', job.id, {}],
      ['empty bearer', job.id, { authorization: 'Bearer ' }],
      ['wrong secret', job.id, bearer(`ajs_${'A'.repeat(43)}`)],
      ['bare secret without scheme', job.id, { authorization: job.secret }],
      ["another job's secret", job.id, bearer(other.secret)],
      ['unknown UUID', randomUUID(), bearer(job.secret)],
      ['malformed id', 'not-a-uuid', bearer(job.secret)],
      ['malformed id, no secret', '12345', {}],
    ];
    const bodies = new Set<string>();
    for (const [label, id, headers] of cases) {
      const requests: [string, RequestInit][] = [
        [`/jobs/${id}`, { headers }],
        [`/jobs/${id}`, { method: 'DELETE', headers }],
        [
          `/jobs/${id}/submissions`,
          {
            method: 'POST',
            headers: { 'content-type': 'image/png', ...headers },
            body: png as Uint8Array<ArrayBuffer>,
          },
        ],
        [`/jobs/${id}/submissions/1`, { headers }],
        [`/jobs/${id}/submissions/1/cutouts.svg`, { headers }],
        [`/jobs/${id}/submissions/1/preview.svg`, { headers }],
      ];
      for (const [path, init] of requests) {
        const response = await service.api(path, init);
        const where = `${label}: ${init.method ?? 'GET'} ${path}`;
        expect(response.status, where).toBe(404);
        expect(response.headers.get('content-type'), where).toBe(JSON_TYPE);
        const text = await response.text();
        expect(text, where).toBe(NO_SUCH_JOB_BODY);
        bodies.add(text);
      }
    }
    expect([...bodies]).toEqual([NO_SUCH_JOB_BODY]);
    // Nothing was cancelled or uploaded by the refused requests.
    const after = await getJob(service, job);
    expect(after.status).toBe('ready');
    expect(after.latestSubmission.no).toBe(1);
    expect(service.pipeline.runs).toBe(1);
  });

  it('accepts the Bearer scheme word in any case', async () => {
    const job = await openJob(service);
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const response = await service.api(`/jobs/${job.id}`, { headers: { authorization: `${scheme} ${job.secret}` } });
      expect(response.status, scheme).toBe(200);
      expect(((await response.json()) as any).job.id).toBe(job.id);
    }
  });
});

describe('submission numbers and files', () => {
  it('answers an unknown or malformed submission number with 404 No such submission.', async () => {
    const job = await jobWithReadySubmission();
    for (const no of ['2', '9999', '0', '10000', '-1', 'abc', '1.5', '01x', '%201']) {
      for (const suffix of ['', '/cutouts.svg', '/preview.svg']) {
        const path = `/jobs/${job.id}/submissions/${no}${suffix}`;
        const response = await service.api(path, { headers: bearer(job.secret) });
        expect(response.headers.get('content-type'), path).toBe(JSON_TYPE);
        const e = await errorOf(response);
        expect([e.status, e.code, e.message], path).toEqual([404, 'NOT_FOUND', 'No such submission.']);
      }
    }
  });

  it('answers 404 No such file for the SVGs of a failed_validation submission', async () => {
    const job = await jobWithFailedSubmission();
    const read = await service.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) });
    expect(read.status).toBe(200);
    expect(((await read.json()) as any).submission.status).toBe('failed_validation');
    for (const file of ['cutouts.svg', 'preview.svg']) {
      const response = await service.api(`/jobs/${job.id}/submissions/1/${file}`, { headers: bearer(job.secret) });
      expect(response.headers.get('content-type'), file).toBe(JSON_TYPE);
      const e = await errorOf(response);
      expect([e.status, e.code, e.message], file).toEqual([404, 'NOT_FOUND', 'No such file for this submission.']);
    }
  });

  it('serves the SVGs of a ready submission as image/svg+xml, never cached', async () => {
    const job = await jobWithReadySubmission();
    const submission = (
      (await (await service.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) })).json()) as any
    ).submission;
    for (const file of ['cutouts', 'preview']) {
      const response = await service.api(`/jobs/${job.id}/submissions/1/${file}.svg`, { headers: bearer(job.secret) });
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type')!.split(';')[0]!.trim(), file).toBe('image/svg+xml');
      expect(response.headers.get('cache-control'), file).toBe('no-store');
      expect(await response.text(), file).toMatch(/^<svg[\s>]/);
      expect(submission.files[`${file}Svg`], file).toBe(
        `http://localhost:8787/api/agent/v1/jobs/${job.id}/submissions/1/${file}.svg`,
      );
    }
  });
});

describe('content types', () => {
  it('sends every JSON answer as application/json; charset=utf-8', async () => {
    const ready = await jobWithReadySubmission(1);
    const failedPng = makePng({ width: 300, height: 300, seed: 5 });
    service.pipeline.script(failedPng, 'invalid');
    const auth = { headers: bearer(ready.secret) };
    const responses: [string, Response][] = [
      ['capabilities', await service.api('/capabilities')],
      ['201 job', await service.api('/jobs', jsonInit({ productType: 'ring', size: { usRingSize: 7 }, widthMm: 6 }))],
      ['400 job', await service.api('/jobs', jsonInit({ productType: 'necklace' }))],
      ['job', await service.api(`/jobs/${ready.id}`, auth)],
      ['submission', await service.api(`/jobs/${ready.id}/submissions/1`, auth)],
      ['422 upload', await uploadPng(service, ready, failedPng)],
      ['404 job', await service.api(`/jobs/${randomUUID()}`, auth)],
      ['404 endpoint', await service.api('/nope')],
      ['405', await service.api('/capabilities', { method: 'PUT' })],
      ['415 upload', await service.api(`/jobs/${ready.id}/submissions`, { method: 'POST', ...auth, body: 'x' })],
      ['cancel', await service.api(`/jobs/${ready.id}`, { method: 'DELETE', ...auth })],
    ];
    for (const [label, response] of responses) {
      expect(response.headers.get('content-type'), label).toBe(JSON_TYPE);
      const text = await response.text();
      expect(() => JSON.parse(text), label).not.toThrow();
    }
    expect(responses.map(([, r]) => r.status)).toEqual([200, 201, 400, 200, 200, 422, 404, 404, 405, 415, 200]);
  });
});

describe('site 404 page', () => {
  it('answers an unknown site path outside the API with the Hebrew right-to-left HTML 404 page', async () => {
    for (const path of [UNKNOWN_SITE_PATH, '/api', '/api/agent', '/api/agent/v10/capabilities']) {
      const response = await service.fetch(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')!.split(';')[0], path).toBe('text/html');
      expect(response.headers.get('allow'), path).toBeNull();
      const html = await response.text();
      expect(html, path).toMatch(/<html[^>]*\blang="he"/);
      expect(html, path).toMatch(/<html[^>]*\bdir="rtl"/);
      expect(html, path).not.toContain('NOT_FOUND');
    }
  });
});

describe('switched off', () => {
  it('answers every method on every API path and the API catalogue exactly like an unknown site path', async () => {
    // A real job with its real secret, stored while the API was on.
    const job = await jobWithReadySubmission();
    await service.close();
    const dir = service.dir;
    service = await startService({ apiEnabled: false, dir });

    const paths = [
      '/api/agent/v1',
      '/api/agent/v1/',
      '/api/agent/v1/capabilities',
      '/api/agent/v1/jobs',
      `/api/agent/v1/jobs/${job.id}`,
      `/api/agent/v1/jobs/${randomUUID()}`,
      `/api/agent/v1/jobs/${job.id}/submissions`,
      `/api/agent/v1/jobs/${job.id}/submissions/1`,
      `/api/agent/v1/jobs/${job.id}/submissions/1/cutouts.svg`,
      `/api/agent/v1/jobs/${job.id}/submissions/1/preview.svg`,
      '/api/agent/v1/nope',
      '/api/agent/v1/jobs/x/y/z',
      '/.well-known/api-catalog',
    ];
    const methods = ['GET', 'HEAD', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'];
    for (const method of methods) {
      const reference = await service.fetch(UNKNOWN_SITE_PATH, { method });
      const referenceBody = await reference.text();
      expect(reference.status).toBe(404);
      expect(reference.headers.get('content-type')!.split(';')[0]).toBe('text/html');
      if (method !== 'HEAD') expect(referenceBody).toMatch(/<html[^>]*\blang="he"/);
      for (const path of paths) {
        const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        const init: RequestInit = {
          method,
          headers: { ...bearer(job.secret), ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody
            ? { body: JSON.stringify({ productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 }) }
            : {}),
        };
        const response = await service.fetch(path, init);
        const where = `${method} ${path}`;
        expect(response.status, where).toBe(404);
        expect(response.headers.get('content-type'), where).toBe(reference.headers.get('content-type'));
        expect(response.headers.get('allow'), where).toBeNull();
        expect(headerMap(response), where).toEqual(headerMap(reference));
        const body = await response.text();
        expect(body, where).toBe(referenceBody);
        expect(body, where).not.toContain('"error"');
      }
    }
    // Switched off is a state of the service, not of the data: nothing was opened meanwhile.
    expect(await service.db.orm.select({ n: count() }).from(jobs)).toEqual([{ n: 1 }]);
  });
});

describe('unexpected failure', () => {
  it('answers 500 PROCESSING_FAILED with Retry-After 30 and no internals when the database fails', async () => {
    const job = await openJob(service);
    service.db.close();
    for (const [path, init] of [
      [`/jobs/${job.id}`, { headers: bearer(job.secret) }],
      [`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) }],
      [`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) }],
    ] as [string, RequestInit][]) {
      const response = await service.api(path, init);
      expect(response.status, path).toBe(500);
      expect(response.headers.get('content-type'), path).toBe(JSON_TYPE);
      expect(response.headers.get('retry-after'), path).toBe('30');
      const text = await response.text();
      const body = JSON.parse(text);
      expect(Object.keys(body), path).toEqual(['error']);
      expect(body.error.code, path).toBe('PROCESSING_FAILED');
      expect(body.error.retryable, path).toBe(true);
      expect(typeof body.error.message, path).toBe('string');
      expect(body.error.agent_instruction, path).toContain('30');
      expect(Object.keys(body.error).sort(), path).toEqual(['agent_instruction', 'code', 'message', 'retryable']);
      // Nothing from inside: no stack frames, no driver or SQL text, no file paths.
      for (const leak of [
        /\bat\s+\S+\s+\(/,
        /Error:/,
        /libsql/i,
        /sqlite/i,
        /SELECT|INSERT/,
        /closed/i,
        /\.ts\b/,
        /\/work\//,
      ]) {
        expect(text, `${path} ${leak}`).not.toMatch(leak);
      }
    }
  });
});
