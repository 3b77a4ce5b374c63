import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema.ts';
import { headerMap, jobWithReadySubmission } from './helpers/answers.ts';
import { bearer } from './helpers/flows.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';

/** A site path that is certainly not a page. */
const UNKNOWN_SITE_PATH = '/no-such-page-anywhere';

// The switched-off test restarts the service on the same folder, so the file keeps its own.
let service: TestService;
beforeEach(async () => {
  service = await startService();
});
afterEach(async () => {
  await service.close();
  removeDir(service.dir);
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
    const job = await jobWithReadySubmission(service);
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
