import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { coreError } from '../../core/errors.ts';
import type { Core } from '../../core/create-core.ts';
import { err } from '../../core/result.ts';
import { registerWebRoutes } from '../../web/index.ts';
import { he } from '../../web/strings.ts';
import { roomyRateLimits } from '../helpers/flows.ts';
import { expectHebrewPage, expectPageHeaders } from '../helpers/page-checks.ts';
import { servicePerTest, SITE } from '../helpers/service.ts';
import { siteClient } from '../helpers/site.ts';

const service = servicePerTest({ config: { limits: roomyRateLimits } });
const { get, readyJob } = siteClient(service);

describe('the home page, the 404 page and the 503 page', () => {
  it('the home page is Hebrew, right to left, with sign-in links and the strict CSP', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expectPageHeaders(response);
    const html = await response.text();
    expectHebrewPage(html);
    expect(html).toContain(he.home.title);
    expect(html).toContain('href="/signin"');
    expect(html).toContain('href="/signup"');
  });

  it('an unknown page is the Hebrew 404 page', async () => {
    const response = await get('/no-such-page');
    expect(response.status).toBe(404);
    expectPageHeaders(response);
    const html = await response.text();
    expectHebrewPage(html);
    expect(html).toContain(he.notFound.title);
  });

  it('pages show a Hebrew 503 when the session store cannot answer', async () => {
    const broken: Core = {
      ...service.core,
      sessionAccount: async () => err(coreError('AUTH_UNAVAILABLE')),
    };
    const app = new Hono();
    registerWebRoutes(app, broken, { apiEnabled: true, clientAddress: () => '203.0.113.10' });
    const job = await readyJob();
    for (const path of ['/', `/a/${job.token}`, '/signin', '/signup', '/designs/x']) {
      const response = await app.request(`${SITE}${path}`, { headers: { cookie: 'jds=whatever' } });
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after')).toBe('30');
      expectPageHeaders(response);
      const html = await response.text();
      expectHebrewPage(html);
      expect(html).toContain(he.unavailable.title);
    }
  });
});
