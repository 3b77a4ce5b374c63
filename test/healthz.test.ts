import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLogger } from '../core/logger.ts';
import { registerHealthz } from '../http/healthz.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';

let service: TestService | undefined;
afterEach(async () => {
  if (!service) return;
  await service.close();
  removeDir(service.dir);
  service = undefined;
});

describe('/healthz', () => {
  it('GET answers 200 {"status":"ok"}, uncached, when the database answers', async () => {
    service = await startService();
    const response = await service.fetch('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('HEAD answers 200 without a body', async () => {
    service = await startService();
    const response = await service.fetch('/healthz', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('other methods answer 405 with Allow: GET, HEAD', async () => {
    service = await startService();
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await service.fetch('/healthz', { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('GET, HEAD');
    }
  });

  it('answers 503 with a JSON body when the database is closed, and logs why without telling the caller', async () => {
    const lines: string[] = [];
    service = await startService({ log: jsonLogger((line) => lines.push(line)) });
    service.db.close();
    const response = await service.fetch('/healthz');
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'unavailable', writes: 'unavailable', disk: 'ok' },
    });
    const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'health check failed');
    expect(failure).toMatchObject({ level: 'error', check: 'database' });
    expect(failure.err).toEqual(expect.any(String));
  });

  it('answers 503 naming the writes when the database answers reads but refuses writes', async () => {
    service = await startService();
    await service.db.orm.$client.execute('PRAGMA query_only = 1');
    const refused = await service.fetch('/healthz');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', writes: 'unavailable', disk: 'ok' },
    });
    await service.db.orm.$client.execute('PRAGMA query_only = 0');
    expect((await service.fetch('/healthz')).status).toBe(200);
  });

  it('answers 503 when the database does not answer within the time limit', async () => {
    const app = new Hono();
    registerHealthz(app, {
      checks: { database: () => new Promise(() => {}) },
      log: jsonLogger(() => {}),
      timeoutMs: 50,
    });
    const started = performance.now();
    const response = await app.request('/healthz');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('is not part of the API: it lives outside the API base', async () => {
    service = await startService();
    const response = await service.api('/healthz');
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error.message).toBe('No such endpoint.');
  });
});

describe('/livez', () => {
  it('answers 200 while the process serves requests, even with the database closed', async () => {
    service = await startService();
    service.db.close();
    const response = await service.fetch('/livez');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok' });
    expect((await service.fetch('/healthz')).status).toBe(503);
  });

  it('answers HEAD, refuses other methods with 405, and lives outside the API base', async () => {
    service = await startService();
    expect((await service.fetch('/livez', { method: 'HEAD' })).status).toBe(200);
    const post = await service.fetch('/livez', { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await service.api('/livez')).status).toBe(404);
  });
});
