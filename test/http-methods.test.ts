import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { headerMap, JSON_TYPE, jobWithReadySubmission } from './helpers/answers.ts';
import { bearer, errorOf, getJob, openJob } from './helpers/flows.ts';
import { servicePerTest } from './helpers/service.ts';

const service = servicePerTest();

const allowSet = (response: Response): string[] =>
  (response.headers.get('allow') ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '')
    .sort();

describe('HEAD', () => {
  it('answers HEAD wherever GET works with the same status and headers and an empty body', async () => {
    const job = await jobWithReadySubmission(service);
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
    const job = await jobWithReadySubmission(service);
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
